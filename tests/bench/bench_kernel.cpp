// Benchmark: the project's attention kernel on its own (one thread, fp32,
// 8 heads x d_head 64, no mask), one scaled_dot_product_attention call per
// head, as the peers in bench/attention compute it. The same code runs in two
// places, so that wasm and native figures come from one timing loop:
//
//   native: build/native/tests/bench/bench_kernel [--sizes 64,256,512,1024] [--min-seconds 0.5]
//           prints one JSON object (every ISA of available_isas(), the FMA peak)
//   wasm:   build/wasm/tests/bench/bench_kernel.js (createBenchKernel), loaded by
//           bench/attention/page.mjs, which calls the extern "C" functions below
//
// scripts/bench.sh attention runs both next to the peer libraries.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/kernels/kernels.hpp"
#include "core/reference.hpp"
#include "fma_peak.hpp"

#if defined(__EMSCRIPTEN__)
#include <emscripten/emscripten.h>
#include <wasm_simd128.h>
#define BENCH_EXPORT extern "C" EMSCRIPTEN_KEEPALIVE
#else
#define BENCH_EXPORT extern "C"
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#endif

namespace {

constexpr int kHeads = 8;
constexpr int kDHead = 64;

// Inputs in [-1, 1) from a 32-bit LCG; bench/attention/common.mjs has the
// same generator, so every contestant sees identical numbers (exact in
// float: 24-bit integers over 2^24).
struct Lcg {
  std::uint32_t s;
  float next() {
    s = s * 1664525u + 1013904223u;
    return static_cast<float>((s >> 8) * (1.0 / 16777216.0) * 2.0 - 1.0);
  }
};

// Per-head inputs (the [h, n, d] tensors of the peers, cut by head) and the
// plain-loop reference's output; built once per n, outside every timing.
struct Problem {
  std::vector<attn::Matrix> q, k, v;
  std::vector<std::vector<float>> expected;  // per head, n x d row-major
};

const Problem& problem(int n) {
  static std::map<int, Problem> cache;
  auto found = cache.find(n);
  if (found != cache.end()) return found->second;
  Problem& p = cache[n];
  Lcg rng{42};
  for (auto* m : {&p.q, &p.k, &p.v}) {  // Q for all heads, then K, then V
    m->resize(kHeads);
    for (attn::Matrix& h : *m) {
      h.resize(n, kDHead);
      for (int i = 0; i < n; ++i)
        for (int c = 0; c < kDHead; ++c) h(i, c) = rng.next();
    }
  }
  const auto flat = [](const attn::Matrix& m) { return std::vector<float>(m.data(), m.data() + m.size()); };
  for (int h = 0; h < kHeads; ++h)
    p.expected.push_back(attn::reference::attention(flat(p.q[h]), flat(p.k[h]), flat(p.v[h]), n, n, kDHead,
                                                    kDHead, 1.0f / std::sqrt(float(kDHead)))
                             .output);
  return p;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing {
  double ms = 0;  // median per call
  int samples = 0;
  int calls_per_sample = 0;
};

// The policy of common.mjs's measure(): warm up (>= 2 calls and 0.2 s, so the
// browser's optimising tier has compiled the hot code), then time samples of
// enough calls to last >= 20 ms (the browser's clock ticks in 0.1 ms) until
// >= 5 samples and min_seconds; the median per call.
template <class F>
Timing measure(F&& call, double min_seconds) {
  double fastest = 1e30;  // the warm-up's fastest call sizes the samples
  const double warm_start = now_s();
  for (int i = 0; i < 2 || now_s() - warm_start < 0.2; ++i) {
    const double t0 = now_s();
    call();
    fastest = std::min(fastest, now_s() - t0);
  }
  Timing t;
  t.calls_per_sample = std::max(1, int(std::ceil(0.02 / std::max(fastest, 1e-7))));
  std::vector<double> per_call;
  const double start = now_s();
  while (per_call.size() < 5 || now_s() - start < min_seconds) {
    const double t0 = now_s();
    for (int i = 0; i < t.calls_per_sample; ++i) call();
    per_call.push_back((now_s() - t0) / t.calls_per_sample);
  }
  std::sort(per_call.begin(), per_call.end());
  t.samples = int(per_call.size());
  t.ms = per_call[per_call.size() / 2] * 1e3;
  return t;
}

// The returned C strings live until the next call (the page copies them).
const char* keep(std::string s) {
  static std::string held;
  held = std::move(s);
  return held.c_str();
}


}  // namespace

// JSON array of the ISAs this build and CPU can run, best first.
BENCH_EXPORT const char* bench_kernel_isas() {
  std::string s = "[";
  for (const std::string& isa : attn::kernels::available_isas()) s += (s.size() > 1 ? ",\"" : "\"") + isa + "\"";
  return keep(s + "]");
}

// Times one cell: every head of an n-token problem through the kernel of
// `isa`, keep_matrices as given; JSON with the median ms per forward, GFLOP/s
// (4 n^2 d h) and the largest deviation from the plain-loop reference.
BENCH_EXPORT const char* bench_kernel_cell(const char* isa, int n, int keep_matrices, double min_seconds) {
  if (!attn::kernels::use_isa(isa)) return keep(std::string("{\"error\":\"unknown ISA ") + isa + "\"}");
  const Problem& p = problem(n);
  attn::AttentionOptions options;
  options.keep_matrices = keep_matrices != 0;
  std::vector<attn::AttentionResult> results(kHeads);
  const Timing t = measure(
      [&] {
        for (int h = 0; h < kHeads; ++h)
          results[h] = attn::scaled_dot_product_attention(p.q[h], p.k[h], p.v[h], options);
      },
      min_seconds);
  double err = 0;
  for (int h = 0; h < kHeads; ++h) {
    const attn::Matrix& out = results[h].output;
    if (out.rows() != n || out.cols() != kDHead) return keep("{\"error\":\"output has the wrong shape\"}");
    for (int i = 0; i < n * kDHead; ++i) {
      const double e = std::fabs(double(out.data()[i]) - p.expected[h][i]);
      if (!(e <= err)) err = std::isnan(e) ? HUGE_VAL : e;  // a NaN counts as the largest error
    }
  }
  // JSON has no NaN or inf; JSON.parse reads 1e999 as Infinity (a failed check).
  char err_text[32] = "1e999";
  if (std::isfinite(err)) std::snprintf(err_text, sizeof err_text, "%.3g", err);
  const double flop = 4.0 * n * n * kDHead * kHeads;
  char buf[400];
  std::snprintf(buf, sizeof buf,
                "{\"isa\":\"%s\",\"n\":%d,\"keep_matrices\":%s,\"ms\":%.6g,\"gflops\":%.4g,\"samples\":%d,"
                "\"calls_per_sample\":%d,\"max_abs_err\":%s}",
                attn::kernels::active_isa(), n, keep_matrices ? "true" : "false", t.ms, flop / (t.ms * 1e6),
                t.samples, t.calls_per_sample, err_text);
  return keep(buf);
}

// The measured multiply-add peak of one core: JSON {"kernel", "gflops"}.
BENCH_EXPORT const char* bench_peak(double min_seconds) {
  float sink = 0;
  const long iterations = 1 << 20;
  const Timing t = measure([&] { sink += peak_kernel(iterations); }, min_seconds);
  char buf[200];
  std::snprintf(buf, sizeof buf, "{\"kernel\":\"%s\",\"gflops\":%.4g,\"sink\":%g}", peak_name(),
                peak_flop_per_iteration() * iterations / (t.ms * 1e6), double(sink));
  return keep(buf);
}

#if !defined(__EMSCRIPTEN__)
int main(int argc, char** argv) {
  std::vector<int> sizes = {64, 256, 512, 1024};
  double min_seconds = 0.5;
  for (int i = 1; i < argc; i += 2) {
    if (i + 1 < argc && !std::strcmp(argv[i], "--sizes")) {
      sizes.clear();
      for (const char* s = argv[i + 1]; *s;) {
        char* end;
        sizes.push_back(int(std::strtol(s, &end, 10)));
        s = *end ? end + 1 : end;
      }
    } else if (i + 1 < argc && !std::strcmp(argv[i], "--min-seconds")) {
      min_seconds = std::atof(argv[i + 1]);
    } else {
      std::fprintf(stderr, "usage: %s [--sizes 64,256,512,1024] [--min-seconds 0.5]\n", argv[0]);
      return 2;
    }
  }
  // JSON on stdout for bench/attention/run.mjs; progress on stderr.
  const std::string isas = bench_kernel_isas();  // copies: both share keep()'s buffer
  const std::string peak = bench_peak(min_seconds);
  std::fprintf(stderr, "[bench_kernel] peak %s\n", peak.c_str());
  std::printf("{\"isas\":%s,\n\"peak\":%s,\n\"cells\":[", isas.c_str(), peak.c_str());
  bool first = true;
  for (const std::string& isa : attn::kernels::available_isas())
    for (int n : sizes)
      for (int keep_matrices : {0, 1}) {
        const std::string cell = bench_kernel_cell(isa.c_str(), n, keep_matrices, min_seconds);
        std::printf("%s\n%s", first ? "" : ",", cell.c_str());
        std::fflush(stdout);
        std::fprintf(stderr, "[bench_kernel] %s\n", cell.c_str());
        first = false;
      }
  std::printf("]}\n");
  return 0;
}
#endif
