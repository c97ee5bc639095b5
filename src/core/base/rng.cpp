#include "rng.hpp"

#include <cmath>

namespace attn {

// PCG32 (XSH RR 64/32) as in pcg-c-basic: 64-bit LCG state, 32-bit output
// from a xorshift and a data-dependent rotation.
Rng::Rng(uint64_t seed, uint64_t stream) : increment_((stream << 1u) | 1u) {
  next_u32();
  state_ += seed;
  next_u32();
}

uint32_t Rng::next_u32() {
  const uint64_t old = state_;
  state_ = old * 6364136223846793005ull + increment_;
  const auto xorshifted = static_cast<uint32_t>(((old >> 18u) ^ old) >> 27u);
  const auto rot = static_cast<uint32_t>(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

double Rng::uniform_double() {
  const uint32_t a = next_u32() >> 5, b = next_u32() >> 6;  // 27 + 26 = 53 bits
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

float Rng::uniform() { return static_cast<float>(next_u32() >> 8) * (1.0f / 16777216.0f); }

float Rng::normal() {
  // Box-Muller makes two independent normals from two uniforms; keep the second.
  if (has_spare_) {
    has_spare_ = false;
    return static_cast<float>(spare_);
  }
  const double u1 = 1.0 - uniform_double();  // (0, 1]: log(u1) is finite
  const double u2 = uniform_double();
  const double radius = std::sqrt(-2.0 * std::log(u1));
  const double angle = 6.283185307179586 * u2;
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return static_cast<float>(radius * std::cos(angle));
}

void Rng::fill_normal(Matrix& m, float stddev) {
  for (Eigen::Index i = 0; i < m.rows(); ++i)
    for (Eigen::Index j = 0; j < m.cols(); ++j) m(i, j) = stddev * normal();
}

uint64_t stable_hash(const char* data, std::size_t size, uint64_t basis) {
  uint64_t h = basis;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 1099511628211ull;
  }
  return h;
}

}  // namespace attn
