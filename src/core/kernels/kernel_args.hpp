// The plain-pointer interface between the dispatcher (dispatch.cpp) and the
// per-ISA kernels (kernel_impl.hpp). No standard-library templates here: the
// ISA translation units are compiled with wider instruction sets and must not
// emit inline library code that the linker could share with the rest.
#pragma once

#include <cstddef>

namespace attn::kernels {

// One head of scaled dot-product attention. All matrices are row-major with
// the given row strides (in floats), so heads can be column slices of the
// projections without copies. raw_scores, scaled_scores, weights and entropy
// are all given or all nullptr (then only out is produced).
struct HeadArgs {
  const float* q = nullptr;  // n_q x d_k
  const float* k = nullptr;  // n_k x d_k
  const float* v = nullptr;  // n_k x d_v
  std::ptrdiff_t ldq = 0, ldk = 0, ldv = 0;
  int n_q = 0, n_k = 0, d_k = 0, d_v = 0;
  float factor = 1.f;            // scale / temperature
  const bool* allowed = nullptr; // n_q x n_k, true = may attend; nullptr = no mask
  float* raw_scores = nullptr;   // n_q x n_k, Q K^T
  float* scaled_scores = nullptr;// n_q x n_k, raw * factor
  float* weights = nullptr;      // n_q x n_k, softmax rows (exactly 0 where masked)
  float* entropy = nullptr;      // n_q, each weights row's entropy in nats
  float* out = nullptr;          // n_q x d_v, weights V
  std::ptrdiff_t ldo = 0;
};

// C (m x n) = A (m x k) B (k x n), or C += A B when accumulate. A transposed
// is stored k x m (element (i, kk) at a[kk * lda + i]); B transposed is stored
// n x k (element (kk, j) at b[j * ldb + kk]), such as a tied output layer's
// embedding. Backward passes need both: dX += dY W^T, dW += X^T dY.
struct MatmulArgs {
  const float* a = nullptr;
  std::ptrdiff_t lda = 0;
  bool a_transposed = false;
  const float* b = nullptr;
  std::ptrdiff_t ldb = 0;
  bool b_transposed = false;
  float* c = nullptr;
  std::ptrdiff_t ldc = 0;
  int m = 0, k = 0, n = 0;
  bool accumulate = false;
  // Called with each finished block of rows [first, first + rows) of C, while
  // they are still in cache (an output layer's softmax); null for none.
  void (*rows_done)(void* context, int first, int rows) = nullptr;
  void* context = nullptr;
};

// What a softmax over a row keeps besides the probabilities: log(sum) + max is
// the row's log-sum-exp, from which a loss is exact even where a probability
// underflows to 0.
struct SoftmaxStats {
  float max = 0.f, sum = 0.f;
};

// One instruction set's kernels. Scratch is 64-byte aligned, at least
// *_scratch(...) floats, owned by the caller.
struct KernelTable {
  const char* name;
  std::size_t (*head_scratch)(int n_q, int n_k, int d_k, int d_v);
  void (*head)(const HeadArgs& args, float* scratch);
  std::size_t (*matmul_scratch)(int m, int k, int n);
  void (*matmul)(const MatmulArgs& args, float* scratch);
  void (*exp)(const float* x, float* y, std::size_t n);
  SoftmaxStats (*softmax)(const float* x, float* y, std::size_t n);
};

}  // namespace attn::kernels
