// Benchmark: the explorer's update path, config change -> result ready, as
// the app runs it (ui/explorer/update.cpp): a full recompute (new text, sizes
// or seed), a recompute after a temperature, scale or mask change (the app
// passes the last result, whose embeddings, projection matrices and Q/K/V are
// reused), and the longest frame slice of the staged recompute (ExplorerJob
// stepped with the app's per-frame budget, the constructor counted in the
// first slice, as update_result does). The app bins the weight histograms
// only while the stats view is open: measured without them, and a T change
// with them. Then the goals as met / NOT met lines, and a profile of
// the big cases, each stage timed by calling its function directly.
// Prints figures; always exits 0.
//
//   native: build/native/tests/bench/bench_explorer
//   wasm:   node build/wasm/tests/bench/bench_explorer.js
//
// Text: distinct words ("w0 w1 ..."), so no embedding is shared (a real text
// repeats words, whose embeddings the job draws once). Medians over repeats;
// the longest slice is the longest over every repeat.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"
#include "core/kernels/kernels.hpp"
#include "core/explorer/sentence.hpp"
#include "core/statistics.hpp"
#include "platform/native_memory.hpp"
#include "api/explorer/explorer_json.hpp"

namespace {

using namespace attn;
using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Median ms of f over `repeats` calls.
double time_ms(int repeats, const std::function<void()>& f) {
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const Clock::time_point start = Clock::now();
    f();
    ms.push_back(ms_since(start));
  }
  return median(ms);
}

std::string distinct_words(int tokens) {
  std::string text;
  for (int i = 0; i < tokens; ++i) text += "w" + std::to_string(i) + " ";
  return text;
}

ExplorerConfig text_config(int tokens, int heads, int d_model) {
  ExplorerConfig c;
  c.text = distinct_words(tokens);
  c.heads = heads;
  c.d_model = d_model;
  return c;
}

// The change a slider or combo makes.
enum class Change { None, Temperature, Scale, Mask };
ExplorerConfig changed(ExplorerConfig c, Change change, int round) {
  switch (change) {
    case Change::None: break;
    case Change::Temperature: c.temperature = round % 2 ? 1.5f : 0.75f; break;
    case Change::Scale: c.scale = round % 2 ? Scale::none() : Scale::factor(0.5f); break;
    case Change::Mask: c.mask = round % 2 ? Mask::Kind::Causal : Mask::Kind::Padding; break;
  }
  return c;
}

// The app's path (ui/explorer/update.cpp): an ExplorerJob from the config
// and the last result. Histograms are binned only while the stats view is
// open (the other views do not show them).
ExplorerResult run_app(const ExplorerConfig& c, const ExplorerResult* previous, bool histograms) {
  ExplorerJob job(c, previous, nullptr, histograms);
  WorkClock clock;
  while (!job.step(1e9, clock)) {
  }
  return job.take();
}

struct Timing {
  double median_ms = 0;  // config change -> result
  // The longest ExplorerJob::step(kFrameBudgetMs) (+ constructor) of a run:
  // the median over the runs, and the longest of all (machine noise included).
  double longest_slice_ms = 0, worst_slice_ms = 0;
  int slices = 0;  // frames the staged recompute took (last repeat)
};

Timing measure(const ExplorerConfig& base, Change change, const ExplorerResult* previous, int repeats,
               bool histograms = false) {
  Timing t;
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const ExplorerConfig c = changed(base, change, r);
    const Clock::time_point start = Clock::now();
    const ExplorerResult result = run_app(c, previous, histograms);
    ms.push_back(ms_since(start));
    if (result.tokens.empty()) std::puts("unexpected empty result");
  }
  t.median_ms = median(ms);
  std::vector<double> longest;
  for (int r = 0; r < std::max(3, repeats / 2); ++r) {
    const ExplorerConfig c = changed(base, change, r);
    Clock::time_point start = Clock::now();
    ExplorerJob job(c, previous, nullptr, histograms);
    WorkClock clock;  // the steady clock, as the app's
    int slices = 0;
    double run_longest = 0;
    for (bool done = false; !done;) {
      done = job.step(ExplorerJob::kFrameBudgetMs, clock);
      run_longest = std::max(run_longest, ms_since(start));
      ++slices;
      start = Clock::now();
    }
    longest.push_back(run_longest);
    t.slices = slices;
  }
  t.longest_slice_ms = median(longest);
  t.worst_slice_ms = *std::max_element(longest.begin(), longest.end());
  return t;
}

