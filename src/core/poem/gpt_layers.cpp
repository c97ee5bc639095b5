// The poem model's layers: plain loops (ref) and the kernels' float path (fast).
#include "gpt_layers.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "core/kernels/kernels.hpp"
#include "core/kernels/per_isa.hpp"

namespace attn::poem {

using Z = std::ptrdiff_t;  // every index below: products of sizes overflow int

namespace ref {

template <class Real>
void encoder_forward(Real* out, const int* tokens, const Real* wte, const Real* wpe, int B, int T, int C) {
  for (Z bt = 0; bt < Z(B) * T; ++bt) {
    const Real* token_row = wte + Z(tokens[bt]) * C;
    const Real* position_row = wpe + (bt % T) * C;
    for (Z i = 0; i < C; ++i) out[bt * C + i] = token_row[i] + position_row[i];
  }
}

template <class Real>
void encoder_backward(Real* dwte, Real* dwpe, const Real* dout, const int* tokens, int B, int T, int C) {
  for (Z bt = 0; bt < Z(B) * T; ++bt) {
    Real* token_row = dwte + Z(tokens[bt]) * C;
    Real* position_row = dwpe + (bt % T) * C;
    for (Z i = 0; i < C; ++i) {
      token_row[i] += dout[bt * C + i];
      position_row[i] += dout[bt * C + i];
    }
  }
}

template <class Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* weight, const Real* bias,
                       int N, int C) {
  const Real eps = Real(1e-5);
  for (Z n = 0; n < N; ++n) {
    const Real* x = inp + n * C;
    Real m = 0;
    for (Z i = 0; i < C; ++i) m += x[i];
    m /= Real(C);
    Real var = 0;
    for (Z i = 0; i < C; ++i) var += (x[i] - m) * (x[i] - m);
    var /= Real(C);
    const Real s = Real(1) / std::sqrt(var + eps);
    for (Z i = 0; i < C; ++i) out[n * C + i] = (x[i] - m) * s * weight[i] + bias[i];
    mean[n] = m;
    rstd[n] = s;
  }
}

// With xhat = (x - mean) rstd and g = dout * weight:
//   dx = rstd (g - mean(g) - xhat mean(g xhat)).
template <class Real>
void layernorm_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp,
                        const Real* weight, const Real* mean, const Real* rstd, int N, int C) {
  for (Z n = 0; n < N; ++n) {
    const Real* x = inp + n * C;
    const Real* dy = dout + n * C;
    Real g_mean = 0, g_xhat_mean = 0;
    for (Z i = 0; i < C; ++i) {
      const Real xhat = (x[i] - mean[n]) * rstd[n];
      const Real g = dy[i] * weight[i];
      g_mean += g;
      g_xhat_mean += g * xhat;
    }
    g_mean /= Real(C);
    g_xhat_mean /= Real(C);
    for (Z i = 0; i < C; ++i) {
      const Real xhat = (x[i] - mean[n]) * rstd[n];
      const Real g = dy[i] * weight[i];
      dbias[i] += dy[i];
      dweight[i] += xhat * dy[i];
      dinp[n * C + i] += (g - g_mean - xhat * g_xhat_mean) * rstd[n];
    }
  }
}

template <class Real>
void matmul_forward(Real* out, const Real* inp, const Real* weight, const Real* bias, int N, int C, int OC) {
  for (Z n = 0; n < N; ++n)
    for (Z o = 0; o < OC; ++o) {
      Real sum = bias ? bias[o] : Real(0);
      for (Z i = 0; i < C; ++i) sum += inp[n * C + i] * weight[i * OC + o];
      out[n * OC + o] = sum;
    }
}

template <class Real>
void matmul_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp, const Real* weight,
                     int N, int C, int OC) {
  for (Z n = 0; n < N; ++n)
    for (Z o = 0; o < OC; ++o) {
      const Real d = dout[n * OC + o];
      if (dbias) dbias[o] += d;
      for (Z i = 0; i < C; ++i) {
        dinp[n * C + i] += weight[i * OC + o] * d;
        dweight[i * OC + o] += inp[n * C + i] * d;
      }
    }
}

