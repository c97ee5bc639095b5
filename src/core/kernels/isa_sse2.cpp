// The kernels for SSE2, which every x86-64 CPU has (the fallback).
#define ATTN_SIMD_SSE2
#define ATTN_TILE_ROWS 4
#define ATTN_TILE_VECS 2
#define ATTN_KERNEL_TABLE sse2_kernels
#define ATTN_KERNEL_NAME "sse2"
#include "kernel_impl.hpp"
