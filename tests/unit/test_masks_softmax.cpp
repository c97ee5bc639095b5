// Softmax and masks: stability, exact zeros, fully masked rows.
#include <cmath>
#include <limits>

#include "core/masks.hpp"
#include "core/softmax.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("softmax of a hand-computed row") {
  // softmax([1, 2, 3]) = e^x / (e + e^2 + e^3)
  const Matrix w = softmax_rows(test::from_rows({{1, 2, 3}}));
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  CHECK(w(0, 0) == doctest::Approx(std::exp(1.0) / z).epsilon(1e-6));
  CHECK(w(0, 1) == doctest::Approx(std::exp(2.0) / z).epsilon(1e-6));
  CHECK(w(0, 2) == doctest::Approx(std::exp(3.0) / z).epsilon(1e-6));
}

TEST_CASE("softmax rows sum to 1 and adding a constant to a row changes nothing") {
  Rng rng(3);
  const Matrix scores = test::random_matrix(6, 9, rng, 3.0f);
  const Matrix w = softmax_rows(scores);
  for (Eigen::Index i = 0; i < w.rows(); ++i) CHECK(w.row(i).sum() == doctest::Approx(1.0).epsilon(1e-6));
  Matrix shifted = scores;
  shifted.row(2).array() += 100.0f;
  shifted.row(4).array() -= 37.5f;
  test::check_close(softmax_rows(shifted), w, 1e-6f);
}

TEST_CASE("softmax is stable for huge scores (no inf/NaN)") {
  // Without subtracting the row maximum exp(1000) overflows float to inf.
  const Matrix w = softmax_rows(test::from_rows({{1000, 999, -1000}, {-5000, -5001, -5002}}));
  CHECK(w.allFinite());
  CHECK(w(0, 0) == doctest::Approx(1.0 / (1.0 + std::exp(-1.0))).epsilon(1e-6));
  CHECK(w(0, 2) == 0.0f);
  CHECK(w.row(1).sum() == doctest::Approx(1.0));
}

TEST_CASE("masked entries get exactly zero weight; a fully masked row is all zero") {
  const Matrix scores = test::from_rows({{1, 2, 3}, {4, 5, 6}, {0, 0, 0}});
  MaskMatrix allowed(3, 3);
  allowed << true, false, true,  //
      false, false, false,       // nothing visible
      true, true, true;
  const Matrix w = softmax_rows(scores, allowed);
  CHECK(w(0, 1) == 0.0f);
  CHECK(w(0, 0) == doctest::Approx(1.0 / (1.0 + std::exp(2.0))).epsilon(1e-6));
  CHECK(w.row(1).isZero(0.0f));
  CHECK(w.allFinite());
  CHECK(w(2, 0) == doctest::Approx(1.0 / 3.0));
}

TEST_CASE("causal mask is the lower triangle including the diagonal") {
  const MaskMatrix m = causal_mask(4);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) CHECK(m(i, j) == (j <= i));
}

TEST_CASE("build_mask materialises each kind and rejects misfits") {
  MaskMatrix allowed;
  CHECK(build_mask(Mask::none(), 2, 3, allowed).empty());
  CHECK(allowed.all());
  CHECK(build_mask(Mask::padding({true, false, true}), 2, 3, allowed).empty());
  CHECK(!allowed(0, 1));
  CHECK(!allowed(1, 1));
  CHECK(allowed(1, 2));
  CHECK(!build_mask(Mask::padding({true}), 2, 3, allowed).empty());
  CHECK(!build_mask(Mask::custom(MaskMatrix::Constant(2, 2, true)), 2, 3, allowed).empty());
  CHECK(std::string(mask_name(Mask::Kind::Causal)) == "causal");
}

TEST_CASE("infinite scores take the softmax limit; NaN scores stay visible") {
  const float inf = std::numeric_limits<float>::infinity();
  const Matrix w = softmax_rows(test::from_rows({{inf, 1, inf}, {-inf, -inf, 0}, {-inf, -inf, -inf}}));
  CHECK(w(0, 0) == 0.5f);
  CHECK(w(0, 1) == 0.0f);
  CHECK(w(0, 2) == 0.5f);
  CHECK(w(1, 2) == 1.0f);
  CHECK(w.row(2).sum() == doctest::Approx(1.0));  // all equal: uniform
  const Matrix n = softmax_rows(test::from_rows({{1, std::nanf(""), 2}}));
  CHECK(std::isnan(n(0, 0)));
  // A masked key stays exactly 0 in a NaN row: NaN shows the bad input only
  // where the query attends (found by tests/fuzz/fuzz_attention).
  MaskMatrix allowed = MaskMatrix::Constant(1, 4, true);
  allowed(0, 0) = allowed(0, 3) = false;
  const Matrix m = softmax_rows(test::from_rows({{1, std::nanf(""), 2, std::nanf("")}}), allowed);
  CHECK(m(0, 0) == 0.f);
  CHECK(std::isnan(m(0, 1)));
  CHECK(std::isnan(m(0, 2)));
  CHECK(m(0, 3) == 0.f);
}