template <class Real>
void logits_forward(Real* logits, const Real* inp, const Real* wte, int N, int C, int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v) {
      Real sum = 0;
      for (Z i = 0; i < C; ++i) sum += inp[n * C + i] * wte[v * C + i];
      logits[n * V + v] = sum;
    }
}

template <class Real>
void logits_backward(Real* dinp, Real* dwte, const Real* dlogits, const Real* inp, const Real* wte, int N, int C,
                     int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v) {
      const Real d = dlogits[n * V + v];
      for (Z i = 0; i < C; ++i) {
        dinp[n * C + i] += wte[v * C + i] * d;
        dwte[v * C + i] += inp[n * C + i] * d;
      }
    }
}

// Four passes per query, as the chapter writes them: scores = q.k / sqrt(hs)
// on the allowed keys; their maximum; exp and sum; weights and the weighted
// sum of values.
template <class Real>
void attention_forward(Real* out, Real* att, const Real* qkv, const bool* allowed, int B, int T, int C, int NH) {
  const Z C3 = Z(C) * 3, hs = C / NH;
  const Real scale = Real(1) / std::sqrt(Real(hs));
  for (Z b = 0; b < B; ++b)
    for (Z t = 0; t < T; ++t)
      for (Z h = 0; h < NH; ++h) {
        const Real* q = qkv + (b * T + t) * C3 + h * hs;
        Real* w = att + ((b * NH + h) * T + t) * T;
        Real max = -INFINITY;
        for (Z t2 = 0; t2 < T; ++t2) {
          if (!allowed[t * T + t2]) continue;
          const Real* k = qkv + (b * T + t2) * C3 + C + h * hs;
          Real score = 0;
          for (Z i = 0; i < hs; ++i) score += q[i] * k[i];
          w[t2] = score * scale;
          if (w[t2] > max) max = w[t2];
        }
        Real sum = 0;
        for (Z t2 = 0; t2 < T; ++t2) {
          w[t2] = allowed[t * T + t2] ? std::exp(w[t2] - max) : Real(0);
          sum += w[t2];
        }
        Real* o = out + (b * T + t) * C + h * hs;
        for (Z i = 0; i < hs; ++i) o[i] = 0;
        for (Z t2 = 0; t2 < T; ++t2) {
          w[t2] /= sum;
          const Real* v = qkv + (b * T + t2) * C3 + 2 * C + h * hs;
          for (Z i = 0; i < hs; ++i) o[i] += w[t2] * v[i];
        }
      }
}

// Backward mirrors the passes: weighted sum -> d weights and d values;
// softmax -> d scores = w (d w - sum w d w); scores -> d queries and d keys.
template <class Real>
void attention_backward(Real* dqkv, const Real* dout, const Real* att, const Real* qkv, int B, int T, int C, int NH) {
  const Z C3 = Z(C) * 3, hs = C / NH;
  const Real scale = Real(1) / std::sqrt(Real(hs));
  std::vector<Real> dw(static_cast<std::size_t>(T));
  for (Z b = 0; b < B; ++b)
    for (Z t = 0; t < T; ++t)
      for (Z h = 0; h < NH; ++h) {
        const Real* w = att + ((b * NH + h) * T + t) * T;
        const Real* dy = dout + (b * T + t) * C + h * hs;
        Real weighted = 0;  // sum over keys of w * dw
        for (Z t2 = 0; t2 < T; ++t2) {
          const Real* v = qkv + (b * T + t2) * C3 + 2 * C + h * hs;
          Real* dv = dqkv + (b * T + t2) * C3 + 2 * C + h * hs;
          Real d = 0;
          for (Z i = 0; i < hs; ++i) {
            d += v[i] * dy[i];
            dv[i] += w[t2] * dy[i];
          }
          dw[static_cast<std::size_t>(t2)] = d;
          weighted += w[t2] * d;
        }
        const Real* q = qkv + (b * T + t) * C3 + h * hs;
        Real* dq = dqkv + (b * T + t) * C3 + h * hs;
        for (Z t2 = 0; t2 < T; ++t2) {
          const Real dscore = w[t2] * (dw[static_cast<std::size_t>(t2)] - weighted) * scale;  // 0 where masked
          if (dscore == 0) continue;
          const Real* k = qkv + (b * T + t2) * C3 + C + h * hs;
          Real* dk = dqkv + (b * T + t2) * C3 + C + h * hs;
          for (Z i = 0; i < hs; ++i) {
            dq[i] += dscore * k[i];
            dk[i] += dscore * q[i];
          }
        }
      }
}

