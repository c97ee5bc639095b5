// Softmax and cross-entropy; see crossentropy.hpp.
#include "crossentropy.hpp"

#include <cstddef>

#include "core/base/detmath.hpp"

namespace attn::layers {
namespace {

using Z = std::ptrdiff_t;  // products of sizes overflow int

}  // namespace

template <class Real, class Loss>
void crossentropy_forward(Real* probs, Loss* losses, int* argmax, const Real* logits, const int* targets, int N,
                          int V) {
  for (Z n = 0; n < N; ++n) {
    const Real* z = logits + n * V;
    Real* p = probs + n * V;
    int best = 0;
    double max = double(z[0]);
    for (int v = 1; v < V; ++v)
      if (double(z[v]) > max) max = double(z[v]), best = v;
    double sum = 0;
    for (Z v = 0; v < V; ++v) sum += det_exp(double(z[v]) - max);
    const int target = targets[n];
    losses[n] = target < 0 ? Loss(0) : Loss(det_log(sum) - (double(z[target]) - max));
    if (argmax) argmax[n] = best;
    for (Z v = 0; v < V; ++v) p[v] = Real(det_exp(double(z[v]) - max) / sum);
  }
}

template <class Real>
void crossentropy_backward(Real* dlogits, const Real* probs, const int* targets, int count, int N, int V) {
  for (Z n = 0; n < N; ++n)
    for (Z v = 0; v < V; ++v)
      dlogits[n * V + v] =
          targets[n] < 0 ? Real(0) : (probs[n * V + v] - Real(v == targets[n] ? 1 : 0)) / Real(count);
}

template void crossentropy_forward(float*, float*, int*, const float*, const int*, int, int);
template void crossentropy_forward(float*, double*, int*, const float*, const int*, int, int);
template void crossentropy_forward(double*, double*, int*, const double*, const int*, int, int);
template void crossentropy_backward(float*, const float*, const int*, int, int, int);
template void crossentropy_backward(double*, const double*, const int*, int, int, int);

}  // namespace attn::layers
