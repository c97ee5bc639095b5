// The fast kernels (core/kernels) against independent computations, for every
// instruction set this build and CPU can run (natively: avx512, avx2, sse2 as
// available; in wasm: simd128): the vectorised exp against double-precision
// exp over the float range, attention against the plain-loop reference kernel
// on awkward shapes and masks, the special rows against softmax_rows, and the
// matrix product against Eigen's.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/attention.hpp"
#include "core/kernels/kernels.hpp"
#include "core/reference.hpp"
#include "core/softmax.hpp"
#include "core/statistics.hpp"
#include "helpers.hpp"

using namespace attn;

namespace {

// Runs body once per instruction set, then restores the default.
template <class Body>
void for_each_isa(Body body) {
  const std::string initial = kernels::active_isa();
  for (const std::string& isa : kernels::available_isas()) {
    REQUIRE(kernels::use_isa(isa));
    CAPTURE(isa);
    body();
  }
  kernels::use_isa(initial);
}

float from_bits(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

Matrix as_matrix(const std::vector<float>& v, int rows, int cols) {
  return Matrix(Eigen::Map<const Matrix>(v.data(), rows, cols));
}

}  // namespace

TEST_CASE("the kernels report their instruction sets; an unknown one is refused") {
  const std::vector<std::string> isas = kernels::available_isas();
  REQUIRE(!isas.empty());
  CHECK(isas.front() == kernels::active_isa());  // the best is the default (ATTN_KERNEL unset)
  CHECK_FALSE(kernels::use_isa("no-such-isa"));
  CHECK(kernels::active_isa() == isas.front());
#ifdef __EMSCRIPTEN__
  CHECK(isas == std::vector<std::string>{"simd128"});
#endif
}

TEST_CASE("vectorised exp: <= 2 ulp over the float range, exact 0 at -inf, inf and NaN kept") {
  for_each_isa([] {
    // Every 97th bit pattern of [-104, 89] (about 5 million floats of each sign,
    // all exponents), run through the kernel in one call.
    std::vector<float> x;
    for (std::uint32_t b = 0; b < 0x80000000u; b += 97 * 8) {
      const float v = from_bits(b);  // +0 .. 89 and -0 .. -104
      if (v <= 89.f) x.push_back(v);
      if (v <= 104.f) x.push_back(-v);
    }
    std::vector<float> y(x.size());
    kernels::exp(x.data(), y.data(), x.size());
    double worst_ulp = 0, worst_subnormal = 0;
    float worst_x = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = std::exp(double(x[i]));
      if (want > double(std::numeric_limits<float>::max())) {
        CHECK(y[i] == INFINITY);
      } else if (want >= double(std::numeric_limits<float>::min())) {
        const float rounded = float(want);
        const double ulp = double(std::nextafter(rounded, INFINITY)) - double(rounded);
        const double err = std::abs(double(y[i]) - want) / ulp;
        if (err > worst_ulp) worst_ulp = err, worst_x = x[i];
      } else {
        // Subnormal results: within one subnormal step (2^-149) of the true value.
        worst_subnormal = std::max(worst_subnormal, std::abs(double(y[i]) - want) / std::ldexp(1.0, -149));
      }
    }
    MESSAGE(std::string(kernels::active_isa()) << ": " << x.size() << " values, worst " << worst_ulp << " ulp at x = "
                                  << worst_x << ", subnormals within " << worst_subnormal << " x 2^-149");
    CHECK(worst_ulp <= 2.0);
    CHECK(worst_subnormal <= 1.0);

    const float specials[] = {-INFINITY, INFINITY, NAN, -1e30f, 1e30f, -103.98f, 0.f, -0.f, 88.72f};
    float out[9];
    kernels::exp(specials, out, 9);
    CHECK(out[0] == 0.f);
    CHECK(!std::signbit(out[0]));
    CHECK(out[1] == INFINITY);
    CHECK(std::isnan(out[2]));
    CHECK(out[3] == 0.f);
    CHECK(out[4] == INFINITY);
    CHECK(out[5] == 0.f);
    CHECK(out[6] == 1.f);
    CHECK(out[7] == 1.f);
    CHECK(out[8] == doctest::Approx(std::exp(88.72f)).epsilon(3e-7));
  });
}