template <class Real>
Real gelu_inner_scale() { return static_cast<Real>(std::sqrt(2.0 / 3.14159265358979323846)); }

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

template <class Real>
void residual_forward(Real* out, const Real* a, const Real* b, int N) {
  for (Z i = 0; i < N; ++i) out[i] = a[i] + b[i];
}

template <class Real>
void residual_backward(Real* da, Real* db, const Real* dout, int N) {
  for (Z i = 0; i < N; ++i) {
    da[i] += dout[i];
    db[i] += dout[i];
  }
}

template <class Real>
void dropout_mask(Real* mask, int N, float p, Rng& rng) {
  const Real keep = Real(1) / (Real(1) - Real(p));
  for (Z i = 0; i < N; ++i) mask[i] = rng.uniform() < p ? Real(0) : keep;
}

template <class Real>
void dropout_forward(Real* out, const Real* inp, const Real* mask, int N) {
  for (Z i = 0; i < N; ++i) out[i] = inp[i] * mask[i];
}

template <class Real>
void dropout_backward(Real* dinout, const Real* mask, int N) {
  for (Z i = 0; i < N; ++i) dinout[i] *= mask[i];
}

template <class Real>
void crossentropy_softmax_forward(Real* probs, Real* losses, const Real* logits, const int* targets, int N, int V) {
  for (Z n = 0; n < N; ++n) {
    const Real* z = logits + n * V;
    Real* p = probs + n * V;
    Real max = z[0];
    for (Z v = 1; v < V; ++v) max = z[v] > max ? z[v] : max;
    Real sum = 0;
    for (Z v = 0; v < V; ++v) {
      p[v] = std::exp(z[v] - max);
      sum += p[v];
    }
    for (Z v = 0; v < V; ++v) p[v] /= sum;
    // -ln p from the logits (not from p, which underflows to 0 for a far-off target).
    losses[n] = targets[n] < 0 ? Real(0) : std::log(sum) - (z[targets[n]] - max);
  }
}

template <class Real>
void crossentropy_softmax_backward(Real* dlogits, const Real* probs, const int* targets, Real dloss, int N, int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v)
      dlogits[n * V + v] =
          targets[n] < 0 ? Real(0) : (probs[n * V + v] - (v == targets[n] ? Real(1) : Real(0))) * dloss;
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_POEM_LAYERS(Real)                                                                                  \
  template void encoder_forward(Real*, const int*, const Real*, const Real*, int, int, int);                   \
  template void encoder_backward(Real*, Real*, const Real*, const int*, int, int, int);                        \
  template void layernorm_forward(Real*, Real*, Real*, const Real*, const Real*, const Real*, int, int);       \
  template void layernorm_backward(Real*, Real*, Real*, const Real*, const Real*, const Real*, const Real*,    \
                                   const Real*, int, int);                                                     \
  template void matmul_forward(Real*, const Real*, const Real*, const Real*, int, int, int);                   \
  template void matmul_backward(Real*, Real*, Real*, const Real*, const Real*, const Real*, int, int, int);    \
  template void logits_forward(Real*, const Real*, const Real*, int, int, int);                                \
  template void logits_backward(Real*, Real*, const Real*, const Real*, const Real*, int, int, int);           \
  template void attention_forward(Real*, Real*, const Real*, const bool*, int, int, int, int);                 \
  template void attention_backward(Real*, const Real*, const Real*, const Real*, int, int, int, int);          \
  template void gelu_forward(Real*, const Real*, int);                                                         \
  template void gelu_backward(Real*, const Real*, const Real*, int);                                           \
  template void residual_forward(Real*, const Real*, const Real*, int);                                        \
  template void residual_backward(Real*, Real*, const Real*, int);                                             \
  template void dropout_mask(Real*, int, float, Rng&);                                                         \
  template void dropout_forward(Real*, const Real*, const Real*, int);                                         \
  template void dropout_backward(Real*, const Real*, int);                                                     \
  template void crossentropy_softmax_forward(Real*, Real*, const Real*, const int*, int, int);                 \
  template void crossentropy_softmax_backward(Real*, const Real*, const int*, Real, int, int);
