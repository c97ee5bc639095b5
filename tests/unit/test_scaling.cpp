// The scaling lab's statistics: softmax Jacobian norm and entropy by hand,
// saturation of raw scores as d_k grows, the float32 overflow of a naive
// softmax, and one attention row.
#include <cmath>
#include <vector>

#include "core/scaling/scaling.hpp"
#include "core/softmax.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("softmax Jacobian norm by hand") {
  // Uniform p over n: J = diag(1/n) - (1/n^2) 1 1^T has n diagonal entries
  // 1/n - 1/n^2 and n^2 - n off-diagonal entries -1/n^2, so
  //   ||J||_F^2 = n (1/n - 1/n^2)^2 + (n^2 - n) / n^4
  //             = (n-1)^2 / n^3 + (n-1) / n^3 = (n - 1) / n^2,
  // i.e. ||J||_F = sqrt(n - 1) / n.
  for (int n : {1, 2, 4, 10, 100}) {
    const std::vector<float> p(static_cast<std::size_t>(n), 1.0f / static_cast<float>(n));
    const double by_formula =
        std::sqrt(n * std::pow(1.0 / n - 1.0 / (double(n) * n), 2) + (double(n) * n - n) / std::pow(n, 4));
    CHECK(softmax_jacobian_norm(p) == doctest::Approx(std::sqrt(n - 1.0) / n).epsilon(1e-6));
    CHECK(softmax_jacobian_norm(p) == doctest::Approx(by_formula).epsilon(1e-6));
  }
  // One-hot: J = 0 (a saturated softmax passes no gradient).
  CHECK(softmax_jacobian_norm({0.0f, 1.0f, 0.0f, 0.0f}) == 0.0f);
  // Two entries p, 1-p: J = p(1-p) [[1, -1], [-1, 1]], ||J||_F = 2 p (1 - p).
  CHECK(softmax_jacobian_norm({0.25f, 0.75f}) == doctest::Approx(2 * 0.25 * 0.75).epsilon(1e-6));
}

TEST_CASE("entropy by hand") {
  CHECK(entropy({0.25f, 0.25f, 0.25f, 0.25f}) == doctest::Approx(std::log(4.0)).epsilon(1e-6));
  CHECK(entropy({0.5f, 0.25f, 0.25f}) == doctest::Approx(1.5 * std::log(2.0)).epsilon(1e-6));
  CHECK(entropy({0.0f, 1.0f, 0.0f}) == 0.0f);  // 0 log 0 = 0
}

TEST_CASE("raw scores saturate the softmax as d_k grows, scaled ones do not") {
  // 16 keys, 400 trials per d_k (the mean's standard error is ~0.01-0.02 for
  // entropies ~1.9 nats and Jacobian norms ~0.3). Raw: at d_k 1024 the
  // score spread is ~32, the row is one-hot, entropy and Jacobian ~0.
  // Scaled: the score spread is ~1 at every d_k, so both stay put; the
  // tolerance (0.1 nats, 0.05 in norm) covers sampling and the mildly
  // non-Gaussian q.k at d_k 4.
  const Saturation small = saturation(4, 16, 400, 3), large = saturation(1024, 16, 400, 3);
  MESSAGE("d_k 4: raw H " << small.raw_entropy << " J " << small.raw_jacobian_norm << ", scaled H "
          << small.scaled_entropy << " J " << small.scaled_jacobian_norm);
  MESSAGE("d_k 1024: raw H " << large.raw_entropy << " J " << large.raw_jacobian_norm
          << ", scaled H " << large.scaled_entropy << " J " << large.scaled_jacobian_norm);
  CHECK(large.raw_entropy < 0.25f * small.raw_entropy);
  CHECK(large.raw_jacobian_norm < 0.5f * small.raw_jacobian_norm);
  CHECK(large.raw_entropy < 0.3f);
  CHECK(std::abs(large.scaled_entropy - small.scaled_entropy) < 0.1f);
  CHECK(std::abs(large.scaled_jacobian_norm - small.scaled_jacobian_norm) < 0.05f);
  // Scaled rows are far from one-hot: entropy near that of softmax(N(0,1)) over 16 keys.
  CHECK(large.scaled_entropy > 2.0f);
  CHECK(large.scaled_entropy < std::log(16.0f));
  // Deterministic for a seed.
  const Saturation again = saturation(1024, 16, 400, 3);
  CHECK(again.raw_entropy == large.raw_entropy);
  CHECK(again.scaled_jacobian_norm == large.scaled_jacobian_norm);
}

TEST_CASE("a float32 softmax without the max subtraction overflows, the stable one does not") {
  const std::vector<float> scores = {100.0f, 90.0f};  // e^100 and e^90 exceed FLT_MAX
  const std::vector<float> naive = naive_softmax(scores);
  CHECK(!all_finite(naive));
  CHECK(std::isnan(naive[0]));  // inf / inf
  const std::vector<float> stable = stable_softmax(scores);
  CHECK(all_finite(stable));
  const double e = std::exp(-10.0);
  CHECK(stable[0] == doctest::Approx(1.0 / (1.0 + e)).epsilon(1e-6));
  CHECK(stable[1] == doctest::Approx(e / (1.0 + e)).epsilon(1e-5));
  // Small scores: both agree.
  const std::vector<float> a = naive_softmax({0.5f, -1.0f, 2.0f}), b = stable_softmax({0.5f, -1.0f, 2.0f});
  for (int i = 0; i < 3; ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-6));
}

TEST_CASE("attention_row: shapes, and scaled weights are softmax(raw / sqrt(d_k))") {
  for (int d_k : {1, 8, 512}) {
    const AttentionRow row = attention_row(d_k, 12, 42);
    CHECK(row.d_k == d_k);
    REQUIRE(row.raw_scores.size() == 12);
    REQUIRE(row.raw_weights.size() == 12);
    REQUIRE(row.scaled_weights.size() == 12);
    Vector raw(12), scaled(12);
    for (int j = 0; j < 12; ++j) {
      raw[j] = row.raw_scores[j];
      scaled[j] = row.raw_scores[j] / std::sqrt(static_cast<float>(d_k));
    }
    const Vector expect_raw = softmax(raw), expect_scaled = softmax(scaled);  // the core's softmax
    float sum_raw = 0, sum_scaled = 0;
    for (int j = 0; j < 12; ++j) {
      CHECK(row.raw_weights[j] == doctest::Approx(expect_raw[j]).epsilon(1e-5));
      CHECK(std::abs(row.scaled_weights[j] - expect_scaled[j]) <= 1e-6f + 1e-5f * expect_scaled[j]);
      sum_raw += row.raw_weights[j];
      sum_scaled += row.scaled_weights[j];
    }
    CHECK(sum_raw == doctest::Approx(1.0f).epsilon(1e-5));
    CHECK(sum_scaled == doctest::Approx(1.0f).epsilon(1e-5));
  }
  // Same seed, same row.
  CHECK(attention_row(64, 8, 5).raw_scores == attention_row(64, 8, 5).raw_scores);
}
