// Multi-head attention.
//
//   Q = X W_q, K = X W_k, V = X W_v                  (n x d_model each)
//   head h takes columns [h*d_head, (h+1)*d_head)    (d_head = d_model / heads)
//   head_h = attention(Q_h, K_h, V_h)                (scale uses d_k = d_head)
//   output = concat(head_0 .. head_{H-1}) W_o        (n x d_model)
//   average_weights = mean over heads of weights     (what the chapter's
//                                                     "head average" heatmap shows)
#pragma once

#include <string>
#include <vector>

#include "attention.hpp"
#include "types.hpp"

namespace attn {

struct MultiHeadWeights {
  Matrix W_q, W_k, W_v, W_o;  // d_model x d_model each
  int heads = 1;
};

struct HeadResult : AttentionResult {
  Matrix Q, K, V;  // this head's slices, n x d_head
};

struct MultiHeadResult {
  std::vector<HeadResult> heads;
  Matrix concat;           // n x d_model, head outputs side by side
  Matrix output;           // concat W_o
  Matrix average_weights;  // n x n
};

// Empty string when X and the weights fit and heads divides d_model.
std::string check_multi_head_shapes(const Matrix& X, const MultiHeadWeights& weights);

// The three projections of every head at once: Q = X W_q, K = X W_k, V = X W_v
// (n x d_model each; head h owns columns [h*d_head, (h+1)*d_head)).
struct Projections {
  Matrix Q, K, V;
};

// The steps of multi_head_attention. Preconditions as multi_head_attention's.
Projections project(const Matrix& X, const MultiHeadWeights& weights);
HeadResult attention_head(const Projections& p, int heads, int h, const AttentionOptions& options);
// r.heads complete: fills r.concat, r.output and r.average_weights.
void combine_heads(const MultiHeadWeights& weights, MultiHeadResult& r);

// The same steps a block of rows at a time, for callers that spread them over
// several frames (the explorer's ExplorerJob): each row of a product depends
// on that row of its left side only, and each cell of the average on that
// cell of the heads, so any blocking gives the same numbers.
// Rows [first, first + rows) of Q, K or V (which: 0, 1, 2), p's matrix
// resized to X's rows x d_model when first is 0.
void project_rows(const Matrix& X, const MultiHeadWeights& weights, int which, int first, int rows, Projections& p);
// Head h's output into its columns of r.concat (sized for `heads` heads when it is not).
void place_head(const HeadResult& head, int h, int heads, MultiHeadResult& r);
// Rows of a head's weights added into r.average_weights (sized n x n, zeros, when it is not).
void add_head_rows(const HeadResult& head, int first, int rows, MultiHeadResult& r);
// Rows of r.average_weights divided by the head count, once every head is added.
void average_rows(int heads, int first, int rows, MultiHeadResult& r);
// Rows of r.output = r.concat W_o (r.output resized when first is 0).
void output_rows(const MultiHeadWeights& weights, int first, int rows, MultiHeadResult& r);

// Precondition: check_multi_head_shapes(...) is empty.
MultiHeadResult multi_head_attention(const Matrix& X, const MultiHeadWeights& weights,
                                     const AttentionOptions& options = {});

}  // namespace attn
