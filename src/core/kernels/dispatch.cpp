// Picks the kernels' instruction set and owns their scratch memory.
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "kernels.hpp"

namespace attn::kernels {

// Defined by the isa_*.cpp files that CMake builds for this target.
#if defined(__EMSCRIPTEN__)
extern const KernelTable simd128_kernels;
#elif defined(ATTN_KERNELS_X86)
extern const KernelTable avx512_kernels, avx2_kernels, sse2_kernels;
#else
extern const KernelTable scalar_kernels;
#endif

namespace {

// This build's tables that this CPU can run, best first.
std::vector<const KernelTable*> runnable() {
#if defined(__EMSCRIPTEN__)
  return {&simd128_kernels};
#elif defined(ATTN_KERNELS_X86)
  std::vector<const KernelTable*> tables;
  // __builtin_cpu_supports also checks that the OS saves the wider registers.
  if (__builtin_cpu_supports("avx512f")) tables.push_back(&avx512_kernels);
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) tables.push_back(&avx2_kernels);
  tables.push_back(&sse2_kernels);
  return tables;
#else
  return {&scalar_kernels};
#endif
}

const KernelTable* find(const std::vector<const KernelTable*>& tables, const std::string& name) {
  for (const KernelTable* t : tables)
    if (name == t->name) return t;
  return nullptr;
}

const KernelTable*& active() {
  static const KernelTable* table = [] {
    const std::vector<const KernelTable*> tables = runnable();
    const char* wanted = std::getenv("ATTN_KERNEL");
    const KernelTable* chosen = wanted ? find(tables, wanted) : nullptr;
    return chosen ? chosen : tables.front();
  }();
  return table;
}

// Grows, never shrinks: one buffer per thread, reused by every call, so a
// recompute allocates no scratch after the first.
float* scratch(std::size_t floats) {
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  thread_local std::unique_ptr<float, Free> buffer;
  thread_local std::size_t capacity = 0;
  if (floats > capacity) {
    const std::size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
    buffer.reset(static_cast<float*>(std::aligned_alloc(64, bytes)));
    capacity = buffer ? bytes / sizeof(float) : 0;
  }
  return buffer.get();
}

}  // namespace

std::vector<std::string> available_isas() {
  std::vector<std::string> names;
  for (const KernelTable* t : runnable()) names.push_back(t->name);
  return names;
}

const char* active_isa() { return active()->name; }

bool use_isa(const std::string& name) {
  const KernelTable* t = find(runnable(), name);
  if (t) active() = t;
  return t != nullptr;
}

void attention_head(const HeadArgs& args) {
  const KernelTable* t = active();
  t->head(args, scratch(t->head_scratch(args.n_q, args.n_k, args.d_k, args.d_v)));
}

void matmul(const MatmulArgs& args) {
  const KernelTable* t = active();
  t->matmul(args, scratch(t->matmul_scratch(args.m, args.k, args.n)));
}

void matmul(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, float* c,
            std::ptrdiff_t ldc, int m, int k, int n) {
  MatmulArgs args;
  args.a = a, args.lda = lda, args.b = b, args.ldb = ldb, args.c = c, args.ldc = ldc, args.m = m, args.k = k, args.n = n;
  matmul(args);
}

void matmul_bt(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, float* c,
               std::ptrdiff_t ldc, int m, int k, int n) {
  MatmulArgs args;
  args.a = a, args.lda = lda, args.b = b, args.ldb = ldb, args.b_transposed = true;
  args.c = c, args.ldc = ldc, args.m = m, args.k = k, args.n = n;
  matmul(args);
}

void exp(const float* x, float* y, std::size_t n) { active()->exp(x, y, n); }

SoftmaxStats softmax(const float* x, float* y, std::size_t n) { return active()->softmax(x, y, n); }

}  // namespace attn::kernels
