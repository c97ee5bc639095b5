#include "sentence.hpp"

#include <cmath>

#include "rng.hpp"
#include "tokenizer.hpp"

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
  if (positions) X += sinusoidal_positions(static_cast<int>(tokens.size()), d_model);
  return X;
}

Matrix sinusoidal_positions(int n, int d_model) {
  // PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(same angle).
  Matrix pe(n, d_model);
  for (int pos = 0; pos < n; ++pos)
    for (int c = 0; c < d_model; ++c) {
      const int pair = c / 2;  // PE(pos, 2i) and PE(pos, 2i + 1) share one angle
      const double angle = pos / std::pow(10000.0, 2.0 * pair / d_model);
      pe(pos, c) = static_cast<float>(c % 2 == 0 ? std::sin(angle) : std::cos(angle));
    }
  return pe;
}

MultiHeadWeights random_projections(int d_model, int heads, uint64_t seed) {
  MultiHeadWeights w;
  w.heads = heads;
  // Xavier normal for a d_model x d_model matrix: var = 2 / (fan_in + fan_out) = 1 / d_model,
  // so projections of unit-variance embeddings keep unit variance.
  const float stddev = 1.0f / std::sqrt(static_cast<float>(d_model));
  Rng rng(seed, /*stream=*/1);
  for (Matrix* W : {&w.W_q, &w.W_k, &w.W_v, &w.W_o}) {
    W->resize(d_model, d_model);
    rng.fill_normal(*W, stddev);
  }
  return w;
}

std::vector<bool> key_valid_flags(const std::vector<std::string>& tokens) {
  std::vector<bool> valid(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) valid[i] = !is_pad(tokens[i]);
  return valid;
}

}  // namespace attn
