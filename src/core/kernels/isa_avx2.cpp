// The kernels for AVX2 + FMA (-mavx2 -mfma), used only when the CPU has both.
#define ATTN_SIMD_AVX2
#define ATTN_TILE_ROWS 6
#define ATTN_TILE_VECS 2
#define ATTN_KERNEL_TABLE avx2_kernels
#define ATTN_KERNEL_NAME "avx2"
#include "kernel_impl.hpp"
