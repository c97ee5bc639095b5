#include "softmax.hpp"

#include <cmath>
#include <limits>

namespace attn {

void softmax_rows(const Matrix& scores, const MaskMatrix& allowed, Matrix& weights) {
  const Eigen::Index n_q = scores.rows(), n_k = scores.cols();
  weights.resize(n_q, n_k);
  for (Eigen::Index i = 0; i < n_q; ++i) {
    // Pass 1: the row maximum over allowed keys (subtracting it keeps exp <= 1).
    constexpr float kInf = std::numeric_limits<float>::infinity();
    float row_max = -kInf;
    bool any_allowed = false, has_nan = false;
    for (Eigen::Index j = 0; j < n_k; ++j) {
      if (!allowed(i, j)) continue;
      any_allowed = true;
      has_nan |= std::isnan(scores(i, j));
      if (scores(i, j) > row_max) row_max = scores(i, j);
    }
    if (!any_allowed) {
      weights.row(i).setZero();  // fully masked row: attends to nothing
      continue;
    }
    if (has_nan) {
      // NaN in, NaN out: a silent zero row would hide the bad input. Masked
      // keys stay exactly 0 (they are not attended to, whatever the others hold).
      for (Eigen::Index j = 0; j < n_k; ++j)
        weights(i, j) = allowed(i, j) ? std::numeric_limits<float>::quiet_NaN() : 0.f;
      continue;
    }
    if (row_max == kInf || row_max == -kInf) {
      // The limit of softmax: the keys at the extreme share the weight
      // (exp(inf - inf) would be NaN).
      float count = 0.f;
      for (Eigen::Index j = 0; j < n_k; ++j)
        count += (weights(i, j) = allowed(i, j) && scores(i, j) == row_max ? 1.f : 0.f);
      weights.row(i) /= count;
      continue;
    }
    // Pass 2: exp and sum; masked keys contribute exactly 0.
    float sum = 0.f;
    for (Eigen::Index j = 0; j < n_k; ++j) {
      const float e = allowed(i, j) ? std::exp(scores(i, j) - row_max) : 0.f;
      weights(i, j) = e;
      sum += e;
    }
    // Pass 3: normalise. sum >= 1 because the maximum itself contributes exp(0).
    weights.row(i) /= sum;
  }
}

Matrix softmax_rows(const Matrix& scores, const MaskMatrix& allowed) {
  Matrix weights;
  softmax_rows(scores, allowed, weights);
  return weights;
}

Matrix softmax_rows(const Matrix& scores) {
  return softmax_rows(scores, MaskMatrix::Constant(scores.rows(), scores.cols(), true));
}

Vector softmax(const Vector& scores) {
  const Matrix row = scores.transpose();
  return softmax_rows(row).row(0).transpose();
}

}  // namespace attn
