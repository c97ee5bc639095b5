// The fixed filter's matrix; see fixed_filter.hpp.
#include "fixed_filter.hpp"

namespace attn {

Matrix convolution_matrix(int n, const float* taps, int k) {
  Matrix m = Matrix::Zero(n, n);
  const int radius = k / 2;
  for (int i = 0; i < n; ++i)
    for (int t = 0; t < k; ++t)
      if (const int j = i + t - radius; j >= 0 && j < n) m(i, j) = taps[t];
  return m;
}

}  // namespace attn
