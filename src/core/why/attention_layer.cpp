// The attention layer; see attention_layer.hpp. Plain loops in a fixed order,
// as the recurrent layers: the two sides of the experiment are computed the
// same way, so their timings compare the work each must do, not how well
// each was tuned.
#include "attention_layer.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/base/detmath.hpp"

namespace attn::why::ref {
namespace {

std::size_t at(int i, int j, int n) { return std::size_t(i) * std::size_t(n) + std::size_t(j); }

}  // namespace

template <class Real>
void attention_forward(Real* out, Real* att, const Real* q, const Real* k, const Real* v, int B, int T, int D) {
  const double scale = 1.0 / std::sqrt(double(D));
  for (int b = 0; b < B; ++b) {
    const std::size_t row0 = std::size_t(b) * std::size_t(T);
    for (int t = 0; t < T; ++t) {
      const Real* qt = q + (row0 + std::size_t(t)) * std::size_t(D);
      Real* w = att + (row0 + std::size_t(t)) * std::size_t(T);
      double max = -INFINITY;
      for (int j = 0; j <= t; ++j) {
        const Real* kj = k + (row0 + std::size_t(j)) * std::size_t(D);
        Real s = 0;
        for (int i = 0; i < D; ++i) s += qt[i] * kj[i];
        w[j] = Real(double(s) * scale);
        if (double(w[j]) > max) max = double(w[j]);
      }
      double sum = 0;
      for (int j = 0; j <= t; ++j) {
        w[j] = Real(det_exp(double(w[j]) - max));
        sum += double(w[j]);
      }
      for (int j = t + 1; j < T; ++j) w[j] = 0;
      Real* o = out + (row0 + std::size_t(t)) * std::size_t(D);
      for (int i = 0; i < D; ++i) o[i] = 0;
      for (int j = 0; j <= t; ++j) {
        w[j] = Real(double(w[j]) / sum);
        const Real* vj = v + (row0 + std::size_t(j)) * std::size_t(D);
        for (int i = 0; i < D; ++i) o[i] += w[j] * vj[i];
      }
    }
  }
}

// Backward mirrors the passes: the weighted sum -> d weights and d values;
// the softmax -> d scores = w (dw - sum_j w dw); the scores -> d queries and d keys.
template <class Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dout, const Real* att, const Real* q, const Real* k,
                        const Real* v, int B, int T, int D) {
  const Real scale = Real(1.0 / std::sqrt(double(D)));
  std::vector<Real> dw(std::size_t(T > 0 ? T : 0));
  for (int b = 0; b < B; ++b) {
    const std::size_t row0 = std::size_t(b) * std::size_t(T);
    for (int t = 0; t < T; ++t) {
      const Real* w = att + (row0 + std::size_t(t)) * std::size_t(T);
      const Real* go = dout + (row0 + std::size_t(t)) * std::size_t(D);
      Real inner = 0;  // sum_j w_j dw_j
      for (int j = 0; j <= t; ++j) {
        const Real* vj = v + (row0 + std::size_t(j)) * std::size_t(D);
        Real* dvj = dv + (row0 + std::size_t(j)) * std::size_t(D);
        Real s = 0;
        for (int i = 0; i < D; ++i) {
          s += go[i] * vj[i];
          dvj[i] += w[j] * go[i];
        }
        dw[std::size_t(j)] = s;
        inner += w[j] * s;
      }
      const Real* qt = q + (row0 + std::size_t(t)) * std::size_t(D);
      Real* dqt = dq + (row0 + std::size_t(t)) * std::size_t(D);
      for (int j = 0; j <= t; ++j) {
        const Real ds = w[j] * (dw[std::size_t(j)] - inner) * scale;
        const Real* kj = k + (row0 + std::size_t(j)) * std::size_t(D);
        Real* dkj = dk + (row0 + std::size_t(j)) * std::size_t(D);
        for (int i = 0; i < D; ++i) {
          dqt[i] += ds * kj[i];
          dkj[i] += ds * qt[i];
        }
      }
    }
  }
}

template <class Real>
void linear_forward(Real* out, const Real* in, const Real* w, const Real* bias, int N, int K, int M) {
  for (int n = 0; n < N; ++n) {
    Real* o = out + at(n, 0, M);
    for (int m = 0; m < M; ++m) o[m] = bias ? bias[m] : Real(0);
    for (int i = 0; i < K; ++i) {
      const Real x = in[at(n, i, K)];
      for (int m = 0; m < M; ++m) o[m] += x * w[at(i, m, M)];
    }
  }
}

template <class Real>
void linear_backward(Real* din, Real* dw, Real* dbias, const Real* dout, const Real* in, const Real* w, int N, int K,
                     int M) {
  for (int n = 0; n < N; ++n) {
    const Real* g = dout + at(n, 0, M);
    if (dbias)
      for (int m = 0; m < M; ++m) dbias[m] += g[m];
    for (int i = 0; i < K; ++i) {
      const Real x = in[at(n, i, K)];
      Real s = 0;
      for (int m = 0; m < M; ++m) {
        dw[at(i, m, M)] += x * g[m];
        s += g[m] * w[at(i, m, M)];
      }
      if (din) din[at(n, i, K)] += s;
    }
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_WHY_ATTENTION(Real)                                                                                      \
  template void attention_forward(Real*, Real*, const Real*, const Real*, const Real*, int, int, int);               \
  template void attention_backward(Real*, Real*, Real*, const Real*, const Real*, const Real*, const Real*,          \
                                   const Real*, int, int, int);                                                       \
  template void linear_forward(Real*, const Real*, const Real*, const Real*, int, int, int);                         \
  template void linear_backward(Real*, Real*, Real*, const Real*, const Real*, const Real*, int, int, int);
ATTN_WHY_ATTENTION(float)
ATTN_WHY_ATTENTION(double)
#undef ATTN_WHY_ATTENTION
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::why::ref
