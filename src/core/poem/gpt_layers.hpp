// The poem model's layers, one free function per layer with its shapes, in
// the style of llm.c's train_gpt2.c: B sequences of T positions, C channels,
// NH heads, V characters. Every array is row-major and contiguous.
//
// Each layer has a plain-loop version (namespace ref, templated on the number
// type: float, and double for the finite-difference gradient checks) and,
// where a faster one exists, a float version in namespace fast built on the
// project's kernels (kernels::matmul, kernels::attention_head) and Eigen. The
// tests hold the fast path to the plain loops.
//
// Backward functions ACCUMULATE (+=) into their gradient outputs, which the
// caller zeroes: a tensor read twice (the residual stream, the tied
// embedding) gets both contributions.
#pragma once

#include "core/base/rng.hpp"

namespace attn::poem {

namespace ref {

// out (B,T,C) = wte[tokens] (V,C) + wpe[t] (T_max,C)
template <class Real>
void encoder_forward(Real* out, const int* tokens, const Real* wte, const Real* wpe, int B, int T, int C);
template <class Real>
void encoder_backward(Real* dwte, Real* dwpe, const Real* dout, const int* tokens, int B, int T, int C);

// out (N,C) = (inp - mean) * rstd * weight + bias, per row; mean, rstd (N) kept for backward.
template <class Real>
void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* weight, const Real* bias,
                       int N, int C);
template <class Real>
void layernorm_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp,
                        const Real* weight, const Real* mean, const Real* rstd, int N, int C);

// out (N,OC) = inp (N,C) weight (C,OC) + bias (OC). bias may be null.
template <class Real>
void matmul_forward(Real* out, const Real* inp, const Real* weight, const Real* bias, int N, int C, int OC);
template <class Real>
void matmul_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp, const Real* weight,
                     int N, int C, int OC);

// The tied output layer: logits (N,V) = inp (N,C) wte^T, wte (V,C).
template <class Real>
void logits_forward(Real* logits, const Real* inp, const Real* wte, int N, int C, int V);
template <class Real>
void logits_backward(Real* dinp, Real* dwte, const Real* dlogits, const Real* inp, const Real* wte, int N, int C,
                     int V);

// Causal multi-head attention. qkv (B,T,3C) holds each position's query, key
// and value (head h: channels h*hs..(h+1)*hs of each third, hs = C/NH);
// allowed (T,T) is the chapter's causal mask (masks.hpp): query t sees key
// t2 only where allowed[t*T + t2]. att (B,NH,T,T) gets the weights, exactly 0
// where masked; out (B,T,C) the heads' outputs side by side. Scores are
// scaled by 1/sqrt(hs).
template <class Real>
void attention_forward(Real* out, Real* att, const Real* qkv, const bool* allowed, int B, int T, int C, int NH);
template <class Real>
void attention_backward(Real* dqkv, const Real* dout, const Real* att, const Real* qkv, int B, int T, int C, int NH);

// GELU, tanh approximation (GPT-2's): out (N) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
template <class Real>
void gelu_forward(Real* out, const Real* inp, int N);
template <class Real>
void gelu_backward(Real* dinp, const Real* inp, const Real* dout, int N);

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

// probs (N,V) = softmax(logits) per row; losses (N) = -ln probs[target].
// A target of -1 has no loss (its row is only a prediction).
template <class Real>
void crossentropy_softmax_forward(Real* probs, Real* losses, const Real* logits, const int* targets, int N, int V);
// dlogits (N,V) = (probs - onehot(target)) * dloss, the gradient of
// dloss * sum of losses; rows with target -1 get 0. Written, not added, so
// dlogits may be probs itself: the training step needs no N x V buffer.
template <class Real>
void crossentropy_softmax_backward(Real* dlogits, const Real* probs, const int* targets, Real dloss, int N, int V);

}  // namespace ref

// The float layers where the project's kernels are faster than plain loops;
// same contracts as ref::.
namespace fast {
// The element-wise layers, compiled per vector width (kernels/per_isa.hpp):
// ref's loops and bits.
void layernorm_forward(float* out, float* mean, float* rstd, const float* inp, const float* weight, const float* bias,
                       int N, int C);
void layernorm_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                        const float* weight, const float* mean, const float* rstd, int N, int C);
void residual_forward(float* out, const float* a, const float* b, int N);
void residual_backward(float* da, float* db, const float* dout, int N);
void matmul_forward(float* out, const float* inp, const float* weight, const float* bias, int N, int C, int OC);
void matmul_backward(float* dinp, float* dweight, float* dbias, const float* dout, const float* inp,
                     const float* weight, int N, int C, int OC);
void logits_forward(float* logits, const float* inp, const float* wte, int N, int C, int V);
void logits_backward(float* dinp, float* dwte, const float* dlogits, const float* inp, const float* wte, int N, int C,
                     int V);
void attention_forward(float* out, float* att, const float* qkv, const bool* allowed, int B, int T, int C, int NH);
// exp and tanh by kernels::exp (at most 2 ulp from std::exp).
void gelu_forward(float* out, const float* inp, int N);
void gelu_backward(float* dinp, const float* inp, const float* dout, int N);
void crossentropy_softmax_forward(float* probs, float* losses, const float* logits, const int* targets, int N, int V);
// logits_forward, then crossentropy_softmax_forward on each block of rows as
// the product finishes it, while its logits are in cache (a pass over the
// whole (N,V) logits from memory was a fifth of a training step).
void output_forward(float* logits, float* probs, float* losses, const float* inp, const float* wte,
                    const int* targets, int N, int C, int V);
void crossentropy_softmax_backward(float* dlogits, const float* probs, const int* targets, float dloss, int N, int V);
void attention_backward(float* dqkv, const float* dout, const float* att, const float* qkv, int B, int T, int C,
                        int NH);
}  // namespace fast

}  // namespace attn::poem