TEST_CASE("kernel softmax: a row's probabilities, maximum and sum against double sums, any length") {
  for_each_isa([] {
    Rng rng(8);
    for (int n : {1, 3, 15, 16, 17, 33, 6049}) {
      std::vector<float> x(static_cast<std::size_t>(n)), y(x.size());
      for (float& v : x) v = 20.f * rng.uniform() - 10.f;
      x.back() = 30.f;  // the maximum in the tail
      const kernels::SoftmaxStats s = kernels::softmax(x.data(), y.data(), x.size());
      double sum = 0;
      for (float v : x) sum += std::exp(double(v) - 30.0);
      CAPTURE(n);
      CHECK(s.max == 30.f);
      CHECK(s.sum == doctest::Approx(sum).epsilon(1e-6));
      for (std::size_t i = 0; i < x.size(); ++i)
        CHECK(y[i] == doctest::Approx(std::exp(double(x[i]) - 30.0) / sum).epsilon(1e-5));
      kernels::softmax(x.data(), x.data(), x.size());  // in place
      CHECK(x == y);
    }
  });
}

TEST_CASE("kernel matmul hands over each block of finished rows, in order, once") {
  for_each_isa([] {
    Rng rng(6);
    for (int m : {1, 6, 7, 20, 50}) {
      const Matrix A = test::random_matrix(m, 64, rng), Bt = test::random_matrix(100, 64, rng);
      Matrix C = Matrix::Zero(m, 100);
      struct Seen {
        Matrix* c;
        Matrix rows;  // each row as it was when handed over
        int next = 0;
        bool in_order = true;
      } seen{&C, Matrix::Zero(m, 100)};
      kernels::MatmulArgs args;
      args.a = A.data(), args.lda = 64, args.b = Bt.data(), args.ldb = 64, args.b_transposed = true;
      args.c = C.data(), args.ldc = 100, args.m = m, args.k = 64, args.n = 100;
      args.context = &seen;
      args.rows_done = [](void* context, int first, int rows) {
        Seen& s = *static_cast<Seen*>(context);
        s.in_order = s.in_order && first == s.next && rows > 0;
        s.rows.middleRows(first, rows) = s.c->middleRows(first, rows);
        s.next = first + rows;
      };
      kernels::matmul(args);
      CAPTURE(m);
      CHECK(seen.in_order);
      CHECK(seen.next == m);
      test::check_close(seen.rows, Matrix(A * Bt.transpose()), 2e-5f, 1e-5f);
    }
  });
}

TEST_CASE("fast attention equals the reference kernel on awkward shapes, masks and strides") {
  // Tolerance as for every attention result: 2e-5 absolute + 1e-5 relative
  // (both accumulate in float, in different orders; the kernels use FMA where
  // the ISA has it).
  for_each_isa([] {
    Rng rng(77);
    const int sizes[] = {1, 2, 3, 5, 7, 16, 17, 31, 33, 64, 65, 130};
    const int dims[] = {1, 2, 3, 4, 5, 8, 15, 16, 17, 32, 33, 64, 65};
    for (int trial = 0; trial < 60; ++trial) {
      const int n_q = sizes[trial % 12], n_k = sizes[(trial * 5 + 3) % 12];
      const int d_k = dims[trial % 13], d_v = dims[(trial * 7 + 2) % 13];
      CAPTURE(n_q);
      CAPTURE(n_k);
      CAPTURE(d_k);
      CAPTURE(d_v);
      const Matrix Q = test::random_matrix(n_q, d_k, rng), K = test::random_matrix(n_k, d_k, rng),
                   V = test::random_matrix(n_k, d_v, rng);
      AttentionOptions o;
      o.temperature = trial % 4 == 3 ? 0.37f : 1.f;
      MaskMatrix allowed = MaskMatrix::Constant(n_q, n_k, true);
      if (trial % 3 == 1) {  // a random mask with some fully masked rows
        for (int i = 0; i < n_q; ++i)
          for (int j = 0; j < n_k; ++j) allowed(i, j) = i % 4 != 1 && rng.uniform() < 0.6f;
        o.mask = Mask::custom(allowed);
      } else if (trial % 3 == 2 && n_q == n_k) {
        o.mask = Mask::causal();
        allowed = causal_mask(n_q);
      }
      const AttentionResult fast = scaled_dot_product_attention(Q, K, V, o);
      std::vector<unsigned char> flags(allowed.data(), allowed.data() + allowed.size());
      const float factor = o.scale.factor_for(d_k) / o.temperature;
      const auto ref = reference::attention(test::flat(Q), test::flat(K), test::flat(V), n_q, n_k, d_k, d_v,
                                            factor, flags);
      test::check_close(fast.raw_scores, as_matrix(ref.raw_scores, n_q, n_k), 2e-5f, 1e-5f);
      test::check_close(fast.scaled_scores, fast.raw_scores * factor, 0.f, 1e-6f);
      test::check_close(fast.weights, as_matrix(ref.weights, n_q, n_k), 2e-5f, 1e-5f);
      test::check_close(fast.output, as_matrix(ref.output, n_q, d_v), 2e-5f, 1e-5f);
      // Masked weights are exactly 0; fully masked rows give exactly 0 output.
      for (int i = 0; i < n_q; ++i) {
        for (int j = 0; j < n_k; ++j)
          if (!allowed(i, j)) CHECK(fast.weights(i, j) == 0.f);
        if (!allowed.row(i).any()) {
          CHECK((fast.output.row(i).array() == 0.f).all());
          CHECK(fast.entropy(i) == 0.f);
        }
      }
      // The fused entropy equals the entropy of the weights.
      const Vector entropy = row_entropy(fast.weights);
      for (int i = 0; i < n_q; ++i) CHECK(fast.entropy(i) == doctest::Approx(entropy(i)).epsilon(1e-5).scale(1));
      // Output only (the scale folded into the queries, the normalisation into
      // the output): the same output within the tolerance, no n x n matrices.
      AttentionOptions lean = o;
      lean.keep_matrices = false;
      const AttentionResult only = scaled_dot_product_attention(Q, K, V, lean);
      test::check_close(only.output, as_matrix(ref.output, n_q, d_v), 2e-5f, 1e-5f);
      CHECK(only.weights.size() == 0);
      CHECK(only.raw_scores.size() == 0);
    }
  });
}

