// Scaled dot-product attention, the chapter's three steps:
//
//   raw_scores    = Q K^T                         (n_q x n_k)
//   scaled_scores = raw_scores * scale / T        (scale = 1/sqrt(d_k) by default,
//                                                  temperature T = 1 by default)
//   weights       = softmax(scaled_scores + mask) (each row sums to 1, or is all 0
//                                                  when the mask hides every key)
//   output        = weights V                     (n_q x d_v)
//
// This is the fast path (kernels/kernels.hpp: SIMD, all three steps fused per
// block of query rows); reference.hpp holds a plain-loop twin that the tests
// compare it with.
#pragma once

#include <string>

#include "masks.hpp"
#include "types.hpp"

namespace attn {

// How scores are scaled before softmax.
struct Scale {
  enum class Kind { Sqrt, None, Value };
  Kind kind = Kind::Sqrt;
  float value = 1.0f;  // used by Kind::Value

  static Scale sqrt_dk() { return {}; }
  static Scale none() { return {Kind::None, 1.0f}; }
  static Scale factor(float f) { return {Kind::Value, f}; }
  // The number scores are multiplied by for keys of dimension d_k.
  float factor_for(int d_k) const;
};

struct AttentionOptions {
  Scale scale;
  Mask mask;
  // Divides the scaled scores: T > 1 flattens the weights towards uniform,
  // T < 1 sharpens them towards the largest score. Must be finite and > 0.
  float temperature = 1.0f;
  // false: only `output` is filled (a model's forward pass; what the benchmark
  // compares with other libraries). true: every matrix of AttentionResult.
  bool keep_matrices = true;
};

struct AttentionResult {
  Matrix raw_scores;     // Q K^T
  Matrix scaled_scores;  // raw_scores * scale / temperature (masked cells keep their value;
                         // see allowed)
  MaskMatrix allowed;    // the materialised mask, true = may attend
  Matrix weights;        // softmax rows; exactly 0 where masked
  Vector entropy;        // each weights row's entropy in nats (0 for a fully masked row)
  Matrix output;         // weights V
};

// Empty string when Q (n_q x d_k), K (n_k x d_k) and V (n_k x d_v) fit together
// (and with the mask), otherwise a message naming the mismatch.
std::string check_attention_shapes(const Matrix& Q, const Matrix& K, const Matrix& V,
                                   const AttentionOptions& options = {});

// Precondition: check_attention_shapes(...) is empty.
AttentionResult scaled_dot_product_attention(const Matrix& Q, const Matrix& K, const Matrix& V,
                                             const AttentionOptions& options = {});

// The same result a block of query rows at a time (the explorer spreads a head
// over frames): start_attention sizes r's matrices and materialises the mask
// into r.allowed, then attention_rows fills rows [first, first + rows) in
// place. Each query row depends on its own row of Q only, so any blocking gives
// the numbers of the whole call, bit for bit.
void start_attention(const Matrix& Q, const Matrix& K, const Matrix& V, const AttentionOptions& options,
                     AttentionResult& r);
void attention_rows(const Matrix& Q, const Matrix& K, const Matrix& V, const AttentionOptions& options,
                    int first, int rows, AttentionResult& r);

}  // namespace attn
