#include "scaling.hpp"

#include <cmath>

#include "core/base/detmath.hpp"
#include "core/base/rng.hpp"

namespace attn {
namespace {

// One row: q and n keys ~ N(0, I_dk), drawn from rng in that order (q first,
// then key 0, key 1, ..., each component by component).
AttentionRow draw_row(int d_k, int n_keys, Rng& rng) {
  AttentionRow row;
  row.d_k = d_k;
  std::vector<float> q(static_cast<std::size_t>(d_k));
  for (float& v : q) v = rng.normal();
  row.raw_scores.resize(static_cast<std::size_t>(n_keys));
  for (int j = 0; j < n_keys; ++j) {
    float dot = 0.0f;  // summed in component order: the same bits in every build
    for (int c = 0; c < d_k; ++c) dot += q[static_cast<std::size_t>(c)] * rng.normal();
    row.raw_scores[static_cast<std::size_t>(j)] = dot;
  }
  const float inv_sqrt_dk = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d_k)));
  std::vector<float> scaled(row.raw_scores);
  for (float& s : scaled) s *= inv_sqrt_dk;
  row.raw_weights = stable_softmax(row.raw_scores);
  row.scaled_weights = stable_softmax(scaled);
  return row;
}

}  // namespace

AttentionRow attention_row(int d_k, int n_keys, uint64_t seed) {
  using L = SaturationLimits;
  if (d_k < L::kMinDk || n_keys < L::kMinKeys) return AttentionRow{d_k, {}, {}, {}};
  Rng rng(seed);
  return draw_row(d_k, n_keys, rng);
}

float softmax_jacobian_norm(const std::vector<float>& p) {
  // ||diag(p) - p p^T||_F^2 = sum_i (p_i - p_i^2)^2          (diagonal)
  //                         + sum_{i != j} p_i^2 p_j^2        (off-diagonal)
  // and the off-diagonal sum is (sum_i p_i^2)^2 - sum_i p_i^4: O(n), in double.
  double diagonal = 0, sum_sq = 0, sum_4 = 0;
  for (float f : p) {
    const double x = f;
    diagonal += (x - x * x) * (x - x * x);
    sum_sq += x * x;
    sum_4 += x * x * x * x;
  }
  const double off = sum_sq * sum_sq - sum_4;
  const double total = diagonal + (off > 0 ? off : 0.0);
  return static_cast<float>(std::sqrt(total));
}

float entropy(const std::vector<float>& p) {
  double h = 0;
  for (float f : p)
    if (f > 0.0f) h -= static_cast<double>(f) * det_log(static_cast<double>(f));
  return static_cast<float>(h);
}

Saturation saturation(int d_k, int n_keys, int trials, uint64_t seed) {
  Saturation s;
  s.d_k = d_k;
  using L = SaturationLimits;
  if (d_k < L::kMinDk || n_keys < L::kMinKeys || trials < L::kMinTrials) return s;
  Rng rng(seed);
  double raw_h = 0, scaled_h = 0, raw_j = 0, scaled_j = 0;
  for (int t = 0; t < trials; ++t) {
    const AttentionRow row = draw_row(d_k, n_keys, rng);
    raw_h += entropy(row.raw_weights);
    scaled_h += entropy(row.scaled_weights);
    raw_j += softmax_jacobian_norm(row.raw_weights);
    scaled_j += softmax_jacobian_norm(row.scaled_weights);
  }
  s.raw_entropy = static_cast<float>(raw_h / trials);
  s.scaled_entropy = static_cast<float>(scaled_h / trials);
  s.raw_jacobian_norm = static_cast<float>(raw_j / trials);
  s.scaled_jacobian_norm = static_cast<float>(scaled_j / trials);
  return s;
}

std::vector<float> naive_softmax(const std::vector<float>& scores) {
  // exp in float32 overflows to inf above ~88.7: exactly the failure shown.
  std::vector<float> out(scores.size());
  float sum = 0.0f;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    out[j] = det_expf(scores[j]);
    sum += out[j];
  }
  for (float& v : out) v /= sum;
  return out;
}

std::vector<float> stable_softmax(const std::vector<float>& scores) {
  std::vector<float> out(scores.size());
  if (scores.empty()) return out;
  float max = scores[0];
  for (float s : scores)
    if (s > max) max = s;
  float sum = 0.0f;
  for (std::size_t j = 0; j < scores.size(); ++j) {
    out[j] = det_expf(scores[j] - max);
    sum += out[j];
  }
  for (float& v : out) v /= sum;
  return out;
}

bool all_finite(const std::vector<float>& values) {
  for (float v : values)
    if (!std::isfinite(v)) return false;
  return true;
}

}  // namespace attn
