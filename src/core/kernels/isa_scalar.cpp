// The kernels for plain floats, for CPUs without a SIMD build here.
#define ATTN_SIMD_SCALAR
#define ATTN_TILE_ROWS 4
#define ATTN_TILE_VECS 4
#define ATTN_KERNEL_TABLE scalar_kernels
#define ATTN_KERNEL_NAME "scalar"
#include "kernel_impl.hpp"
