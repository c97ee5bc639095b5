#include "multihead.hpp"

#include <utility>

#include "core/kernels/kernels.hpp"

namespace attn {

// Rows [first, first + rows) of C = A B with the fast kernels (Eigen's own
// product is 2-4x slower at these sizes); C is already sized.
static void product_rows(const Matrix& A, const Matrix& B, Matrix& C, int first, int rows) {
  kernels::matmul(A.data() + std::ptrdiff_t(first) * A.cols(), A.cols(), B.data(), B.cols(),
                  C.data() + std::ptrdiff_t(first) * C.cols(), C.cols(), rows, int(A.cols()), int(B.cols()));
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
  for (int which = 0; which < 3; ++which) project_rows(X, w, which, 0, int(X.rows()), p);
  return p;
}

void project_rows(const Matrix& X, const MultiHeadWeights& w, int which, int first, int rows, Projections& p) {
  const Matrix& W = which == 0 ? w.W_q : which == 1 ? w.W_k : w.W_v;
  Matrix& out = which == 0 ? p.Q : which == 1 ? p.K : p.V;
  if (first == 0) out.resize(X.rows(), W.cols());
  product_rows(X, W, out, first, rows);
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
  const int heads = int(r.heads.size()), n = int(r.heads.front().output.rows());
  r.average_weights.resize(0, 0);
  for (int h = 0; h < heads; ++h) {
    place_head(r.heads[std::size_t(h)], h, heads, r);
    add_head_rows(r.heads[std::size_t(h)], 0, n, r);
  }
  average_rows(heads, 0, n, r);
  output_rows(w, 0, n, r);
}

void place_head(const HeadResult& head, int h, int heads, MultiHeadResult& r) {
  const Eigen::Index d_head = head.output.cols();
  if (r.concat.rows() != head.output.rows() || r.concat.cols() != d_head * heads)
    r.concat.resize(head.output.rows(), d_head * heads);
  r.concat.middleCols(Eigen::Index(h) * d_head, d_head) = head.output;
}

void add_head_rows(const HeadResult& head, int first, int rows, MultiHeadResult& r) {
  if (r.average_weights.rows() != head.weights.rows() || r.average_weights.cols() != head.weights.cols())
    r.average_weights = Matrix::Zero(head.weights.rows(), head.weights.cols());
  r.average_weights.middleRows(first, rows) += head.weights.middleRows(first, rows);
}

void average_rows(int heads, int first, int rows, MultiHeadResult& r) {
  r.average_weights.middleRows(first, rows) /= static_cast<float>(heads);
}

void output_rows(const MultiHeadWeights& w, int first, int rows, MultiHeadResult& r) {
  if (first == 0) r.output.resize(r.concat.rows(), w.W_o.cols());
  product_rows(r.concat, w.W_o, r.output, first, rows);
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
