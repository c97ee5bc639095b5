// The poem model's fast float path: the layers of core/layers on the project's kernels.
#include "gpt_layers.hpp"

#include <cmath>
#include <cstddef>
#include <vector>

#include <Eigen/Core>

#include "core/kernels/kernels.hpp"
#include "core/kernels/per_isa.hpp"
#include "core/layers/layernorm.hpp"
#include "core/layers/residual.hpp"

namespace attn::poem {

using Z = std::ptrdiff_t;  // every index below: products of sizes overflow int

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

// The plain loops (core/layers), inlined into each clone: their bits, at the CPU's width.
ATTN_PER_ISA void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight,
                                    const float* bias, int N, int C) {
  layers::layernorm_forward(out, mean, rstd, inp, weight, bias, N, C);
}
ATTN_PER_ISA void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                                     const float* weight, const float* mean, const float* rstd, int N, int C) {
  layers::layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
}
ATTN_PER_ISA void residual_forward(float* out, const float* a, const float* b, int N) {
  layers::residual_forward(out, a, b, N);
}
ATTN_PER_ISA void residual_backward(float* da, float* db, const float* dout, int N) {
  layers::residual_backward(da, db, dout, N);
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

// layers::attention_backward as matrix products per head: with W the weights
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
