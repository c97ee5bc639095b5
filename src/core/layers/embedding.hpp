// The embedding: each position's input is its token's row plus its
// position's row (GPT-2's learned positions).
// Plain loops, templated on the number type (float; double for the
// finite-difference checks); backward ACCUMULATES (+=) into its gradients.
// The poem model's fast float path (poem/gpt_layers.hpp) holds the same contracts.
#pragma once

namespace attn::layers {

// out (B,T,C) = wte[tokens] (V,C) + wpe[t] (T_max,C); wpe null: no positions.
template <class Real>
void embedding_forward(Real* out, const int* tokens, const Real* wte, const Real* wpe, int B, int T, int C);
// dwte[token] += dout, dwpe[t] += dout when not null (accumulates: a token read twice gets both)
template <class Real>
void embedding_backward(Real* dwte, Real* dwpe, const Real* dout, const int* tokens, int B, int T, int C);

}  // namespace attn::layers