TEST_CASE("special rows follow softmax_rows: NaN in NaN out, infinite scores share the weight") {
  // d_k = 1 and q = 1: the scores are exactly the column K, so rows with NaN
  // and infinities can be written down directly.
  const float inf = INFINITY, nan = NAN;
  const int n_k = 21;  // at least one full vector plus a tail on every ISA
  const auto scores = [&](std::initializer_list<std::pair<int, float>> set) {
    Matrix K = Matrix::Zero(n_k, 1);
    for (int j = 0; j < n_k; ++j) K(j, 0) = float(j % 5) - 2.f;
    for (auto [j, v] : set) K(j, 0) = v;
    return K;
  };
  const Matrix rows[] = {
      scores({{3, nan}}),                          // NaN in, NaN out
      scores({{20, inf}, {7, inf}}),               // two +inf share the weight
      [&] {                                        // one finite score among -inf
        Matrix K = Matrix::Constant(n_k, 1, -inf);
        K(4, 0) = 0.f;
        return K;
      }(),
      Matrix::Constant(n_k, 1, -inf),              // all -inf: they share the weight
  };
  for_each_isa([&] {
    AttentionOptions o;
    o.scale = Scale::none();
    const Matrix q = Matrix::Ones(1, 1), V = Matrix::Random(n_k, 3);
    for (const Matrix& K : rows) {
      const AttentionResult r = scaled_dot_product_attention(q, K, V, o);
      const Matrix want = softmax_rows(Matrix(K.transpose()));
      for (int j = 0; j < n_k; ++j) {
        CAPTURE(j);
        if (std::isnan(want(0, j))) CHECK(std::isnan(r.weights(0, j)));
        else CHECK(r.weights(0, j) == want(0, j));
      }
    }
    const AttentionResult two = scaled_dot_product_attention(q, rows[1], V, o);
    CHECK(two.weights(0, 7) == 0.5f);
    CHECK(two.weights(0, 20) == 0.5f);
    CHECK(two.entropy(0) == doctest::Approx(std::log(2.f)));
    // A masked NaN is ignored, as softmax_rows ignores it.
    MaskMatrix allowed = MaskMatrix::Constant(1, n_k, true);
    allowed(0, 3) = false;
    o.mask = Mask::custom(allowed);
    const AttentionResult masked = scaled_dot_product_attention(q, rows[0], V, o);
    CHECK(masked.weights.allFinite());
    CHECK(masked.weights(0, 3) == 0.f);
    CHECK(masked.weights.sum() == doctest::Approx(1.f));
    test::check_close(masked.weights, softmax_rows(Matrix(rows[0].transpose()), allowed), 0.f, 1e-6f);
    // A NaN among the allowed keys: NaN where the query attends, exactly 0 at the
    // masked keys (the vector pass's NaN sum and the special row alike; both
    // orders of NaN and a finite maximum, so either path is taken somewhere).
    allowed.setConstant(true);
    allowed(0, 0) = allowed(0, 19) = allowed(0, 20) = false;
    o.mask = Mask::custom(allowed);
    for (const Matrix& K : {scores({{3, nan}}), scores({{0, 5.f}, {1, nan}, {2, 9.f}}), scores({{18, nan}})}) {
      const AttentionResult r = scaled_dot_product_attention(q, K, V, o);
      for (int j = 0; j < n_k; ++j) {
        CAPTURE(j);
        if (allowed(0, j)) CHECK(std::isnan(r.weights(0, j)));
        else CHECK(r.weights(0, j) == 0.f);
      }
    }
    // A query with no allowed key attends to nothing: its output is 0 even
    // where V holds NaN or inf (0 x NaN would be NaN), with the matrices kept
    // or not, beside a query that does attend (found by tests/fuzz/fuzz_attention).
    Matrix bad_v = V;
    bad_v(2, 1) = nan;
    bad_v(5, 0) = inf;
    MaskMatrix first_blind = MaskMatrix::Constant(2, n_k, true);
    first_blind.row(0).setConstant(false);
    o.mask = Mask::custom(first_blind);
    for (bool keep : {true, false}) {
      o.keep_matrices = keep;
      const AttentionResult r = scaled_dot_product_attention(Matrix::Ones(2, 1), scores({}), bad_v, o);
      CHECK((r.output.row(0).array() == 0.f).all());
      CHECK(std::isnan(r.output(1, 1)));  // the other query does attend to the NaN
    }
  });
}

