// Statistics the chapter prints and plots: per-head min/max/mean, row
// entropy, top-k keys per query, histograms, mean and standard deviation.
#pragma once

#include <vector>

#include "types.hpp"

namespace attn {

struct WeightStats {
  float min = 0, max = 0, mean = 0;
};
// One pass over the values (row by row; each row summed in float, the rows in double).
WeightStats weight_stats(const Matrix& weights);
// A head whose weights span less than `relative` of their mean attends almost
// uniformly (Figure 4.1's head 1: 0.1248-0.1253 around 0.1250): a colour bar
// stretched over that range draws noise as if it were a pattern.
bool nearly_uniform(const WeightStats& s, float relative = 0.01f);

// weight_stats in pieces: add the rows in any grouping, in order, and get the
// same numbers as weight_stats of the whole matrix (the explorer's staged
// recompute summarises a large matrix a block of rows at a time).
struct StatsAccumulator {
  float min = 0, max = 0;
  double sum = 0;
  std::size_t count = 0;
  void add_row(const float* row, std::size_t n);
  void add_rows(const Matrix& m, Eigen::Index first, Eigen::Index rows);
  WeightStats stats() const;  // all zeros when nothing was added
};

// Shannon entropy of each row in nats (0 log 0 = 0). A uniform row over n keys
// has entropy log(n); a one-hot row has 0. Four lanes of float p log p (a
// polynomial log of ~1 ulp, Cephes' logf), each row's sum rounded to float:
// within float rounding of the exact sum; weights below the smallest normal
// float (< 1.2e-38) count as 0.
Vector row_entropy(const Matrix& weights);
float row_entropy(const float* row, std::size_t n);

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
// The same in pieces: empty_histogram, then histogram_add the values in any grouping.
Histogram empty_histogram(int bins, float lo, float hi);
void histogram_add(Histogram& h, const float* values, std::size_t n);
// Range = [min, max] of the data (matplotlib's plt.hist default).
Histogram histogram(const std::vector<float>& values, int bins);

double mean(const std::vector<float>& values);
double stddev(const std::vector<float>& values);  // population (ddof = 0), as numpy.std
double stddev(const std::vector<double>& values);

}  // namespace attn
