// See gelu.hpp.
#include "gelu.hpp"

#include <cmath>
#include <cstddef>

namespace attn::layers {

namespace {

using Z = std::ptrdiff_t;  // every index below: products of sizes overflow int

template <class Real>
Real gelu_inner_scale() { return static_cast<Real>(std::sqrt(2.0 / 3.14159265358979323846)); }

}  // namespace

template <class Real>
void gelu_forward(Real* out, const Real* inp, int N) {
  const Real s = gelu_inner_scale<Real>();
  for (Z i = 0; i < N; ++i) {
    const Real x = inp[i];
    out[i] = Real(0.5) * x * (Real(1) + std::tanh(s * (x + Real(0.044715) * x * x * x)));
  }
}

template <class Real>
void gelu_backward(Real* dinp, const Real* inp, const Real* dout, int N) {
  const Real s = gelu_inner_scale<Real>();
  for (Z i = 0; i < N; ++i) {
    const Real x = inp[i];
    const Real u = s * (x + Real(0.044715) * x * x * x);
    const Real th = std::tanh(u);
    const Real sech2 = Real(1) - th * th;
    const Real du = s * (Real(1) + Real(3 * 0.044715) * x * x);
    dinp[i] += (Real(0.5) * (Real(1) + th) + Real(0.5) * x * sech2 * du) * dout[i];
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_GELU(Real) \
  template void gelu_forward(Real*, const Real*, int);                                                      \
  template void gelu_backward(Real*, const Real*, const Real*, int);
ATTN_GELU(float)
ATTN_GELU(double)
#undef ATTN_GELU
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::layers
