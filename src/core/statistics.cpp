#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace attn {

namespace {

// Four float lanes: SIMD128 in wasm, SSE2 on x86-64 (every x86-64 CPU has
// it), plain floats elsewhere. The passes below use them in the same order
// everywhere, so every build gives the same numbers. (The compilers did not
// vectorise these loops by themselves: in wasm a weight cost 2-5 ns.)
struct F4 {
#if defined(__wasm_simd128__)
  v128_t v;
  static F4 load(const float* p) { return {wasm_v128_load(p)}; }
  static F4 splat(float x) { return {wasm_f32x4_splat(x)}; }
  void store(float* p) const { wasm_v128_store(p, v); }
  friend F4 operator+(F4 a, F4 b) { return {wasm_f32x4_add(a.v, b.v)}; }
  // a < b ? a : b, lane by lane (and the same for max): as the scalar code.
  static F4 min(F4 a, F4 b) { return {wasm_f32x4_pmin(b.v, a.v)}; }
  static F4 max(F4 a, F4 b) { return {wasm_f32x4_pmax(b.v, a.v)}; }
#elif defined(__SSE2__)
  __m128 v;
  static F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
  static F4 splat(float x) { return {_mm_set1_ps(x)}; }
  void store(float* p) const { _mm_storeu_ps(p, v); }
  friend F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
  static F4 min(F4 a, F4 b) { return {_mm_min_ps(a.v, b.v)}; }
  static F4 max(F4 a, F4 b) { return {_mm_max_ps(a.v, b.v)}; }
#else
  float v[4];
  static F4 load(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
  static F4 splat(float x) { return {{x, x, x, x}}; }
  void store(float* p) const { std::copy(v, v + 4, p); }
  template <typename Op>
  static F4 map(F4 a, F4 b, Op op) { return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}}; }
  friend F4 operator+(F4 a, F4 b) { return map(a, b, [](float x, float y) { return x + y; }); }
  static F4 min(F4 a, F4 b) { return map(a, b, [](float x, float y) { return x < y ? x : y; }); }
  static F4 max(F4 a, F4 b) { return map(a, b, [](float x, float y) { return x > y ? x : y; }); }
#endif
};

}  // namespace

// Eight lanes (two F4) per row: min, max and a float sum each; the lanes'
// sums are added in a fixed order and the rows' sums in double.
void StatsAccumulator::add_row(const float* row, std::size_t n) {
  if (n == 0) return;
  F4 lo0 = F4::splat(row[0]), lo1 = lo0, hi0 = lo0, hi1 = lo0, sum0 = F4::splat(0.f), sum1 = sum0;
  std::size_t j = 0;
  for (; j + 8 <= n; j += 8) {
    const F4 a = F4::load(row + j), b = F4::load(row + j + 4);
    lo0 = F4::min(a, lo0);
    lo1 = F4::min(b, lo1);
    hi0 = F4::max(a, hi0);
    hi1 = F4::max(b, hi1);
    sum0 = sum0 + a;
    sum1 = sum1 + b;
  }
  float lo[8], hi[8], part[8];
  lo0.store(lo);
  lo1.store(lo + 4);
  hi0.store(hi);
  hi1.store(hi + 4);
  sum0.store(part);
  sum1.store(part + 4);
  float tail = 0.f;
  for (; j < n; ++j) {
    const float v = row[j];
    lo[0] = v < lo[0] ? v : lo[0];
    hi[0] = v > hi[0] ? v : hi[0];
    tail += v;
  }
  float row_lo = lo[0], row_hi = hi[0];
  for (int l = 1; l < 8; ++l) {
    row_lo = lo[l] < row_lo ? lo[l] : row_lo;
    row_hi = hi[l] > row_hi ? hi[l] : row_hi;
  }
  const float row_sum = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7])) + tail;
  min = count == 0 || row_lo < min ? row_lo : min;
  max = count == 0 || row_hi > max ? row_hi : max;
  sum += static_cast<double>(row_sum);
  count += n;
}

