// Scaled dot-product attention: hand-computed cases, scale modes, masks,
// invariances, and the Eigen path against the naive reference kernel.
#include <cmath>
#include <numeric>

#include "core/attention.hpp"
#include "core/reference.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("2x2 attention by hand (no scaling)") {
  // Q = K = I: scores = I. Row 0: softmax([1, 0]) = [e/(e+1), 1/(e+1)].
  const Matrix I = test::from_rows({{1, 0}, {0, 1}});
  const Matrix V = test::from_rows({{1, 2}, {3, 4}});
  AttentionOptions o;
  o.scale = Scale::none();
  const AttentionResult r = scaled_dot_product_attention(I, I, V, o);
  const double a = std::exp(1.0) / (std::exp(1.0) + 1.0), b = 1.0 - a;  // 0.7311, 0.2689
  test::check_close(r.raw_scores, I, 0.f);
  test::check_close(r.weights, test::from_rows({{float(a), float(b)}, {float(b), float(a)}}), 1e-6f);
  test::check_close(r.output, test::from_rows({{float(a * 1 + b * 3), float(a * 2 + b * 4)},
                                              {float(b * 1 + a * 3), float(b * 2 + a * 4)}}),
                    1e-6f);
}

TEST_CASE("3x3 attention by hand with 1/sqrt(d_k) and a causal mask") {
  // Q = K = [[1,0],[0,1],[1,1]]: raw scores [[1,0,1],[0,1,1],[1,1,2]], d_k = 2.
  const Matrix QK = test::from_rows({{1, 0}, {0, 1}, {1, 1}});
  const Matrix V = test::from_rows({{1, 0}, {0, 1}, {1, 1}});
  const double s = 1.0 / std::sqrt(2.0);

  const AttentionResult full = scaled_dot_product_attention(QK, QK, V);
  test::check_close(full.raw_scores, test::from_rows({{1, 0, 1}, {0, 1, 1}, {1, 1, 2}}), 0.f);
  test::check_close(full.scaled_scores, full.raw_scores * float(s), 1e-7f);
  const double z0 = 2 * std::exp(s) + 1;  // row 0: exp([s, 0, s])
  CHECK(full.weights(0, 0) == doctest::Approx(std::exp(s) / z0).epsilon(1e-6));
  CHECK(full.weights(0, 1) == doctest::Approx(1 / z0).epsilon(1e-6));
  const double z2 = 2 * std::exp(s) + std::exp(2 * s);  // row 2: exp([s, s, 2s])
  CHECK(full.weights(2, 2) == doctest::Approx(std::exp(2 * s) / z2).epsilon(1e-6));

  AttentionOptions causal;
  causal.mask = Mask::causal();
  const AttentionResult c = scaled_dot_product_attention(QK, QK, V, causal);
  // Row 0 sees only itself; row 1 sees keys 0, 1 with scaled scores [0, s].
  CHECK(c.weights(0, 0) == 1.0f);
  CHECK(c.weights(1, 1) == doctest::Approx(std::exp(s) / (1 + std::exp(s))).epsilon(1e-6));
  CHECK(c.output(0, 0) == 1.0f);
  CHECK(c.output(0, 1) == 0.0f);
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) CHECK(c.weights(i, j) == 0.0f);  // exactly zero
}

TEST_CASE("scale modes: sqrt, none and a number") {
  CHECK(Scale::sqrt_dk().factor_for(64) == doctest::Approx(0.125));
  CHECK(Scale::none().factor_for(64) == 1.0f);
  CHECK(Scale::factor(0.3f).factor_for(64) == doctest::Approx(0.3));
  Rng rng(5);
  const Matrix Q = test::random_matrix(4, 16, rng), K = test::random_matrix(5, 16, rng),
               V = test::random_matrix(5, 3, rng);
  for (Scale scale : {Scale::sqrt_dk(), Scale::none(), Scale::factor(0.3f)}) {
    AttentionOptions o;
    o.scale = scale;
    const AttentionResult r = scaled_dot_product_attention(Q, K, V, o);
    test::check_close(r.scaled_scores, r.raw_scores * scale.factor_for(16), 1e-6f, 1e-6f);
  }
}

