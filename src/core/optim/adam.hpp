// Adam (Kingma and Ba), and AdamW's decoupled weight decay (Loshchilov and
// Hutter), for the lab's trainers: one update rule, its settings named.
//
//   m = beta1 m + (1 - beta1) g            g: the gradient, times the clip factor
//   v = beta2 v + (1 - beta2) g^2          (max_norm > 0: the global norm at most max_norm)
//   w = w - lr (m / c1) / (sqrt(v / c2) + eps) - lr weight_decay w
//   c1 = 1 - beta1^t, c2 = 1 - beta2^t     beta^t as a running product of doubles
//
// Moment is the moments' type and the arithmetic's (float, or double with the
// weights rounded to float once per update). Everything is + - * / and sqrt,
// correctly rounded in IEEE 754, in a fixed order: the same bits natively and
// in wasm, for any thread count. The scaling lab's trainer (Moment float, no
// clipping), the why models (double, clipped at 1) and the poem GPT (float,
// AdamW, cloned per vector width) train with it.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace attn::optim {

struct AdamSettings {
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0;  // decoupled (AdamW); 0: Adam
  double max_norm = 0;      // > 0: the gradient is scaled to at most this global norm first
};

// One step's constants: the bias corrections and the clip factor.
struct AdamStep {
  double correction1 = 1, correction2 = 1, clip = 1;
};

// The step counter: beta^t as running products (std::pow is the C library's,
// not guaranteed the same bits everywhere).
class AdamClock {
 public:
  // The next step's constants; grad_norm: the whole gradient's norm (used when clipping).
  AdamStep next(const AdamSettings& s, double grad_norm = 0) {
    beta1_t_ *= s.beta1;
    beta2_t_ *= s.beta2;
    ++t_;
    return {1.0 - beta1_t_, 1.0 - beta2_t_, s.max_norm > 0 && grad_norm > s.max_norm ? s.max_norm / grad_norm : 1.0};
  }
  long long t() const { return t_; }

 private:
  double beta1_t_ = 1.0, beta2_t_ = 1.0;
  long long t_ = 0;
};

// One tensor's update (n weights), its moments m and v beside it.
template <class Moment>
void adam_update(const AdamSettings& s, const AdamStep& step, float learning_rate, float* params, const float* grads,
                 Moment* m, Moment* v, std::size_t n) {
  const Moment beta1 = Moment(s.beta1), beta2 = Moment(s.beta2), rest1 = Moment(1 - s.beta1),
               rest2 = Moment(1 - s.beta2), c1 = Moment(step.correction1), c2 = Moment(step.correction2),
               eps = Moment(s.eps), clip = Moment(step.clip), lr = Moment(learning_rate),
               decay = Moment(s.weight_decay);
  for (std::size_t i = 0; i < n; ++i) {
    const Moment g = Moment(grads[i]) * clip;
    m[i] = beta1 * m[i] + rest1 * g;
    v[i] = beta2 * v[i] + rest2 * g * g;
    Moment change = lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
    if (s.weight_decay != 0) change += lr * decay * Moment(params[i]);
    params[i] = float(Moment(params[i]) - change);
  }
}

// The sum of squares of a gradient, in double, in order.
inline double sum_of_squares(const float* grads, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += double(grads[i]) * double(grads[i]);
  return sum;
}

// Adam over one flat parameter array: its moments and its clock.
template <class Moment>
struct Adam {
  AdamSettings settings;
  std::vector<Moment> m, v;
  AdamClock clock;

  void step(std::vector<float>& params, const std::vector<float>& grads, float learning_rate) {
    if (m.size() != params.size()) m.assign(params.size(), Moment(0)), v.assign(params.size(), Moment(0)), clock = {};
    const double norm = settings.max_norm > 0 ? std::sqrt(sum_of_squares(grads.data(), grads.size())) : 0.0;
    adam_update(settings, clock.next(settings, norm), learning_rate, params.data(), grads.data(), m.data(), v.data(),
                params.size());
  }
};

}  // namespace attn::optim