void StatsAccumulator::add_rows(const Matrix& m, Eigen::Index first, Eigen::Index rows) {
  for (Eigen::Index i = first; i < first + rows; ++i) add_row(m.data() + i * m.cols(), std::size_t(m.cols()));
}

WeightStats StatsAccumulator::stats() const {
  if (count == 0) return {};
  return {min, max, static_cast<float>(sum / static_cast<double>(count))};
}

WeightStats weight_stats(const Matrix& weights) {
  StatsAccumulator acc;
  acc.add_rows(weights, 0, weights.rows());
  return acc.stats();
}

namespace {

// Cephes' logf (cephes/single/logf.c) for normal x > 0: x = m 2^e with m in
// [sqrt(1/2), sqrt(2)), log x = e ln 2 + log m, log(1 + t) by a degree-9
// polynomial; ~1 ulp. The scalar twin of the four-lane versions below, in the
// same operations (the tail of a row).
inline float log_normal(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, 4);
  int e = int(bits >> 23) - 126;
  bits = (bits & 0x807fffffu) | 0x3f000000u;  // m in [0.5, 1)
  float m;
  std::memcpy(&m, &bits, 4);
  if (m < 0.707106781186547524f) {
    e -= 1;
    m = m + m - 1.f;
  } else {
    m = m - 1.f;
  }
  const float z = m * m;
  float y = 7.0376836292E-2f;
  y = y * m - 1.1514610310E-1f;
  y = y * m + 1.1676998740E-1f;
  y = y * m - 1.2420140846E-1f;
  y = y * m + 1.4249322787E-1f;
  y = y * m - 1.6668057665E-1f;
  y = y * m + 2.0000714765E-1f;
  y = y * m - 2.4999993993E-1f;
  y = y * m + 3.3333331174E-1f;
  y = y * m * z;
  const float fe = static_cast<float>(e);
  y = y + -2.12194440e-4f * fe;
  y = y + -0.5f * z;
  return m + y + 0.693359375f * fe;
}

constexpr float kSmallestNormal = 1.17549435e-38f;

