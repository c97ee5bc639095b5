// The causal convolution; see why_conv.hpp.
#include "why_conv.hpp"

#include <cstddef>
#include <vector>

namespace attn::why {

using std::size_t;

template <class Real>
void conv_forward(Real* y, const Real* x, const Real* w, const Real* b, int B, int T, int C, int H, int K) {
  for (size_t r = 0; r < size_t(B) * size_t(T); ++r) {
    const int t = int(r % size_t(T));
    Real* out = y + r * size_t(H);
    for (int h = 0; h < H; ++h) out[h] = b[h];
    for (int j = 0; j < K && j <= t; ++j) {  // tap j reads the position j back
      const Real* in = x + (r - size_t(j)) * size_t(C);
      const Real* tap = w + size_t(j) * size_t(C) * size_t(H);
      for (int c = 0; c < C; ++c)
        for (int h = 0; h < H; ++h) out[h] += in[c] * tap[size_t(c) * size_t(H) + size_t(h)];
    }
    for (int h = 0; h < H; ++h) out[h] = out[h] > Real(0) ? out[h] : Real(0);
  }
}

template <class Real>
void conv_backward(Real* dx, Real* dw, Real* db, const Real* dy, const Real* y, const Real* x, const Real* w, int B,
                   int T, int C, int H, int K) {
  std::vector<Real> dz(static_cast<size_t>(H));
  for (size_t r = 0; r < size_t(B) * size_t(T); ++r) {
    const int t = int(r % size_t(T));
    bool any = false;
    for (int h = 0; h < H; ++h) {  // through the ReLU: only where it let the sum through
      dz[size_t(h)] = y[r * size_t(H) + size_t(h)] > Real(0) ? dy[r * size_t(H) + size_t(h)] : Real(0);
      any = any || dz[size_t(h)] != Real(0);
    }
    if (!any) continue;
    for (int h = 0; h < H; ++h) db[h] += dz[size_t(h)];
    for (int j = 0; j < K && j <= t; ++j) {
      const size_t s = r - size_t(j);
      const Real* tap = w + size_t(j) * size_t(C) * size_t(H);
      Real* dtap = dw + size_t(j) * size_t(C) * size_t(H);
      for (int c = 0; c < C; ++c) {
        const Real in = x[s * size_t(C) + size_t(c)];
        Real back = 0;
        for (int h = 0; h < H; ++h) {
          dtap[size_t(c) * size_t(H) + size_t(h)] += in * dz[size_t(h)];
          back += dz[size_t(h)] * tap[size_t(c) * size_t(H) + size_t(h)];
        }
        if (dx) dx[s * size_t(C) + size_t(c)] += back;
      }
    }
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_WHY_CONV(Real)                                                                                       \
  template void conv_forward<Real>(Real*, const Real*, const Real*, const Real*, int, int, int, int, int);        \
  template void conv_backward<Real>(Real*, Real*, Real*, const Real*, const Real*, const Real*, const Real*, int, \
                                    int, int, int, int);
ATTN_WHY_CONV(float)
ATTN_WHY_CONV(double)
#undef ATTN_WHY_CONV
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::why
