// Sentence set-up: deterministic embeddings, positions, projections.
#include <cmath>

#include "core/explorer/sentence.hpp"
#include "core/base/tokenizer.hpp"
#include "helpers.hpp"

using namespace attn;

TEST_CASE("the same token text always gets the same embedding") {
  const auto tokens = tokenize("the cat saw the dog");
  const Matrix X = embed_tokens(tokens, 16, 1);
  CHECK(X.rows() == 5);
  CHECK(X.row(0) == X.row(3));  // "the" twice
  CHECK(X.row(0) != X.row(1));
  CHECK(embed_tokens({"cat"}, 16, 1).row(0) == X.row(1));  // independent of context
  CHECK(embed_tokens({"cat"}, 16, 2).row(0) != X.row(1));  // but depends on the seed
}

TEST_CASE("sinusoidal position encoding by hand") {
  const Matrix pe = sinusoidal_positions(3, 4);
  CHECK(pe(0, 0) == 0.0f);
  CHECK(pe(0, 1) == 1.0f);
  CHECK(pe(1, 0) == doctest::Approx(std::sin(1.0)));
  CHECK(pe(1, 1) == doctest::Approx(std::cos(1.0)));
  CHECK(pe(2, 2) == doctest::Approx(std::sin(2.0 / 100.0)));  // 10000^(2/4) = 100
  const Matrix X = embed_tokens({"a", "a"}, 4, 1, /*positions=*/true);
  CHECK(X.row(0) != X.row(1));  // same word, different positions
}

TEST_CASE("random projections are seeded and Xavier-scaled") {
  const MultiHeadWeights a = random_projections(64, 4, 3), b = random_projections(64, 4, 3);
  CHECK(a.W_q == b.W_q);
  CHECK(a.W_o == b.W_o);
  CHECK(a.W_q != a.W_k);
  CHECK(random_projections(64, 4, 4).W_q != a.W_q);
  const double var = a.W_q.squaredNorm() / a.W_q.size();
  CHECK(var == doctest::Approx(1.0 / 64).epsilon(0.1));  // 4096 draws: ~2% std error
}

TEST_CASE("key_valid_flags marks pad tokens") {
  CHECK(key_valid_flags(pad_to({"a"}, 3)) == std::vector<bool>{true, false, false});
}