#if defined(__wasm_simd128__)
// sum over lanes of p log p (0 where p is not a normal positive float).
inline v128_t plogp4(v128_t x, v128_t sum) {
  const v128_t valid = wasm_f32x4_ge(x, wasm_f32x4_splat(kSmallestNormal));
  v128_t e = wasm_i32x4_sub(wasm_u32x4_shr(x, 23), wasm_i32x4_splat(126));
  v128_t m = wasm_v128_or(wasm_v128_and(x, wasm_i32x4_splat(int(0x807fffff))), wasm_i32x4_splat(0x3f000000));
  const v128_t small = wasm_f32x4_lt(m, wasm_f32x4_splat(0.707106781186547524f));
  e = wasm_i32x4_add(e, small);  // -1 where small
  m = wasm_f32x4_sub(wasm_f32x4_add(m, wasm_v128_and(m, small)), wasm_f32x4_splat(1.f));
  const v128_t z = wasm_f32x4_mul(m, m);
  v128_t y = wasm_f32x4_splat(7.0376836292E-2f);
  for (const float c : {-1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                        2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f})
    y = wasm_f32x4_add(wasm_f32x4_mul(y, m), wasm_f32x4_splat(c));
  y = wasm_f32x4_mul(wasm_f32x4_mul(y, m), z);
  const v128_t fe = wasm_f32x4_convert_i32x4(e);
  y = wasm_f32x4_add(y, wasm_f32x4_mul(wasm_f32x4_splat(-2.12194440e-4f), fe));
  y = wasm_f32x4_add(y, wasm_f32x4_mul(wasm_f32x4_splat(-0.5f), z));
  const v128_t log = wasm_f32x4_add(wasm_f32x4_add(m, y), wasm_f32x4_mul(wasm_f32x4_splat(0.693359375f), fe));
  return wasm_f32x4_add(sum, wasm_v128_and(wasm_f32x4_mul(x, log), valid));
}
#define ATTN_PLOGP4 1
using P4 = v128_t;
inline P4 p4_zero() { return wasm_f32x4_splat(0.f); }
inline P4 p4_load(const float* p) { return wasm_v128_load(p); }
inline void p4_store(float* p, P4 v) { wasm_v128_store(p, v); }
#elif defined(__SSE2__)
inline __m128 plogp4(__m128 x, __m128 sum) {
  const __m128 valid = _mm_cmpge_ps(x, _mm_set1_ps(kSmallestNormal));
  const __m128i bits = _mm_castps_si128(x);
  __m128i e = _mm_sub_epi32(_mm_srli_epi32(bits, 23), _mm_set1_epi32(126));
  __m128 m = _mm_castsi128_ps(_mm_or_si128(_mm_and_si128(bits, _mm_set1_epi32(int(0x807fffff))), _mm_set1_epi32(0x3f000000)));
  const __m128 small = _mm_cmplt_ps(m, _mm_set1_ps(0.707106781186547524f));
  e = _mm_add_epi32(e, _mm_castps_si128(small));  // -1 where small
  m = _mm_sub_ps(_mm_add_ps(m, _mm_and_ps(m, small)), _mm_set1_ps(1.f));
  const __m128 z = _mm_mul_ps(m, m);
  __m128 y = _mm_set1_ps(7.0376836292E-2f);
  for (const float c : {-1.1514610310E-1f, 1.1676998740E-1f, -1.2420140846E-1f, 1.4249322787E-1f, -1.6668057665E-1f,
                        2.0000714765E-1f, -2.4999993993E-1f, 3.3333331174E-1f})
    y = _mm_add_ps(_mm_mul_ps(y, m), _mm_set1_ps(c));
  y = _mm_mul_ps(_mm_mul_ps(y, m), z);
  const __m128 fe = _mm_cvtepi32_ps(e);
  y = _mm_add_ps(y, _mm_mul_ps(_mm_set1_ps(-2.12194440e-4f), fe));
  y = _mm_add_ps(y, _mm_mul_ps(_mm_set1_ps(-0.5f), z));
  const __m128 log = _mm_add_ps(_mm_add_ps(m, y), _mm_mul_ps(_mm_set1_ps(0.693359375f), fe));
  return _mm_add_ps(sum, _mm_and_ps(_mm_mul_ps(x, log), valid));
}
#define ATTN_PLOGP4 1
using P4 = __m128;
inline P4 p4_zero() { return _mm_setzero_ps(); }
inline P4 p4_load(const float* p) { return _mm_loadu_ps(p); }
inline void p4_store(float* p, P4 v) { _mm_storeu_ps(p, v); }
#endif

}  // namespace

float row_entropy(const float* row, std::size_t n) {
  std::size_t j = 0;
  float h = 0.f;
#ifdef ATTN_PLOGP4
  P4 s0 = p4_zero(), s1 = p4_zero();
  for (; j + 8 <= n; j += 8) {
    s0 = plogp4(p4_load(row + j), s0);
    s1 = plogp4(p4_load(row + j + 4), s1);
  }
  float part[8];
  p4_store(part, s0);
  p4_store(part + 4, s1);
  h = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
#endif
  for (; j < n; ++j)
    if (row[j] >= kSmallestNormal) h += row[j] * log_normal(row[j]);  // lim p->0 of p log p is 0
  return 0.f - h;  // +0 for a one-hot or empty row
}

Vector row_entropy(const Matrix& weights) {
  Vector entropy(weights.rows());
  for (Eigen::Index i = 0; i < weights.rows(); ++i)
    entropy[i] = row_entropy(weights.data() + i * weights.cols(), std::size_t(weights.cols()));
  return entropy;
}

