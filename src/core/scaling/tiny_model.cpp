// The scaling lab's tiny model, forward and backward; see tiny_model.hpp.
#include "tiny_model.hpp"

#include <cmath>

#include "core/layers/attention.hpp"
#include "core/layers/crossentropy.hpp"
#include "core/layers/linear.hpp"
#include "core/masks.hpp"

namespace attn::train {

// ---- the model -------------------------------------------------------------------
template <class T>
void TinyModel<T>::resize(int vocab_, int d_, int heads_, int n_out_, int rows_) {
  vocab = vocab_;
  d = d_;
  heads = heads_;
  n_out = n_out_;
  rows = rows_;
  rows_per_token = 1;
  token_rows.resize(static_cast<std::size_t>(vocab));
  for (int i = 0; i < vocab; ++i) token_rows[static_cast<std::size_t>(i)] = i < rows ? i : 0;
  E.assign(static_cast<std::size_t>(rows) * d, T(0));
  W_q.assign(static_cast<std::size_t>(d) * d, T(0));
  W_k.assign(static_cast<std::size_t>(d) * d, T(0));
  W_v.assign(static_cast<std::size_t>(d) * d, T(0));
  W_out.assign(static_cast<std::size_t>(d) * n_out, T(0));
}

template <class T>
void TinyModel<T>::zero() {
  for (std::vector<T>* p : params())
    for (T& v : *p) v = T(0);
}

template <class T>
std::vector<std::vector<T>*> TinyModel<T>::params() {
  return {&E, &W_q, &W_k, &W_v, &W_out};
}

template <class T>
std::vector<const std::vector<T>*> TinyModel<T>::params() const {
  return {&E, &W_q, &W_k, &W_v, &W_out};
}

// x (n x d) = for each token, the sum of its E rows in token_rows order.
template <class T>
static void embed(T* x, const TinyModel<T>& m, const std::vector<int>& tokens) {
  const int d = m.d;
  for (std::size_t t = 0; t < tokens.size(); ++t) {
    T* xt = x + t * static_cast<std::size_t>(d);
    for (int c = 0; c < d; ++c) xt[c] = T(0);
    for (int r = 0; r < m.rows_per_token; ++r) {
      const T* e = m.E.data() + m.token_rows[tokens[t] * m.rows_per_token + r] * d;
      for (int c = 0; c < d; ++c) xt[c] += e[c];
    }
  }
}

template <class T>
static double head_scale(const TinyModel<T>& m, bool scaled) {
  const int d_head = m.d / m.heads;
  return scaled ? 1.0 / std::sqrt(static_cast<double>(d_head)) : 1.0;
}

template <class T>
BatchResult model_forward_backward(const TinyModel<T>& m, const std::vector<Example>& batch,
                                   bool scaled, TinyModel<T>* grads) {
  const int d = m.d, d_head = m.d / m.heads;
  const double scale = head_scale(m, scaled);
  const int count = static_cast<int>(batch.size());  // the loss is the mean over the batch
  BatchResult result;
  const T* none = nullptr;  // no bias
  T* no_bias = nullptr;     // nor its gradient
  std::vector<T> x, q(d), K, V, o(d), logits(m.n_out), dlogits(m.n_out), dout(d), dq(d), dK, dV, dx;
  std::vector<T> weights;  // heads x n
  for (const Example& ex : batch) {
    const int n = static_cast<int>(ex.tokens.size());
    x.resize(static_cast<std::size_t>(n) * d);
    K.resize(x.size());
    V.resize(x.size());
    weights.resize(static_cast<std::size_t>(m.heads) * n);
    // ---- forward
    // 1. embedding: x (n x d) = sum of the token's E rows
    embed(x.data(), m, ex.tokens);
    // 2. projections: q (1 x d) = x[n-1] W_q; K, V (n x d) = x W_k, x W_v
    const T* x_last = x.data() + (n - 1) * d;
    layers::linear_forward(q.data(), x_last, m.W_q.data(), none, 1, d, d);
    layers::linear_forward(K.data(), x.data(), m.W_k.data(), none, n, d, d);
    layers::linear_forward(V.data(), x.data(), m.W_v.data(), none, n, d, d);
    // 3. attention per head: o (1 x d), weights (heads x n); the last
    //    position's query sees every key, so no mask
    for (int h = 0; h < m.heads; ++h) {
      const int c0 = h * d_head;
      layers::attention_forward(o.data() + c0, d, weights.data() + h * n, q.data() + c0, K.data() + c0,
                                V.data() + c0, d, 1, n, d_head, scale, nullptr);
    }
    // 4. read-out: logits (1 x n_out) = o W_out
    layers::linear_forward(logits.data(), o.data(), m.W_out.data(), none, 1, d, m.n_out);
    // 5. loss: probs (1 x n_out), the cross-entropy and the prediction
    double loss = 0;
    int best = 0;
    layers::crossentropy_forward(dlogits.data(), &loss, &best, logits.data(), &ex.target, 1, m.n_out);
    result.loss += loss;
    if (best == ex.target) ++result.correct;
    if (!grads) continue;
    // 5. back: dlogits (1 x n_out), over the probabilities
    layers::crossentropy_backward(dlogits.data(), dlogits.data(), &ex.target, count, 1, m.n_out);
    // ---- backward, mirroring the forward passes
    // 4. dout (1 x d), dW_out (d x n_out)
    for (T& v : dout) v = T(0);
    layers::linear_backward(dout.data(), grads->W_out.data(), no_bias, dlogits.data(), o.data(), m.W_out.data(), 1, d,
                            m.n_out);
    // 3. dq (1 x d), dK, dV (n x d)
    for (T& v : dq) v = T(0);
    dK.assign(x.size(), T(0));
    dV.assign(x.size(), T(0));
    for (int h = 0; h < m.heads; ++h) {
      const int c0 = h * d_head;
      layers::attention_backward(dq.data() + c0, dK.data() + c0, dV.data() + c0, dout.data() + c0, d,
                                 weights.data() + h * n, q.data() + c0, K.data() + c0, V.data() + c0, d, 1, n,
                                 d_head, scale, nullptr);
    }
    // 2. dx (n x d), dW_q, dW_k, dW_v
    dx.assign(x.size(), T(0));
    layers::linear_backward(dx.data() + (n - 1) * d, grads->W_q.data(), no_bias, dq.data(), x_last, m.W_q.data(), 1, d,
                            d);
    layers::linear_backward(dx.data(), grads->W_k.data(), no_bias, dK.data(), x.data(), m.W_k.data(), n, d, d);
    layers::linear_backward(dx.data(), grads->W_v.data(), no_bias, dV.data(), x.data(), m.W_v.data(), n, d, d);
    // 1. dE[row] += dx[t] for each of token t's rows
    for (int t = 0; t < n; ++t)
      for (int r = 0; r < m.rows_per_token; ++r) {
        T* dE = grads->E.data() + m.token_rows[ex.tokens[t] * m.rows_per_token + r] * d;
        for (int c = 0; c < d; ++c) dE[c] += dx[t * d + c];
      }
  }
  result.loss /= static_cast<double>(batch.size());
  return result;
}

template <class T>
std::vector<T> model_attention_map(const TinyModel<T>& m, const Example& ex, bool scaled,
                                   int head) {
  const int d = m.d, d_head = m.d / m.heads, n = static_cast<int>(ex.tokens.size());
  std::vector<T> x(static_cast<std::size_t>(n) * d), Q(x.size()), K(x.size()), V(x.size()),
      out(x.size()), weights(static_cast<std::size_t>(n) * n);
  embed(x.data(), m, ex.tokens);
  const T* none = nullptr;
  layers::linear_forward(Q.data(), x.data(), m.W_q.data(), none, n, d, d);
  layers::linear_forward(K.data(), x.data(), m.W_k.data(), none, n, d, d);
  layers::linear_forward(V.data(), x.data(), m.W_v.data(), none, n, d, d);
  const int c0 = head * d_head;
  layers::attention_forward(out.data() + c0, d, weights.data(), Q.data() + c0, K.data() + c0, V.data() + c0, d, n, n,
                            d_head, head_scale(m, scaled), causal_mask(n).data());
  return weights;
}

// ---- explicit instantiations --------------------------------------------------------
// T is a type: it cannot be put in parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_TRAIN_INSTANTIATE(T)                                                              \
  template struct TinyModel<T>;                                                               \
  template BatchResult model_forward_backward<T>(const TinyModel<T>&,                         \
                                                 const std::vector<Example>&, bool,           \
                                                 TinyModel<T>*);                              \
  template std::vector<T> model_attention_map<T>(const TinyModel<T>&, const Example&, bool, int);

// NOLINTEND(bugprone-macro-parentheses)
ATTN_TRAIN_INSTANTIATE(float)
ATTN_TRAIN_INSTANTIATE(double)

}  // namespace attn::train
