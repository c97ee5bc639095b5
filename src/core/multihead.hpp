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

// The steps of multi_head_attention, for callers that spread them over
// several frames (the explorer). Preconditions as multi_head_attention's.
Projections project(const Matrix& X, const MultiHeadWeights& weights);
HeadResult attention_head(const Projections& p, int heads, int h, const AttentionOptions& options);
// r.heads complete: fills r.concat, r.output and r.average_weights.
void combine_heads(const MultiHeadWeights& weights, MultiHeadResult& r);

// Precondition: check_multi_head_shapes(...) is empty.
MultiHeadResult multi_head_attention(const Matrix& X, const MultiHeadWeights& weights,
                                     const AttentionOptions& options = {});

}  // namespace attn
