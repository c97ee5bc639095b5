// The fast kernels, written once over Simd (simd.hpp) and compiled once per
// instruction set by the isa_*.cpp files, which define before including:
//
//   ATTN_SIMD_<ISA>      which Simd to use
//   ATTN_TILE_ROWS       R: rows of A in one micro-tile
//   ATTN_TILE_VECS       C: vectors of B in one micro-tile (R x C accumulators
//                        plus C loads and one broadcast must fit the registers)
//   ATTN_KERNEL_TABLE    the KernelTable's variable name, ATTN_KERNEL_NAME its name
//
// Matrix products (Q K^T, weights V, X W) share one register-blocked micro-tile:
// the right-hand matrix is packed into panels of C vectors' width, so the tile
// reads it contiguously, and R x C vector accumulators stay in registers over
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

// ---- matrix products ---------------------------------------------------------
// B (k x n) into panels of `width` columns: panel p is k rows of `width` floats
// (columns p*width ..), zero beyond n. Element (kk, j) of B is b[kk*ldb + j],
// or b[j*ldb + kk] when transposed (K for Q K^T).
void pack_panels(const float* b, std::ptrdiff_t ldb, bool transposed, int k, int n, int width,
                 float* dst) {
  for (int j0 = 0; j0 < n; j0 += width) {
    float* panel = dst + std::size_t(j0) * std::size_t(k);
    const int cols = min_int(width, n - j0);
    for (int kk = 0; kk < k; ++kk) {
      float* row = panel + std::size_t(kk) * std::size_t(width);
      for (int c = 0; c < cols; ++c)
        row[c] = transposed ? b[std::ptrdiff_t(j0 + c) * ldb + kk] : b[std::ptrdiff_t(kk) * ldb + j0 + c];
      for (int c = cols; c < width; ++c) row[c] = 0.f;
    }
  }
}

// Rows rows of A (rows x k) interleaved, dst[kk * rows + r] = a[r * lda + kk], so
// the micro-tile reads its broadcasts from one pointer at fixed offsets (used
// where the packing is cheap next to the product: queries, X).
void pack_rows(const float* a, std::ptrdiff_t lda, int rows, int k, float* dst) {
  for (int r = 0; r < rows; ++r)
    for (int kk = 0; kk < k; ++kk) dst[kk * rows + r] = a[r * lda + kk];
}

// c (Rows x cols) = a (Rows x k) * panel (k x Vecs*W); cols <= Vecs*W. Row r of
// a is at a + r * lda, or interleaved (pack_rows) when lda == 0.
template <int Rows, int Vecs>
inline void tile(const float* a, std::ptrdiff_t lda, const float* panel, int k, float* c,
                 std::ptrdiff_t ldc, int cols) {
  // (With Rows = 1 both k_step branches are 1.)
  const std::ptrdiff_t row_step = lda ? lda : 1, k_step = lda ? 1 : Rows;  // NOLINT(bugprone-branch-clone)
  F acc[Rows][Vecs];
  for (int r = 0; r < Rows; ++r)
    for (int v = 0; v < Vecs; ++v) acc[r][v] = Simd::zero();
  for (int kk = 0; kk < k; ++kk, a += k_step, panel += Vecs * W) {
    F bv[Vecs];
    for (int v = 0; v < Vecs; ++v) bv[v] = Simd::load(panel + v * W);
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
inline void tile_rows(int rows, const float* a, std::ptrdiff_t lda, const float* panel, int k, float* c,
                      std::ptrdiff_t ldc, int cols) {
  if constexpr (Rows > 1) {
    if (rows < Rows) return tile_rows<Vecs, Rows - 1>(rows, a, lda, panel, k, c, ldc, cols);
  }
  tile<Rows, Vecs>(a, lda, panel, k, c, ldc, cols);
}

template <int Vecs = C>
inline void tile_any(int vecs, int rows, const float* a, std::ptrdiff_t lda, const float* panel, int k,
                     float* c, std::ptrdiff_t ldc, int cols) {
  if constexpr (Vecs > 1) {
    if (vecs < Vecs) return tile_any<Vecs - 1>(vecs, rows, a, lda, panel, k, c, ldc, cols);
  }
  tile_rows<Vecs>(rows, a, lda, panel, k, c, ldc, cols);
}

std::size_t matmul_scratch(int m, int k, int n) {
  return round_up(std::size_t(n), P) * std::size_t(k) + round_up(std::size_t(m), R) * std::size_t(k);
}

void matmul(const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb, bool b_transposed, float* c,
            std::ptrdiff_t ldc, int m, int k, int n, float* scratch) {
  float* a_rows = scratch + round_up(std::size_t(n), P) * std::size_t(k);
  pack_panels(b, ldb, b_transposed, k, n, P, scratch);
  for (int i0 = 0; i0 < m; i0 += R)
    pack_rows(a + i0 * lda, lda, min_int(R, m - i0), k, a_rows + std::size_t(i0) * std::size_t(k));
  // Panel by panel, so one panel (k x P) stays in cache for all row blocks.
  for (int j0 = 0; j0 < n; j0 += P) {
    const float* panel = scratch + std::size_t(j0) * std::size_t(k);
    for (int i0 = 0; i0 < m; i0 += R)
      tile_rows<C>(min_int(R, m - i0), a_rows + std::size_t(i0) * std::size_t(k), 0, panel, k,
                   c + i0 * ldc + j0, ldc, min_int(P, n - j0));
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
      tile_rows<C>(rows, queries, 0, k_panels + std::size_t(j0) * std::size_t(h.d_k), h.d_k, scores + j0, keys, P);
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
const KernelTable ATTN_KERNEL_TABLE = {ATTN_KERNEL_NAME, head_scratch, head, matmul_scratch, matmul, exp_n};

}  // namespace attn::kernels
