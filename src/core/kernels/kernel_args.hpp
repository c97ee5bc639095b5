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

// One instruction set's kernels. Scratch is 64-byte aligned, at least
// *_scratch(...) floats, owned by the caller.
struct KernelTable {
  const char* name;
  std::size_t (*head_scratch)(int n_q, int n_k, int d_k, int d_v);
  void (*head)(const HeadArgs& args, float* scratch);
  // C (m x n) = A (m x k) B (k x n), or A B^T with B stored n x k when b_transposed.
  std::size_t (*matmul_scratch)(int m, int k, int n);
  void (*matmul)(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, bool b_transposed,
                 float* c, std::ptrdiff_t ldc, int m, int k, int n, float* scratch);
  void (*exp)(const float* x, float* y, std::size_t n);
};

}  // namespace attn::kernels
