// GELU, the tanh approximation (GPT-2's).
// Plain loops, templated on the number type (float; double for the
// finite-difference checks); backward ACCUMULATES (+=) into its gradients.
// The poem model's fast float path (poem/gpt_layers.hpp) holds the same contracts.
#pragma once

namespace attn::layers {

// out (N) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <class Real>
void gelu_forward(Real* out, const Real* inp, int N);
// dinp (N) += gelu'(inp) dout
template <class Real>
void gelu_backward(Real* dinp, const Real* inp, const Real* dout, int N);

}  // namespace attn::layers
