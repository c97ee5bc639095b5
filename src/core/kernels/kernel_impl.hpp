// The fast kernels, written once over Simd (simd.hpp) and compiled once per
// instruction set by the isa_*.cpp files, which define before including:
//
//   ATTN_SIMD_<ISA>      which Simd to use
//   ATTN_TILE_ROWS       R: rows of A in one micro-tile
//   ATTN_TILE_VECS       C: vectors of B in one micro-tile (R x C accumulators
//                        plus C loads and one broadcast must fit the registers)
//   ATTN_KERNEL_TABLE    the KernelTable's variable name, ATTN_KERNEL_NAME its name
//
// Matrix products (Q K^T, weights V, X W, and the poem model's backward pass)
// share one register-blocked micro-tile: it reads the right-hand matrix as
// panels of C vectors' width (packed where B is transposed or ragged, in place
// where it is row-major), and R x C vector accumulators stay in registers over
// the whole inner dimension. Attention works on R query rows at a time: their
// scores (R x n_k floats, in L1/L2) go through scale + mask + max, exp + sum
// and normalise, then straight into weights V, so no n x n matrix is written
// unless the caller asks for it (AttentionResult's raw/scaled scores, weights).
//
// Everything is in an anonymous namespace (see simd.hpp) and uses no standard
// library templates, only the table at the end has a name the linker sees.
#pragma once

#include "kernel_args.hpp"
#include "simd.hpp"

