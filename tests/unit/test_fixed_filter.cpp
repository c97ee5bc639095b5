// The fixed filter (core/explorer/fixed_filter.hpp): its matrix applied to X
// is the convolution computed directly, tap by tap; it is the same for two
// sentences of the same length (where attention's weights differ) and its
// band the same at any length.
#include <doctest/doctest.h>

#include <cmath>

#include "core/base/rng.hpp"
#include "core/explorer/explorer.hpp"
#include "core/explorer/fixed_filter.hpp"

namespace attn {

TEST_CASE("fixed filter: M X is the convolution y_i = 1/4 x_(i-1) + 1/2 x_i + 1/4 x_(i+1), zeros beyond the ends") {
  const int n = 7, d = 5;
  Rng rng(4, 2);
  Matrix X(n, d);
  rng.fill_normal(X);
  const Matrix Y = convolution_matrix(n) * X;
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < d; ++c) {
      double want = 0.5 * X(i, c);
      if (i > 0) want += 0.25 * X(i - 1, c);
      if (i + 1 < n) want += 0.25 * X(i + 1, c);
      CHECK(Y(i, c) == doctest::Approx(want).epsilon(1e-6));
    }
}

TEST_CASE("fixed filter: the same for two sentences of one length, the same band at another; attention is not") {
  ExplorerConfig a, b, c;
  a.text = "the cat sat on the mat";
  b.text = "a dog ran to a ball";
  c.text = "one two three four five six seven eight nine";
  const ExplorerResult ra = run_explorer(a), rb = run_explorer(b), rc = run_explorer(c);
  REQUIRE(ra.tokens.size() == rb.tokens.size());
  const Matrix ma = convolution_matrix(int(ra.tokens.size())), mb = convolution_matrix(int(rb.tokens.size()));
  CHECK(ma == mb);
  CHECK((ra.attention.average_weights - rb.attention.average_weights).cwiseAbs().maxCoeff() > 1e-2);
  const Matrix mc = convolution_matrix(int(rc.tokens.size()));
  for (int i = 0; i < int(rc.tokens.size()); ++i)
    for (int j = 0; j < int(rc.tokens.size()); ++j)
      CHECK(mc(i, j) == (i == j ? 0.5f : std::abs(i - j) == 1 ? 0.25f : 0.0f));
  CHECK(mc.topLeftCorner(5, 5) == ma.topLeftCorner(5, 5));
}

}  // namespace attn
