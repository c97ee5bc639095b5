// The kernels for AVX-512F (-mavx512f -mfma), used only when the CPU has it.
#define ATTN_SIMD_AVX512
#define ATTN_TILE_ROWS 6
#define ATTN_TILE_VECS 4
#define ATTN_KERNEL_TABLE avx512_kernels
#define ATTN_KERNEL_NAME "avx512"
#include "kernel_impl.hpp"
