#include "detmath.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace attn {
namespace {

// ln 2 split so that k * kLn2Hi is exact for |k| < 2^11 (kLn2Hi has 32
// significant bits; fdlibm's constants).
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLog2e = 1.44269504088896338700e+00;

// 2^k for -1022 <= k <= 1023, built from its bits (exact).
double pow2(int k) {
  const uint64_t bits = static_cast<uint64_t>(k + 1023) << 52;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

}  // namespace

double det_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return std::numeric_limits<double>::infinity();
  if (x < -745.2) return 0.0;
  // x = k ln2 + r with |r| <= ln2 / 2 (Cody-Waite: k*kLn2Hi is exact).
  const double k = std::floor(x * kLog2e + 0.5);  // floor is exact
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;
  // exp(r) by its Taylor series to r^13 / 13!: the first omitted term is
  // below 0.347^14 / 14! ~ 4e-18 relative. Horner, fixed order.
  double p = 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;  // 1/12!
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // Times 2^k, exactly (or rounded once into the subnormal range).
  const int ki = static_cast<int>(k);
  if (ki > 1023) return (p * 2.0) * pow2(ki - 1);
  if (ki < -1022) return (p * pow2(-1022 + 54)) * pow2(ki + 1022 - 54);
  return p * pow2(ki);
}

double det_log(double x) {
  if (x != x) return x;
  if (x < 0.0) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0.0) return -std::numeric_limits<double>::infinity();
  if (x == std::numeric_limits<double>::infinity()) return x;
  int e = 0;
  if (x < 2.2250738585072014e-308) {  // subnormal: normalise first (exact)
    x *= 18014398509481984.0;        // 2^54
    e -= 54;
  }
  // x = m * 2^e with m in [sqrt(1/2), sqrt(2)): exact bit manipulation.
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  e += static_cast<int>((bits >> 52) & 0x7ff) - 1023;
  bits = (bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull;  // m in [1, 2)
  double m;
  std::memcpy(&m, &bits, sizeof m);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    e += 1;
  }
  // log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.1716: the series
  // 2 (s + s^3/3 + ... + s^23/23); the first omitted term is below
  // 2 * 0.1716^25 / 25 ~ 6e-21.
  const double s = (m - 1.0) / (m + 1.0);  // m - 1 is exact (Sterbenz)
  const double s2 = s * s;
  double p = 1.0 / 23.0;
  p = p * s2 + 1.0 / 21.0;
  p = p * s2 + 1.0 / 19.0;
  p = p * s2 + 1.0 / 17.0;
  p = p * s2 + 1.0 / 15.0;
  p = p * s2 + 1.0 / 13.0;
  p = p * s2 + 1.0 / 11.0;
  p = p * s2 + 1.0 / 9.0;
  p = p * s2 + 1.0 / 7.0;
  p = p * s2 + 1.0 / 5.0;
  p = p * s2 + 1.0 / 3.0;
  const double log_m = 2.0 * s + 2.0 * s * s2 * p;
  const double ed = static_cast<double>(e);
  return ed * kLn2Hi + (log_m + ed * kLn2Lo);
}

}  // namespace attn
