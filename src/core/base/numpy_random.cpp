#include "numpy_random.hpp"

#include <cmath>

namespace attn {

// numpy's mt19937_seed: Knuth's initialisation (init_genrand), the state
// regenerated at the first draw.
NumpyRandom::NumpyRandom(uint32_t seed) {
  for (int i = 0; i < kStateSize; ++i) {
    key_[size_t(i)] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + uint32_t(i + 1);
  }
}

uint32_t NumpyRandom::next_u32() {
  constexpr int kShift = 397;
  if (pos_ == kStateSize) {  // the next 624 outputs at once (mt19937_gen)
    for (int i = 0; i < kStateSize; ++i) {
      const uint32_t y = (key_[size_t(i)] & 0x80000000u) | (key_[size_t((i + 1) % kStateSize)] & 0x7fffffffu);
      key_[size_t(i)] = key_[size_t((i + kShift) % kStateSize)] ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
    }
    pos_ = 0;
  }
  uint32_t y = key_[size_t(pos_++)];
  // Tempering.
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

double NumpyRandom::random_sample() {
  // 27 + 26 bits: a * 2^26 + b over 2^53 (legacy_double / mt19937_next_double).
  const uint32_t a = next_u32() >> 5, b = next_u32() >> 6;
  return (double(a) * 67108864.0 + double(b)) / 9007199254740992.0;
}

double NumpyRandom::standard_normal() {
  if (has_gauss_) {
    has_gauss_ = false;
    return gauss_;
  }
  // A point uniform in the unit disc (not its centre) gives two independent
  // normals: x * f and y * f with f = sqrt(-2 ln r2 / r2). numpy returns the
  // second and keeps the first.
  double x1 = 0, x2 = 0, r2 = 0;
  do {
    x1 = 2.0 * random_sample() - 1.0;
    x2 = 2.0 * random_sample() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss_ = f * x1;
  has_gauss_ = true;
  return f * x2;
}

void NumpyRandom::fill_standard_normal(double* out, std::size_t n, double scale) {
  for (std::size_t i = 0; i < n; ++i) out[i] = scale * standard_normal();
}

void NumpyRandom::fill_standard_normal(Matrix& m, double scale) {
  for (Eigen::Index r = 0; r < m.rows(); ++r)
    for (Eigen::Index c = 0; c < m.cols(); ++c) m(r, c) = static_cast<float>(scale * standard_normal());
}

void NumpyRandom::skip_standard_normal(std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) standard_normal();
}

}  // namespace attn