namespace attn::kernels {
namespace {

using F = Simd::F;
using M = Simd::M;
constexpr int W = Simd::W;
constexpr int R = ATTN_TILE_ROWS;
constexpr int C = ATTN_TILE_VECS;
constexpr int P = C * W;  // panel width of Q K^T and X W (floats)
constexpr float kInf = __builtin_inff();
constexpr float kLowest = -3.40282347e38f;

inline int min_int(int a, int b) { return a < b ? a : b; }
inline std::size_t round_up(std::size_t x, std::size_t m) { return (x + m - 1) / m * m; }

// ---- exp -------------------------------------------------------------------
// exp(x) = 2^n * exp(r), n = round(x / ln 2), |r| <= ln(2)/2, exp(r) from
// Cephes' degree-5 minimax polynomial (expf.c). The rounding uses the 1.5 * 2^23
// trick (no round instruction in SSE2 or wasm), ln 2 is split in two so r is
// exact, and 2^n is applied as 2^(n/2) * 2^(n - n/2) so that results between
// 2^-150 and 2^-126 come out as correctly scaled subnormals instead of 0.
// Accuracy (tests/unit/test_kernels.cpp sweeps the float range): at most 2 ulp
// from the correctly rounded result for normal results; exp(-inf) = 0 exactly,
// exp(x < -103.98) = 0, exp(x > 88.73) = inf, NaN stays NaN.
// Softmax passes only x <= 0 (scores minus their maximum) or NaN, so it skips
// the overflow clamp.
template <bool NonPositive = false>
inline F vexp(F x) {
  const F magic = Simd::set1(12582912.f);  // 1.5 * 2^23: adding it rounds to an integer
  F xc = Simd::max_nan(x, Simd::set1(-104.f));  // NaN stays NaN through every step below
  if (!NonPositive) xc = Simd::min_nan(xc, Simd::set1(89.f));
  const F fx = Simd::fmadd(xc, Simd::set1(1.44269504088896341f), magic);
  const F n = Simd::sub(fx, magic);
  F r = Simd::fmadd(n, Simd::set1(-0.693359375f), xc);  // exact: n * 0.693359375 has few bits
  r = Simd::fmadd(n, Simd::set1(2.12194440e-4f), r);
  F p = Simd::set1(1.9875691500e-4f);
  p = Simd::fmadd(p, r, Simd::set1(1.3981999507e-3f));
  p = Simd::fmadd(p, r, Simd::set1(8.3334519073e-3f));
  p = Simd::fmadd(p, r, Simd::set1(4.1665795894e-2f));
  p = Simd::fmadd(p, r, Simd::set1(1.6666665459e-1f));
  p = Simd::fmadd(p, r, Simd::set1(5.0000001201e-1f));
  F y = Simd::fmadd(p, Simd::mul(r, r), Simd::add(r, Simd::set1(1.f)));
  const auto ni = Simd::sub_i(Simd::bits(fx), Simd::bits(magic));
  const auto n1 = Simd::shr1_i(ni), n2 = Simd::sub_i(ni, n1);
  const auto bias = Simd::set1_i(127);
  y = Simd::mul(y, Simd::from_bits(Simd::shl23_i(Simd::add_i(n1, bias))));
  y = Simd::mul(y, Simd::from_bits(Simd::shl23_i(Simd::add_i(n2, bias))));
  return y;
}

void exp_n(const float* x, float* y, std::size_t count) {
  std::size_t i = 0;
  for (; i + W <= count; i += W) Simd::store(y + i, vexp(Simd::load(x + i)));
  if (i == count) return;
  alignas(64) float tail[W] = {};
  for (std::size_t j = i; j < count; ++j) tail[j - i] = x[j];
  Simd::store(tail, vexp(Simd::load(tail)));
  for (std::size_t j = i; j < count; ++j) y[j] = tail[j - i];
}

// Three passes over the row (its maximum; exp and their sum; the division),
// each a vector loop, the first two with four and two accumulators so that
// they are not one long chain of dependent max / add; the tail goes through a
// copy padded with -inf (exp 0).
SoftmaxStats softmax_n(const float* x, float* y, std::size_t n) {
  const std::size_t full = n - n % W, full4 = n - n % (4 * W), full2 = n - n % (2 * W);
  F vmax[4] = {Simd::set1(-kInf), Simd::set1(-kInf), Simd::set1(-kInf), Simd::set1(-kInf)};
  for (std::size_t i = 0; i < full4; i += 4 * W)
    for (int u = 0; u < 4; ++u) vmax[u] = Simd::max(vmax[u], Simd::load(x + i + std::size_t(u) * W));
  for (std::size_t i = full4; i < full; i += W) vmax[0] = Simd::max(vmax[0], Simd::load(x + i));
  SoftmaxStats stats;
  stats.max = Simd::hmax(Simd::max(Simd::max(vmax[0], vmax[1]), Simd::max(vmax[2], vmax[3])));
  for (std::size_t i = full; i < n; ++i) stats.max = x[i] > stats.max ? x[i] : stats.max;
  const F m = Simd::set1(stats.max);
  F sum[2] = {Simd::zero(), Simd::zero()};
  const auto exp_at = [&](std::size_t i, F& total) {
    const F e = vexp<true>(Simd::sub(Simd::load(x + i), m));
    Simd::store(y + i, e);
    total = Simd::add(total, e);
  };
  for (std::size_t i = 0; i < full2; i += 2 * W) exp_at(i, sum[0]), exp_at(i + W, sum[1]);
  for (std::size_t i = full2; i < full; i += W) exp_at(i, sum[0]);
  alignas(64) float tail[W];
  for (int j = 0; j < W; ++j) tail[j] = full + std::size_t(j) < n ? x[full + std::size_t(j)] : -kInf;
  const F e = vexp<true>(Simd::sub(Simd::load(tail), m));
  Simd::store(tail, e);
  stats.sum = Simd::hsum(Simd::add(Simd::add(sum[0], sum[1]), e));
  for (std::size_t i = full; i < n; ++i) y[i] = tail[i - full];
  const F inverse = Simd::set1(1.f / stats.sum);
  for (std::size_t i = 0; i < full; i += W) Simd::store(y + i, Simd::mul(Simd::load(y + i), inverse));
  for (std::size_t i = full; i < n; ++i) y[i] *= 1.f / stats.sum;
  return stats;
}

// ---- matrix products ---------------------------------------------------------
// B (k x n) into panels of `width` columns: panel p is k rows of `width` floats
// (columns p*width ..), zero beyond n. Element (kk, j) of B is b[kk*ldb + j],
// or b[j*ldb + kk] when transposed (K for Q K^T).
void pack_panels(const float* b, std::ptrdiff_t ldb, bool transposed, int k, int n, int width,
                 float* dst) {
  for (int j0 = 0; j0 < n; j0 += width) {
    float* panel = dst + std::size_t(j0) * std::size_t(k);
    const int cols = min_int(width, n - j0);
    if (transposed) {
      // Column c of the panel is row j0 + c of the stored matrix: read it in
      // order (the panel, k x width floats, stays in L1 for the writes).
      for (int c = 0; c < cols; ++c) {
        const float* column = b + std::ptrdiff_t(j0 + c) * ldb;
        for (int kk = 0; kk < k; ++kk) panel[std::size_t(kk) * std::size_t(width) + std::size_t(c)] = column[kk];
      }
      for (int kk = 0; kk < k; ++kk)
        for (int c = cols; c < width; ++c) panel[std::size_t(kk) * std::size_t(width) + std::size_t(c)] = 0.f;
      continue;
    }
    for (int kk = 0; kk < k; ++kk) {
      float* row = panel + std::size_t(kk) * std::size_t(width);
      for (int c = 0; c < cols; ++c) row[c] = b[std::ptrdiff_t(kk) * ldb + j0 + c];
      for (int c = cols; c < width; ++c) row[c] = 0.f;
    }
  }
}

// Rows rows of A (rows x k) interleaved, dst[kk * rows + r] = a[r * lda + kk], so
// the micro-tile reads its broadcasts from one pointer at fixed offsets (a
// block of queries).
void pack_rows(const float* a, std::ptrdiff_t lda, int rows, int k, float* dst) {
  for (int r = 0; r < rows; ++r)
    for (int kk = 0; kk < k; ++kk) dst[kk * rows + r] = a[r * lda + kk];
}

// c (Rows x cols) = a (Rows x k) * b (k x Vecs*W), or c += when accumulate;
// cols <= Vecs*W. Element (r, kk) of a is a[r * row_step + kk * k_step]: a
// row-major matrix (lda, 1), a transposed one (1, lda), or rows interleaved by
// pack_rows (1, Rows). Row kk of b is at b + kk * b_step: a packed panel, or
// B itself where it is row-major and wide enough.
template <int Rows, int Vecs>
inline void tile(const float* a, std::ptrdiff_t row_step, std::ptrdiff_t k_step, const float* b,
                 std::ptrdiff_t b_step, int k, float* c, std::ptrdiff_t ldc, int cols, bool accumulate = false) {
  F acc[Rows][Vecs];
  if (!accumulate) {
    for (int r = 0; r < Rows; ++r)
      for (int v = 0; v < Vecs; ++v) acc[r][v] = Simd::zero();
  } else if (cols == Vecs * W) {
    for (int r = 0; r < Rows; ++r)
      for (int v = 0; v < Vecs; ++v) acc[r][v] = Simd::load(c + r * ldc + v * W);
  } else {
    alignas(64) float row[Vecs * W] = {};
    for (int r = 0; r < Rows; ++r) {
      for (int j = 0; j < cols; ++j) row[j] = c[r * ldc + j];
      for (int v = 0; v < Vecs; ++v) acc[r][v] = Simd::load(row + v * W);
    }
  }
  for (int kk = 0; kk < k; ++kk, a += k_step, b += b_step) {
    F bv[Vecs];
    for (int v = 0; v < Vecs; ++v) bv[v] = Simd::load(b + v * W);
    for (int r = 0; r < Rows; ++r) {
      const F av = Simd::set1(a[r * row_step]);
      for (int v = 0; v < Vecs; ++v) acc[r][v] = Simd::fmadd(av, bv[v], acc[r][v]);
    }
  }
  if (cols == Vecs * W) {
    for (int r = 0; r < Rows; ++r)
      for (int v = 0; v < Vecs; ++v) Simd::store(c + r * ldc + v * W, acc[r][v]);
    return;
  }
  alignas(64) float row[Vecs * W];
  for (int r = 0; r < Rows; ++r) {
    for (int v = 0; v < Vecs; ++v) Simd::store(row + v * W, acc[r][v]);
    for (int j = 0; j < cols; ++j) c[r * ldc + j] = row[j];
  }
}

// tile<rows, vecs> for run-time rows <= R and vecs <= C (the edges of a matrix).
template <int Vecs, int Rows = R>
inline void tile_rows(int rows, const float* a, std::ptrdiff_t row_step, std::ptrdiff_t k_step, const float* b,
                      std::ptrdiff_t b_step, int k, float* c, std::ptrdiff_t ldc, int cols, bool accumulate = false) {
  if constexpr (Rows > 1) {
    if (rows < Rows)
      return tile_rows<Vecs, Rows - 1>(rows, a, row_step, k_step, b, b_step, k, c, ldc, cols, accumulate);
  }
  tile<Rows, Vecs>(a, row_step, k_step, b, b_step, k, c, ldc, cols, accumulate);
}

// A row-major a (lda) times a panel of `vecs` vectors' width.
template <int Vecs = C>
inline void tile_any(int vecs, int rows, const float* a, std::ptrdiff_t lda, const float* panel, int k,
                     float* c, std::ptrdiff_t ldc, int cols) {
  if constexpr (Vecs > 1) {
    if (vecs < Vecs) return tile_any<Vecs - 1>(vecs, rows, a, lda, panel, k, c, ldc, cols);
  }
  tile_rows<Vecs>(rows, a, lda, 1, panel, Vecs * W, k, c, ldc, cols);
}

// Every panel of B packed (a product with rows_done packs them all first).
std::size_t matmul_scratch(int, int k, int n) { return round_up(std::size_t(n), P) * std::size_t(k); }

// A is read where it is (row-major or transposed alike), and so is B where it
// is row-major: only a transposed B, and B's last panel when narrower than P,
// are packed, so a product costs no copy of its large operands (the output
// layer's gradients, V x tokens).
//
// Blocking, so that what a tile reads again comes from L1, not L2: the inner
// dimension in chunks of KC rows of a panel (KC x P floats, ~24 KB), each
// chunk serving every row tile before the next (a tile stores its partial
// sums and takes them up again: the additions happen in the same order, so
// the bits do not change); with rows_done, rows in blocks of MB, each block
// through every panel and then handed over.
constexpr int kChunkFloats = 24 * 1024 / int(sizeof(float));
constexpr int KC = kChunkFloats / P > 32 ? kChunkFloats / P : 32;
constexpr int MB = 4 * R;

void matmul(const MatmulArgs& p, float* scratch) {
  const std::ptrdiff_t row_step = p.a_transposed ? 1 : p.lda, k_step = p.a_transposed ? p.lda : 1;
  // Panel j0 of B: in place, or packed at scratch + j0 * k by pack().
  const auto in_place = [&](int j0) { return !p.b_transposed && p.n - j0 >= P; };
  const auto pack = [&](int j0) {
    if (!in_place(j0))
      pack_panels(p.b_transposed ? p.b + j0 * p.ldb : p.b + j0, p.ldb, p.b_transposed, p.k, min_int(P, p.n - j0), P,
                  scratch + std::size_t(j0) * std::size_t(p.k));
  };
  // Rows [i_begin, i_end) of C times panel j0.
  const auto panel_rows = [&](int i_begin, int i_end, int j0) {
    const float* b = in_place(j0) ? p.b + j0 : scratch + std::size_t(j0) * std::size_t(p.k);
    const std::ptrdiff_t b_step = in_place(j0) ? p.ldb : P;
    for (int k0 = 0; k0 == 0 || k0 < p.k; k0 += KC)  // (k = 0: one pass, which writes C's zeros)
      for (int i0 = i_begin; i0 < i_end; i0 += R)
        tile_rows<C>(min_int(R, i_end - i0), p.a + i0 * row_step + k0 * k_step, row_step, k_step, b + k0 * b_step,
                     b_step, min_int(KC, p.k - k0), p.c + i0 * p.ldc + j0, p.ldc, min_int(P, p.n - j0),
                     p.accumulate || k0 > 0);
  };
  if (!p.rows_done) {
    // Panel by panel, so one panel's chunk stays in cache for all row tiles.
    for (int j0 = 0; j0 < p.n; j0 += P) {
      pack(j0);
      panel_rows(0, p.m, j0);
    }
    return;
  }
  // B's panels packed beforehand; each block of MB rows goes through them all
  // and is handed over while it is in cache.
  for (int j0 = 0; j0 < p.n; j0 += P) pack(j0);
  for (int i0 = 0; i0 < p.m; i0 += MB) {
    const int i_end = min_int(p.m, i0 + MB);
    for (int j0 = 0; j0 < p.n; j0 += P) panel_rows(i0, i_end, j0);
    p.rows_done(p.context, i0, i_end - i0);
  }
}

// ---- softmax of one row of scores ------------------------------------------------
// Keep: the caller wants raw and scaled scores, weights and entropy (the
// explorer). Without it (a model's forward pass) the scale is folded into the
// packed queries, so the scores arrive scaled and pass 1 only finds the
// maximum, and the normalisation is applied to the output row instead of to
// every weight.

// Pass 1 on one vector: the maximum over allowed keys (and the kept matrices).
// s keeps the scaled scores with -inf where masked, so pass 2 reads no mask.
template <bool Keep>
inline void max_chunk(float* s, const bool* allowed, float* raw, float* scaled, F factor, F& row_max) {
  F t = Simd::load(s);
  if (Keep) {
    Simd::store(raw, t);
    t = Simd::mul(t, factor);
    Simd::store(scaled, t);
  }
  if (allowed != nullptr) t = Simd::select(Simd::allowed(allowed), t, Simd::set1(-kInf));
  if (Keep || allowed != nullptr) Simd::store(s, t);
  row_max = Simd::max(row_max, t);
}

// Pass 2 on one vector: e = exp(t - max), exactly 0 where masked (t = -inf);
// the sum of e and (for the entropy) of e * (t - max).
template <bool Keep>
inline void exp_chunk(float* s, F row_max, F& sum, F& weighted) {
  const F d = Simd::sub(Simd::load(s), row_max);
  const F e = vexp<true>(d);
  sum = Simd::add(sum, e);
  if (Keep) weighted = Simd::fmadd(e, Simd::max(d, Simd::set1(kLowest)), weighted);  // 0 * lowest = 0 where masked
  Simd::store(s, e);
}

// The rows the vector passes do not handle, exactly as softmax_rows (softmax.cpp)
// defines them: no allowed key -> all 0; a NaN -> NaN at every allowed key; an
// infinite maximum -> the keys at that extreme share the weight. Masked keys
// are 0 in every case. s holds the scaled scores. Returns whether any key is allowed.
bool special_row(float* s, const bool* allowed, int n, float* entropy) {
  bool any_allowed = false, has_nan = false;
  float row_max = -kInf;
  for (int j = 0; j < n; ++j) {
    if (allowed && !allowed[j]) continue;
    any_allowed = true;
    has_nan |= s[j] != s[j];
    if (s[j] > row_max) row_max = s[j];
  }
  float count = 0.f;
  for (int j = 0; j < n; ++j) {
    const bool extreme = (!allowed || allowed[j]) && s[j] == row_max;
    const bool masked = allowed && !allowed[j];
    s[j] = !any_allowed || masked ? 0.f : has_nan ? __builtin_nanf("") : extreme ? 1.f : 0.f;
    count += s[j];
  }
  if (any_allowed && !has_nan)
    for (int j = 0; j < n; ++j) s[j] /= count;
  if (entropy) *entropy = !any_allowed ? 0.f : has_nan ? __builtin_nanf("") : __builtin_logf(count);
  return any_allowed;
}

// s: row i of the score block (raw scores in, softmax numerators or weights out),
// padded to at least round_up(n_k, W) floats. Returns the factor that turns s
// into weights: 1 with Keep (s holds the weights), 1 / sum otherwise; 0 for a
// row with no allowed key (its output is 0 whatever V holds, even NaN).
template <bool Keep>
float softmax_row(const HeadArgs& h, int i, float* s) {
  const int n = h.n_k;
  const std::ptrdiff_t at = std::ptrdiff_t(i) * n;
  const bool* allowed = h.allowed ? h.allowed + at : nullptr;
  float* raw = Keep ? h.raw_scores + at : nullptr;
  float* scaled = Keep ? h.scaled_scores + at : nullptr;
  float* entropy = Keep ? h.entropy + i : nullptr;
  const int full = n - n % W, tail = n - full;

  // The last, partial vector goes through the same chunk functions via copies
  // padded with masked lanes.
  alignas(64) float t_s[W] = {}, t_raw[W], t_scaled[W];
  bool t_allowed[W] = {};
  for (int c = 0; c < tail; ++c) {
    t_s[c] = s[full + c];
    t_allowed[c] = !allowed || allowed[full + c];
  }

  const F factor = Simd::set1(h.factor);
  F vmax = Simd::set1(-kInf);
  for (int j = 0; j < full; j += W)
    // raw and scaled are null unless Keep: no offset on a null pointer (UB; clang's UBSan).
    max_chunk<Keep>(s + j, allowed ? allowed + j : nullptr, Keep ? raw + j : nullptr, Keep ? scaled + j : nullptr,
                    factor, vmax);
  if (tail) {
    max_chunk<Keep>(t_s, t_allowed, t_raw, t_scaled, factor, vmax);
    for (int c = 0; c < tail; ++c) {
      s[full + c] = t_s[c];
      if (Keep) raw[full + c] = t_raw[c], scaled[full + c] = t_scaled[c];
    }
  }
  // A NaN may or may not win Simd::max (it follows the x86 rules), so rows
  // with an odd maximum, and rows whose sum below is NaN, go the scalar way.
  const float row_max = Simd::hmax(vmax);
  bool attends = true;
  if (!(row_max > -kInf && row_max < kInf)) {
    attends = special_row(s, allowed, n, entropy);
  } else {
    const F m = Simd::set1(row_max);
    F sum = Simd::zero(), weighted = Simd::zero();
    for (int j = 0; j < full; j += W) exp_chunk<Keep>(s + j, m, sum, weighted);
    if (tail) {
      exp_chunk<Keep>(t_s, m, sum, weighted);
      for (int c = 0; c < tail; ++c) s[full + c] = t_s[c];
    }
    const float total = Simd::hsum(sum);  // >= 1 (the maximum contributes exp(0)) unless NaN
    if (total != total) {
      for (int j = 0; j < n; ++j) s[j] = allowed && !allowed[j] ? 0.f : __builtin_nanf("");
      if (entropy) *entropy = __builtin_nanf("");
    } else if (Keep) {
      // Normalise into the block (for weights V) and the kept weights at once.
      const F inv = Simd::set1(1.f / total);
      float* w = h.weights + at;
      for (int j = 0; j < full; j += W) {
        const F x = Simd::mul(Simd::load(s + j), inv);
        Simd::store(s + j, x);
        Simd::store(w + j, x);
      }
      for (int j = full; j < n; ++j) w[j] = s[j] = s[j] * (1.f / total);
      // H = -sum w log w = log Z - sum e (t - max) / Z, with Z = sum e.
      *entropy = __builtin_logf(total) - Simd::hsum(weighted) / total;
      return 1.f;
    } else {
      return 1.f / total;
    }
  }
  if (Keep)
    for (int j = 0; j < n; ++j) h.weights[at + j] = s[j];
  return attends ? 1.f : 0.f;
}

// ---- one head of attention ----------------------------------------------------
// Widths: Q K^T panels are P keys wide; weights V panels are as many vectors
// as d_v needs, at most C (a d_head of 8 must not pay for 64 columns).
int value_vecs(int d_v) { return min_int(C, (d_v + W - 1) / W); }

std::size_t head_scratch(int /*n_q*/, int n_k, int d_k, int d_v) {
  const std::size_t keys = round_up(std::size_t(n_k), P);
  const std::size_t values = round_up(std::size_t(d_v), std::size_t(value_vecs(d_v)) * std::size_t(W));
  return round_up(keys * std::size_t(d_k), 16) + round_up(std::size_t(n_k) * values, 16) + R * keys +
         R * round_up(std::size_t(d_k), 16);
}

// 1 + the last key any of rows i0.. may attend to (0 if none).
int used_keys(const HeadArgs& h, int i0, int rows) {
  if (!h.allowed) return h.n_k;
  int used = 0;
  for (int r = 0; r < rows; ++r) {
    const bool* row = h.allowed + std::ptrdiff_t(i0 + r) * h.n_k;
    for (int j = h.n_k; j > used; --j)
      if (row[j - 1]) {
        used = j;
        break;
      }
  }
  return used;
}

template <bool Keep>
void head_blocks(const HeadArgs& h, float* scratch) {
  const int keys = int(round_up(std::size_t(h.n_k), P));
  const int vecs = value_vecs(h.d_v), value_width = vecs * W;
  float* k_panels = scratch;
  float* v_panels = k_panels + round_up(std::size_t(keys) * std::size_t(h.d_k), 16);
  float* scores = v_panels + round_up(std::size_t(h.n_k) * round_up(std::size_t(h.d_v), value_width), 16);
  float* queries = scores + R * keys;  // the block's queries, packed by pack_rows
  pack_panels(h.k, h.ldk, true, h.d_k, h.n_k, P, k_panels);
  pack_panels(h.v, h.ldv, false, h.n_k, h.d_v, value_width, v_panels);
  for (int i0 = 0; i0 < h.n_q; i0 += R) {
    const int rows = min_int(R, h.n_q - i0);
    // Step 1: this block's scores, rows x keys (scaled already unless Keep).
    pack_rows(h.q + i0 * h.ldq, h.ldq, rows, h.d_k, queries);
    if (!Keep)
      for (int x = 0; x < rows * h.d_k; ++x) queries[x] *= h.factor;
    for (int j0 = 0; j0 < keys; j0 += P)
      tile_rows<C>(rows, queries, 1, rows, k_panels + std::size_t(j0) * std::size_t(h.d_k), P, h.d_k, scores + j0,
                   keys, P);
    // Step 2: mask and softmax (and the kept matrices).
    float scale[R];
    for (int r = 0; r < rows; ++r) scale[r] = softmax_row<Keep>(h, i0 + r, scores + std::size_t(r) * std::size_t(keys));
    // Step 3: weights V for the block, then the normalisation that Keep left out.
    // Keys after the block's last allowed one have weight 0 in every row: a
    // causal mask halves this step.
    const int used = used_keys(h, i0, rows);
    for (int d0 = 0; d0 < h.d_v; d0 += value_width)
      tile_any(vecs, rows, scores, keys, v_panels + std::size_t(d0) * std::size_t(h.n_k), used,
               h.out + i0 * h.ldo + d0, h.ldo, min_int(value_width, h.d_v - d0));
    for (int r = 0; r < rows; ++r) {
      float* out = h.out + (i0 + r) * h.ldo;
      if (scale[r] == 0.f)  // attends to nothing: 0, not 0 x V (NaN where V is)
        for (int d = 0; d < h.d_v; ++d) out[d] = 0.f;
      else if (!Keep)
        for (int d = 0; d < h.d_v; ++d) out[d] *= scale[r];
    }
  }
}

// Keep is all or nothing: the explorer asks for every matrix, a forward pass for none.
void head(const HeadArgs& h, float* scratch) {
  if (h.raw_scores) head_blocks<true>(h, scratch);
  else head_blocks<false>(h, scratch);
}

}  // namespace

extern const KernelTable ATTN_KERNEL_TABLE;
const KernelTable ATTN_KERNEL_TABLE = {ATTN_KERNEL_NAME, head_scratch, head, matmul_scratch, matmul, exp_n, softmax_n};

}  // namespace attn::kernels
