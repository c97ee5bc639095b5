#include "attention.hpp"

#include <cmath>

#include "softmax.hpp"

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
  // Step 1: similarity of every query with every key.       (n_q, d_k) x (d_k, n_k)
  r.raw_scores.noalias() = Q * K.transpose();
  // Step 2: keep the score spread near 1 whatever d_k is.
  r.scaled_scores =
      r.raw_scores * (options.scale.factor_for(static_cast<int>(Q.cols())) / options.temperature);
  build_mask(options.mask, static_cast<int>(Q.rows()), static_cast<int>(K.rows()), r.allowed);
  softmax_rows(r.scaled_scores, r.allowed, r.weights);
  // Step 3: each output row is a weighted mix of value rows.  (n_q, n_k) x (n_k, d_v)
  r.output.noalias() = r.weights * V;
  return r;
}

}  // namespace attn
