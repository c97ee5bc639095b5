// The kernels for WebAssembly SIMD128 (-msimd128); 16 vector registers on x86 hosts, so 4 x 2 accumulators.
#define ATTN_SIMD_WASM
#define ATTN_TILE_ROWS 4
#define ATTN_TILE_VECS 2
#define ATTN_KERNEL_TABLE simd128_kernels
#define ATTN_KERNEL_NAME "simd128"
#include "kernel_impl.hpp"
