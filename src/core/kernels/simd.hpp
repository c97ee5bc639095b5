// One small vector type per instruction set, with the same static functions,
// so that the kernels (kernel_impl.hpp) are written once. The translation unit
// that includes this header defines exactly one ATTN_SIMD_* macro and is
// compiled with the matching flags (see CMakeLists.txt):
//
//   ATTN_SIMD_AVX512   16 floats, __m512, masks are __mmask16 (-mavx512f -mfma)
//   ATTN_SIMD_AVX2      8 floats, __m256 with FMA           (-mavx2 -mfma)
//   ATTN_SIMD_SSE2      4 floats, __m128 (every x86-64)
//   ATTN_SIMD_WASM      4 floats, v128_t (wasm_simd128.h; -msimd128, no relaxed SIMD)
//   ATTN_SIMD_SCALAR    1 float (any other CPU)
//
// Only what the kernels need: load/store (unaligned), arithmetic, fmadd
// (a fused multiply-add where the ISA has one, else multiply then add), max,
// max_nan / min_nan (clamps that keep a NaN in x: x86 and wasm differ in which
// operand of max wins when one is NaN), select, horizontal max/sum, the integer steps
// of exp, and `allowed`: W mask bytes (bool, 0 or 1) to a lane mask.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(ATTN_SIMD_AVX512) || defined(ATTN_SIMD_AVX2) || defined(ATTN_SIMD_SSE2)
#include <immintrin.h>
#elif defined(ATTN_SIMD_WASM)
#include <wasm_simd128.h>
#endif