TEST_CASE("kernel matmul, matmul_bt and transposed, accumulating products equal Eigen's on edge sizes and strides") {
  for_each_isa([] {
    Rng rng(5);
    for (int m : {1, 5, 6, 7, 13}) {
      // k 400: more than one chunk of the inner dimension on every ISA.
      for (int k : {1, 3, 64, 70, 400}) {
        // Rounding grows with the inner dimension (and without a fused
        // multiply-add, as in SIMD128, each term is rounded twice).
        const float abs_tol = 2e-5f * float(std::max(1, k / 64));
        for (int n : {1, 4, 16, 17, 63, 64, 65, 129}) {
          const Matrix A = test::random_matrix(m, k + 2, rng), B = test::random_matrix(k, n + 1, rng);
          // Strided views: A's first k of k+2 columns, B's first n of n+1, C inside a wider matrix.
          Matrix C = Matrix::Constant(m, n + 3, 7.f);
          kernels::matmul(A.data(), A.cols(), B.data(), B.cols(), C.data(), C.cols(), m, k, n);
          const Matrix want = A.leftCols(k) * B.leftCols(n);
          CAPTURE(m);
          CAPTURE(k);
          CAPTURE(n);
          test::check_close(C.leftCols(n), want, abs_tol, 1e-5f);
          CHECK((C.rightCols(3).array() == 7.f).all());  // nothing written past n
          // A B^T with B given as its transpose (n x k, rows strided by k + 2).
          const Matrix Bt = test::random_matrix(n, k + 2, rng);
          Matrix Ct = Matrix::Constant(m, n + 3, 7.f);
          kernels::matmul_bt(A.data(), A.cols(), Bt.data(), Bt.cols(), Ct.data(), Ct.cols(), m, k, n);
          test::check_close(Ct.leftCols(n), Matrix(A.leftCols(k) * Bt.leftCols(k).transpose()), abs_tol, 1e-5f);
          CHECK((Ct.rightCols(3).array() == 7.f).all());
          // C += A^T B^T: A stored k x m and B stored n x k, both strided, added to C's values.
          const Matrix At = test::random_matrix(k, m + 1, rng), C0 = test::random_matrix(m, n + 3, rng);
          Matrix Cacc = C0;
          kernels::MatmulArgs args;
          args.a = At.data(), args.lda = At.cols(), args.a_transposed = true;
          args.b = Bt.data(), args.ldb = Bt.cols(), args.b_transposed = true;
          args.c = Cacc.data(), args.ldc = Cacc.cols(), args.m = m, args.k = k, args.n = n, args.accumulate = true;
          kernels::matmul(args);
          const Matrix want_acc = C0.leftCols(n) + At.leftCols(m).transpose() * Bt.leftCols(k).transpose();
          test::check_close(Cacc.leftCols(n), want_acc, abs_tol, 1e-5f);
          CHECK(Cacc.rightCols(3) == C0.rightCols(3));
        }
      }
    }
  });
}