struct Row {
  int tokens, heads, d_model;
  Timing full, temperature, scale, mask, stats_view;
  double longest() const {
    return std::max({full.longest_slice_ms, temperature.longest_slice_ms, scale.longest_slice_ms,
                     mask.longest_slice_ms, stats_view.longest_slice_ms});
  }
  double worst() const {
    return std::max({full.worst_slice_ms, temperature.worst_slice_ms, scale.worst_slice_ms, mask.worst_slice_ms,
                     stats_view.worst_slice_ms});
  }
  double slowest_change() const { return std::max({temperature.median_ms, scale.median_ms, mask.median_ms}); }
};

Row run_row(int tokens, int heads, int d_model) {
  Row row{tokens, heads, d_model, {}, {}, {}, {}, {}};
  const ExplorerConfig c = text_config(tokens, heads, d_model);
  const long long work = 1LL * heads * tokens * tokens + 1LL * tokens * d_model * d_model / 16;
  const int repeats = work > (1 << 21) ? 5 : work > (1 << 18) ? 9 : 21;
  run_explorer(c);  // warm-up: scratch and heap at their size
  row.full = measure(c, Change::None, nullptr, repeats);
  const ExplorerResult previous = run_explorer(c);
  row.temperature = measure(c, Change::Temperature, &previous, repeats);
  row.scale = measure(c, Change::Scale, &previous, repeats);
  row.mask = measure(c, Change::Mask, &previous, repeats);
  row.stats_view = measure(c, Change::Temperature, &previous, repeats, /*histograms=*/true);
  return row;
}

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

// ---- profile: each stage of one request, by its own function -------------------------

void profile(int tokens, int heads, int d_model) {
  const ExplorerConfig c = text_config(tokens, heads, d_model);
  const int repeats = 5;
  std::vector<std::string> toks;
  Matrix X;
  const double t_embed = time_ms(repeats, [&] {
    toks = explorer_tokens(c);
    (void)key_valid_flags(toks);
    X = embed_tokens(toks, d_model, c.seed, c.positions);
  });
  MultiHeadWeights w;
  const double t_weights = time_ms(repeats, [&] { w = random_projections(d_model, heads, c.seed); });
  Projections p;
  const double t_project = time_ms(repeats, [&] { p = project(X, w); });
  AttentionOptions options;
  MultiHeadResult r;
  r.heads.resize(std::size_t(heads));
  const double t_heads = time_ms(repeats, [&] {
    for (int h = 0; h < heads; ++h) r.heads[std::size_t(h)] = attention_head(p, heads, h, options);
  });
  const double t_combine = time_ms(repeats, [&] { combine_heads(w, r); });
  Matrix average;
  const double t_average = time_ms(repeats, [&] {
    average = Matrix::Zero(tokens, tokens);
    for (const HeadResult& head : r.heads) average += head.weights;
    average /= float(heads);
  });
  const double t_stats = time_ms(repeats, [&] {
    for (const HeadResult& head : r.heads) (void)weight_stats(head.weights);
    (void)weight_stats(r.average_weights);
  });
  const double t_entropy_avg = time_ms(repeats, [&] { (void)row_entropy(r.average_weights); });
  const double t_entropy_heads = time_ms(repeats, [&] {
    for (const HeadResult& head : r.heads) (void)row_entropy(head.weights);
  });
  const double t_hist = time_ms(repeats, [&] {
    for (const HeadResult& head : r.heads) {
      const WeightStats s = weight_stats(head.weights);  // (timed above; the histogram's range)
      (void)histogram(head.weights.data(), std::size_t(head.weights.size()), 25, s.min, s.max);
    }
    const WeightStats s = weight_stats(r.average_weights);
    (void)histogram(r.average_weights.data(), std::size_t(r.average_weights.size()), 25, s.min, s.max);
  }) - t_stats;
  const ExplorerResult result = run_explorer(c);
  const double t_full = time_ms(repeats, [&] { (void)run_app(c, nullptr, false); });
  ExplorerConfig warmer = c;
  warmer.temperature = 2.f;
  const double t_change = time_ms(repeats, [&] { (void)run_app(warmer, &result, false); });

  std::printf("\n#### %d tokens x %d heads, d_model %d (median of %d, ms)\n\n", tokens, heads, d_model, repeats);
  std::printf("| stage | function | ms | in a full recompute | after a T/scale/mask change |\n");
  std::printf("|---|---|---:|:---:|:---:|\n");
  const auto line = [](const char* stage, const char* fn, double ms, const char* full, const char* change) {
    std::printf("| %s | `%s` | %.2f | %s | %s |\n", stage, fn, ms, full, change);
  };
  line("tokenize + embed", "explorer_tokens, embed_tokens", t_embed, "yes", "reused");
  line("projection matrices", "random_projections", t_weights, "yes", "reused");
  line("Q, K, V", "project", t_project, "yes", "reused");
  char per_head[96];
  std::snprintf(per_head, sizeof per_head, "attention_head x %d (%.2f ms a head)", heads, t_heads / heads);
  line("attention, all heads", per_head, t_heads, "yes", "yes");
  line("average weights", "sum of heads / heads", t_average, "yes", "yes");
  line("combine (concat, average, concat W_o)", "combine_heads", t_combine, "yes", "yes");
  line("min / max / mean", "weight_stats, heads + average", t_stats, "yes", "yes");
  line("row entropy, head average", "row_entropy", t_entropy_avg, "yes", "yes");
  line("row entropy, every head", "row_entropy", t_entropy_heads, "no: the kernel's", "no: the kernel's");
  line("histograms, heads + average", "histogram", t_hist, "stats view only", "stats view only");
  std::size_t json_bytes = 0;
  const double t_json = time_ms(3, [&] { json_bytes = api::print_explorer_result(result).size(); });
  char json_fn[96];
  std::snprintf(json_fn, sizeof json_fn, "api::print_explorer_result (%.1f MB)", double(json_bytes) / 1e6);
  line("JSON of the result", json_fn, t_json, "no (compute(), export)", "no");
  line("**the app's full recompute**", "ExplorerJob(config), no histograms", t_full, "", "");
  line("**the app's recompute, T changed**", "ExplorerJob(config, &previous), no histograms", t_change, "", "");
}

}  // namespace

