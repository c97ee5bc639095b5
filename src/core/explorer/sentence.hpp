// From a sentence to multi-head attention: tokens, deterministic token
// embeddings, seeded projections.
//
// The embedding of a token depends only on its text and the seed (the same
// word always gets the same vector), so repeated words are visibly alike.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/multihead.hpp"
#include "core/base/rng.hpp"
#include "core/types.hpp"

namespace attn {

// n x d_model; row i ~ N(0, 1) seeded from hash(tokens[i]) and seed.
// positions: add the sinusoidal position encoding of "Attention Is All You Need".
Matrix embed_tokens(const std::vector<std::string>& tokens, int d_model, uint64_t seed,
                    bool positions = false);
Matrix sinusoidal_positions(int n, int d_model);
// Adds the position encoding's rows [first, first + rows) to those rows of X
// (d_model = X.cols()): sinusoidal_positions a block at a time.
void add_sinusoidal_positions(Matrix& X, int first, int rows);

// W_q, W_k, W_v, W_o ~ N(0, 1/d_model) (Xavier normal for a square matrix), seeded.
MultiHeadWeights random_projections(int d_model, int heads, uint64_t seed);

// random_projections' draws, a block of rows at a time (the explorer spreads
// them over frames): one sequence of normals through W_q, W_k, W_v, W_o, each
// row by row, so drawing every row of each in order gives the same matrices.
class ProjectionDraws {
 public:
  ProjectionDraws(int d_model, uint64_t seed);
  // Rows [first, first + rows) of matrix `which` (0..3: W_q, W_k, W_v, W_o),
  // resized to d_model x d_model when first is 0.
  void draw_rows(MultiHeadWeights& w, int which, int first, int rows);

 private:
  int d_model_;
  float stddev_;
  Rng rng_;
};

// The validity flags a padding mask needs: false for pad tokens.
std::vector<bool> key_valid_flags(const std::vector<std::string>& tokens);

}  // namespace attn
