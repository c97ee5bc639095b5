// Shared matrix types of the attention core.
//
// All data is float32 and row-major: row i of Q, K, V or X is token i, which
// is how the chapter writes the maths (X is n x d_model, scores are n x n).
#pragma once

#include <Eigen/Core>

namespace attn {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXf;
// allowed(i, j) == true: query i may attend to key j.
using MaskMatrix = Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

}  // namespace attn
