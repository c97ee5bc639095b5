// The recurrent layers (the "why attention" experiments' other side: in a
// recurrent network information and gradient between distant positions pass
// through many steps and fade, while attention joins any two positions in
// one): a plain tanh RNN and a GRU (the gated variant, the fair comparison),
// one free function per layer forward and one backward (backpropagation
// through time): B sequences of T steps, C input channels, H hidden units,
// every array row-major and contiguous, templated on the number type (float;
// double for the finite-difference checks).
//
// The states start at h_0 = 0. hs (B, T+1, H) keeps every state, hs[b][0] = 0,
// for backward. Backward functions ACCUMULATE (+=) into the parameter
// gradients, which the caller zeroes; dx (B, T, C) is written, and ‖dx_t‖ is
// the gradient reaching input t (what the view plots by distance).
// dhs (B, T+1, H) holds dL/dh_t from outside the layer (a read-out of the last
// state: only dhs[b][T]); backward adds the gradient carried back through
// time into it as it goes, so it is modified.
//
// tanh and the logistic sigmoid come from det_exp (detmath.hpp): the same bits
// natively and in wasm, so a seed trains the same curves in the page and in
// attention_cli.
#pragma once

namespace attn::layers {

// h_t = tanh(x_t Wx + h_{t-1} Wh + b); wx (C,H), wh (H,H), b (H).
template <class Real>
void rnn_forward(Real* hs, const Real* x, const Real* wx, const Real* wh, const Real* b, int B, int T, int C, int H);
template <class Real>
void rnn_backward(Real* dx, Real* dwx, Real* dwh, Real* db, Real* dhs, const Real* hs, const Real* x, const Real* wx,
                  const Real* wh, int B, int T, int C, int H);

// The GRU (Cho et al. 2014, the reset gate before the recurrent product):
//   z = σ(x_t Wz + h Uz + bz)          update gate
//   r = σ(x_t Wr + h Ur + br)          reset gate
//   n = tanh(x_t Wn + (r ⊙ h) Un + bn) candidate
//   h_t = (1 - z) ⊙ n + z ⊙ h          h = h_{t-1}
// w (C, 3H) and u (H, 3H) hold the z, r and n columns side by side, b (3H) the
// same. gates (B, T, 3H) keeps z, r and n of every step for backward.
template <class Real>
void gru_forward(Real* hs, Real* gates, const Real* x, const Real* w, const Real* u, const Real* b, int B, int T, int C,
                 int H);
template <class Real>
void gru_backward(Real* dx, Real* dw, Real* du, Real* db, Real* dhs, const Real* hs, const Real* gates, const Real* x,
                  const Real* w, const Real* u, int B, int T, int C, int H);

// The activations, deterministic (computed in double).
template <class Real>
Real det_tanh(Real x);
template <class Real>
Real det_sigmoid(Real x);

}  // namespace attn::layers
