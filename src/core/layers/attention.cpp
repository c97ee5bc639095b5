// One head of scaled dot-product attention; see attention.hpp.
#include "attention.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include "core/base/detmath.hpp"

namespace attn::layers {
namespace {

using Z = std::ptrdiff_t;  // products of sizes overflow int

}  // namespace

template <class Real>
void attention_forward(Real* out, int ld_out, Real* att, const Real* q, const Real* k, const Real* v, int ld,
                       int n_q, int n_k, int d, double scale, const bool* allowed) {
  for (Z i = 0; i < n_q; ++i) {
    const Real* qi = q + i * ld;
    Real* w = att + i * n_k;
    const bool* row = allowed ? allowed + i * n_k : nullptr;
    // pass 1: scores and their maximum (exp never overflows after subtracting it)
    double max = -INFINITY;
    for (Z j = 0; j < n_k; ++j) {
      if (row && !row[j]) continue;
      const Real* kj = k + j * ld;
      Real s = 0;
      for (Z c = 0; c < d; ++c) s += qi[c] * kj[c];
      w[j] = Real(double(s) * scale);
      if (double(w[j]) > max) max = double(w[j]);
    }
    // pass 2: exp and sum; masked keys exactly 0
    double sum = 0;
    for (Z j = 0; j < n_k; ++j) {
      if (row && !row[j]) {
        w[j] = 0;
        continue;
      }
      w[j] = Real(det_exp(double(w[j]) - max));
      sum += double(w[j]);
    }
    // pass 3: normalise, and the weighted sum of the values
    Real* o = out + i * ld_out;
    for (Z c = 0; c < d; ++c) o[c] = 0;
    if (sum == 0) continue;  // no allowed key
    for (Z j = 0; j < n_k; ++j) {
      if (row && !row[j]) continue;
      w[j] = Real(double(w[j]) / sum);
      const Real* vj = v + j * ld;
      for (Z c = 0; c < d; ++c) o[c] += w[j] * vj[c];
    }
  }
}

template <class Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dout, int ld_out, const Real* att, const Real* q,
                        const Real* k, const Real* v, int ld, int n_q, int n_k, int d, double scale,
                        const bool* allowed) {
  const Real s = Real(scale);
  std::vector<Real> dw(std::size_t(n_k > 0 ? n_k : 0));
  for (Z i = 0; i < n_q; ++i) {
    const Real* w = att + i * n_k;
    const Real* go = dout + i * ld_out;
    const bool* row = allowed ? allowed + i * n_k : nullptr;
    // pass 3 back: d att_ij = dout_i . v_j;  dv_j += att_ij dout_i
    Real inner = 0;  // sum_j att_ij d att_ij
    for (Z j = 0; j < n_k; ++j) {
      if (row && !row[j]) continue;
      const Real* vj = v + j * ld;
      Real* dvj = dv + j * ld;
      Real dot = 0;
      for (Z c = 0; c < d; ++c) {
        dot += go[c] * vj[c];
        dvj[c] += w[j] * go[c];
      }
      dw[std::size_t(j)] = dot;
      inner += w[j] * dot;
    }
    // passes 2 and 1 back: d s_ij = att_ij (d att_ij - inner);
    // dq_i += scale d s_ij k_j;  dk_j += scale d s_ij q_i
    const Real* qi = q + i * ld;
    Real* dqi = dq + i * ld;
    for (Z j = 0; j < n_k; ++j) {
      if (row && !row[j]) continue;
      const Real ds = w[j] * (dw[std::size_t(j)] - inner) * s;
      const Real* kj = k + j * ld;
      Real* dkj = dk + j * ld;
      for (Z c = 0; c < d; ++c) {
        dqi[c] += ds * kj[c];
        dkj[c] += ds * qi[c];
      }
    }
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_ATTENTION(Real)                                                                                     \
  template void attention_forward(Real*, int, Real*, const Real*, const Real*, const Real*, int, int, int, int, \
                                  double, const bool*);                                                        \
  template void attention_backward(Real*, Real*, Real*, const Real*, int, const Real*, const Real*, const Real*, \
                                   const Real*, int, int, int, int, double, const bool*);
ATTN_ATTENTION(float)
ATTN_ATTENTION(double)
#undef ATTN_ATTENTION
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::layers
