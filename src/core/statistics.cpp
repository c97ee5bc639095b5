#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn {

WeightStats weight_stats(const Matrix& weights) {
  if (weights.size() == 0) return {};
  return {weights.minCoeff(), weights.maxCoeff(), weights.mean()};
}

Vector row_entropy(const Matrix& weights) {
  Vector entropy(weights.rows());
  for (Eigen::Index i = 0; i < weights.rows(); ++i) {
    double h = 0.0;
    for (Eigen::Index j = 0; j < weights.cols(); ++j) {
      const double p = weights(i, j);
      if (p > 0.0) h -= p * std::log(p);  // lim p->0 of p log p is 0
    }
    entropy[i] = static_cast<float>(h);
  }
  return entropy;
}

std::vector<int> top_k(const float* row, int n, int k) {
  std::vector<int> index(static_cast<size_t>(n));
  std::iota(index.begin(), index.end(), 0);
  k = std::max(0, std::min(k, n));
  std::partial_sort(index.begin(), index.begin() + k, index.end(), [row](int a, int b) {
    return row[a] > row[b] || (row[a] == row[b] && a < b);
  });
  index.resize(static_cast<size_t>(k));
  return index;
}

int Histogram::total() const { return std::accumulate(counts.begin(), counts.end(), 0); }

Histogram histogram(const float* values, std::size_t n, int bins, float lo, float hi) {
  Histogram h;
  h.lo = lo;
  h.hi = hi;
  h.counts.assign(static_cast<size_t>(std::max(bins, 1)), 0);
  const int last = static_cast<int>(h.counts.size()) - 1;
  const double width = (static_cast<double>(hi) - lo) / h.counts.size();
  for (std::size_t i = 0; i < n; ++i) {
    const float v = values[i];
    if (!(v >= lo && v <= hi)) continue;  // also drops NaN
    // All values equal (hi == lo): everything lands in bin 0 (numpy would
    // widen the range instead; one full bin shows a constant just as well).
    int b = width > 0 ? static_cast<int>((static_cast<double>(v) - lo) / width) : 0;
    h.counts[static_cast<size_t>(std::min(b, last))]++;
  }
  return h;
}

Histogram histogram(const std::vector<float>& values, int bins) {
  if (values.empty()) return histogram(nullptr, 0, bins, 0.f, 1.f);
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  return histogram(values.data(), values.size(), bins, *mn, *mx);
}

double mean(const std::vector<float>& values) {
  if (values.empty()) return 0.0;
  double s = 0.0;
  for (float v : values) s += v;
  return s / static_cast<double>(values.size());
}

double stddev(const std::vector<float>& values) {
  if (values.empty()) return 0.0;
  const double m = mean(values);
  double s = 0.0;
  for (float v : values) s += (v - m) * (v - m);
  return std::sqrt(s / static_cast<double>(values.size()));
}

}  // namespace attn