std::vector<int> top_k(const float* row, int n, int k) {
  std::vector<int> index(static_cast<size_t>(n));
  std::iota(index.begin(), index.end(), 0);
  k = std::max(0, std::min(k, n));
  std::partial_sort(index.begin(), index.begin() + k, index.end(), [row](int a, int b) {
    return row[a] > row[b] || (row[a] == row[b] && a < b);
  });
  index.resize(static_cast<size_t>(k));
  return index;
}

int Histogram::total() const { return std::accumulate(counts.begin(), counts.end(), 0); }

Histogram empty_histogram(int bins, float lo, float hi) {
  Histogram h;
  h.lo = lo;
  h.hi = hi;
  h.counts.assign(static_cast<size_t>(std::max(bins, 1)), 0);
  return h;
}

namespace {

// numpy's bin of v: floor((v - lo) / width) in double, the last bin closed;
// -1 outside [lo, hi] or NaN. All values equal (width 0): everything lands in
// bin 0 (numpy would widen the range instead; one full bin shows a constant
// just as well).
inline int exact_bin(float v, float lo, float hi, double width, int last) {
  if (!(v >= lo && v <= hi)) return -1;  // also drops NaN
  const int b = width > 0 ? static_cast<int>((static_cast<double>(v) - lo) / width) : 0;
  return std::min(b, last);
}

// Four values at once: q = (v - lo) / width in float, whose integer part is
// the bin unless q is within 1e-4 of a bin edge (float rounding of v - lo,
// 1 / width and the product moves q by less than 4e-7 x bins: 1e-5 for 25
// bins) or outside [0, bins). Fills bins[]; returns the
// lanes (bit l = lane l) that need exact_bin instead, which is rare.
struct BinConstants {
  float lo, inverse, top;
};
constexpr float kEdge = 1e-4f;

#if defined(__wasm_simd128__)
inline int classify4(const float* p, const BinConstants& k, int* bins) {
  const v128_t q = wasm_f32x4_mul(wasm_f32x4_sub(wasm_v128_load(p), wasm_f32x4_splat(k.lo)), wasm_f32x4_splat(k.inverse));
  const v128_t ok = wasm_v128_and(wasm_f32x4_ge(q, wasm_f32x4_splat(0.f)), wasm_f32x4_lt(q, wasm_f32x4_splat(k.top)));
  const v128_t qc = wasm_v128_and(q, ok);
  const v128_t b = wasm_i32x4_trunc_sat_f32x4(qc);
  const v128_t r = wasm_f32x4_sub(qc, wasm_f32x4_convert_i32x4(b));
  const v128_t edge = wasm_v128_or(wasm_v128_and(wasm_f32x4_lt(r, wasm_f32x4_splat(kEdge)), wasm_i32x4_gt(b, wasm_i32x4_splat(0))),
                                   wasm_f32x4_gt(r, wasm_f32x4_splat(1.f - kEdge)));
  wasm_v128_store(bins, b);
  return wasm_i32x4_bitmask(wasm_v128_or(wasm_v128_not(ok), edge));
}
#elif defined(__SSE2__)
inline int classify4(const float* p, const BinConstants& k, int* bins) {
  const __m128 q = _mm_mul_ps(_mm_sub_ps(_mm_loadu_ps(p), _mm_set1_ps(k.lo)), _mm_set1_ps(k.inverse));
  const __m128 ok = _mm_and_ps(_mm_cmpge_ps(q, _mm_setzero_ps()), _mm_cmplt_ps(q, _mm_set1_ps(k.top)));
  const __m128 qc = _mm_and_ps(q, ok);
  const __m128i b = _mm_cvttps_epi32(qc);
  const __m128 r = _mm_sub_ps(qc, _mm_cvtepi32_ps(b));
  const __m128 edge = _mm_or_ps(_mm_and_ps(_mm_cmplt_ps(r, _mm_set1_ps(kEdge)), _mm_castsi128_ps(_mm_cmpgt_epi32(b, _mm_setzero_si128()))),
                                _mm_cmpgt_ps(r, _mm_set1_ps(1.f - kEdge)));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(bins), b);
  return _mm_movemask_ps(_mm_or_ps(_mm_andnot_ps(ok, _mm_castsi128_ps(_mm_set1_epi32(-1))), edge));
}
#else
inline int classify4(const float* p, const BinConstants& k, int* bins) {
  int bad = 0;
  for (int l = 0; l < 4; ++l) {
    const float q = (p[l] - k.lo) * k.inverse;
    const bool ok = q >= 0.f && q < k.top;
    const float qc = ok ? q : 0.f;
    bins[l] = static_cast<int>(qc);
    const float r = qc - static_cast<float>(bins[l]);
    bad |= int(!ok || (r < kEdge && bins[l] > 0) || r > 1.f - kEdge) << l;
  }
  return bad;
}
#endif

}  // namespace

