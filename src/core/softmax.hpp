// Numerically stable, mask-aware softmax over the rows of a score matrix.
//
// Stable: each row's maximum (over allowed entries) is subtracted before exp,
// so exp never overflows however large the scores (unscaled scores at large
// d_k would otherwise give inf/inf = NaN).
// Masked entries get weight exactly 0 (not exp(-1e9), which leaves denormals).
// A row with no allowed entry gets all-zero weights: nothing to attend to is
// reported as "no attention", never as NaN. Infinite scores take the limit
// (the +inf keys share the row); a NaN among the allowed scores makes the
// row's allowed weights NaN, so bad input is visible rather than silently
// zeroed (masked entries stay exactly 0 in every row).
#pragma once

#include "types.hpp"

namespace attn {

// weights (n_q x n_k) = softmax over each row of scores, restricted to allowed.
void softmax_rows(const Matrix& scores, const MaskMatrix& allowed, Matrix& weights);
Matrix softmax_rows(const Matrix& scores, const MaskMatrix& allowed);
Matrix softmax_rows(const Matrix& scores);  // no mask

// softmax of one vector (no mask), as used by the Figure 4.2 "peak" statistic.
Vector softmax(const Vector& scores);

}  // namespace attn
