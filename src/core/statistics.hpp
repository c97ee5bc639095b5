// Statistics the chapter prints and plots: per-head min/max/mean, row
// entropy, top-k keys per query, histograms, mean and standard deviation.
#pragma once

#include <vector>

#include "types.hpp"

namespace attn {

struct WeightStats {
  float min = 0, max = 0, mean = 0;
};
WeightStats weight_stats(const Matrix& weights);

// Shannon entropy of each row in nats (0 log 0 = 0). A uniform row over n keys
// has entropy log(n); a one-hot row has 0.
Vector row_entropy(const Matrix& weights);

// Indices of the k largest values of row, largest first; ties go to the lower index.
std::vector<int> top_k(const float* row, int n, int k);

// Equal-width bins over [lo, hi]; like numpy.histogram the last bin includes hi.
// Values outside [lo, hi] and NaNs are not counted.
struct Histogram {
  float lo = 0, hi = 1;
  std::vector<int> counts;
  float bin_width() const { return counts.empty() ? 0.f : (hi - lo) / float(counts.size()); }
  float bin_left(int i) const { return lo + bin_width() * float(i); }
  int total() const;
};
Histogram histogram(const float* values, std::size_t n, int bins, float lo, float hi);
// Range = [min, max] of the data (matplotlib's plt.hist default).
Histogram histogram(const std::vector<float>& values, int bins);

double mean(const std::vector<float>& values);
double stddev(const std::vector<float>& values);  // population (ddof = 0), as numpy.std

}  // namespace attn
