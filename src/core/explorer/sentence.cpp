#include "sentence.hpp"

#include <array>
#include <cmath>

#include "core/base/rng.hpp"
#include "core/base/tokenizer.hpp"

namespace attn {

Matrix embed_tokens(const std::vector<std::string>& tokens, int d_model, uint64_t seed,
                    bool positions) {
  Matrix X(static_cast<Eigen::Index>(tokens.size()), d_model);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    // Seeded by the token's text: "the" at position 0 and at position 4 get
    // the same vector, so identical words attend to each other visibly.
    Rng rng(stable_hash(tokens[i].data(), tokens[i].size()) ^ seed, /*stream=*/seed);
    for (int c = 0; c < d_model; ++c) X(static_cast<Eigen::Index>(i), c) = rng.normal();
  }
  if (positions) add_sinusoidal_positions(X, 0, static_cast<int>(tokens.size()));
  return X;
}

Matrix sinusoidal_positions(int n, int d_model) {
  Matrix pe = Matrix::Zero(n, d_model);
  add_sinusoidal_positions(pe, 0, n);
  return pe;
}

void add_sinusoidal_positions(Matrix& X, int first, int rows) {
  // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same angle).
  const int d_model = static_cast<int>(X.cols());
  std::vector<double> denominators(static_cast<std::size_t>(d_model));
  for (int c = 0; c < d_model; ++c) {
    const int pair = c / 2;  // PE(pos, 2i) and PE(pos, 2i + 1) share one angle
    denominators[static_cast<std::size_t>(c)] = std::pow(10000.0, 2.0 * pair / d_model);
  }
  for (int pos = first; pos < first + rows; ++pos)
    for (int c = 0; c < d_model; ++c) {
      const double angle = pos / denominators[static_cast<std::size_t>(c)];
      X(pos, c) += static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
}

// Xavier normal for a d_model x d_model matrix: var = 2 / (fan_in + fan_out) = 1 / d_model,
// so projections of unit-variance embeddings keep unit variance.
ProjectionDraws::ProjectionDraws(int d_model, uint64_t seed)
    : d_model_(d_model), stddev_(1.0f / std::sqrt(static_cast<float>(d_model))), rng_(seed, /*stream=*/1) {}

void ProjectionDraws::draw_rows(MultiHeadWeights& w, int which, int first, int rows) {
  Matrix& W = *std::array<Matrix*, 4>{&w.W_q, &w.W_k, &w.W_v, &w.W_o}[static_cast<std::size_t>(which)];
  if (first == 0) W.resize(d_model_, d_model_);
  for (int i = first; i < first + rows; ++i)
    for (int j = 0; j < d_model_; ++j) W(i, j) = stddev_ * rng_.normal();
}

MultiHeadWeights random_projections(int d_model, int heads, uint64_t seed) {
  MultiHeadWeights w;
  w.heads = heads;
  ProjectionDraws draws(d_model, seed);
  for (int which = 0; which < 4; ++which) draws.draw_rows(w, which, 0, d_model);
  return w;
}

std::vector<bool> key_valid_flags(const std::vector<std::string>& tokens) {
  std::vector<bool> valid(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) valid[i] = !is_pad(tokens[i]);
  return valid;
}

}  // namespace attn