ATTN_POEM_LAYERS(float)
ATTN_POEM_LAYERS(double)
#undef ATTN_POEM_LAYERS
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace ref

namespace fast {

using RowMajor = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Map = Eigen::Map<RowMajor>;
using ConstMap = Eigen::Map<const RowMajor>;
using Strided = Eigen::Map<RowMajor, 0, Eigen::OuterStride<>>;
using ConstStrided = Eigen::Map<const RowMajor, 0, Eigen::OuterStride<>>;

// Every product goes to kernels::matmul, which reads either operand
// transposed where it is stored and adds into C where backward accumulates.
void product(const float* a, Z lda, bool a_transposed, const float* b, Z ldb, bool b_transposed, float* c, Z ldc,
             int m, int k, int n, bool accumulate) {
  kernels::MatmulArgs args;
  args.a = a, args.lda = lda, args.a_transposed = a_transposed;
  args.b = b, args.ldb = ldb, args.b_transposed = b_transposed;
  args.c = c, args.ldc = ldc, args.m = m, args.k = k, args.n = n, args.accumulate = accumulate;
  kernels::matmul(args);
}

// Scratch kept per thread (gelu's tanh).
std::vector<float>& scratch(Z floats) {
  thread_local std::vector<float> buffer;
  if (buffer.size() < static_cast<std::size_t>(floats)) buffer.resize(static_cast<std::size_t>(floats));
  return buffer;
}

// out (N,OC) += bias (OC) on every row; dbias (OC) += dout's rows.
ATTN_PER_ISA void add_bias(float* out, const float* bias, int N, int OC) {
  for (Z n = 0; n < N; ++n)
    for (Z o = 0; o < OC; ++o) out[n * OC + o] += bias[o];
}
ATTN_PER_ISA void bias_gradient(float* dbias, const float* dout, int N, int OC) {
  for (Z n = 0; n < N; ++n)
    for (Z o = 0; o < OC; ++o) dbias[o] += dout[n * OC + o];
}

void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, int N, int C, int OC) {
  product(inp, C, false, weight, OC, false, out, OC, N, C, OC, false);
  if (bias) add_bias(out, bias, N, OC);
}

void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, int N, int C, int OC) {
  product(dout, OC, false, weight, OC, true, dinp, C, N, OC, C, true);     // dinp (N,C) += dout (N,OC) W^T
  product(inp, C, true, dout, OC, false, dweight, OC, C, N, OC, true);     // dW (C,OC) += inp^T dout
  if (dbias) bias_gradient(dbias, dout, N, OC);
}

// The plain loops, inlined into each clone: ref's bits, at the CPU's width.
ATTN_PER_ISA void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                                    const float* bias, int N, int C) {
  ref::layernorm_forward(out, mean, rstd, inp, weight, bias, N, C);
}
ATTN_PER_ISA void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                                     const float* weight, const float* mean, const float* rstd, int N, int C) {
  ref::layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
}
ATTN_PER_ISA void residual_forward(float* out, const float* a, const float* b, int N) {
  ref::residual_forward(out, a, b, N);
}
ATTN_PER_ISA void residual_backward(float* da, float* db, const float* dout, int N) {
  ref::residual_backward(da, db, dout, N);
}

