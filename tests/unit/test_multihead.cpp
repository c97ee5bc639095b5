// Multi-head attention: head slicing, concatenation, W_o and the head average.
#include "core/multihead.hpp"
#include "core/reference.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("each head equals single-head attention on its column slice") {
  Rng rng(77);
  const int n = 6, d_model = 12, heads = 3, d_head = 4;
  const Matrix X = test::random_matrix(n, d_model, rng);
  MultiHeadWeights w;
  w.heads = heads;
  w.W_q = test::random_matrix(d_model, d_model, rng, 0.3f);
  w.W_k = test::random_matrix(d_model, d_model, rng, 0.3f);
  w.W_v = test::random_matrix(d_model, d_model, rng, 0.3f);
  w.W_o = test::random_matrix(d_model, d_model, rng, 0.3f);
  REQUIRE(check_multi_head_shapes(X, w).empty());
  const MultiHeadResult r = multi_head_attention(X, w);
  REQUIRE(r.heads.size() == 3u);

  Matrix concat(n, d_model), average = Matrix::Zero(n, n);
  for (int h = 0; h < heads; ++h) {
    // Independent projection of the slice, then the naive kernel.
    const Matrix Qh = X * w.W_q.middleCols(h * d_head, d_head);
    const Matrix Kh = X * w.W_k.middleCols(h * d_head, d_head);
    const Matrix Vh = X * w.W_v.middleCols(h * d_head, d_head);
    const auto ref = reference::attention(test::flat(Qh), test::flat(Kh), test::flat(Vh), n, n,
                                          d_head, d_head, 0.5f /* 1/sqrt(4) */);
    const Matrix ref_w = Eigen::Map<const Matrix>(ref.weights.data(), n, n);
    const Matrix ref_out = Eigen::Map<const Matrix>(ref.output.data(), n, d_head);
    test::check_close(r.heads[h].weights, ref_w, 1e-5f);
    test::check_close(r.heads[h].output, ref_out, 1e-5f);
    concat.middleCols(h * d_head, d_head) = ref_out;
    average += ref_w / 3.0f;
  }
  test::check_close(r.concat, concat, 1e-5f);
  test::check_close(r.output, concat * w.W_o, 1e-5f);
  test::check_close(r.average_weights, average, 1e-6f);
  for (Eigen::Index i = 0; i < n; ++i)
    CHECK(r.average_weights.row(i).sum() == doctest::Approx(1.0).epsilon(1e-5));
}

TEST_CASE("multi-head shape checks") {
  MultiHeadWeights w;
  w.heads = 5;
  w.W_q = w.W_k = w.W_v = w.W_o = Matrix::Identity(8, 8);
  const Matrix X = Matrix::Ones(3, 8);
  CHECK(check_multi_head_shapes(X, w).find("divide") != std::string::npos);
  w.heads = 0;
  CHECK(!check_multi_head_shapes(X, w).empty());
  w.heads = 2;
  CHECK(check_multi_head_shapes(X, w).empty());
  w.W_o = Matrix::Identity(4, 4);
  CHECK(!check_multi_head_shapes(X, w).empty());
}
