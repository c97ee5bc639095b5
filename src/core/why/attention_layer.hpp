// The attention side of the "why attention" experiments: one causal
// single-head attention layer over queries, keys and values already
// projected, as one free function forward and one backward, in the style of
// the recurrent layers (recurrent_layers.hpp): B sequences of T positions, D
// channels, row-major, templated on the number type.
//
//   att[b][t][j] = softmax_j (q_t . k_j / sqrt(D)) over j <= t (0 above the diagonal)
//   out[b][t]    = sum_j att[b][t][j] v_j
//
// Every position reaches every earlier one in one step: the path between the
// first input and the last output has length 1, where a recurrent layer's has T.
//
// Backward ACCUMULATES (+=) into dq, dk and dv, which may be the same array:
// the Q/K/V experiment's variants share one input for several roles (no
// projections: q = k = v = x; tied: q = k = x W), and the gradients of the
// roles then sum where they share, as the chain rule says.
//
// The softmax's exp is det_exp (detmath.hpp): the same bits natively and in
// wasm, so a seed trains the same model in the page and in attention_cli.
#pragma once

namespace attn::why::ref {

template <class Real>
void attention_forward(Real* out, Real* att, const Real* q, const Real* k, const Real* v, int B, int T, int D);
template <class Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dout, const Real* att, const Real* q, const Real* k,
                        const Real* v, int B, int T, int D);

// out (N, M) = in (N, K) w (K, M) (+ bias (M) when not null): the projections and the read-out.
template <class Real>
void linear_forward(Real* out, const Real* in, const Real* w, const Real* bias, int N, int K, int M);
// dw (K, M) += in^T dout; dbias (M) += column sums of dout (when not null);
// din (N, K) += dout w^T (when not null).
template <class Real>
void linear_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, int N, int K,
                     int M);

}  // namespace attn::why::ref
