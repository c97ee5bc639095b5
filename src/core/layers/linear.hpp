// The linear layers, as plain loops in a fixed order (every sum runs in one
// order, so native and wasm give the same bits: the scaling lab and the why
// experiments train through these). Shapes are row-major and contiguous.
// Backward ACCUMULATES (+=) into its gradients, which the caller zeroes.
#pragma once

namespace attn::layers {

// out (N, M) = in (N, K) w (K, M) (+ bias (M) when not null).
template <class Real>
void linear_forward(Real* out, const Real* in, const Real* w, const Real* bias, int N, int K, int M);
// dw (K, M) += in^T dout; dbias (M) += column sums of dout (when not null);
// din (N, K) += dout w^T (when not null).
template <class Real>
void linear_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, int N, int K,
                     int M);

// The tied output layer (the poem model reads its logits off the token
// embedding): logits (N, V) = in (N, C) wte^T, wte (V, C).
template <class Real>
void logits_forward(Real* logits, const Real* in, const Real* wte, int N, int C, int V);
// din (N, C) += dlogits wte; dwte (V, C) += dlogits^T in.
template <class Real>
void logits_backward(Real* din, Real* dwte, const Real* dlogits, const Real* in, const Real* wte, int N, int C, int V);

}  // namespace attn::layers
