// Softmax and cross-entropy, the training loss of every model in the lab.
//
//   probs (N, V)  = softmax(logits) per row
//   losses (N)    = -ln probs[target] = ln sum_v exp(z_v - max) - (z_target - max),
//                   from the logits (not from probs, which underflow to 0 for a
//                   far-off target); a target of -1 has no loss (its row is only
//                   a prediction) and gets 0
//   argmax (N)    = the first largest logit of each row, when not null
//
// probs may be logits itself (the row is read before it is written). The
// maximum, the sum and the losses are kept in double, exp and ln are det_exp
// and det_log (base/detmath.hpp): the same bits natively and in wasm.
#pragma once

namespace attn::layers {

template <class Real, class Loss>
void crossentropy_forward(Real* probs, Loss* losses, int* argmax, const Real* logits, const int* targets, int N,
                          int V);

// dlogits (N, V) = (probs - onehot(target)) / count: the gradient of the sum
// of the losses over count (the mean over the rows that have a target);
// rows with target -1 get 0. Written, not added, so dlogits may be probs.
template <class Real>
void crossentropy_backward(Real* dlogits, const Real* probs, const int* targets, int count, int N, int V);

}  // namespace attn::layers
