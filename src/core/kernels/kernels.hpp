// The fast kernels behind attention.hpp and multihead.hpp, one build per
// instruction set (kernel_impl.hpp; SIMD128 in wasm, AVX-512 / AVX2 / SSE2 on
// x86-64, plain floats elsewhere). Natively the best one the CPU has is picked
// at run time, so the default build runs on any x86-64; the environment
// variable ATTN_KERNEL=<name> or use_isa() picks another (benchmarks and tests
// compare them). reference.hpp keeps the plain-loop kernel they are tested against.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kernel_args.hpp"

namespace attn::kernels {

// The instruction sets this build and this CPU can run, best first.
std::vector<std::string> available_isas();
// The one in use.
const char* active_isa();
// false (and nothing changes) when name is not in available_isas().
bool use_isa(const std::string& name);

// One head of scaled dot-product attention (see HeadArgs). Results match the
// plain-loop reference within float rounding (weights to ~1e-6 relative);
// masked weights are exactly 0, fully masked rows all 0.
void attention_head(const HeadArgs& args);
// C (m x n, row stride ldc) = A (m x k, stride lda) B (k x n, stride ldb).
void matmul(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, float* c,
            std::ptrdiff_t ldc, int m, int k, int n);
// C (m x n) = A (m x k) B^T, B stored n x k (stride ldb): a product with a
// matrix whose rows are the columns wanted, such as a tied output layer.
void matmul_bt(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, float* c,
               std::ptrdiff_t ldc, int m, int k, int n);
// The general product (see MatmulArgs): either operand transposed, C
// overwritten or added to.
void matmul(const MatmulArgs& args);
// y[i] = exp(x[i]), the kernels' vectorised exp (accuracy: kernel_impl.hpp).
void exp(const float* x, float* y, std::size_t n);
// y = softmax(x) over n > 0 finite floats (y may be x): the output layer's
// probabilities. A NaN in x gives a NaN sum.
SoftmaxStats softmax(const float* x, float* y, std::size_t n);

}  // namespace attn::kernels
