// The "why attention" experiments' recurrent layers (core/why/recurrent_layers):
// backward against central differences of forward, in double, for every
// parameter and every input; the float and double forward passes agree; and
// the property the view plots: through a tanh RNN whose recurrent weights are
// small, the gradient reaching the first input fades with the distance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/base/rng.hpp"
#include "core/why/recurrent_layers.hpp"
#include "helpers.hpp"

namespace attn::why {
namespace {

constexpr int kB = 2, kT = 5, kC = 3, kH = 4;

std::vector<double> random_values(std::size_t n, Rng& rng, double scale) {
  std::vector<double> v(n);
  for (double& x : v) x = scale * (2.0 * rng.uniform_double() - 1.0);
  return v;
}

// The loss is a fixed random weighting of every state, sum_t sum_j c_tj h_tj,
// so dL/dh_t = c_t at every step and backward must carry each one back.
struct Loss {
  std::vector<double> c;  // (B, T+1, H); the entries of h_0 (a constant) are 0
  double of(const std::vector<double>& hs) const {
    double s = 0;
    for (std::size_t i = 0; i < hs.size(); ++i) s += c[i] * hs[i];
    return s;
  }
};

Loss make_loss(Rng& rng) {
  Loss loss{random_values(std::size_t(kB * (kT + 1) * kH), rng, 1.0)};
  for (int b = 0; b < kB; ++b)
    for (int j = 0; j < kH; ++j) loss.c[std::size_t(b * (kT + 1) * kH + j)] = 0;
  return loss;
}

// Every entry of `tensor`: analytic[i] against (L(+eps) - L(-eps)) / 2eps.
void check_tensor(const std::string& name, std::vector<double>& tensor, const std::vector<double>& analytic,
                  const std::function<double()>& loss) {
  double worst = 0;
  for (std::size_t i = 0; i < tensor.size(); ++i) {
    const double numeric = test::central_difference(tensor, i, 1e-6, loss);
    worst = std::max(worst, std::fabs(numeric - analytic[i]) / std::max(1.0, std::fabs(numeric)));
  }
  INFO(name << ": worst relative difference " << worst);
  CHECK(worst < 1e-7);
}

TEST_CASE("why: the tanh RNN's backward through time matches central differences for every parameter and input") {
  Rng rng(7, 1);
  std::vector<double> x = random_values(std::size_t(kB * kT * kC), rng, 1.0);
  std::vector<double> wx = random_values(std::size_t(kC * kH), rng, 0.8);
  std::vector<double> wh = random_values(std::size_t(kH * kH), rng, 0.8);
  std::vector<double> b = random_values(std::size_t(kH), rng, 0.3);
  const Loss loss = make_loss(rng);
  std::vector<double> hs(std::size_t(kB * (kT + 1) * kH));
  auto forward = [&] {
    ref::rnn_forward(hs.data(), x.data(), wx.data(), wh.data(), b.data(), kB, kT, kC, kH);
    return loss.of(hs);
  };
  forward();
  std::vector<double> dx(x.size()), dwx(wx.size()), dwh(wh.size()), db(b.size()), dhs = loss.c;
  ref::rnn_backward(dx.data(), dwx.data(), dwh.data(), db.data(), dhs.data(), hs.data(), x.data(), wx.data(),
                    wh.data(), kB, kT, kC, kH);
  check_tensor("wx", wx, dwx, forward);
  check_tensor("wh", wh, dwh, forward);
  check_tensor("b", b, db, forward);
  check_tensor("x", x, dx, forward);
}

TEST_CASE("why: the GRU's backward through time matches central differences for every parameter and input") {
  Rng rng(8, 1);
  std::vector<double> x = random_values(std::size_t(kB * kT * kC), rng, 1.0);
  std::vector<double> w = random_values(std::size_t(kC * 3 * kH), rng, 0.8);
  std::vector<double> u = random_values(std::size_t(kH * 3 * kH), rng, 0.8);
  std::vector<double> b = random_values(std::size_t(3 * kH), rng, 0.3);
  const Loss loss = make_loss(rng);
  std::vector<double> hs(std::size_t(kB * (kT + 1) * kH)), gates(std::size_t(kB * kT * 3 * kH));
  auto forward = [&] {
    ref::gru_forward(hs.data(), gates.data(), x.data(), w.data(), u.data(), b.data(), kB, kT, kC, kH);
    return loss.of(hs);
  };
  forward();
  std::vector<double> dx(x.size()), dw(w.size()), du(u.size()), db(b.size()), dhs = loss.c;
  ref::gru_backward(dx.data(), dw.data(), du.data(), db.data(), dhs.data(), hs.data(), gates.data(), x.data(),
                    w.data(), u.data(), kB, kT, kC, kH);
  check_tensor("w", w, dw, forward);
  check_tensor("u", u, du, forward);
  check_tensor("b", b, db, forward);
  check_tensor("x", x, dx, forward);
}

TEST_CASE("why: one GRU step by hand; tanh and the sigmoid at their landmarks, in float and double") {
  // One sequence, one step, one input, one unit: z = σ(0.5), r = σ(0) = 0.5,
  // n = tanh(1 + r * 0 * u_n) = tanh(1), h_1 = (1 - z) n (h_0 = 0).
  const double x = 1, w[3] = {0.5, 0, 1}, u[3] = {0.3, 0.2, 0.7}, b[3] = {0, 0, 0};
  double hs[2], gates[3];
  ref::gru_forward(hs, gates, &x, w, u, b, 1, 1, 1, 1);
  const double z = 1 / (1 + std::exp(-0.5));
  CHECK(gates[0] == doctest::Approx(z).epsilon(1e-15));
  CHECK(gates[1] == 0.5);
  CHECK(gates[2] == doctest::Approx(std::tanh(1.0)).epsilon(1e-15));
  CHECK(hs[1] == doctest::Approx((1 - z) * std::tanh(1.0)).epsilon(1e-15));
  for (double v : {-30.0, -3.0, -0.25, 0.0, 0.25, 3.0, 30.0}) {
    CHECK(ref::det_tanh(v) == doctest::Approx(std::tanh(v)).epsilon(1e-15));
    CHECK(ref::det_sigmoid(v) == doctest::Approx(1 / (1 + std::exp(-v))).epsilon(1e-15));
    CHECK(ref::det_tanh(float(v)) == doctest::Approx(std::tanh(v)).epsilon(1e-6));
  }
  CHECK(ref::det_tanh(1e6) == 1.0);  // no overflow
  CHECK(ref::det_sigmoid(-1e6) == 0.0);
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
  ref::rnn_forward(hs.data(), x.data(), wx.data(), wh.data(), b.data(), 1, T, C, H);
  std::vector<double> dx(x.size()), dwx(wx.size()), dwh(wh.size()), db(b.size()), dhs(hs.size(), 0.0);
  for (int j = 0; j < H; ++j) dhs[std::size_t(T * H + j)] = 1;  // a read-out of the last state only
  ref::rnn_backward(dx.data(), dwx.data(), dwh.data(), db.data(), dhs.data(), hs.data(), x.data(), wx.data(),
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

}  // namespace
}  // namespace attn::why
