// The layers every model in the lab trains through (core/layers): one
// gradient check per layer, backward against central differences of forward,
// in double, for every input and parameter. Each loss is a fixed random
// weighting of the layer's outputs, L = sum c . out, so backward must carry
// every output's gradient back.
//
// Central differences with step 1e-6 on O(1) losses: truncation ~1e-12,
// round-off ~1e-10; the check allows 1e-7 absolute + 1e-6 relative.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/base/rng.hpp"
#include "core/layers/attention.hpp"
#include "core/layers/crossentropy.hpp"
#include "core/layers/embedding.hpp"
#include "core/layers/gelu.hpp"
#include "core/layers/layernorm.hpp"
#include "core/layers/linear.hpp"
#include "core/layers/recurrent.hpp"
#include "core/types.hpp"
#include "helpers.hpp"

namespace attn::layers {
namespace {

using Vec = std::vector<double>;
using test::random_values;

double weighted(const Vec& c, const Vec& out) {
  double s = 0;
  for (std::size_t i = 0; i < out.size(); ++i) s += c[i] * out[i];
  return s;
}

// Every entry of `tensor`: analytic[i] against (L(+h) - L(-h)) / 2h.
void check_gradient(const std::string& name, Vec& tensor, const Vec& analytic, const std::function<double()>& loss) {
  REQUIRE(analytic.size() == tensor.size());
  double worst = 0;
  std::size_t worst_at = 0;
  for (std::size_t i = 0; i < tensor.size(); ++i) {
    const double numeric = test::central_difference(tensor, i, 1e-6, loss);
    const double excess = std::fabs(numeric - analytic[i]) - (1e-7 + 1e-6 * std::fabs(numeric));
    if (i == 0 || excess > worst) worst = excess, worst_at = i;
  }
  INFO(name << ": worst entry " << worst_at << ", past the tolerance by " << worst);
  CHECK(worst <= 0);
}

}  // namespace

TEST_CASE("layers: linear, with and without its bias, and the tied output layer") {
  constexpr int N = 3, K = 4, M = 5;
  Rng rng(4, 1);
  Vec in = random_values(N * K, rng, 1), w = random_values(K * M, rng, 1), bias = random_values(M, rng, 1);
  const Vec c = random_values(N * M, rng, 1);
  Vec out(N * M);
  for (const bool with_bias : {true, false}) {
    CAPTURE(with_bias);
    double* b = with_bias ? bias.data() : nullptr;
    const auto loss = [&] {
      linear_forward(out.data(), in.data(), w.data(), b, N, K, M);
      return weighted(c, out);
    };
    Vec din(N * K, 0.0), dw(K * M, 0.0), dbias(M, 0.0);
    linear_backward(din.data(), dw.data(), with_bias ? dbias.data() : nullptr, c.data(), in.data(), w.data(), N, K,
                    M);
    check_gradient("linear in", in, din, loss);
    check_gradient("linear w", w, dw, loss);
    if (with_bias) check_gradient("linear bias", bias, dbias, loss);
  }
  // logits (N, V) = in wte^T: wte is (V, C), read transposed.
  constexpr int V = 6;
  Vec wte = random_values(V * K, rng, 1), logits(N * V);
  const Vec cl = random_values(N * V, rng, 1);
  const auto loss = [&] {
    logits_forward(logits.data(), in.data(), wte.data(), N, K, V);
    return weighted(cl, logits);
  };
  Vec din(N * K, 0.0), dwte(V * K, 0.0);
  logits_backward(din.data(), dwte.data(), cl.data(), in.data(), wte.data(), N, K, V);
  check_gradient("logits in", in, din, loss);
  check_gradient("logits wte", wte, dwte, loss);
}

TEST_CASE("layers: attention with its mask (none, causal, a causal offset, any pattern), strided heads, shared inputs") {
  struct Case {
    const char* name;
    int n_q, n_k, d, ld, ld_out;
    double scale;
    int mask;  // 0 none, 1 causal, 2 a random pattern with one query that sees no key
  };
  const Case cases[] = {{"no mask, scaled", 5, 5, 4, 4, 4, 0.5, 0},
                        {"causal, raw scores", 5, 5, 4, 4, 4, 1.0, 1},
                        {"3 queries that are the last of 6 positions", 3, 6, 4, 4, 4, 0.5, 1},
                        {"one query over 6 keys (the scaling lab's model)", 1, 6, 4, 4, 4, 0.5, 0},
                        {"a head of width 3 in rows of 7, output rows of 5", 4, 4, 3, 7, 5, 0.577, 1},
                        {"any pattern, one query with no key", 4, 5, 3, 3, 3, 0.6, 2}};
  for (const Case& c : cases) {
    SUBCASE(c.name) {
      Rng rng(17, 1);
      Vec q = random_values(std::size_t(c.n_q * c.ld), rng, 1.5), k = random_values(std::size_t(c.n_k * c.ld), rng, 1.5),
          v = random_values(std::size_t(c.n_k * c.ld), rng, 1.0);
      Vec cout = random_values(std::size_t(c.n_q * c.ld_out), rng, 1.0);
      // The loss reads only the head's own columns of each output row.
      for (int i = 0; i < c.n_q; ++i)
        for (int j = c.d; j < c.ld_out; ++j) cout[std::size_t(i * c.ld_out + j)] = 0;
      // Causal: query i is position n_k - n_q + i and sees the keys up to it.
      MaskMatrix mask(c.n_q, c.n_k);
      for (int i = 0; i < c.n_q; ++i)
        for (int j = 0; j < c.n_k; ++j) mask(i, j) = c.mask == 2 ? rng.uniform() < 0.6 : j <= c.n_k - c.n_q + i;
      if (c.mask == 2) {
        mask.row(0).setConstant(false);  // query 0: no key
        mask(1, 1) = mask(2, 3) = true;  // the others: at least one
      }
      const bool* allowed = c.mask ? mask.data() : nullptr;
      Vec out(std::size_t(c.n_q * c.ld_out)), att(std::size_t(c.n_q * c.n_k));
      const auto forward = [&](const Vec& qq, const Vec& kk, const Vec& vv) {
        attention_forward(out.data(), c.ld_out, att.data(), qq.data(), kk.data(), vv.data(), c.ld, c.n_q, c.n_k, c.d,
                          c.scale, allowed);
        return weighted(cout, out);
      };
      forward(q, k, v);
      // Masked keys get exactly 0; every query with a key sums to 1; one with none gives 0.
      for (int i = 0; i < c.n_q; ++i) {
        double sum = 0;
        bool any = false;
        for (int j = 0; j < c.n_k; ++j) {
          const bool ok = !allowed || allowed[std::size_t(i * c.n_k + j)];
          any = any || ok;
          if (!ok) CHECK(att[std::size_t(i * c.n_k + j)] == 0.0);
          sum += att[std::size_t(i * c.n_k + j)];
        }
        CHECK(sum == doctest::Approx(any ? 1.0 : 0.0).epsilon(1e-12));
      }
      Vec dq(q.size(), 0.0), dk(k.size(), 0.0), dv(v.size(), 0.0);
      attention_backward(dq.data(), dk.data(), dv.data(), cout.data(), c.ld_out, att.data(), q.data(), k.data(),
                         v.data(), c.ld, c.n_q, c.n_k, c.d, c.scale, allowed);
      const auto loss = [&] { return forward(q, k, v); };
      check_gradient("dq", q, dq, loss);
      check_gradient("dk", k, dk, loss);
      check_gradient("dv", v, dv, loss);
      if (c.n_q == c.n_k && c.ld == c.ld_out) {
        // q = k = v = x (the why experiment without projections): one array, the roles' gradients summed.
        Vec dx(q.size(), 0.0);
        forward(q, q, q);
        attention_backward(dx.data(), dx.data(), dx.data(), cout.data(), c.ld_out, att.data(), q.data(), q.data(),
                           q.data(), c.ld, c.n_q, c.n_k, c.d, c.scale, allowed);
        check_gradient("dx (shared)", q, dx, [&] { return forward(q, q, q); });
      }
    }
  }
}

TEST_CASE("layers: layer norm") {
  constexpr int N = 3, C = 6;
  Rng rng(5, 1);
  Vec in = random_values(N * C, rng, 2), weight = random_values(C, rng, 1), bias = random_values(C, rng, 1);
  const Vec c = random_values(N * C, rng, 1);
  Vec out(N * C), mean(N), rstd(N);
  const auto loss = [&] {
    layernorm_forward(out.data(), mean.data(), rstd.data(), in.data(), weight.data(), bias.data(), N, C);
    return weighted(c, out);
  };
  loss();
  // Each row's normalised values have mean 0 and variance 1 before the scale and shift.
  for (int n = 0; n < N; ++n) {
    double m = 0, var = 0;
    for (int i = 0; i < C; ++i) m += (out[std::size_t(n * C + i)] - bias[std::size_t(i)]) / weight[std::size_t(i)];
    for (int i = 0; i < C; ++i) {
      const double xhat = (out[std::size_t(n * C + i)] - bias[std::size_t(i)]) / weight[std::size_t(i)];
      var += xhat * xhat;
    }
    CHECK(m / C == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(var / C == doctest::Approx(1.0).epsilon(1e-4));  // eps 1e-5 in the variance
  }
  Vec din(N * C, 0.0), dweight(C, 0.0), dbias(C, 0.0);
  layernorm_backward(din.data(), dweight.data(), dbias.data(), c.data(), in.data(), weight.data(), mean.data(),
                     rstd.data(), N, C);
  check_gradient("in", in, din, loss);
  check_gradient("weight", weight, dweight, loss);
  check_gradient("bias", bias, dbias, loss);
}

TEST_CASE("layers: GELU, against its formula and its derivative") {
  constexpr int N = 9;
  Rng rng(6, 1);
  Vec in = random_values(N, rng, 3);
  in[0] = 0;
  const Vec c = random_values(N, rng, 1);
  Vec out(N);
  const auto loss = [&] {
    gelu_forward(out.data(), in.data(), N);
    return weighted(c, out);
  };
  loss();
  CHECK(out[0] == 0.0);
  for (int i = 0; i < N; ++i) {  // within 1e-3 of the exact x Φ(x), as the tanh approximation is
    const double x = in[std::size_t(i)];
    CHECK(out[std::size_t(i)] == doctest::Approx(0.5 * x * (1 + std::erf(x / std::sqrt(2.0)))).epsilon(1e-3));
  }
  Vec din(N, 0.0);
  gelu_backward(din.data(), in.data(), c.data(), N);
  check_gradient("in", in, din, loss);
}

TEST_CASE("layers: embedding, a token's row plus its position's, or the token's alone") {
  constexpr int B = 2, T = 3, C = 4, V = 5;
  Rng rng(7, 1);
  const std::vector<int> tokens = {1, 4, 1, 0, 2, 1};  // token 1 three times: its gradient gathers
  Vec wte = random_values(V * C, rng, 1), wpe = random_values(T * C, rng, 1);
  const Vec c = random_values(B * T * C, rng, 1);
  Vec out(B * T * C);
  for (const bool positions : {true, false}) {
    CAPTURE(positions);
    const auto loss = [&] {
      embedding_forward(out.data(), tokens.data(), wte.data(), positions ? wpe.data() : nullptr, B, T, C);
      return weighted(c, out);
    };
    loss();
    CHECK(out[std::size_t(4 * C + 1)] == wte[std::size_t(2 * C + 1)] + (positions ? wpe[std::size_t(1 * C + 1)] : 0));
    Vec dwte(V * C, 0.0), dwpe(T * C, 0.0);
    embedding_backward(dwte.data(), positions ? dwpe.data() : nullptr, c.data(), tokens.data(), B, T, C);
    check_gradient("wte", wte, dwte, loss);
    if (positions) check_gradient("wpe", wpe, dwpe, loss);
  }
}

TEST_CASE("layers: softmax cross-entropy, the mean over the rows with a target") {
  constexpr int N = 4, V = 5;
  Rng rng(8, 1);
  Vec logits = random_values(N * V, rng, 3);
  const std::vector<int> targets = {2, -1, 0, 4};  // row 1 is a prediction only
  Vec probs(N * V), losses(N);
  std::vector<int> argmax(N);
  const auto loss = [&] {
    crossentropy_forward(probs.data(), losses.data(), argmax.data(), logits.data(), targets.data(), N, V);
    return (losses[0] + losses[1] + losses[2] + losses[3]) / 3.0;
  };
  loss();
  for (int n = 0; n < N; ++n) {
    const double* z = logits.data() + n * V;
    double sum = 0;
    for (int v = 0; v < V; ++v) sum += std::exp(z[v]);
    for (int v = 0; v < V; ++v) CHECK(probs[std::size_t(n * V + v)] == doctest::Approx(std::exp(z[v]) / sum));
    CHECK(argmax[std::size_t(n)] == int(std::max_element(z, z + V) - z));
    const int t = targets[std::size_t(n)];
    CHECK(losses[std::size_t(n)] == doctest::Approx(t < 0 ? 0.0 : std::log(sum) - z[t]));
  }
  Vec dlogits(N * V);
  crossentropy_backward(dlogits.data(), probs.data(), targets.data(), 3, N, V);
  for (int v = 0; v < V; ++v) CHECK(dlogits[std::size_t(V + v)] == 0.0);
  check_gradient("logits", logits, dlogits, loss);
  // In place: probs over the logits, the gradient over probs (the scaling lab and the why view do both).
  loss();  // the finite differences left the last perturbed run's losses
  Vec z = logits, in_place_losses(N);
  crossentropy_forward(z.data(), in_place_losses.data(), static_cast<int*>(nullptr), z.data(), targets.data(), N, V);
  crossentropy_backward(z.data(), z.data(), targets.data(), 3, N, V);
  CHECK(z == dlogits);
  CHECK(in_place_losses == losses);
}

namespace {

// The recurrent layers' loss weights every state, sum_t sum_j c_tj h_tj, so
// dL/dh_t = c_t at every step and backward must carry each one back.
constexpr int kB = 2, kT = 5, kC = 3, kH = 4;

Vec state_weights(Rng& rng) {
  Vec c = random_values(std::size_t(kB * (kT + 1) * kH), rng, 1.0);
  for (int b = 0; b < kB; ++b)  // h_0 is a constant
    for (int j = 0; j < kH; ++j) c[std::size_t(b * (kT + 1) * kH + j)] = 0;
  return c;
}

}  // namespace

TEST_CASE("layers: the tanh RNN cell, through time") {
  Rng rng(9, 1);
  Vec x = random_values(std::size_t(kB * kT * kC), rng, 1.0), wx = random_values(std::size_t(kC * kH), rng, 0.8),
      wh = random_values(std::size_t(kH * kH), rng, 0.8), b = random_values(std::size_t(kH), rng, 0.3);
  const Vec c = state_weights(rng);
  Vec hs(std::size_t(kB * (kT + 1) * kH));
  const auto loss = [&] {
    rnn_forward(hs.data(), x.data(), wx.data(), wh.data(), b.data(), kB, kT, kC, kH);
    return weighted(c, hs);
  };
  loss();
  Vec dx(x.size()), dwx(wx.size()), dwh(wh.size()), db(b.size()), dhs = c;
  rnn_backward(dx.data(), dwx.data(), dwh.data(), db.data(), dhs.data(), hs.data(), x.data(), wx.data(), wh.data(), kB,
               kT, kC, kH);
  check_gradient("wx", wx, dwx, loss);
  check_gradient("wh", wh, dwh, loss);
  check_gradient("b", b, db, loss);
  check_gradient("x", x, dx, loss);
}

TEST_CASE("layers: the GRU cell, through time") {
  Rng rng(10, 1);
  Vec x = random_values(std::size_t(kB * kT * kC), rng, 1.0), w = random_values(std::size_t(kC * 3 * kH), rng, 0.8),
      u = random_values(std::size_t(kH * 3 * kH), rng, 0.8), b = random_values(std::size_t(3 * kH), rng, 0.3);
  const Vec c = state_weights(rng);
  Vec hs(std::size_t(kB * (kT + 1) * kH)), gates(std::size_t(kB * kT * 3 * kH));
  const auto loss = [&] {
    gru_forward(hs.data(), gates.data(), x.data(), w.data(), u.data(), b.data(), kB, kT, kC, kH);
    return weighted(c, hs);
  };
  loss();
  Vec dx(x.size()), dw(w.size()), du(u.size()), db(b.size()), dhs = c;
  gru_backward(dx.data(), dw.data(), du.data(), db.data(), dhs.data(), hs.data(), gates.data(), x.data(), w.data(),
               u.data(), kB, kT, kC, kH);
  check_gradient("w", w, dw, loss);
  check_gradient("u", u, du, loss);
  check_gradient("b", b, db, loss);
  check_gradient("x", x, dx, loss);
}

}  // namespace attn::layers
