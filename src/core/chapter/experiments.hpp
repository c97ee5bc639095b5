// The chapter's reference experiments (section 4.1), same sizes, bins and
// statistics. Their numbers are the ground truth the lab must reproduce.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/multihead.hpp"
#include "core/statistics.hpp"
#include "core/types.hpp"

namespace attn {

// ---- Figure 4.1: four heads on a synthetic sequence -------------------------
// seq_len 8, d_model 32, 4 heads (d_head 8). Row t of X: [t/8, sin t, cos t,
// +1 odd / -1 even, 0.05 N(0,1) noise x 28]. W_q = W_k = 0 except, per head h
// (s = 8h), W[s][s] = 2.0 and W[s+1][s+1] = 1.5; W_v = W_o = identity.
// Head 0 reads only features 0 and 1, so it is noise-free and exact.
struct Figure41Config {
  int seq_len = 8, d_model = 32, heads = 4;
  double noise = 0.05;  // the script's 0.05, not the float nearest it
  uint64_t seed = 42;   // np.random.seed(42): the book's numbers (0 .. 2^32 - 1, as numpy)
  int histogram_bins = 25;
  int top_k = 3;
};
struct Figure41 {
  Figure41Config config;
  Matrix X;
  MultiHeadWeights weights;
  MultiHeadResult result;
  std::vector<WeightStats> head_stats;            // per head
  std::vector<Histogram> head_histograms;         // per head, 25 bins over [min, max]
  std::vector<std::vector<int>> top_keys;         // per position: top-3 keys of the head average
  std::vector<std::string> tokens;                // "t0" .. "t7"
};
Matrix figure41_input(const Figure41Config& config);
MultiHeadWeights figure41_projections(int d_model, int heads);  // the demo W_q/W_k/W_v/W_o
Figure41 run_figure41(const Figure41Config& config = {});

// ---- Figure 4.2: why divide by sqrt(d_k) ------------------------------------
// For each d_k: samples draws of q, k ~ N(0, I_dk); raw = q.k, scaled =
// q.k / sqrt(d_k); 50-bin histograms; std of each; "softmax peak" = mean over
// the first peak_samples draws of max(softmax([score, 0])).
struct Figure42Config {
  std::vector<int> dims = {8, 32, 128, 512};
  int samples = 4000;
  int peak_samples = 50;
  int histogram_bins = 50;
  uint64_t seed = 42;  // np.random.seed(42): the book's numbers (0 .. 2^32 - 1)
};
struct Figure42Dim {
  int d_k = 0;
  std::vector<float> raw, scaled;  // samples each
  float raw_std = 0, scaled_std = 0;
  float raw_peak = 0, scaled_peak = 0;
  Histogram raw_hist, scaled_hist;
};
struct Figure42 {
  Figure42Config config;
  std::vector<Figure42Dim> dims;
};
Figure42Dim run_figure42_dim(int d_k, const Figure42Config& config, uint64_t seed);
Figure42 run_figure42(const Figure42Config& config = {});
// max(softmax([score, 0])): how peaked a two-way softmax is for this score.
float two_way_softmax_peak(float score);

// ---- Causal-mask companion --------------------------------------------------
// 8 tokens, d_model 16, X ~ N(0,1), W_q/W_k/W_v = 0.1 N(0,1); one head.
struct CausalConfig {
  int seq_len = 8, d_model = 16;
  double weight_std = 0.1;
  uint64_t seed = 42;  // np.random.seed(42): the book's numbers
};
struct CausalCompanion {
  CausalConfig config;
  Matrix X, W_q, W_k, W_v;
  AttentionResult bidirectional, causal;  // same Q, K, V; no mask vs causal mask
  MaskMatrix mask;                        // the causal mask, true = allowed
  Vector output_diff;                     // per position: || out_bi - out_causal ||_2
  std::vector<std::vector<int>> top_keys;  // per position: its top-3 keys under the causal mask
};
CausalCompanion run_causal_companion(const CausalConfig& config = {});

}  // namespace attn
