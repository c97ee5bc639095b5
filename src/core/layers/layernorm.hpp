// Layer normalisation over each row's C channels, with a learned scale and shift.
// Plain loops, templated on the number type (float; double for the
// finite-difference checks); backward ACCUMULATES (+=) into its gradients.
// The poem model's fast float path (poem/gpt_layers.hpp) holds the same contracts.
#pragma once

#include <cmath>
#include <cstddef>

namespace attn::layers {

// out (N,C) = (inp - mean) * rstd * weight + bias, per row; mean, rstd (N) kept for backward.
template <class Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* weight, const Real* bias,
                       int N, int C);
// With xhat = (x - mean) rstd and g = dout * weight: dinp += rstd (g - mean(g) - xhat mean(g xhat));
// dweight += xhat dout, dbias += dout (summed over rows).
template <class Real>
void layernorm_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp,
                        const Real* weight, const Real* mean, const Real* rstd, int N, int C);

// ---- definitions: in the header, so the poem model's fast path clones them per
// vector width (kernels/per_isa.hpp) with the same bits.

template <class Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* weight, const Real* bias,
                       int N, int C) {
  const Real eps = Real(1e-5);
  for (std::ptrdiff_t n = 0; n < N; ++n) {
    const Real* x = inp + n * C;
    Real m = 0;
    for (std::ptrdiff_t i = 0; i < C; ++i) m += x[i];
    m /= Real(C);
    Real var = 0;
    for (std::ptrdiff_t i = 0; i < C; ++i) var += (x[i] - m) * (x[i] - m);
    var /= Real(C);
    const Real s = Real(1) / std::sqrt(var + eps);
    for (std::ptrdiff_t i = 0; i < C; ++i) out[n * C + i] = (x[i] - m) * s * weight[i] + bias[i];
    mean[n] = m;
    rstd[n] = s;
  }
}

template <class Real>
void layernorm_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp,
                        const Real* weight, const Real* mean, const Real* rstd, int N, int C) {
  for (std::ptrdiff_t n = 0; n < N; ++n) {
    const Real* x = inp + n * C;
    const Real* dy = dout + n * C;
    Real g_mean = 0, g_xhat_mean = 0;
    for (std::ptrdiff_t i = 0; i < C; ++i) {
      const Real xhat = (x[i] - mean[n]) * rstd[n];
      const Real g = dy[i] * weight[i];
      g_mean += g;
      g_xhat_mean += g * xhat;
    }
    g_mean /= Real(C);
    g_xhat_mean /= Real(C);
    for (std::ptrdiff_t i = 0; i < C; ++i) {
      const Real xhat = (x[i] - mean[n]) * rstd[n];
      const Real g = dy[i] * weight[i];
      dbias[i] += dy[i];
      dweight[i] += xhat * dy[i];
      dinp[n * C + i] += (g - g_mean - xhat * g_xhat_mean) * rstd[n];
    }
  }
}

}  // namespace attn::layers
