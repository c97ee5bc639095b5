// The recurrent layers; see recurrent.hpp. Plain loops in a fixed
// order: each step's products are small (H up to a few dozen), and the
// experiment's point is that the steps depend on each other, not their speed.
#include "recurrent.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/base/detmath.hpp"

namespace attn::layers {
namespace {

std::size_t at(int i, int j, int n) { return std::size_t(i) * std::size_t(n) + std::size_t(j); }

// The backward of a product the forward passes add into pre-activations,
// a[j] += sum_i in[i] w[i, col + j] for j < n (w's rows `stride` wide):
// dw[i, col + j] += in[i] da[j], and din[i] = sum_j da[j] w[i, col + j]
// (written: the caller adds it where a gradient gathers).
template <class Real>
void product_backward(Real* din, Real* dw, const Real* in, const Real* da, const Real* w, int rows, int col, int n,
                      int stride) {
  for (int i = 0; i < rows; ++i) {
    Real s = 0;
    for (int j = 0; j < n; ++j) {
      dw[at(i, col + j, stride)] += in[i] * da[j];
      s += da[j] * w[at(i, col + j, stride)];
    }
    din[i] = s;
  }
}

}  // namespace

template <class Real>
Real det_tanh(Real x) {
  // tanh(x) = 1 - 2 / (e^{2x} + 1) for x >= 0, odd: no overflow for large |x|.
  const double a = std::fabs(double(x));
  const double t = 1.0 - 2.0 / (det_exp(2.0 * a) + 1.0);
  return Real(x < 0 ? -t : t);
}

template <class Real>
Real det_sigmoid(Real x) {
  const double v = double(x);
  // For v < 0, e^{v} / (1 + e^{v}): no overflow either way.
  if (v >= 0) return Real(1.0 / (1.0 + det_exp(-v)));
  const double e = det_exp(v);
  return Real(e / (1.0 + e));
}

template <class Real>
void rnn_forward(Real* hs, const Real* x, const Real* wx, const Real* wh, const Real* b, int B, int T, int C, int H) {
  for (int bi = 0; bi < B; ++bi) {
    Real* h = hs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    for (int j = 0; j < H; ++j) h[j] = 0;
    for (int t = 0; t < T; ++t) {
      const Real* xt = x + (std::size_t(bi) * std::size_t(T) + std::size_t(t)) * std::size_t(C);
      const Real* prev = h + std::size_t(t) * std::size_t(H);
      Real* next = h + std::size_t(t + 1) * std::size_t(H);
      for (int j = 0; j < H; ++j) {
        Real a = b[j];
        for (int c = 0; c < C; ++c) a += xt[c] * wx[at(c, j, H)];
        for (int k = 0; k < H; ++k) a += prev[k] * wh[at(k, j, H)];
        next[j] = det_tanh(a);
      }
    }
  }
}

template <class Real>
void rnn_backward(Real* dx, Real* dwx, Real* dwh, Real* db, Real* dhs, const Real* hs, const Real* x, const Real* wx,
                  const Real* wh, int B, int T, int C, int H) {
  std::vector<Real> da(static_cast<std::size_t>(H)), dcarry(static_cast<std::size_t>(H));
  for (int bi = 0; bi < B; ++bi) {
    const Real* h = hs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    Real* dh = dhs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    for (int t = T - 1; t >= 0; --t) {
      const Real* xt = x + (std::size_t(bi) * std::size_t(T) + std::size_t(t)) * std::size_t(C);
      Real* dxt = dx + (std::size_t(bi) * std::size_t(T) + std::size_t(t)) * std::size_t(C);
      const Real* prev = h + std::size_t(t) * std::size_t(H);
      const Real* next = h + std::size_t(t + 1) * std::size_t(H);
      const Real* dnext = dh + std::size_t(t + 1) * std::size_t(H);
      Real* dprev = dh + std::size_t(t) * std::size_t(H);
      for (int j = 0; j < H; ++j) da[std::size_t(j)] = dnext[j] * (Real(1) - next[j] * next[j]);  // through tanh
      for (int j = 0; j < H; ++j) db[j] += da[std::size_t(j)];
      product_backward(dxt, dwx, xt, da.data(), wx, C, 0, H, H);
      product_backward(dcarry.data(), dwh, prev, da.data(), wh, H, 0, H, H);
      for (int k = 0; k < H; ++k) dprev[k] += dcarry[std::size_t(k)];  // carried back through time
    }
  }
}

template <class Real>
void gru_forward(Real* hs, Real* gates, const Real* x, const Real* w, const Real* u, const Real* b, int B, int T, int C,
                 int H) {
  const int G = 3 * H;
  std::vector<Real> rh(static_cast<std::size_t>(H));
  for (int bi = 0; bi < B; ++bi) {
    Real* h = hs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    for (int j = 0; j < H; ++j) h[j] = 0;
    for (int t = 0; t < T; ++t) {
      const std::size_t row = std::size_t(bi) * std::size_t(T) + std::size_t(t);
      const Real* xt = x + row * std::size_t(C);
      Real* g = gates + row * std::size_t(G);  // z | r | n
      const Real* prev = h + std::size_t(t) * std::size_t(H);
      Real* next = h + std::size_t(t + 1) * std::size_t(H);
      for (int j = 0; j < 2 * H; ++j) {  // the gates z and r
        Real a = b[j];
        for (int c = 0; c < C; ++c) a += xt[c] * w[at(c, j, G)];
        for (int k = 0; k < H; ++k) a += prev[k] * u[at(k, j, G)];
        g[j] = det_sigmoid(a);
      }
      for (int k = 0; k < H; ++k) rh[std::size_t(k)] = g[H + k] * prev[k];
      for (int j = 0; j < H; ++j) {  // the candidate n
        Real a = b[2 * H + j];
        for (int c = 0; c < C; ++c) a += xt[c] * w[at(c, 2 * H + j, G)];
        for (int k = 0; k < H; ++k) a += rh[std::size_t(k)] * u[at(k, 2 * H + j, G)];
        g[2 * H + j] = det_tanh(a);
      }
      for (int j = 0; j < H; ++j) next[j] = (Real(1) - g[j]) * g[2 * H + j] + g[j] * prev[j];
    }
  }
}

template <class Real>
void gru_backward(Real* dx, Real* dw, Real* du, Real* db, Real* dhs, const Real* hs, const Real* gates, const Real* x,
                  const Real* w, const Real* u, int B, int T, int C, int H) {
  const int G = 3 * H;
  std::vector<Real> da(static_cast<std::size_t>(G)), rh(static_cast<std::size_t>(H)), drh(static_cast<std::size_t>(H)),
      dcarry(static_cast<std::size_t>(H));
  for (int bi = 0; bi < B; ++bi) {
    const Real* h = hs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    Real* dh = dhs + std::size_t(bi) * std::size_t(T + 1) * std::size_t(H);
    for (int t = T - 1; t >= 0; --t) {
      const std::size_t row = std::size_t(bi) * std::size_t(T) + std::size_t(t);
      const Real* xt = x + row * std::size_t(C);
      Real* dxt = dx + row * std::size_t(C);
      const Real* g = gates + row * std::size_t(G);
      const Real* prev = h + std::size_t(t) * std::size_t(H);
      const Real* dnext = dh + std::size_t(t + 1) * std::size_t(H);
      Real* dprev = dh + std::size_t(t) * std::size_t(H);
      // h_t = (1 - z) n + z h: into the pre-activations of z and n, and h directly.
      for (int j = 0; j < H; ++j) {
        const Real z = g[j], n = g[2 * H + j];
        da[std::size_t(j)] = dnext[j] * (prev[j] - n) * z * (Real(1) - z);
        da[2 * std::size_t(H) + std::size_t(j)] = dnext[j] * (Real(1) - z) * (Real(1) - n * n);
        dprev[j] += dnext[j] * z;
      }
      // n's recurrent product read r ⊙ h: into Un, r and h.
      for (int k = 0; k < H; ++k) rh[std::size_t(k)] = g[H + k] * prev[k];
      product_backward(drh.data(), du, rh.data(), da.data() + 2 * H, u, H, 2 * H, H, G);
      for (int k = 0; k < H; ++k) {
        const Real r = g[H + k];
        da[std::size_t(H) + std::size_t(k)] = drh[std::size_t(k)] * prev[k] * r * (Real(1) - r);
        dprev[k] += drh[std::size_t(k)] * r;
      }
      // The gates' recurrent products read h: into Uz, Ur and h.
      product_backward(dcarry.data(), du, prev, da.data(), u, H, 0, 2 * H, G);
      for (int k = 0; k < H; ++k) dprev[k] += dcarry[std::size_t(k)];
      // Every pre-activation read x_t W + b.
      for (int j = 0; j < G; ++j) db[j] += da[std::size_t(j)];
      product_backward(dxt, dw, xt, da.data(), w, C, 0, G, G);
    }
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_RECURRENT(Real)                                                                                    \
  template Real det_tanh<Real>(Real);                                                                                \
  template Real det_sigmoid<Real>(Real);                                                                             \
  template void rnn_forward<Real>(Real*, const Real*, const Real*, const Real*, const Real*, int, int, int, int);   \
  template void rnn_backward<Real>(Real*, Real*, Real*, Real*, Real*, const Real*, const Real*, const Real*,         \
                                   const Real*, int, int, int, int);                                                 \
  template void gru_forward<Real>(Real*, Real*, const Real*, const Real*, const Real*, const Real*, int, int, int,  \
                                  int);                                                                              \
  template void gru_backward<Real>(Real*, Real*, Real*, Real*, Real*, const Real*, const Real*, const Real*,         \
                                   const Real*, const Real*, int, int, int, int);
ATTN_RECURRENT(float)
ATTN_RECURRENT(double)
#undef ATTN_RECURRENT
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::layers
