// Small helpers shared by the unit tests.
#pragma once

#include <doctest/doctest.h>

#include <vector>

#include "core/base/rng.hpp"
#include "core/types.hpp"

namespace test {

inline attn::Matrix random_matrix(int rows, int cols, attn::Rng& rng, float stddev = 1.0f) {
  attn::Matrix m(rows, cols);
  rng.fill_normal(m, stddev);
  return m;
}

// n values uniform in [-scale, scale), in order from rng: a gradient check's
// inputs and weights.
inline std::vector<double> random_values(std::size_t n, attn::Rng& rng, double scale) {
  std::vector<double> v(n);
  for (double& x : v) x = scale * (2.0 * rng.uniform_double() - 1.0);
  return v;
}

// The central difference (loss(x + step e_i) - loss(x - step e_i)) / (2 step),
// the derivative a backward pass is checked against; x[i] is left as it was.
template <class LossFn>
double central_difference(std::vector<double>& x, std::size_t i, double step, LossFn loss) {
  const double saved = x[i];
  x[i] = saved + step;
  const double up = loss();
  x[i] = saved - step;
  const double down = loss();
  x[i] = saved;
  return (up - down) / (2 * step);
}

inline std::vector<float> flat(const attn::Matrix& m) {
  return std::vector<float>(m.data(), m.data() + m.size());  // row-major
}

// |a - b| <= abs_tol + rel_tol * |b| for every entry.
inline void check_close(const attn::Matrix& a, const attn::Matrix& b, float abs_tol,
                        float rel_tol = 0.f) {
  REQUIRE(a.rows() == b.rows());
  REQUIRE(a.cols() == b.cols());
  for (Eigen::Index i = 0; i < a.rows(); ++i)
    for (Eigen::Index j = 0; j < a.cols(); ++j) {
      INFO("entry (" << i << ", " << j << "): " << a(i, j) << " vs " << b(i, j));
      CHECK(std::abs(a(i, j) - b(i, j)) <= abs_tol + rel_tol * std::abs(b(i, j)));
    }
}

inline attn::Matrix from_rows(std::initializer_list<std::initializer_list<float>> rows) {
  attn::Matrix m(static_cast<Eigen::Index>(rows.size()),
                 static_cast<Eigen::Index>(rows.begin()->size()));
  Eigen::Index i = 0;
  for (const auto& row : rows) {
    Eigen::Index j = 0;
    for (float v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

}  // namespace test
