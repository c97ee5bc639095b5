#include "attention.hpp"

#include <cmath>

#include "kernels/kernels.hpp"

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

AttentionResult scaled_dot_product_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                             const AttentionOptions& options) {
  AttentionResult r;
  const int n_q = int(Q.rows()), n_k = int(K.rows());
  kernels::HeadArgs a;
  a.q = Q.data(), a.k = K.data(), a.v = V.data();
  a.ldq = Q.cols(), a.ldk = K.cols(), a.ldv = V.cols();
  a.n_q = n_q, a.n_k = n_k, a.d_k = int(Q.cols()), a.d_v = int(V.cols());
  // Steps 1 and 2 in one factor: keep the score spread near 1 whatever d_k is.
  a.factor = options.scale.factor_for(a.d_k) / options.temperature;
  // No mask: the kernel skips the mask reads (the kept matrix is all true).
  if (options.mask.kind != Mask::Kind::None) {
    build_mask(options.mask, n_q, n_k, r.allowed);
    a.allowed = r.allowed.data();
  } else if (options.keep_matrices) {
    r.allowed.setConstant(n_q, n_k, true);
  }
  if (options.keep_matrices) {
    r.raw_scores.resize(n_q, n_k);
    r.scaled_scores.resize(n_q, n_k);
    r.weights.resize(n_q, n_k);
    r.entropy.resize(n_q);
    a.raw_scores = r.raw_scores.data(), a.scaled_scores = r.scaled_scores.data();
    a.weights = r.weights.data(), a.entropy = r.entropy.data();
  }
  r.output.resize(n_q, V.cols());
  a.out = r.output.data(), a.ldo = V.cols();
  kernels::attention_head(a);
  if (!options.keep_matrices) r.allowed.resize(0, 0);
  return r;
}

}  // namespace attn