void histogram_add(Histogram& h, const float* values, std::size_t n) {
  const float lo = h.lo, hi = h.hi;
  const int bins = static_cast<int>(h.counts.size()), last = bins - 1;
  const double width = (static_cast<double>(hi) - lo) / static_cast<double>(h.counts.size());
  std::size_t i = 0;
  // (Up to 100 bins: float rounding moves q by less than 4e-7 x bins, well inside kEdge.)
  if (width > 0 && bins <= 100) {
    // One set of counters per lane, so the lanes never wait on each other,
    // and no branch per value (a mix of bins would mispredict them).
    const BinConstants k{lo, static_cast<float>(1.0 / width), static_cast<float>(bins)};
    std::vector<int> lane_counts(std::size_t(4 * bins), 0);
    int* const c0 = lane_counts.data();
    int* const c1 = c0 + bins;
    int* const c2 = c1 + bins;
    int* const c3 = c2 + bins;
    int b[4];
    for (; i + 4 <= n; i += 4) {
      if (classify4(values + i, k, b) == 0) {
        ++c0[b[0]];
        ++c1[b[1]];
        ++c2[b[2]];
        ++c3[b[3]];
        continue;
      }
      for (int l = 0; l < 4; ++l) {
        const int bin = exact_bin(values[i + std::size_t(l)], lo, hi, width, last);
        if (bin >= 0) ++lane_counts[std::size_t(l) * std::size_t(bins) + std::size_t(bin)];
      }
    }
    for (int bin = 0; bin < bins; ++bin) h.counts[std::size_t(bin)] += c0[bin] + c1[bin] + c2[bin] + c3[bin];
  }
  for (; i < n; ++i) {
    const int b = exact_bin(values[i], lo, hi, width, last);
    if (b >= 0) h.counts[std::size_t(b)]++;
  }
}

Histogram histogram(const float* values, std::size_t n, int bins, float lo, float hi) {
  Histogram h = empty_histogram(bins, lo, hi);
  histogram_add(h, values, n);
  return h;
}

Histogram histogram(const std::vector<float>& values, int bins) {
  if (values.empty()) return histogram(nullptr, 0, bins, 0.f, 1.f);
  const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  return histogram(values.data(), values.size(), bins, *mn, *mx);
}

double mean(const std::vector<float>& values) {
  if (values.empty()) return 0.0;
  double s = 0.0;
  for (float v : values) s += v;
  return s / static_cast<double>(values.size());
}

namespace {
template <typename T>
double population_stddev(const std::vector<T>& values) {
  if (values.empty()) return 0.0;
  double m = 0.0;
  for (T v : values) m += static_cast<double>(v);
  m /= static_cast<double>(values.size());
  double s = 0.0;
  for (T v : values) s += (static_cast<double>(v) - m) * (static_cast<double>(v) - m);
  return std::sqrt(s / static_cast<double>(values.size()));
}
}  // namespace

double stddev(const std::vector<float>& values) { return population_stddev(values); }
double stddev(const std::vector<double>& values) { return population_stddev(values); }

bool nearly_uniform(const WeightStats& s, float relative) {
  return s.mean > 0.0f && s.max - s.min < relative * s.mean;
}

}  // namespace attn