void logits_forward(float* logits, const float* inp, const float* wte, int N, int C, int V) {
  product(inp, C, false, wte, C, true, logits, V, N, C, V, false);  // wte's rows are the columns of wte^T
}

void logits_backward(float* dinp, float* dwte, const float* dlogits, const float* inp, const float* wte, int N, int C,
                     int V) {
  product(dlogits, V, false, wte, C, false, dinp, C, N, V, C, true);  // dinp (N,C) += dlogits (N,V) wte (V,C)
  product(dlogits, V, true, inp, C, false, dwte, C, V, N, C, true);   // dwte (V,C) += dlogits^T inp
}

// tanh(u) = 1 - 2 / (exp(2u) + 1) with the kernels' exp: libm's tanhf was a
// tenth of a training step. exp overflows to inf for large u (tanh 1) and
// underflows to 0 for very negative u (tanh -1); near 0 the absolute error
// stays ~1e-7.
ATTN_PER_ISA void gelu_tanh(const float* inp, float* th, int N) {
  const float s = std::sqrt(2.0f / 3.14159265358979323846f);
  for (Z i = 0; i < N; ++i) th[i] = 2.0f * s * (inp[i] + 0.044715f * inp[i] * inp[i] * inp[i]);
  kernels::exp(th, th, static_cast<std::size_t>(N));
  for (Z i = 0; i < N; ++i) th[i] = 1.0f - 2.0f / (th[i] + 1.0f);
}

ATTN_PER_ISA void gelu_forward(float* out, const float* inp, int N) {
  float* th = scratch(N).data();
  gelu_tanh(inp, th, N);
  for (Z i = 0; i < N; ++i) out[i] = 0.5f * inp[i] * (1.0f + th[i]);
}

ATTN_PER_ISA void gelu_backward(float* dinp, const float* inp, const float* dout, int N) {
  const float s = std::sqrt(2.0f / 3.14159265358979323846f);
  float* th = scratch(N).data();
  gelu_tanh(inp, th, N);
  for (Z i = 0; i < N; ++i) {
    const float x = inp[i];
    const float du = s * (1.0f + 3.0f * 0.044715f * x * x);
    dinp[i] += (0.5f * (1.0f + th[i]) + 0.5f * x * (1.0f - th[i] * th[i]) * du) * dout[i];
  }
}

void crossentropy_softmax_forward(float* probs, float* losses, const float* logits, const int* targets, int N, int V) {
  for (Z n = 0; n < N; ++n) {
    const float* z = logits + n * V;
    const kernels::SoftmaxStats s = kernels::softmax(z, probs + n * V, static_cast<std::size_t>(V));
    losses[n] = targets[n] < 0 ? 0.0f : std::log(s.sum) - (z[targets[n]] - s.max);
  }
}

void output_forward(float* logits, float* probs, float* losses, const float* inp, const float* wte,
                    const int* targets, int N, int C, int V) {
  struct Rows {
    float *logits, *probs, *losses;
    const int* targets;
    int V;
  } rows{logits, probs, losses, targets, V};
  kernels::MatmulArgs args;
  args.a = inp, args.lda = C, args.b = wte, args.ldb = C, args.b_transposed = true;  // wte's rows: wte^T's columns
  args.c = logits, args.ldc = V, args.m = N, args.k = C, args.n = V;
  args.context = &rows;
  args.rows_done = [](void* context, int first, int count) {
    const Rows& r = *static_cast<const Rows*>(context);
    const Z at = Z(first) * r.V;
    crossentropy_softmax_forward(r.probs + at, r.losses + first, r.logits + at, r.targets + first, count, r.V);
  };
  kernels::matmul(args);
}