TEST_CASE("padded keys get zero weight; fully masked rows give zero output, never NaN") {
  Rng rng(11);
  const Matrix Q = test::random_matrix(4, 8, rng), K = test::random_matrix(4, 8, rng),
               V = test::random_matrix(4, 5, rng);
  AttentionOptions pad;
  pad.mask = Mask::padding({true, true, false, false});
  const AttentionResult r = scaled_dot_product_attention(Q, K, V, pad);
  for (int i = 0; i < 4; ++i) {
    CHECK(r.weights(i, 2) == 0.0f);
    CHECK(r.weights(i, 3) == 0.0f);
    CHECK(r.weights.row(i).sum() == doctest::Approx(1.0));
  }
  MaskMatrix allowed = MaskMatrix::Constant(4, 4, true);
  allowed.row(1).setConstant(false);
  AttentionOptions custom;
  custom.mask = Mask::custom(allowed);
  const AttentionResult m = scaled_dot_product_attention(Q, K, V, custom);
  CHECK(m.weights.row(1).isZero(0.0f));
  CHECK(m.output.row(1).isZero(0.0f));
  CHECK(m.weights.allFinite());
  CHECK(m.output.allFinite());
}

TEST_CASE("permuting keys (and values) permutes weights and keeps the output") {
  Rng rng(21);
  const Matrix Q = test::random_matrix(3, 6, rng), K = test::random_matrix(5, 6, rng),
               V = test::random_matrix(5, 4, rng);
  Eigen::PermutationMatrix<Eigen::Dynamic> P(5);
  P.indices() << 3, 0, 4, 1, 2;
  const Matrix K_p = P * K, V_p = P * V;
  const AttentionResult a = scaled_dot_product_attention(Q, K, V);
  const AttentionResult b = scaled_dot_product_attention(Q, K_p, V_p);
  test::check_close(b.weights, a.weights * P.transpose(), 1e-6f);
  test::check_close(b.output, a.output, 1e-5f);
}

TEST_CASE("the fast path equals the naive reference kernel on random shapes") {
  // Tolerance: 2e-5 absolute + 1e-5 relative. Both accumulate in float, in
  // different orders (the kernels block, vectorise and fuse multiply-adds), so they agree to a few ulps
  // of the largest partial sums, not bit for bit.
  Rng rng(1234);
  for (int trial = 0; trial < 40; ++trial) {
    const int n_q = 1 + static_cast<int>(rng.uniform() * 20);
    const int n_k = 1 + static_cast<int>(rng.uniform() * 20);
    const int d_k = 1 + static_cast<int>(rng.uniform() * 70);
    const int d_v = 1 + static_cast<int>(rng.uniform() * 30);
    const Matrix Q = test::random_matrix(n_q, d_k, rng), K = test::random_matrix(n_k, d_k, rng),
                 V = test::random_matrix(n_k, d_v, rng);
    AttentionOptions o;
    std::vector<unsigned char> allowed;
    if (trial % 3 == 1 && n_q == n_k) {
      o.mask = Mask::causal();
      for (int i = 0; i < n_q; ++i)
        for (int j = 0; j < n_k; ++j) allowed.push_back(j <= i);
    }
    if (trial % 3 == 2) o.scale = Scale::none();
    CAPTURE(n_q);
    CAPTURE(n_k);
    CAPTURE(d_k);
    REQUIRE(check_attention_shapes(Q, K, V, o).empty());
    const AttentionResult fast = scaled_dot_product_attention(Q, K, V, o);
    const auto ref = reference::attention(test::flat(Q), test::flat(K), test::flat(V), n_q, n_k,
                                          d_k, d_v, o.scale.factor_for(d_k), allowed);
    const auto as_matrix = [](const std::vector<float>& v, int r, int c) {
      return Matrix(Eigen::Map<const Matrix>(v.data(), r, c));
    };
    test::check_close(fast.raw_scores, as_matrix(ref.raw_scores, n_q, n_k), 2e-5f, 1e-5f);
    test::check_close(fast.weights, as_matrix(ref.weights, n_q, n_k), 2e-5f, 1e-5f);
    test::check_close(fast.output, as_matrix(ref.output, n_q, d_v), 2e-5f, 1e-5f);
  }
}

TEST_CASE("shape checks name the mismatch") {
  const Matrix A(2, 3), B(2, 4), C(3, 3);
  CHECK(check_attention_shapes(A, B, B).find("d_k") != std::string::npos);
  CHECK(check_attention_shapes(A, A, C).find("value") != std::string::npos);
  CHECK(check_attention_shapes(Matrix(), A, A).find("empty") != std::string::npos);
  AttentionOptions o;
  o.mask = Mask::custom(MaskMatrix::Constant(3, 3, true));
  CHECK(!check_attention_shapes(A, A, A, o).empty());
}
