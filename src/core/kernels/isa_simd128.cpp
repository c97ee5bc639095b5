// The kernels for WebAssembly SIMD128 (-msimd128). 2 x 4 accumulators: V8 has 16
// vector registers on x86 hosts, and wide tiles need fewer broadcasts (measured
// best of 2x4, 4x2, 3x3, 6x2, 8x1, 1x8).
#define ATTN_SIMD_WASM
#define ATTN_TILE_ROWS 2
#define ATTN_TILE_VECS 4
#define ATTN_KERNEL_TABLE simd128_kernels
#define ATTN_KERNEL_NAME "simd128"
#include "kernel_impl.hpp"
