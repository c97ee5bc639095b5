// Benchmark: how long one full recompute of the explorer takes (tokenise,
// embed, project, every head's attention, statistics), i.e. what the reader
// waits for after moving a slider. Prints figures; never fails.
//
//   native: build/native/tests/bench/bench_explorer
//   wasm:   node build/wasm/tests/bench/bench_explorer.js
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "core/explorer.hpp"
#include "platform/native_memory.hpp"

namespace {

std::string sentence_of(int tokens) {
  static const char* words[] = {"the", "cat", "sat", "on", "a", "mat", "and", "looked", "at", "me"};
  std::string text;
  for (int i = 0; i < tokens; ++i) text += std::string(words[i % 10]) + " ";
  return text;
}

// previous: a result to reuse (what the app passes when a slider moves).
double median_ms(const attn::ExplorerConfig& config, int repeats,
                 const attn::ExplorerResult* previous = nullptr) {
  std::vector<double> ms;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    const attn::ExplorerResult result = attn::run_explorer(config, previous);
    const auto stop = std::chrono::steady_clock::now();
    if (result.tokens.empty()) std::puts("unexpected empty result");
    ms.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main() {
  attn::platform::keep_freed_memory();  // as the desktop app does
  std::printf("run_explorer, full recompute, median of repeats (fp32, single thread)\n");
  std::printf("%8s %8s %6s %10s %12s %16s\n", "tokens", "d_model", "heads", "ms", "GFLOP/s",
              "ms (T changed)");
  const int sizes[][3] = {{6, 32, 4}, {64, 128, 8}, {256, 256, 8}, {512, 512, 16}, {512, 64, 16}};
  for (const auto& s : sizes) {
    attn::ExplorerConfig config;
    config.text = sentence_of(s[0]);
    config.d_model = s[1];
    config.heads = s[2];
    const double n = s[0], d = s[1];
    // 3 projections + W_o (2 n d^2 each) + QK^T and weights V over all heads (2 * 2 n^2 d).
    const double flop = 4 * 2 * n * d * d + 4 * n * n * d;
    const int repeats = s[0] >= 256 ? 5 : 21;
    const double ms = median_ms(config, repeats);
    // A temperature drag: embeddings and projections are reused from the last result.
    const attn::ExplorerResult previous = attn::run_explorer(config);
    attn::ExplorerConfig warmer = config;
    warmer.temperature = 2.0f;
    const double ms_reused = median_ms(warmer, repeats, &previous);
    std::printf("%8d %8d %6d %10.2f %12.1f %16.2f\n", s[0], s[1], s[2], ms, flop / (ms * 1e6), ms_reused);
  }
  return 0;
}
