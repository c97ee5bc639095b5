// Statistics: weight stats, entropy, top-k, histograms, mean/std.
#include <algorithm>
#include <cmath>
#include <limits>

#include "core/chapter/experiments.hpp"
#include "core/statistics.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("weight stats and row entropy by hand") {
  const Matrix w = test::from_rows({{0.25f, 0.25f, 0.25f, 0.25f}, {1, 0, 0, 0}, {0.5f, 0.5f, 0, 0}});
  const WeightStats s = weight_stats(w);
  CHECK(s.min == 0.0f);
  CHECK(s.max == 1.0f);
  CHECK(s.mean == doctest::Approx(0.25));
  const Vector h = row_entropy(w);
  CHECK(h[0] == doctest::Approx(std::log(4.0)));  // uniform over 4 keys
  CHECK(h[1] == 0.0f);                            // one-hot
  CHECK(h[2] == doctest::Approx(std::log(2.0)));
}

TEST_CASE("row entropy: the four-lane log is within float rounding of double precision") {
  Rng rng(3);
  for (int n : {1, 3, 8, 13, 64, 509, 1024}) {
    for (float sharp : {0.f, 1.f, 8.f, 40.f}) {
      std::vector<float> row(static_cast<std::size_t>(n));
      double total = 0;
      for (float& p : row) total += p = std::exp(sharp * rng.normal());
      for (float& p : row) p = float(p / total);
      if (n > 2) row[1] = 0.f;  // masked
      if (n > 3) row[2] = 1e-40f;  // subnormal: counts as 0 (it adds ~1e-38)
      double exact = 0;
      for (float p : row)
        if (p > 0) exact -= double(p) * std::log(double(p));
      INFO("n " << n << " sharpness " << sharp);
      CHECK(row_entropy(row.data(), row.size()) == doctest::Approx(exact).epsilon(2e-6).scale(1.0));
    }
  }
  const float one[] = {0.f, 1.f, 0.f};
  CHECK(row_entropy(one, 3) == 0.0f);
  CHECK(!std::signbit(row_entropy(one, 3)));  // +0, never printed as -0
  std::vector<float> uniform(1000, 1e-3f);
  CHECK(row_entropy(uniform.data(), uniform.size()) == doctest::Approx(std::log(1000.0)).epsilon(1e-6));
}

TEST_CASE("top_k orders by value, ties to the lower index") {
  const float row[] = {0.1f, 0.4f, 0.2f, 0.4f, 0.0f};
  CHECK(top_k(row, 5, 3) == std::vector<int>{1, 3, 2});
  CHECK(top_k(row, 5, 9).size() == 5u);
  CHECK(top_k(row, 5, 0).empty());
}

TEST_CASE("histogram bins like numpy.histogram") {
  // numpy.histogram([0, 0.1, 0.5, 0.99, 1.0, 2.0, nan], bins=4, range=(0, 1))
  //   -> counts [2, 0, 1, 2]: the last bin includes 1.0; 2.0 and NaN are not counted.
  const float v[] = {0.f, 0.1f, 0.5f, 0.99f, 1.0f, 2.0f, std::nanf("")};
  const Histogram h = histogram(v, 7, 4, 0.f, 1.f);
  CHECK(h.counts == std::vector<int>{2, 0, 1, 2});
  CHECK(h.total() == 5);
  CHECK(h.bin_width() == doctest::Approx(0.25));
  CHECK(h.bin_left(2) == doctest::Approx(0.5));
  const Histogram auto_range = histogram(std::vector<float>{3.f, 1.f, 2.f, 2.f}, 2);
  CHECK(auto_range.lo == 1.f);
  CHECK(auto_range.hi == 3.f);
  CHECK(auto_range.counts == std::vector<int>{1, 3});
  CHECK(histogram(std::vector<float>{5.f, 5.f}, 3).total() == 2);  // constant data
}

namespace {

// numpy.histogram's rule, one value at a time in double: the definition the fast path must match.
std::vector<int> naive_histogram(const std::vector<float>& v, int bins, float lo, float hi) {
  std::vector<int> counts(std::size_t(bins), 0);
  const double width = (double(hi) - lo) / bins;
  for (float x : v) {
    if (!(x >= lo && x <= hi)) continue;
    const int b = width > 0 ? int((double(x) - lo) / width) : 0;
    counts[std::size_t(std::min(b, bins - 1))]++;
  }
  return counts;
}

}  // namespace

