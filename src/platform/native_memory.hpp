// Native allocator tuning shared by the desktop app and the benchmark.
//
// A recompute allocates tens of MB of score and weight matrices (16 heads x
// 512 x 512 floats each). glibc serves blocks that large with mmap and gives
// them back on free, so every recompute faulted all its pages in again:
// measured 3-4x slower recomputes at 512 tokens x 16 heads
// (tests/bench/bench_explorer). Keeping freed memory in the heap avoids that.
// The browser build needs nothing: wasm memory only grows.
#pragma once

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attn::platform {

inline void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 256 << 20);
  mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

}  // namespace attn::platform
