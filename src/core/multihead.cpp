#include "multihead.hpp"

#include <utility>

#include "kernels/kernels.hpp"

namespace attn {

// A B with the fast kernels (Eigen's own product is 2-4x slower at these sizes).
static Matrix product(const Matrix& A, const Matrix& B) {
  Matrix C(A.rows(), B.cols());
  kernels::matmul(A.data(), A.cols(), B.data(), B.cols(), C.data(), C.cols(), int(A.rows()),
                  int(A.cols()), int(B.cols()));
  return C;
}

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

Projections project(const Matrix& X, const MultiHeadWeights& w) {
  // Once for all heads: (n, d_model) x (d_model, d_model).
  Projections p;
  for (auto [out, W] : {std::pair{&p.Q, &w.W_q}, {&p.K, &w.W_k}, {&p.V, &w.W_v}}) *out = product(X, *W);
  return p;
}

HeadResult attention_head(const Projections& p, int heads, int h, const AttentionOptions& options) {
  const Eigen::Index d_head = p.Q.cols() / heads;
  HeadResult head;
  head.Q = p.Q.middleCols(h * d_head, d_head);
  head.K = p.K.middleCols(h * d_head, d_head);
  head.V = p.V.middleCols(h * d_head, d_head);
  static_cast<AttentionResult&>(head) = scaled_dot_product_attention(head.Q, head.K, head.V, options);
  return head;
}

void combine_heads(const MultiHeadWeights& w, MultiHeadResult& r) {
  const Eigen::Index n = r.heads.front().output.rows();
  const Eigen::Index d_head = r.heads.front().output.cols();
  r.concat.resize(n, d_head * Eigen::Index(r.heads.size()));
  r.average_weights = Matrix::Zero(n, r.heads.front().weights.cols());
  for (std::size_t h = 0; h < r.heads.size(); ++h) {
    r.concat.middleCols(Eigen::Index(h) * d_head, d_head) = r.heads[h].output;
    r.average_weights += r.heads[h].weights;
  }
  r.average_weights /= static_cast<float>(r.heads.size());
  r.output = product(r.concat, w.W_o);
}

MultiHeadResult multi_head_attention(const Matrix& X, const MultiHeadWeights& w,
                                     const AttentionOptions& options) {
  const Projections p = project(X, w);
  MultiHeadResult r;
  r.heads.reserve(w.heads);
  for (int h = 0; h < w.heads; ++h) r.heads.push_back(attention_head(p, w.heads, h, options));
  combine_heads(w, r);
  return r;
}

}  // namespace attn
