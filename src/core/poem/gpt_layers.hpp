// The poem model's fast float path: its layers (core/layers: B sequences of
// T positions, C channels, NH heads, V characters, every array row-major and
// contiguous) on the project's kernels (kernels::matmul,
// kernels::attention_head) and Eigen. The model trains through these; its
// double path, for the finite-difference checks, through core/layers' plain
// loops, and the tests hold the two to each other (gpt.cpp picks per layer).
//
// Backward functions ACCUMULATE (+=) into their gradient outputs, which the
// caller zeroes: a tensor read twice (the residual stream, the tied
// embedding) gets both contributions.
#pragma once

namespace attn::poem {

// The float layers where the project's kernels are faster than plain loops;
// the same contracts as core/layers' (attention here is every head of the
// packed qkv (B,T,3C) at once, causal through allowed (T,T); the cross-entropy
// takes dloss = 1 / count).
namespace fast {
// The element-wise layers, compiled per vector width (kernels/per_isa.hpp):
// core/layers' loops and bits.
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
