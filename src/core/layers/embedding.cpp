// See embedding.hpp.
#include "embedding.hpp"

#include <cmath>
#include <cstddef>

namespace attn::layers {

namespace {

using Z = std::ptrdiff_t;  // every index below: products of sizes overflow int

}  // namespace

template <class Real>
void embedding_forward(Real* out, const int* tokens, const Real* wte, const Real* wpe, int B, int T, int C) {
  for (Z bt = 0; bt < Z(B) * T; ++bt) {
    const Real* token_row = wte + Z(tokens[bt]) * C;
    if (!wpe) {
      for (Z i = 0; i < C; ++i) out[bt * C + i] = token_row[i];
      continue;
    }
    const Real* position_row = wpe + (bt % T) * C;
    for (Z i = 0; i < C; ++i) out[bt * C + i] = token_row[i] + position_row[i];
  }
}

template <class Real>
void embedding_backward(Real* dwte, Real* dwpe, const Real* dout, const int* tokens, int B, int T, int C) {
  for (Z bt = 0; bt < Z(B) * T; ++bt) {
    Real* token_row = dwte + Z(tokens[bt]) * C;
    Real* position_row = dwpe ? dwpe + (bt % T) * C : nullptr;
    for (Z i = 0; i < C; ++i) {
      token_row[i] += dout[bt * C + i];
      if (position_row) position_row[i] += dout[bt * C + i];
    }
  }
}

// An explicit instantiation names types: the macro argument cannot be parenthesised.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_EMBEDDING(Real) \
  template void embedding_forward(Real*, const int*, const Real*, const Real*, int, int, int);                 \
  template void embedding_backward(Real*, Real*, const Real*, const int*, int, int, int);
ATTN_EMBEDDING(float)
ATTN_EMBEDDING(double)
#undef ATTN_EMBEDDING
// NOLINTEND(bugprone-macro-parentheses)

}  // namespace attn::layers
