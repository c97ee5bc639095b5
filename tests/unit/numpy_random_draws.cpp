// Prints NumpyRandom's draws for tests/unit/numpy_random_check.py, which asks
// numpy.random.RandomState for the same ones and compares them bit for bit.
//   numpy_random_draws SEED OP...   OP: randn:N | rand:N | u32:N
// Each value on a line of its own: doubles as C99 hex floats (exact), u32 in decimal.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/base/numpy_random.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: numpy_random_draws SEED randn:N|rand:N|u32:N ...\n");
    return 2;
  }
  attn::NumpyRandom rng(static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10)));
  for (int i = 2; i < argc; ++i) {
    const std::string op = argv[i];
    const std::size_t colon = op.find(':');
    const std::string kind = op.substr(0, colon);
    const long n = colon == std::string::npos ? 1 : std::strtol(op.c_str() + colon + 1, nullptr, 10);
    for (long k = 0; k < n; ++k) {
      if (kind == "randn") std::printf("%a\n", rng.standard_normal());
      else if (kind == "rand") std::printf("%a\n", rng.random_sample());
      else if (kind == "u32") std::printf("%u\n", rng.next_u32());
      else {
        std::fprintf(stderr, "unknown draw %s\n", kind.c_str());
        return 2;
      }
    }
  }
  return 0;
}
