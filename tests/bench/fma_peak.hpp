// The CPU's measured multiply-add peak on one thread, for benchmarks that
// state their speed as a share of it (bench_kernel, bench_poem).
#pragma once

#if defined(__EMSCRIPTEN__)
#include <wasm_simd128.h>
#elif defined(__x86_64__)
#include <immintrin.h>
#endif

namespace {

// ---- measured peaks ----------------------------------------------------------
// Independent multiply-add chains, enough of them to cover the latency of
// both pipes; acc -> acc * a + b converges to b / (1 - a) = 1, so no value
// overflows or turns denormal. Returns a sum so nothing is optimised away;
// a and b are volatiles: with constants the wasm build measured an
// impossible 477 GFLOP/s (the chains were folded away).
volatile float peak_a = 0.9999f, peak_b = 0.0001f;
#if defined(__EMSCRIPTEN__)
// noinline: V8 swaps in optimised code only between calls (no on-stack
// replacement in wasm), so the loop must be a function of its own.
__attribute__((noinline)) float simd128_mul_add(long iterations) {  // 12 x f32x4, f32x4.mul then f32x4.add
  v128_t acc[12];
  for (int j = 0; j < 12; ++j) acc[j] = wasm_f32x4_splat(0.001f * float(j));
  const v128_t a = wasm_f32x4_splat(peak_a), b = wasm_f32x4_splat(peak_b);
  for (long i = 0; i < iterations; ++i)
    for (int j = 0; j < 12; ++j) acc[j] = wasm_f32x4_add(wasm_f32x4_mul(acc[j], a), b);
  v128_t s = acc[0];
  for (int j = 1; j < 12; ++j) s = wasm_f32x4_add(s, acc[j]);
  return wasm_f32x4_extract_lane(s, 0);
}
double peak_flop_per_iteration() { return 12 * 4 * 2; }
const char* peak_name() { return "simd128 mul+add (12 x f32x4)"; }
float peak_kernel(long iterations) { return simd128_mul_add(iterations); }
#elif defined(__x86_64__)
__attribute__((target("avx512f"))) float avx512_fma(long iterations) {  // 16 x zmm FMA
  __m512 acc[16];
  for (int j = 0; j < 16; ++j) acc[j] = _mm512_set1_ps(0.001f * float(j));
  const __m512 a = _mm512_set1_ps(peak_a), b = _mm512_set1_ps(peak_b);
  for (long i = 0; i < iterations; ++i)
    for (int j = 0; j < 16; ++j) acc[j] = _mm512_fmadd_ps(acc[j], a, b);
  for (int j = 1; j < 16; ++j) acc[0] = _mm512_add_ps(acc[0], acc[j]);
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, acc[0]);
  return lanes[0] + lanes[15];
}
__attribute__((target("avx2,fma"))) float avx2_fma(long iterations) {  // 12 x ymm FMA
  __m256 acc[12];
  for (int j = 0; j < 12; ++j) acc[j] = _mm256_set1_ps(0.001f * float(j));
  const __m256 a = _mm256_set1_ps(peak_a), b = _mm256_set1_ps(peak_b);
  for (long i = 0; i < iterations; ++i)
    for (int j = 0; j < 12; ++j) acc[j] = _mm256_fmadd_ps(acc[j], a, b);
  for (int j = 1; j < 12; ++j) acc[0] = _mm256_add_ps(acc[0], acc[j]);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, acc[0]);
  return lanes[0] + lanes[7];
}
float sse2_mul_add(long iterations) {  // baseline x86-64: 12 x xmm mul then add
  __m128 acc[12];
  for (int j = 0; j < 12; ++j) acc[j] = _mm_set1_ps(0.001f * float(j));
  const __m128 a = _mm_set1_ps(peak_a), b = _mm_set1_ps(peak_b);
  for (long i = 0; i < iterations; ++i)
    for (int j = 0; j < 12; ++j) acc[j] = _mm_add_ps(_mm_mul_ps(acc[j], a), b);
  for (int j = 1; j < 12; ++j) acc[0] = _mm_add_ps(acc[0], acc[j]);
  return _mm_cvtss_f32(acc[0]);
}
enum class PeakIsa { Avx512, Avx2, Sse2 };
PeakIsa peak_isa() {
  if (__builtin_cpu_supports("avx512f")) return PeakIsa::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return PeakIsa::Avx2;
  return PeakIsa::Sse2;
}
const char* peak_name() {
  switch (peak_isa()) {
    case PeakIsa::Avx512: return "avx512 fma (16 x zmm)";
    case PeakIsa::Avx2: return "avx2 fma (12 x ymm)";
    default: return "sse2 mul+add (12 x xmm)";
  }
}
float peak_kernel(long iterations) {
  switch (peak_isa()) {
    case PeakIsa::Avx512: return avx512_fma(iterations);
    case PeakIsa::Avx2: return avx2_fma(iterations);
    default: return sse2_mul_add(iterations);
  }
}
double peak_flop_per_iteration() {
  switch (peak_isa()) {
    case PeakIsa::Avx512: return 16 * 16 * 2;
    case PeakIsa::Avx2: return 12 * 8 * 2;
    default: return 12 * 4 * 2;
  }
}
#else
float peak_kernel(long) { return 0; }
double peak_flop_per_iteration() { return 0; }
const char* peak_name() { return "none (no SIMD peak kernel for this CPU)"; }
#endif

}  // namespace
