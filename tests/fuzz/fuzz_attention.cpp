// libFuzzer target: the core's attention entry point with arbitrary shapes,
// values (NaN, ±Inf, subnormals and huge ones from raw float bits), masks,
// scales and temperatures, on every instruction set the CPU runs.
//   - check_attention_shapes refuses exactly what cannot run (a temperature
//     that is not finite and > 0);
//   - masked weights are exactly 0, fully masked rows give 0 output and entropy;
//   - finite rows sum to 1 with weights in [0, 1];
//   - with moderate values (multiples of 1/8 in [-16, 16]) every matrix matches
//     the plain-loop reference kernel (reference.cpp) at the unit tests' tolerance.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/kernels/kernels.hpp"
#include "core/reference.hpp"
#include "fuzz_check.hpp"

using namespace attn;

namespace {

struct Bytes {
  const uint8_t* data;
  std::size_t size, at = 0;
  uint8_t next() { return at < size ? data[at++] : 0; }
  float raw() {  // any float bit pattern
    uint32_t bits = 0;
    for (int i = 0; i < 4; ++i) bits = bits << 8 | next();
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }
  float moderate() { return float(int8_t(next())) / 8.f; }
};

bool close(float a, float b, float abs_tol, float rel_tol) {
  return std::fabs(a - b) <= abs_tol + rel_tol * std::fabs(b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  Bytes in{data, size};
  const int n_q = 1 + in.next() % 16, n_k = 1 + in.next() % 16, d_k = 1 + in.next() % 12, d_v = 1 + in.next() % 12;
  const uint8_t flags = in.next();
  const bool moderate = (flags & 3) != 1;  // raw float bits one time in four
  AttentionOptions options;
  switch ((flags >> 2) & 3) {
    case 0: options.scale = Scale::sqrt_dk(); break;
    case 1: options.scale = Scale::none(); break;
    default: options.scale = Scale::factor(moderate ? float(in.next() + 1) / 64.f : in.raw()); break;
  }
  // Moderate inputs keep every scaled score finite, where the reference kernel
  // is defined (it does not take softmax's limit at infinite scores).
  options.temperature = (flags & 16) && !moderate ? in.raw() : float(in.next() + 1) / 32.f;
  MaskMatrix allowed = MaskMatrix::Constant(n_q, n_k, true);
  switch ((flags >> 5) & 3) {
    case 0: break;
    case 1:
      options.mask = Mask::causal();
      build_mask(options.mask, n_q, n_k, allowed);
      break;
    case 2: {
      std::vector<bool> valid(std::size_t(n_k), true);
      for (int j = 0; j < n_k; ++j) valid[std::size_t(j)] = in.next() % 4 != 0;
      options.mask = Mask::padding(valid);
      build_mask(options.mask, n_q, n_k, allowed);
      break;
    }
    default:
      for (int i = 0; i < n_q; ++i)
        for (int j = 0; j < n_k; ++j) allowed(i, j) = in.next() % 3 != 0;
      options.mask = Mask::custom(allowed);
  }
  Matrix Q(n_q, d_k), K(n_k, d_k), V(n_k, d_v);
  for (Matrix* m : {&Q, &K, &V})
    for (Eigen::Index i = 0; i < m->size(); ++i) m->data()[i] = moderate ? in.moderate() : in.raw();

  const std::string error = check_attention_shapes(Q, K, V, options);
  const bool runnable = options.temperature > 0.f && std::isfinite(options.temperature);
  FUZZ_CHECK(error.empty() == runnable, "check_attention_shapes refuses what could run, or lets through what cannot");
  if (!error.empty()) return 0;

  const float factor = options.scale.factor_for(d_k) / options.temperature;
  const std::vector<unsigned char> flags_ref(allowed.data(), allowed.data() + allowed.size());
  const auto ref = reference::attention(std::vector<float>(Q.data(), Q.data() + Q.size()),
                                        std::vector<float>(K.data(), K.data() + K.size()),
                                        std::vector<float>(V.data(), V.data() + V.size()), n_q, n_k, d_k, d_v,
                                        factor, flags_ref);
  const float v_max = V.cwiseAbs().maxCoeff();
  for (const std::string& isa : kernels::available_isas()) {
    kernels::use_isa(isa);
    const AttentionResult r = scaled_dot_product_attention(Q, K, V, options);
    FUZZ_CHECK(r.weights.rows() == n_q && r.weights.cols() == n_k && r.output.rows() == n_q && r.output.cols() == d_v,
               "a result of the wrong shape");
    for (int i = 0; i < n_q; ++i) {
      bool finite = true;
      float sum = 0.f;
      for (int j = 0; j < n_k; ++j) {
        const float w = r.weights(i, j);
        if (!allowed(i, j)) FUZZ_CHECK(w == 0.f, "a masked weight is not exactly 0");
        finite = finite && std::isfinite(w);
        sum += w;
        if (std::isfinite(w)) FUZZ_CHECK(w >= 0.f && w <= 1.f, "a weight outside [0, 1]");
      }
      if (!allowed.row(i).any()) {
        FUZZ_CHECK((r.output.row(i).array() == 0.f).all() && r.entropy(i) == 0.f, "a fully masked row is not all 0");
      } else if (finite) {
        FUZZ_CHECK(std::fabs(sum - 1.f) <= 1e-4f, "a weights row does not sum to 1");
      }
      if (!moderate) continue;
      for (int j = 0; j < n_k; ++j) {
        const std::size_t at = std::size_t(i) * std::size_t(n_k) + std::size_t(j);
        FUZZ_CHECK(r.raw_scores(i, j) == ref.raw_scores[at], "raw scores differ from the reference");
        FUZZ_CHECK(close(r.weights(i, j), ref.weights[at], 2e-5f, 1e-5f), "weights differ from the reference");
      }
      for (int d = 0; d < d_v; ++d)
        FUZZ_CHECK(close(r.output(i, d), ref.output[std::size_t(i) * std::size_t(d_v) + std::size_t(d)],
                         2e-5f + 1e-5f * v_max * float(n_k), 1e-5f),
                   "the output differs from the reference");
    }
  }
  return 0;
}
