// What a fuzz target checks besides "no crash, no sanitizer report": a broken
// property prints why and aborts, which libFuzzer records as a crash with the
// input that caused it (saved as crash-<sha1>; add it to the corpus once fixed).
#pragma once

#include <cstdio>
#include <cstdlib>

#define FUZZ_CHECK(condition, why)                                          \
  do {                                                                      \
    if (!(condition)) {                                                     \
      std::fprintf(stderr, "fuzz check failed: %s (%s:%d)\n", why, __FILE__, __LINE__); \
      std::abort();                                                         \
    }                                                                       \
  } while (0)