TEST_CASE("the fast histogram bins every value as the one-value-at-a-time rule does") {
  Rng rng(5);
  std::vector<std::vector<float>> sets;
  // Softmax-like weights (most in the first bin), uniform ones, and every
  // value next to a bin edge, NaN and values outside the range.
  std::vector<float> peaked, uniform, edges;
  for (int i = 0; i < 100003; ++i) peaked.push_back(std::exp(-12.f * rng.uniform()) / 300.f);
  for (int i = 0; i < 50001; ++i) uniform.push_back(rng.uniform() * 0.37f + 0.01f);
  const float lo = 0.01f, hi = 0.38f;
  const double width = (double(hi) - lo) / 25;
  for (int k = 0; k <= 25; ++k) {
    const float edge = float(lo + k * width);
    float x = edge;
    for (int s = 0; s < 4; ++s) x = std::nextafter(x, -1.f);
    for (int s = 0; s < 9; ++s, x = std::nextafter(x, 2.f)) edges.push_back(x);
  }
  edges.push_back(std::nanf(""));
  edges.push_back(std::numeric_limits<float>::infinity());
  edges.push_back(-1.f);
  for (const auto* v : {&uniform, &edges}) {
    const Histogram h = histogram(v->data(), v->size(), 25, lo, hi);
    CHECK(h.counts == naive_histogram(*v, 25, lo, hi));
  }
  const auto [mn, mx] = std::minmax_element(peaked.begin(), peaked.end());
  for (int bins : {1, 3, 25, 50, 100, 300}) {  // (over 100 bins: the exact rule for every value)
    INFO("bins " << bins);
    const Histogram h = histogram(peaked.data(), peaked.size(), bins, *mn, *mx);
    CHECK(h.counts == naive_histogram(peaked, bins, *mn, *mx));
    CHECK(h.total() == int(peaked.size()));
    // In pieces of any size: the same counts.
    Histogram pieces = empty_histogram(bins, *mn, *mx);
    for (std::size_t at = 0, step = 1; at < peaked.size(); at += step, step = step * 3 % 1001 + 1)
      histogram_add(pieces, peaked.data() + at, std::min(step, peaked.size() - at));
    CHECK(pieces.counts == h.counts);
  }
  // All equal: one full bin; a range of subnormal width falls back to the exact rule.
  const std::vector<float> same(7, 0.25f);
  CHECK(histogram(same.data(), same.size(), 25, 0.25f, 0.25f).counts[0] == 7);
  const std::vector<float> tiny = {0.f, 1e-45f, 2e-45f, 3e-45f, 1e-45f};
  CHECK(histogram(tiny.data(), tiny.size(), 4, 0.f, 3e-45f).counts == naive_histogram(tiny, 4, 0.f, 3e-45f));
}

TEST_CASE("weight stats in one pass, and in pieces of rows, agree") {
  Rng rng(8);
  const Matrix w = test::random_matrix(37, 101, rng);  // rows not a multiple of the 8 lanes
  const WeightStats s = weight_stats(w);
  CHECK(s.min == w.minCoeff());
  CHECK(s.max == w.maxCoeff());
  CHECK(s.mean == doctest::Approx(w.cast<double>().mean()).epsilon(1e-6));
  StatsAccumulator pieces;
  for (Eigen::Index first = 0, rows = 1; first < w.rows(); first += rows, rows += 2)  // 1, 3, 5, ... rows
    pieces.add_rows(w, first, std::min(rows, w.rows() - first));
  const WeightStats p = pieces.stats();
  CHECK(p.min == s.min);
  CHECK(p.max == s.max);
  CHECK(p.mean == s.mean);
  CHECK(StatsAccumulator{}.stats().mean == 0.f);
}

TEST_CASE("mean and population standard deviation") {
  const std::vector<float> v = {2, 4, 4, 4, 5, 5, 7, 9};
  CHECK(mean(v) == doctest::Approx(5.0));
  CHECK(stddev(v) == doctest::Approx(2.0));
}

TEST_CASE("nearly_uniform: a span under 1 % of the mean, by hand") {
  CHECK(nearly_uniform(WeightStats{0.1248f, 0.1253f, 0.1250f}));   // 0.4 % (the book's head 1)
  CHECK_FALSE(nearly_uniform(WeightStats{0.1242f, 0.1261f, 0.1250f}));  // 1.5 % (head 3)
  CHECK_FALSE(nearly_uniform(WeightStats{0.0434f, 0.2664f, 0.1250f}));  // head 0
  CHECK_FALSE(nearly_uniform(WeightStats{0.0f, 0.0f, 0.0f}));  // no weights: nothing to call uniform
  // Figure 4.1 itself: only head 1 is that flat.
  const Figure41 f = run_figure41();
  CHECK_FALSE(nearly_uniform(f.head_stats[0]));
  CHECK(nearly_uniform(f.head_stats[1]));
  CHECK_FALSE(nearly_uniform(f.head_stats[2]));
  CHECK_FALSE(nearly_uniform(f.head_stats[3]));
}
