// A seedable, deterministic random number generator: PCG32 (O'Neill, pcg-random.org)
// for uniform bits and Box-Muller for normals.
//
// Why not <random>: std::normal_distribution differs between libstdc++ (native)
// and libc++ (Emscripten), so the same seed would give the reader in the
// browser different numbers than the desktop build. Every draw here is
// computed in double and rounded to float once, so native and WASM agree bit
// for bit (tests/unit/test_rng.cpp pins golden values in both builds).
#pragma once

#include <cstdint>

#include "core/types.hpp"

namespace attn {

class Rng {
 public:
  explicit Rng(uint64_t seed = 0, uint64_t stream = 54);

  uint32_t next_u32();
  double uniform_double();  // [0, 1), 53 random bits
  float uniform();          // [0, 1)
  float normal();           // N(0, 1)
  // Fill every entry with stddev * N(0, 1), row by row.
  void fill_normal(Matrix& m, float stddev = 1.0f);

 private:
  uint64_t state_ = 0;
  uint64_t increment_ = 0;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// FNV-1a: a stable 64-bit hash of a string, used to derive per-token seeds.
uint64_t stable_hash(const char* data, std::size_t size, uint64_t basis = 0xcbf29ce484222325ull);

}  // namespace attn