int main() {
  platform::keep_freed_memory();  // as the desktop app does
#ifdef __EMSCRIPTEN__
  const char* build = "wasm (SIMD128)";
#else
  const char* build = "native";
#endif
  std::printf("### Explorer update path: config change -> result (%s, kernels %s, one thread, fp32)\n\n", build,
              kernels::active_isa());
  std::printf("full: new text, sizes or seed (nothing reused); T / scale / mask: the last result's X, projection\n"
              "matrices and Q, K, V reused; the app's path outside the stats view (no histograms); stats view:\n"
              "T changed with the histograms binned too; slice: a staged recompute's longest\n"
              "ExplorerJob::step(%.0f ms), the largest over all five (the median run / the worst run; a frame's\n"
              "share: the app draws the rest of the frame). Medians, ms.\n\n",
              ExplorerJob::kFrameBudgetMs);
  std::printf("| tokens | heads | d_model | full | T changed | scale changed | mask changed | T changed, stats view | "
              "longest slice (median / worst run) | frames (full) |\n");
  std::printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  std::vector<Row> rows;
  for (int tokens : {16, 64, 256, 512})
    for (int heads : {1, 4, 8, 16}) rows.push_back(run_row(tokens, heads, 256));
  const int default_d_model = ExplorerConfig{}.d_model;  // what a reader gets without choosing
  for (int d_model : {default_d_model, 64, 512}) rows.push_back(run_row(512, 16, d_model));
  for (const Row& r : rows)
    std::printf("| %d | %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f / %.2f | %d |\n", r.tokens, r.heads, r.d_model,
                r.full.median_ms, r.temperature.median_ms, r.scale.median_ms, r.mask.median_ms,
                r.stats_view.median_ms, r.longest(), r.worst(), r.full.slices);

  const auto find = [&rows](int tokens, int heads, int d_model) -> const Row& {
    for (const Row& r : rows)
      if (r.tokens == tokens && r.heads == heads && r.d_model == d_model) return r;
    return rows.front();
  };
  std::printf("\nGoals:\n");
  const Row& full = find(256, 8, 256);
  std::printf("- full recompute, 256 tokens x 8 heads, d_model 256: %.2f ms (<= 8 ms): %s\n", full.full.median_ms,
              verdict(full.full.median_ms <= 8));
  for (int d_model : {default_d_model, 64, 256, 512}) {
    const Row& r = find(512, 16, d_model);
    std::printf("- temperature / scale / mask change, 512 tokens x 16 heads, d_model %d%s: %.2f / %.2f / %.2f ms "
                "(<= 16 ms): %s (in the stats view, with histograms: %.2f ms: %s)\n",
                d_model, d_model == default_d_model ? " (the app's default)" : "", r.temperature.median_ms, r.scale.median_ms, r.mask.median_ms, verdict(r.slowest_change() <= 16),
                r.stats_view.median_ms, verdict(r.stats_view.median_ms <= 16));
  }
  double longest = 0, worst = 0;
  for (const Row& r : rows) {
    longest = std::max(longest, r.longest());
    worst = std::max(worst, r.worst());
  }
  std::printf("- longest frame slice of a staged recompute, any size above: %.2f ms in the median run (<= 16 ms, the "
              "core's share; drawing comes on top): %s (the worst run: %.2f ms)\n",
              longest, verdict(longest <= 16), worst);

  std::printf("\n### Profile: where a request's time goes\n");
  profile(256, 8, 256);
  profile(512, 16, 64);
  profile(512, 16, 512);
  return 0;
}
