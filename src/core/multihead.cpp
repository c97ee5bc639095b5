#include "multihead.hpp"

namespace attn {

std::string check_multi_head_shapes(const Matrix& X, const MultiHeadWeights& w) {
  const Eigen::Index d_model = X.cols();
  if (X.rows() == 0 || d_model == 0) return "X is empty";
  if (w.heads < 1) return "heads must be at least 1";
  if (d_model % w.heads != 0)
    return "heads (" + std::to_string(w.heads) + ") must divide d_model (" +
           std::to_string(d_model) + ")";
  for (const Matrix* W : {&w.W_q, &w.W_k, &w.W_v, &w.W_o})
    if (W->rows() != d_model || W->cols() != d_model)
      return "projection matrices must be d_model x d_model (" + std::to_string(d_model) + ")";
  return {};
}

MultiHeadResult multi_head_attention(const Matrix& X, const MultiHeadWeights& w,
                                     const AttentionOptions& options) {
  const Eigen::Index n = X.rows(), d_model = X.cols();
  const Eigen::Index d_head = d_model / w.heads;
  // Project once for all heads: (n, d_model) x (d_model, d_model).
  const Matrix Q = X * w.W_q, K = X * w.W_k, V = X * w.W_v;

  MultiHeadResult r;
  r.concat.resize(n, d_model);
  r.average_weights = Matrix::Zero(n, n);
  r.heads.reserve(w.heads);
  for (int h = 0; h < w.heads; ++h) {
    HeadResult head;
    head.Q = Q.middleCols(h * d_head, d_head);
    head.K = K.middleCols(h * d_head, d_head);
    head.V = V.middleCols(h * d_head, d_head);
    static_cast<AttentionResult&>(head) =
        scaled_dot_product_attention(head.Q, head.K, head.V, options);
    r.concat.middleCols(h * d_head, d_head) = head.output;
    r.average_weights += head.weights;
    r.heads.push_back(std::move(head));
  }
  r.average_weights /= static_cast<float>(w.heads);
  r.output.noalias() = r.concat * w.W_o;
  return r;
}

}  // namespace attn
