// The scaling lab's maths: why attention divides scores by sqrt(d_k).
//
// Figure 4.2's statistics come from experiments.hpp (run_figure42_dim); this
// file adds what goes beyond the chapter, for one d_k at a time:
//   - one attention row over n keys, raw vs scaled, to see softmax saturate;
//   - softmax entropy and gradient size (the norm of the softmax Jacobian
//     J = diag(p) - p p^T, which scales every gradient reaching the scores):
//     both collapse for raw scores as d_k grows, and stay put when scaled;
//   - numerical stability: a float32 softmax that does not subtract the row
//     maximum overflows exp for large raw scores (inf/inf = NaN), the stable
//     one does not.
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.hpp"

namespace attn {

// The inputs the lab's functions are meant for (they return empty results
// below the minimums and only get slower above the maximums): d_k spans the
// Figure 4.2 grid 1..1024, and keys x trials x d_k normal draws bound the work.
struct SaturationLimits {
  static constexpr int kMinDk = 1, kMaxDk = 1024;
  static constexpr int kMinKeys = 1, kMaxKeys = 4096;
  static constexpr int kMinTrials = 1, kMaxTrials = 10000;
};

// One query against n keys, q and k_j ~ N(0, I_dk).
struct AttentionRow {
  int d_k = 0;
  std::vector<float> raw_scores;      // q . k_j
  std::vector<float> raw_weights;     // softmax(raw_scores)
  std::vector<float> scaled_weights;  // softmax(raw_scores / sqrt(d_k))
};
AttentionRow attention_row(int d_k, int n_keys, uint64_t seed);

// Frobenius norm of the softmax Jacobian diag(p) - p p^T: how much a change
// of the scores can move the weights, i.e. how much gradient flows back. 0
// when p is one-hot (saturated); for a uniform p over n keys sqrt(n-1)/n.
float softmax_jacobian_norm(const std::vector<float>& p);
// Shannon entropy in nats (0 log 0 = 0).
float entropy(const std::vector<float>& p);

// Means over `trials` rows of n keys at one d_k, raw and scaled.
struct Saturation {
  int d_k = 0;
  float raw_entropy = 0, scaled_entropy = 0;
  float raw_jacobian_norm = 0, scaled_jacobian_norm = 0;
};
Saturation saturation(int d_k, int n_keys, int trials, uint64_t seed);

// exp(x_j) / sum exp(x_k) in float32 WITHOUT subtracting the maximum: what
// goes wrong when a softmax is written naively. May return inf or NaN.
std::vector<float> naive_softmax(const std::vector<float>& scores);
// The stable softmax (row maximum subtracted), for comparison.
std::vector<float> stable_softmax(const std::vector<float>& scores);
bool all_finite(const std::vector<float>& values);

}  // namespace attn
