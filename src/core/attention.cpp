#include "attention.hpp"

#include <cmath>

#include "core/kernels/kernels.hpp"

namespace attn {

float Scale::factor_for(int d_k) const {
  switch (kind) {
    case Kind::Sqrt: return 1.0f / std::sqrt(static_cast<float>(d_k));
    case Kind::None: return 1.0f;
    case Kind::Value: return value;
  }
  return 1.0f;
}

static std::string shape(const Matrix& m) {
  return std::to_string(m.rows()) + " x " + std::to_string(m.cols());
}

std::string check_attention_shapes(const Matrix& Q, const Matrix& K, const Matrix& V,
                                   const AttentionOptions& options) {
  if (Q.size() == 0) return "Q is empty";
  if (K.size() == 0) return "K is empty";
  if (V.size() == 0) return "V is empty";
  if (Q.cols() != K.cols())
    return "Q is " + shape(Q) + " and K is " + shape(K) + ": queries and keys need the same d_k";
  if (K.rows() != V.rows())
    return "K is " + shape(K) + " and V is " + shape(V) + ": every key needs one value row";
  if (!(options.temperature > 0.f) || !std::isfinite(options.temperature))
    return "temperature must be a finite number > 0";
  MaskMatrix allowed;
  return build_mask(options.mask, static_cast<int>(Q.rows()), static_cast<int>(K.rows()), allowed);
}

void start_attention(const Matrix& Q, const Matrix& K, const Matrix& V, const AttentionOptions& options,
                     AttentionResult& r) {
  const int n_q = int(Q.rows()), n_k = int(K.rows());
  // No mask: the kernel skips the mask reads (the kept matrix is all true).
  if (options.mask.kind != Mask::Kind::None) build_mask(options.mask, n_q, n_k, r.allowed);
  else if (options.keep_matrices) r.allowed.setConstant(n_q, n_k, true);
  if (options.keep_matrices) {
    r.raw_scores.resize(n_q, n_k);
    r.scaled_scores.resize(n_q, n_k);
    r.weights.resize(n_q, n_k);
    r.entropy.resize(n_q);
  }
  r.output.resize(n_q, V.cols());
}

void attention_rows(const Matrix& Q, const Matrix& K, const Matrix& V, const AttentionOptions& options,
                    int first, int rows, AttentionResult& r) {
  const int n_k = int(K.rows());
  const std::ptrdiff_t cells = std::ptrdiff_t(first) * n_k;
  kernels::HeadArgs a;
  a.q = Q.data() + std::ptrdiff_t(first) * Q.cols(), a.k = K.data(), a.v = V.data();
  a.ldq = Q.cols(), a.ldk = K.cols(), a.ldv = V.cols();
  a.n_q = rows, a.n_k = n_k, a.d_k = int(Q.cols()), a.d_v = int(V.cols());
  // Steps 1 and 2 in one factor: keep the score spread near 1 whatever d_k is.
  a.factor = options.scale.factor_for(a.d_k) / options.temperature;
  if (options.mask.kind != Mask::Kind::None) a.allowed = r.allowed.data() + cells;
  if (options.keep_matrices) {
    a.raw_scores = r.raw_scores.data() + cells, a.scaled_scores = r.scaled_scores.data() + cells;
    a.weights = r.weights.data() + cells, a.entropy = r.entropy.data() + first;
  }
  a.out = r.output.data() + std::ptrdiff_t(first) * V.cols(), a.ldo = V.cols();
  kernels::attention_head(a);
}

AttentionResult scaled_dot_product_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                             const AttentionOptions& options) {
  AttentionResult r;
  start_attention(Q, K, V, options, r);
  attention_rows(Q, K, V, options, 0, int(Q.rows()), r);
  if (!options.keep_matrices) r.allowed.resize(0, 0);  // the kernel needed it, the caller did not ask
  return r;
}

}  // namespace attn
