// Statistics: weight stats, entropy, top-k, histograms, mean/std.
#include <cmath>

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

TEST_CASE("mean and population standard deviation") {
  const std::vector<float> v = {2, 4, 4, 4, 5, 5, 7, 9};
  CHECK(mean(v) == doctest::Approx(5.0));
  CHECK(stddev(v) == doctest::Approx(2.0));
}