namespace attn::kernels {
// Internal linkage: each ISA's translation unit has its own Simd, and the
// linker must never pick one TU's AVX-512 copy of a function for another.
namespace {

#if defined(ATTN_SIMD_AVX512)
struct Simd {
  using F = __m512;
  using I = __m512i;
  using M = __mmask16;
  static constexpr int W = 16;
  static F load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, F v) { _mm512_storeu_ps(p, v); }
  static F set1(float x) { return _mm512_set1_ps(x); }
  static F zero() { return _mm512_setzero_ps(); }
  static F add(F a, F b) { return _mm512_add_ps(a, b); }
  static F sub(F a, F b) { return _mm512_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm512_mul_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm512_fmadd_ps(a, b, c); }
  static F max(F a, F b) { return _mm512_max_ps(a, b); }
  static F max_nan(F x, F c) { return _mm512_max_ps(c, x); }  // the second operand wins a NaN
  static F min_nan(F x, F c) { return _mm512_min_ps(c, x); }
  static F select(M m, F a, F b) { return _mm512_mask_blend_ps(m, b, a); }  // m ? a : b
  static M allowed(const bool* p) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    return _mm512_test_epi32_mask(_mm512_cvtepu8_epi32(bytes), _mm512_set1_epi32(0xff));
  }
  static float hmax(F v) { return _mm512_reduce_max_ps(v); }
  static float hsum(F v) { return _mm512_reduce_add_ps(v); }
  static I bits(F v) { return _mm512_castps_si512(v); }
  static F from_bits(I v) { return _mm512_castsi512_ps(v); }
  static I set1_i(int x) { return _mm512_set1_epi32(x); }
  static I add_i(I a, I b) { return _mm512_add_epi32(a, b); }
  static I sub_i(I a, I b) { return _mm512_sub_epi32(a, b); }
  static I shr1_i(I a) { return _mm512_srai_epi32(a, 1); }
  static I shl23_i(I a) { return _mm512_slli_epi32(a, 23); }
};
#elif defined(ATTN_SIMD_AVX2)
struct Simd {
  using F = __m256;
  using I = __m256i;
  using M = __m256;  // all-ones lanes
  static constexpr int W = 8;
  static F load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, F v) { _mm256_storeu_ps(p, v); }
  static F set1(float x) { return _mm256_set1_ps(x); }
  static F zero() { return _mm256_setzero_ps(); }
  static F add(F a, F b) { return _mm256_add_ps(a, b); }
  static F sub(F a, F b) { return _mm256_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm256_mul_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm256_fmadd_ps(a, b, c); }
  static F max(F a, F b) { return _mm256_max_ps(a, b); }
  static F max_nan(F x, F c) { return _mm256_max_ps(c, x); }  // the second operand wins a NaN
  static F min_nan(F x, F c) { return _mm256_min_ps(c, x); }
  static F select(M m, F a, F b) { return _mm256_blendv_ps(b, a, m); }
  static M allowed(const bool* p) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
    const __m256i lanes = _mm256_cvtepu8_epi32(bytes);
    return _mm256_castsi256_ps(_mm256_cmpgt_epi32(lanes, _mm256_setzero_si256()));
  }
  static float hmax(F v) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps(m, m, 1)));
  }
  static float hsum(F v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    return _mm_cvtss_f32(_mm_add_ss(s, _mm_shuffle_ps(s, s, 1)));
  }
  static I bits(F v) { return _mm256_castps_si256(v); }
  static F from_bits(I v) { return _mm256_castsi256_ps(v); }
  static I set1_i(int x) { return _mm256_set1_epi32(x); }
  static I add_i(I a, I b) { return _mm256_add_epi32(a, b); }
  static I sub_i(I a, I b) { return _mm256_sub_epi32(a, b); }
  static I shr1_i(I a) { return _mm256_srai_epi32(a, 1); }
  static I shl23_i(I a) { return _mm256_slli_epi32(a, 23); }
};
#elif defined(ATTN_SIMD_SSE2)
struct Simd {
  using F = __m128;
  using I = __m128i;
  using M = __m128;
  static constexpr int W = 4;
  static F load(const float* p) { return _mm_loadu_ps(p); }
  static void store(float* p, F v) { _mm_storeu_ps(p, v); }
  static F set1(float x) { return _mm_set1_ps(x); }
  static F zero() { return _mm_setzero_ps(); }
  static F add(F a, F b) { return _mm_add_ps(a, b); }
  static F sub(F a, F b) { return _mm_sub_ps(a, b); }
  static F mul(F a, F b) { return _mm_mul_ps(a, b); }
  static F fmadd(F a, F b, F c) { return _mm_add_ps(_mm_mul_ps(a, b), c); }
  static F max(F a, F b) { return _mm_max_ps(a, b); }
  static F max_nan(F x, F c) { return _mm_max_ps(c, x); }  // the second operand wins a NaN
  static F min_nan(F x, F c) { return _mm_min_ps(c, x); }
  static F select(M m, F a, F b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
  static M allowed(const bool* p) {
    std::int32_t four;
    std::memcpy(&four, p, 4);
    const __m128i zero = _mm_setzero_si128();
    const __m128i lanes = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128(four), zero), zero);
    return _mm_castsi128_ps(_mm_cmpgt_epi32(lanes, zero));
  }
  static float hmax(F v) {
    v = _mm_max_ps(v, _mm_movehl_ps(v, v));
    return _mm_cvtss_f32(_mm_max_ss(v, _mm_shuffle_ps(v, v, 1)));
  }
  static float hsum(F v) {
    v = _mm_add_ps(v, _mm_movehl_ps(v, v));
    return _mm_cvtss_f32(_mm_add_ss(v, _mm_shuffle_ps(v, v, 1)));
  }
  static I bits(F v) { return _mm_castps_si128(v); }
  static F from_bits(I v) { return _mm_castsi128_ps(v); }
  static I set1_i(int x) { return _mm_set1_epi32(x); }
  static I add_i(I a, I b) { return _mm_add_epi32(a, b); }
  static I sub_i(I a, I b) { return _mm_sub_epi32(a, b); }
  static I shr1_i(I a) { return _mm_srai_epi32(a, 1); }
  static I shl23_i(I a) { return _mm_slli_epi32(a, 23); }
};
#elif defined(ATTN_SIMD_WASM)
struct Simd {
  using F = v128_t;
  using I = v128_t;
  using M = v128_t;
  static constexpr int W = 4;
  static F load(const float* p) { return wasm_v128_load(p); }
  static void store(float* p, F v) { wasm_v128_store(p, v); }
  static F set1(float x) { return wasm_f32x4_splat(x); }
  static F zero() { return wasm_f32x4_splat(0.f); }
  static F add(F a, F b) { return wasm_f32x4_add(a, b); }
  static F sub(F a, F b) { return wasm_f32x4_sub(a, b); }
  static F mul(F a, F b) { return wasm_f32x4_mul(a, b); }
  static F fmadd(F a, F b, F c) { return wasm_f32x4_add(wasm_f32x4_mul(a, b), c); }
  // pmax/pmin (a < b ? b : a) map to one x86 instruction; max/min would add NaN fix-ups.
  static F max(F a, F b) { return wasm_f32x4_pmax(a, b); }
  static F max_nan(F x, F c) { return wasm_f32x4_pmax(x, c); }  // x < c ? c : x
  static F min_nan(F x, F c) { return wasm_f32x4_pmin(x, c); }  // c < x ? c : x
  static F select(M m, F a, F b) { return wasm_v128_bitselect(a, b, m); }
  static M allowed(const bool* p) {
    const v128_t bytes = wasm_v128_load32_zero(p);
    const v128_t lanes = wasm_u32x4_extend_low_u16x8(wasm_u16x8_extend_low_u8x16(bytes));
    return wasm_i32x4_ne(lanes, wasm_i32x4_splat(0));
  }
  static float hmax(F v) {
    const float a = wasm_f32x4_extract_lane(v, 0), b = wasm_f32x4_extract_lane(v, 1);
    const float c = wasm_f32x4_extract_lane(v, 2), d = wasm_f32x4_extract_lane(v, 3);
    const float ab = a < b ? b : a, cd = c < d ? d : c;
    return ab < cd ? cd : ab;
  }
  static float hsum(F v) {
    return (wasm_f32x4_extract_lane(v, 0) + wasm_f32x4_extract_lane(v, 1)) +
           (wasm_f32x4_extract_lane(v, 2) + wasm_f32x4_extract_lane(v, 3));
  }
  static I bits(F v) { return v; }
  static F from_bits(I v) { return v; }
  static I set1_i(int x) { return wasm_i32x4_splat(x); }
  static I add_i(I a, I b) { return wasm_i32x4_add(a, b); }
  static I sub_i(I a, I b) { return wasm_i32x4_sub(a, b); }
  static I shr1_i(I a) { return wasm_i32x4_shr(a, 1); }
  static I shl23_i(I a) { return wasm_i32x4_shl(a, 23); }
};
#elif defined(ATTN_SIMD_SCALAR)
struct Simd {
  using F = float;
  using I = std::int32_t;
  using M = bool;
  static constexpr int W = 1;
  static F load(const float* p) { return *p; }
  static void store(float* p, F v) { *p = v; }
  static F set1(float x) { return x; }
  static F zero() { return 0.f; }
  static F add(F a, F b) { return a + b; }
  static F sub(F a, F b) { return a - b; }
  static F mul(F a, F b) { return a * b; }
  static F fmadd(F a, F b, F c) { return a * b + c; }
  static F max(F a, F b) { return a < b ? b : a; }
  static F max_nan(F x, F c) { return x < c ? c : x; }
  static F min_nan(F x, F c) { return c < x ? c : x; }
  static F select(M m, F a, F b) { return m ? a : b; }
  static M allowed(const bool* p) { return *p; }
  static float hmax(F v) { return v; }
  static float hsum(F v) { return v; }
  static I bits(F v) { I i; std::memcpy(&i, &v, 4); return i; }
  static F from_bits(I i) { F v; std::memcpy(&v, &i, 4); return v; }
  static I set1_i(int x) { return x; }
  static I add_i(I a, I b) { return a + b; }
  static I sub_i(I a, I b) { return a - b; }
  static I shr1_i(I a) { return a >> 1; }
  static I shl23_i(I a) { return I(std::uint32_t(a) << 23); }
};
#else
#error "define one ATTN_SIMD_* before including simd.hpp"
#endif

}  // namespace
}  // namespace attn::kernels
