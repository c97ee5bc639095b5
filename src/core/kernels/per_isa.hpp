// ATTN_PER_ISA: a loop outside the kernels (the poem model's layer norms,
// GELU, AdamW, gradient sums) compiled once per x86-64 vector width and picked
// when the program loads, by what the CPU has, as the kernels pick theirs
// (kernels.hpp). Each clone does the same float operations in the same order:
// GCC vectorises only element-wise work without -ffast-math (no sum is
// reordered), and the files that use this compile with -ffp-contract=off (no
// a * b + c fused in the AVX-512 clone), so every clone gives the same bits.
// flatten inlines what the loop calls (core/layers' loops, core/optim's
// update) into each clone: a call out would run the one default-width copy.
// GCC on x86-64 only; elsewhere (wasm, clang's sanitised build) one plain copy.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__)
#define ATTN_PER_ISA __attribute__((target_clones("avx512f", "avx2", "default"), flatten))
#else
#define ATTN_PER_ISA
#endif
