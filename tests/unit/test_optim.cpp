// The one Adam update (core/optim/adam.hpp) against the textbook formulas,
// written out here in long double with std::pow (Kingma and Ba, Algorithm 1;
// AdamW's decoupled decay), and against hand-derived first steps.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/optim/adam.hpp"

namespace attn {
namespace {

// Steps of Adam from w on the gradients grads[step], the textbook's way.
std::vector<long double> reference(const optim::AdamSettings& s, std::vector<long double> w,
                                   const std::vector<std::vector<float>>& grads, long double lr) {
  std::vector<long double> m(w.size(), 0), v(w.size(), 0);
  for (std::size_t t = 1; t <= grads.size(); ++t) {
    long double norm = 0;
    for (float g : grads[t - 1]) norm += (long double)g * g;
    norm = std::sqrt(norm);
    const long double clip = s.max_norm > 0 && norm > s.max_norm ? s.max_norm / norm : 1;
    for (std::size_t i = 0; i < w.size(); ++i) {
      const long double g = grads[t - 1][i] * clip;
      m[i] = s.beta1 * m[i] + (1 - s.beta1) * g;
      v[i] = s.beta2 * v[i] + (1 - s.beta2) * g * g;
      const long double m_hat = m[i] / (1 - std::pow((long double)s.beta1, (long double)t));
      const long double v_hat = v[i] / (1 - std::pow((long double)s.beta2, (long double)t));
      w[i] -= lr * m_hat / (std::sqrt(v_hat) + s.eps) + lr * s.weight_decay * w[i];
    }
  }
  return w;
}

void check_against_reference(const optim::AdamSettings& settings, double tolerance) {
  const std::vector<std::vector<float>> grads = {{3.0f, -4.0f, 0.5f}, {-1.0f, 2.0f, 0.25f}, {0.5f, 0.5f, -6.0f},
                                                 {2.0f, -0.1f, 1.0f}, {-3.0f, 1.0f, 0.0f}};
  const std::vector<float> start = {0.5f, -1.0f, 2.0f};
  const float lr = 0.01f;
  optim::Adam<double> adam64{settings, {}, {}, {}};
  optim::Adam<float> adam32{settings, {}, {}, {}};
  std::vector<float> w64 = start, w32 = start;
  for (const std::vector<float>& g : grads) {
    adam64.step(w64, g, lr);
    adam32.step(w32, g, lr);
  }
  const std::vector<long double> want = reference(settings, {start.begin(), start.end()}, grads, lr);
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(std::abs((long double)w64[i] - want[i]) <= tolerance);
    CHECK(std::abs((long double)w32[i] - want[i]) <= tolerance);
  }
}

}  // namespace

TEST_CASE("optim: Adam's first step moves each weight by the learning rate against its gradient's sign") {
  // m_hat = g and v_hat = g^2 after one step, so the change is lr g / (|g| + eps).
  optim::Adam<double> adam;
  std::vector<float> w = {1.0f, 1.0f, 1.0f};
  adam.step(w, {2.0f, -0.001f, 0.0f}, 0.1f);
  CHECK(w[0] == doctest::Approx(0.9).epsilon(1e-6));
  CHECK(w[1] == doctest::Approx(1.1).epsilon(1e-5));
  CHECK(w[2] == 1.0f);  // no gradient, no move
}

TEST_CASE("optim: clipping scales the whole gradient to max_norm; Adam's first step does not see it") {
  // (3, 4) has norm 5: clipped to (0.6, 0.8). The first step's direction is the sign alone.
  optim::AdamSettings s;
  s.max_norm = 1.0;
  const optim::AdamStep step = optim::AdamClock{}.next(s, 5.0);
  CHECK(step.clip == doctest::Approx(0.2));
  CHECK(step.correction1 == doctest::Approx(0.1));
  CHECK(step.correction2 == doctest::Approx(0.001));
  CHECK(optim::AdamClock{}.next(s, 0.5).clip == 1.0);  // under the norm: untouched
}

TEST_CASE("optim: five steps of Adam, clipped Adam and AdamW are the textbook's, in float and in double") {
  check_against_reference({}, 1e-6);
  optim::AdamSettings clipped;
  clipped.max_norm = 1.0;
  check_against_reference(clipped, 1e-6);
  optim::AdamSettings adamw;
  adamw.beta2 = 0.95;
  adamw.weight_decay = 0.1;
  check_against_reference(adamw, 1e-6);
}

}  // namespace attn
