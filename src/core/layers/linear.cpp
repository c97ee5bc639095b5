// The linear layers; see linear.hpp.
#include "linear.hpp"

#include <cstddef>

namespace attn::layers {
namespace {

using Z = std::ptrdiff_t;  // products of sizes overflow int
std::size_t at(Z i, Z j, Z n) { return std::size_t(i * n + j); }

}  // namespace

// Each out[n][m] starts at the bias and adds in[n][i] w[i][m] in i order. The
// inner loop over m has no reduction, so vectorising it changes no result.
template <class Real>
void linear_forward(Real* out, const Real* in, const Real* w, const Real* bias, int N, int K, int M) {
  for (Z n = 0; n < N; ++n) {
    Real* o = out + at(n, 0, M);
    for (Z m = 0; m < M; ++m) o[m] = bias ? bias[m] : Real(0);
    for (Z i = 0; i < K; ++i) {
      const Real x = in[at(n, i, K)];
      for (Z m = 0; m < M; ++m) o[m] += x * w[at(i, m, M)];
    }
  }
}

template <class Real>
void linear_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, int N, int K,
                     int M) {
  for (Z n = 0; n < N; ++n) {
    const Real* g = dout + at(n, 0, M);
    if (dbias)
      for (Z m = 0; m < M; ++m) dbias[m] += g[m];
    for (Z i = 0; i < K; ++i) {
      const Real x = in[at(n, i, K)];
      Real s = 0;
      for (Z m = 0; m < M; ++m) {
        dw[at(i, m, M)] += x * g[m];
        s += g[m] * w[at(i, m, M)];
      }
      if (din) din[at(n, i, K)] += s;
    }
  }
}

template <class Real>
void logits_forward(Real* logits, const Real* in, const Real* wte, int N, int C, int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v) {
      Real sum = 0;
      for (Z i = 0; i < C; ++i) sum += in[at(n, i, C)] * wte[at(v, i, C)];
      logits[at(n, v, V)] = sum;
    }
}

template <class Real>
void logits_backward(Real* din, Real* dwte, const Real* dlogits, const Real* in, const Real* wte, int N, int C, int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v) {
      const Real d = dlogits[at(n, v, V)];
      for (Z i = 0; i < C; ++i) {
        din[at(n, i, C)] += wte[at(v, i, C)] * d;
        dwte[at(v, i, C)] += in[at(n, i, C)] * d;
      }
    }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_LINEAR(Real)                                                                                   \
  template void linear_forward(Real*, const Real*, const Real*, const Real*, int, int, int);                \
  template void linear_backward(Real*, Real*, Real*, const Real*, const Real*, const Real*, int, int, int); \
  template void logits_forward(Real*, const Real*, const Real*, int, int, int);                             \
  template void logits_backward(Real*, Real*, const Real*, const Real*, const Real*, int, int, int);
ATTN_LINEAR(float)
ATTN_LINEAR(double)
#undef ATTN_LINEAR
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::layers
