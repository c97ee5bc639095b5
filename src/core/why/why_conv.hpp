// The convolution of the "why attention" experiments (d2l's third column
// beside the RNN and self-attention): a causal 1-D convolution with a kernel
// of K taps and a ReLU,
//
//   y_t = ReLU(b + x_t W_0 + x_{t-1} W_1 + ... + x_{t-K+1} W_{K-1}),
//
// the positions before the first read as zeros. Each layer sees K - 1 more
// positions back, so a stack of L layers of kernel 3 reaches 2L back and no
// further: the fixed, local filter the chapter contrasts with attention's
// (the same weights W_j at every position, whatever the tokens are).
//
// B sequences of T positions, C input channels, H output channels; w (K, C, H)
// holds the taps W_0 .. W_{K-1}; every array row-major and contiguous. Plain
// loops in a fixed order (the same bits natively and in wasm), templated on
// the number type (float; double for the finite-difference checks). Backward
// ACCUMULATES (+=) into dw, db and dx, which the caller zeroes.
#pragma once

namespace attn::why {

inline constexpr int kConvKernel = 3;

// y (B, T, H): the layer's outputs after the ReLU (backward reads them).
template <class Real>
void conv_forward(Real* y, const Real* x, const Real* w, const Real* b, int B, int T, int C, int H, int K);
// dy (B, T, H): the gradient at y; dx may be null (the first layer's input is fixed).
template <class Real>
void conv_backward(Real* dx, Real* dw, Real* db, const Real* dy, const Real* y, const Real* x, const Real* w, int B,
                   int T, int C, int H, int K);

}  // namespace attn::why
