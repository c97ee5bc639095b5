// The residual stream and dropout, element-wise. Plain loops, templated on
// the number type (float; double for the finite-difference checks); backward
// ACCUMULATES (+=) into its gradients, except dropout's, which scales in place.
#pragma once

#include <cmath>
#include <cstddef>

#include "core/base/rng.hpp"

namespace attn::layers {

// out (N) = a + b
template <class Real>
void residual_forward(Real* out, const Real* a, const Real* b, int N);
template <class Real>
void residual_backward(Real* da, Real* db, const Real* dout, int N);

// Dropout (training only): out (N) = inp (N) * mask (N), where dropout_mask
// drew each mask[i] as 0 with probability p and 1 / (1 - p) otherwise, so the
// expected output is the input. The gradient takes the same product: in
// place, dinout (N) *= mask. out may be inp.
template <class Real>
void dropout_mask(Real* mask, int N, float p, Rng& rng);
template <class Real>
void dropout_forward(Real* out, const Real* inp, const Real* mask, int N);
template <class Real>
void dropout_backward(Real* dinout, const Real* mask, int N);

// ---- definitions: in the header, so the poem model's fast path clones them per
// vector width (kernels/per_isa.hpp) with the same bits.

template <class Real>
void residual_forward(Real* out, const Real* a, const Real* b, int N) {
  for (std::ptrdiff_t i = 0; i < N; ++i) out[i] = a[i] + b[i];
}

template <class Real>
void residual_backward(Real* da, Real* db, const Real* dout, int N) {
  for (std::ptrdiff_t i = 0; i < N; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

template <class Real>
void dropout_mask(Real* mask, int N, float p, Rng& rng) {
  const Real keep = Real(1) / (Real(1) - Real(p));
  for (std::ptrdiff_t i = 0; i < N; ++i) mask[i] = rng.uniform() < p ? Real(0) : keep;
}

template <class Real>
void dropout_forward(Real* out, const Real* inp, const Real* mask, int N) {
  for (std::ptrdiff_t i = 0; i < N; ++i) out[i] = inp[i] * mask[i];
}

template <class Real>
void dropout_backward(Real* dinout, const Real* mask, int N) {
  for (std::ptrdiff_t i = 0; i < N; ++i) dinout[i] *= mask[i];
}

}  // namespace attn::layers
