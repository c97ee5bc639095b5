// numpy's legacy generator, numpy.random.RandomState, which the chapter's
// scripts use through np.random.seed(42): MT19937 (Matsumoto & Nishimura)
// seeded as numpy seeds an integer, 53-bit doubles from two 32-bit draws, and
// the legacy Gaussian (Marsaglia's polar method, which keeps its second
// value for the next call). With the scripts' seeds and draw order, the
// chapter's experiments (experiments.cpp) give the numbers the book prints.
//
// Arrays fill in C order (row by row), as np.random.randn(rows, cols) does.
// tests/unit/numpy_random_check.py compares the draws with Debian's numpy bit
// for bit. The explorer's token embeddings and projections keep rng.hpp's
// PCG32: their golden values and the seeds readers have shared stay valid.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/types.hpp"

namespace attn {

class NumpyRandom {
 public:
  static constexpr uint64_t kMaxSeed = 0xffffffffu;  // numpy refuses larger seeds
  explicit NumpyRandom(uint32_t seed);  // np.random.seed(seed)

  uint32_t next_u32();       // one MT19937 output
  double random_sample();    // np.random.rand(): [0, 1), 53 bits
  double standard_normal();  // np.random.randn()
  // out[0..n) = scale * randn(n), in order.
  void fill_standard_normal(double* out, std::size_t n, double scale = 1.0);
  // m = scale * randn(rows, cols), row by row, each value rounded to float once.
  void fill_standard_normal(Matrix& m, double scale = 1.0);
  // Draws n normals and forgets them: the stream as a script that drew them sees it.
  void skip_standard_normal(std::size_t n);

 private:
  static constexpr int kStateSize = 624;
  std::array<uint32_t, kStateSize> key_{};
  int pos_ = kStateSize;
  bool has_gauss_ = false;
  double gauss_ = 0.0;
};

}  // namespace attn
