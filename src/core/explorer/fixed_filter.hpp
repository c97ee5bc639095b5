// A fixed filter against a dynamic one, the chapter's contrast ("和固定卷积核
// 不同，这里的'滤波器'由输入内容本身动态生成"): written as a matrix over
// positions, y = M X, a 1-D convolution of kernel k mixes each token with
// its neighbours by the same weights whatever the sentence says, a band
// around the diagonal: M_ij = taps[j - i + k/2] (zeros beyond the ends).
// Attention's weights A, y = A V, are computed from the sentence itself.
#pragma once

#include "core/types.hpp"

namespace attn {

// The lab's fixed filter: a centred kernel of 3 taps (a smoothing one, each
// row's weights summing to 1 away from the ends, as attention's rows do).
inline constexpr int kFixedFilterSize = 3;
inline constexpr float kFixedFilterTaps[kFixedFilterSize] = {0.25f, 0.5f, 0.25f};

// The n x n band of a centred convolution with k (odd) taps; it depends on n alone.
Matrix convolution_matrix(int n, const float* taps = kFixedFilterTaps, int k = kFixedFilterSize);

}  // namespace attn
