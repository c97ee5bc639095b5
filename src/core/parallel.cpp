// parallel_for: a few std::threads taking indices from one counter.
#include "parallel.hpp"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace attn {

int hardware_threads() {
#ifdef __EMSCRIPTEN__
  return 1;
#else
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
#endif
}

void parallel_for(int count, int threads, const std::function<void(int)>& work) {
  const int n = std::min(count, threads > 0 ? threads : hardware_threads());
#ifdef __EMSCRIPTEN__
  (void)n;
  for (int i = 0; i < count; ++i) work(i);
#else
  if (n <= 1) {
    for (int i = 0; i < count; ++i) work(i);
    return;
  }
  std::atomic<int> next{0};
  const auto run = [&] {
    for (int i = next++; i < count; i = next++) work(i);
  };
  std::vector<std::thread> helpers;
  for (int t = 1; t < n; ++t) helpers.emplace_back(run);
  run();
  for (std::thread& h : helpers) h.join();
#endif
}

}  // namespace attn
