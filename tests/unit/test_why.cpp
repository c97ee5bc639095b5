// The "why attention" experiments' recurrent layers (core/layers/recurrent;
// their gradient checks are in test_layers.cpp): one GRU step by hand, the
// activations at their landmarks, and the property the view plots: through a
// tanh RNN whose recurrent weights are small, the gradient reaching the first
// input fades with the distance.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "core/base/rng.hpp"
#include "core/layers/recurrent.hpp"
#include "helpers.hpp"

namespace attn::why {

using test::random_values;

TEST_CASE("why: one GRU step by hand; tanh and the sigmoid at their landmarks, in float and double") {
  // One sequence, one step, one input, one unit: z = σ(0.5), r = σ(0) = 0.5,
  // n = tanh(1 + r * 0 * u_n) = tanh(1), h_1 = (1 - z) n (h_0 = 0).
  const double x = 1, w[3] = {0.5, 0, 1}, u[3] = {0.3, 0.2, 0.7}, b[3] = {0, 0, 0};
  double hs[2], gates[3];
  layers::gru_forward(hs, gates, &x, w, u, b, 1, 1, 1, 1);
  const double z = 1 / (1 + std::exp(-0.5));
  CHECK(gates[0] == doctest::Approx(z).epsilon(1e-15));
  CHECK(gates[1] == 0.5);
  CHECK(gates[2] == doctest::Approx(std::tanh(1.0)).epsilon(1e-15));
  CHECK(hs[1] == doctest::Approx((1 - z) * std::tanh(1.0)).epsilon(1e-15));
  for (double v : {-30.0, -3.0, -0.25, 0.0, 0.25, 3.0, 30.0}) {
    CHECK(layers::det_tanh(v) == doctest::Approx(std::tanh(v)).epsilon(1e-15));
    CHECK(layers::det_sigmoid(v) == doctest::Approx(1 / (1 + std::exp(-v))).epsilon(1e-15));
    CHECK(layers::det_tanh(float(v)) == doctest::Approx(std::tanh(v)).epsilon(1e-6));
  }
  CHECK(layers::det_tanh(1e6) == 1.0);  // no overflow
  CHECK(layers::det_sigmoid(-1e6) == 0.0);
}

TEST_CASE("why: through a tanh RNN with small recurrent weights, the gradient reaching input t fades with T - t") {
  // The chapter's "information passes through many steps and fades": with
  // ‖Wh‖ well below 1 each step back multiplies the gradient by less than 1.
  const int T = 32, C = 4, H = 8;
  Rng rng(9, 1);
  std::vector<double> x = random_values(std::size_t(T * C), rng, 1.0);
  std::vector<double> wx = random_values(std::size_t(C * H), rng, 0.5);
  std::vector<double> wh = random_values(std::size_t(H * H), rng, 0.15);
  std::vector<double> b(std::size_t(H), 0.0);
  std::vector<double> hs(std::size_t((T + 1) * H));
  layers::rnn_forward(hs.data(), x.data(), wx.data(), wh.data(), b.data(), 1, T, C, H);
  std::vector<double> dx(x.size()), dwx(wx.size()), dwh(wh.size()), db(b.size()), dhs(hs.size(), 0.0);
  for (int j = 0; j < H; ++j) dhs[std::size_t(T * H + j)] = 1;  // a read-out of the last state only
  layers::rnn_backward(dx.data(), dwx.data(), dwh.data(), db.data(), dhs.data(), hs.data(), x.data(), wx.data(),
                    wh.data(), 1, T, C, H);
  auto norm = [&](int t) {
    double s = 0;
    for (int c = 0; c < C; ++c) s += dx[std::size_t(t * C + c)] * dx[std::size_t(t * C + c)];
    return std::sqrt(s);
  };
  INFO("gradient at the last input " << norm(T - 1) << ", at the first " << norm(0));
  CHECK(norm(T - 1) > 0);
  CHECK(norm(0) < 1e-6 * norm(T - 1));
}

}  // namespace attn::why
