#include "experiments.hpp"

#include <algorithm>
#include <cmath>

#include "core/base/numpy_random.hpp"
#include "core/softmax.hpp"

namespace attn {

// ---- Figure 4.1 ------------------------------------------------------------

// The script's order: np.random.seed(42), then X[:, 4:] = 0.05 * randn(8, 28).
Matrix figure41_input(const Figure41Config& config) {
  Matrix X = Matrix::Zero(config.seq_len, config.d_model);
  for (int t = 0; t < config.seq_len; ++t) {
    X(t, 0) = static_cast<float>(t) / static_cast<float>(config.seq_len);  // where am I
    X(t, 1) = static_cast<float>(std::sin(static_cast<double>(t)));        // periodic position
    X(t, 2) = static_cast<float>(std::cos(static_cast<double>(t)));
    X(t, 3) = (t % 2 == 1) ? 1.0f : -1.0f;                                  // odd / even
  }
  if (config.d_model > 4) {
    NumpyRandom rng(static_cast<uint32_t>(config.seed));
    Matrix noise(config.seq_len, config.d_model - 4);
    rng.fill_standard_normal(noise, config.noise);
    X.rightCols(config.d_model - 4) = noise;
  }
  return X;
}

MultiHeadWeights figure41_projections(int d_model, int heads) {
  MultiHeadWeights w;
  w.heads = heads;
  const int d_head = d_model / heads;
  // Each head reads two features of its own slice: head 0 looks at position
  // (features 0, 1); the other heads look at noise features, so they differ.
  w.W_q = Matrix::Zero(d_model, d_model);
  for (int h = 0; h < heads; ++h) {
    const int s = h * d_head;
    w.W_q(s, s) = 2.0f;
    w.W_q(s + 1, s + 1) = 1.5f;
  }
  w.W_k = w.W_q;
  w.W_v = Matrix::Identity(d_model, d_model);
  w.W_o = Matrix::Identity(d_model, d_model);
  return w;
}

Figure41 run_figure41(const Figure41Config& config) {
  Figure41 f;
  f.config = config;
  f.X = figure41_input(config);
  f.weights = figure41_projections(config.d_model, config.heads);
  f.result = multi_head_attention(f.X, f.weights);
  for (const HeadResult& head : f.result.heads) {
    f.head_stats.push_back(weight_stats(head.weights));
    const std::vector<float> values(head.weights.data(), head.weights.data() + head.weights.size());
    f.head_histograms.push_back(histogram(values, config.histogram_bins));
  }
  const Matrix& avg = f.result.average_weights;
  for (Eigen::Index q = 0; q < avg.rows(); ++q)
    f.top_keys.push_back(top_k(avg.row(q).data(), static_cast<int>(avg.cols()), config.top_k));
  for (int t = 0; t < config.seq_len; ++t) f.tokens.push_back("t" + std::to_string(t));
  return f;
}

// ---- Figure 4.2 ------------------------------------------------------------

float two_way_softmax_peak(float score) {
  Vector pair(2);
  pair << score, 0.0f;
  return softmax(pair).maxCoeff();
}

namespace {
// max(softmax([s, 0])) in double, as the script's numpy computes it.
double two_way_peak(double score) { return 1.0 / (1.0 + std::exp(-std::abs(score))); }
}  // namespace

// The script's stream: np.random.seed(42), then for each d_k in turn
// Q = randn(4000, d_k) and K = randn(4000, d_k). A d_k of the list starts
// where the script's loop reaches it (the draws of the d_k before it are
// made and dropped); any other d_k starts at the seed.
Figure42Dim run_figure42_dim(int d_k, const Figure42Config& config, uint64_t seed) {
  Figure42Dim r;
  r.d_k = d_k;
  NumpyRandom rng(static_cast<uint32_t>(seed));
  const size_t samples = static_cast<size_t>(std::max(config.samples, 0)), dk = static_cast<size_t>(d_k);
  if (std::find(config.dims.begin(), config.dims.end(), d_k) != config.dims.end())
    for (int before : config.dims) {
      if (before == d_k) break;
      rng.skip_standard_normal(2 * samples * static_cast<size_t>(before));
    }
  std::vector<double> Q(samples * dk), K(samples * dk);
  rng.fill_standard_normal(Q.data(), Q.size());
  rng.fill_standard_normal(K.data(), K.size());
  const double scale = 1.0 / std::sqrt(static_cast<double>(d_k));
  std::vector<double> raw(samples), scaled(samples);
  for (size_t s = 0; s < samples; ++s) {
    double dot = 0.0;  // the sum of d_k products: var = d_k
    for (size_t c = 0; c < dk; ++c) dot += Q[s * dk + c] * K[s * dk + c];
    raw[s] = dot;
    scaled[s] = dot * scale;
  }
  r.raw.assign(raw.begin(), raw.end());
  r.scaled.assign(scaled.begin(), scaled.end());
  r.raw_std = static_cast<float>(stddev(raw));
  r.scaled_std = static_cast<float>(stddev(scaled));
  const size_t peaks = std::min(static_cast<size_t>(std::max(config.peak_samples, 0)), samples);
  double raw_peak = 0.0, scaled_peak = 0.0;
  for (size_t s = 0; s < peaks; ++s) {
    raw_peak += two_way_peak(raw[s]);
    scaled_peak += two_way_peak(scaled[s]);
  }
  r.raw_peak = peaks > 0 ? static_cast<float>(raw_peak / double(peaks)) : 0.f;
  r.scaled_peak = peaks > 0 ? static_cast<float>(scaled_peak / double(peaks)) : 0.f;
  r.raw_hist = histogram(r.raw, config.histogram_bins);
  r.scaled_hist = histogram(r.scaled, config.histogram_bins);
  return r;
}

Figure42 run_figure42(const Figure42Config& config) {
  Figure42 f;
  f.config = config;
  for (int d_k : config.dims) f.dims.push_back(run_figure42_dim(d_k, config, config.seed));
  return f;
}

// ---- Causal-mask companion ---------------------------------------------------

CausalCompanion run_causal_companion(const CausalConfig& config) {
  CausalCompanion c;
  c.config = config;
  // The script's order: np.random.seed(42); X = randn(8, 16); then
  // W_q, W_k, W_v = 0.1 * randn(16, 16) each.
  NumpyRandom rng(static_cast<uint32_t>(config.seed));
  c.X.resize(config.seq_len, config.d_model);
  rng.fill_standard_normal(c.X);
  for (Matrix* W : {&c.W_q, &c.W_k, &c.W_v}) {
    W->resize(config.d_model, config.d_model);
    rng.fill_standard_normal(*W, config.weight_std);
  }
  // The explorer's causal input projects the same way (bit for bit, the tests check).
  const Projections p = project(c.X, MultiHeadWeights{c.W_q, c.W_k, c.W_v, Matrix(), 1});
  const Matrix &Q = p.Q, &K = p.K, &V = p.V;
  c.bidirectional = scaled_dot_product_attention(Q, K, V);
  AttentionOptions causal;
  causal.mask = Mask::causal();
  c.causal = scaled_dot_product_attention(Q, K, V, causal);
  c.mask = c.causal.allowed;
  // The last position sees every key under both masks, so its difference is 0.
  c.output_diff = (c.bidirectional.output - c.causal.output).rowwise().norm();
  const Matrix& w = c.causal.weights;
  for (Eigen::Index q = 0; q < w.rows(); ++q) {
    const Vector row = w.row(q).transpose();  // a contiguous copy: Matrix is row-major or not
    c.top_keys.push_back(top_k(row.data(), static_cast<int>(row.size()), 3));
  }
  return c;
}

}  // namespace attn