ATTN_PER_ISA void crossentropy_softmax_backward(float* dlogits, const float* probs, const int* targets, float dloss,
                                                int N, int V) {
  for (Z n = 0; n < N; ++n) {
    float* d = dlogits + n * V;
    const float* p = probs + n * V;
    if (targets[n] < 0) {
      for (Z v = 0; v < V; ++v) d[v] = 0.0f;
      continue;
    }
    for (Z v = 0; v < V; ++v) d[v] = p[v] * dloss;
    d[targets[n]] -= dloss;
  }
}

void attention_forward(float* out, float* att, const float* qkv, const bool* allowed, int B, int T, int C, int NH) {
  const Z C3 = Z(C) * 3, hs = C / NH;
  // The kernel keeps the scores and entropies beside the weights; this layer
  // needs only the weights (the others go to per-thread scratch, kept).
  thread_local std::vector<float> raw, scaled, entropy;
  raw.resize(static_cast<std::size_t>(T) * static_cast<std::size_t>(T)), scaled.resize(raw.size());
  entropy.resize(static_cast<std::size_t>(T));
  for (Z b = 0; b < B; ++b)
    for (Z h = 0; h < NH; ++h) {
      kernels::HeadArgs head;
      head.q = qkv + b * T * C3 + h * hs;
      head.k = head.q + C;
      head.v = head.q + 2 * C;
      head.ldq = head.ldk = head.ldv = C3;
      head.n_q = head.n_k = T;
      head.d_k = head.d_v = static_cast<int>(hs);
      head.factor = 1.0f / std::sqrt(static_cast<float>(hs));
      head.allowed = allowed;
      head.raw_scores = raw.data();
      head.scaled_scores = scaled.data();
      head.weights = att + (b * NH + h) * T * T;
      head.entropy = entropy.data();
      head.out = out + b * T * C + h * hs;
      head.ldo = C;
      kernels::attention_head(head);
    }
}

// ref::attention_backward as matrix products per head: with W the weights
// (T,T) and dY the output's gradient (T,hs),
//   dV += W^T dY;  dW = dY V^T;  dS = W o (dW - rowsum(W o dW)) / sqrt(hs);
//   dQ += dS K;  dK += dS^T Q.
void attention_backward(float* dqkv, const float* dout, const float* att, const float* qkv, int B, int T, int C,
                        int NH) {
  const Z C3 = Z(C) * 3, hs = C / NH;
  const float scale = 1.0f / std::sqrt(static_cast<float>(hs));
  const Eigen::OuterStride<> qkv_stride(C3), out_stride(C);
  thread_local RowMajor dW;  // kept per thread: a training step allocates nothing
  thread_local Eigen::VectorXf weighted;
  dW.resize(T, T), weighted.resize(T);
  for (Z b = 0; b < B; ++b)
    for (Z h = 0; h < NH; ++h) {
      const float* base = qkv + b * T * C3 + h * hs;
      float* dbase = dqkv + b * T * C3 + h * hs;
      const ConstStrided Q(base, T, hs, qkv_stride), K(base + C, T, hs, qkv_stride), V(base + 2 * C, T, hs, qkv_stride);
      Strided dQ(dbase, T, hs, qkv_stride), dK(dbase + C, T, hs, qkv_stride), dV(dbase + 2 * C, T, hs, qkv_stride);
      const ConstStrided dY(dout + b * T * C + h * hs, T, hs, out_stride);
      const ConstMap W(att + (b * NH + h) * T * T, T, T);
      dV.noalias() += W.transpose() * dY;
      dW.noalias() = dY * V.transpose();
      weighted = W.cwiseProduct(dW).rowwise().sum();
      dW = (W.array() * (dW.colwise() - weighted).array() * scale).matrix();
      dQ.noalias() += dW * K;
      dK.noalias() += dW.transpose() * Q;
    }
}

}  // namespace fast

}  // namespace attn::poem
