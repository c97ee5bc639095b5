#include "train_kernels.hpp"

#include <cmath>

#include "core/base/detmath.hpp"

namespace attn::train {

template <class T>
static T exp_of(T x) {
  return static_cast<T>(det_exp(static_cast<double>(x)));
}

// ---- matmul ----------------------------------------------------------------------
template <class T>
void matmul_forward(T* y, const T* x, const T* W, int n, int in, int out) {
  // y[i][o] = sum_k x[i][k] W[k][o], summed in k order. The inner loop over o
  // has no reduction, so vectorising it does not change any result.
  for (int i = 0; i < n; ++i) {
    T* yi = y + i * out;
    for (int o = 0; o < out; ++o) yi[o] = T(0);
    for (int k = 0; k < in; ++k) {
      const T xik = x[i * in + k];
      const T* Wk = W + k * out;
      for (int o = 0; o < out; ++o) yi[o] += xik * Wk[o];
    }
  }
}

template <class T>
void matmul_backward(T* dx, T* dW, const T* dy, const T* x, const T* W, int n, int in, int out) {
  for (int i = 0; i < n; ++i) {
    const T* dyi = dy + i * out;
    const T* xi = x + i * in;
    for (int k = 0; k < in; ++k) {
      // dW[k][o] += x[i][k] dy[i][o]
      T* dWk = dW + k * out;
      const T xik = xi[k];
      for (int o = 0; o < out; ++o) dWk[o] += xik * dyi[o];
      // dx[i][k] += sum_o dy[i][o] W[k][o]
      if (dx) {
        const T* Wk = W + k * out;
        T sum = T(0);
        for (int o = 0; o < out; ++o) sum += dyi[o] * Wk[o];
        dx[i * in + k] += sum;
      }
    }
  }
}

// ---- softmax ---------------------------------------------------------------------
template <class T>
void softmax_forward(T* probs, const T* scores, int n, int allowed) {
  // pass 1: maximum (exp never overflows after subtracting it)
  T max = scores[0];
  for (int j = 1; j < allowed; ++j)
    if (scores[j] > max) max = scores[j];
  // pass 2: exp and sum
  T sum = T(0);
  for (int j = 0; j < allowed; ++j) {
    probs[j] = exp_of(scores[j] - max);
    sum += probs[j];
  }
  // pass 3: normalise; masked entries exactly 0
  const T inv = T(1) / sum;
  for (int j = 0; j < allowed; ++j) probs[j] *= inv;
  for (int j = allowed; j < n; ++j) probs[j] = T(0);
}

template <class T>
void softmax_backward(T* dscores, const T* probs, const T* dprobs, int n) {
  T dot = T(0);  // sum_k p_k dprobs_k
  for (int k = 0; k < n; ++k) dot += probs[k] * dprobs[k];
  for (int j = 0; j < n; ++j) dscores[j] += probs[j] * (dprobs[j] - dot);
}

// ---- attention -------------------------------------------------------------------
template <class T>
void attention_forward(T* out, T* weights, const T* Q, const T* K, const T* V, int n_q, int n_k,
                       int d, int ld, T scale, bool causal) {
  std::vector<T> scores(static_cast<std::size_t>(n_k));
  for (int i = 0; i < n_q; ++i) {
    const int allowed = causal ? n_k - n_q + i + 1 : n_k;  // keys 0 .. allowed-1
    const T* qi = Q + i * ld;
    T* wi = weights + i * n_k;
    // pass 1: scores s_j = scale * q_i . k_j   (n_k)
    for (int j = 0; j < allowed; ++j) {
      const T* kj = K + j * ld;
      T dot = T(0);
      for (int c = 0; c < d; ++c) dot += qi[c] * kj[c];
      scores[static_cast<std::size_t>(j)] = dot * scale;
    }
    // passes 2-4: max, exp/sum, normalise   (n_k)
    softmax_forward(wi, scores.data(), n_k, allowed);
    // pass 5: out_i = sum_j w_ij v_j   (d)
    T* oi = out + i * ld;
    for (int c = 0; c < d; ++c) oi[c] = T(0);
    for (int j = 0; j < allowed; ++j) {
      const T w = wi[j];
      const T* vj = V + j * ld;
      for (int c = 0; c < d; ++c) oi[c] += w * vj[c];
    }
  }
}

template <class T>
void attention_backward(T* dQ, T* dK, T* dV, const T* dout, const T* weights, const T* Q,
                        const T* K, const T* V, int n_q, int n_k, int d, int ld, T scale,
                        bool causal) {
  std::vector<T> dweights(static_cast<std::size_t>(n_k)), dscores(static_cast<std::size_t>(n_k));
  for (int i = 0; i < n_q; ++i) {
    const int allowed = causal ? n_k - n_q + i + 1 : n_k;
    const T* wi = weights + i * n_k;
    const T* doi = dout + i * ld;
    // pass 5 back: dw_ij = dout_i . v_j;  dv_j += w_ij dout_i
    for (int j = 0; j < allowed; ++j) {
      const T* vj = V + j * ld;
      T* dvj = dV + j * ld;
      T dot = T(0);
      for (int c = 0; c < d; ++c) dot += doi[c] * vj[c];
      dweights[static_cast<std::size_t>(j)] = dot;
      const T w = wi[j];
      for (int c = 0; c < d; ++c) dvj[c] += w * doi[c];
    }
    // passes 4-2 back: softmax over the allowed keys (masked ones get no gradient)
    for (int j = 0; j < allowed; ++j) dscores[static_cast<std::size_t>(j)] = T(0);
    softmax_backward(dscores.data(), wi, dweights.data(), allowed);
    // pass 1 back: dq_i += scale sum_j ds_ij k_j;  dk_j += scale ds_ij q_i
    const T* qi = Q + i * ld;
    T* dqi = dQ + i * ld;
    for (int j = 0; j < allowed; ++j) {
      const T ds = dscores[static_cast<std::size_t>(j)] * scale;
      const T* kj = K + j * ld;
      T* dkj = dK + j * ld;
      for (int c = 0; c < d; ++c) {
        dqi[c] += ds * kj[c];
        dkj[c] += ds * qi[c];
      }
    }
  }
}

// ---- loss ------------------------------------------------------------------------
template <class T>
T cross_entropy(T* dlogits, const T* logits, int n, int target, T grad_scale) {
  softmax_forward(dlogits, logits, n, n);  // dlogits holds p for now
  // -log p_target = log(sum exp(l - max)) - (l_target - max), computed from
  // the logits (not from p, which may underflow to 0).
  T max = logits[0];
  for (int j = 1; j < n; ++j)
    if (logits[j] > max) max = logits[j];
  T sum = T(0);
  for (int j = 0; j < n; ++j) sum += exp_of(logits[j] - max);
  const T loss = static_cast<T>(det_log(static_cast<double>(sum))) - (logits[target] - max);
  for (int j = 0; j < n; ++j) dlogits[j] = (dlogits[j] - (j == target ? T(1) : T(0))) * grad_scale;
  return loss;
}

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
static T head_scale(const TinyModel<T>& m, bool scaled) {
  const int d_head = m.d / m.heads;
  return scaled ? static_cast<T>(1.0 / std::sqrt(static_cast<double>(d_head))) : T(1);
}

template <class T>
BatchResult model_forward_backward(const TinyModel<T>& m, const std::vector<Example>& batch,
                                   bool scaled, TinyModel<T>* grads) {
  const int d = m.d, d_head = m.d / m.heads;
  const T scale = head_scale(m, scaled);
  const T grad_scale = T(1) / static_cast<T>(batch.size());
  BatchResult result;
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
    matmul_forward(q.data(), x_last, m.W_q.data(), 1, d, d);
    matmul_forward(K.data(), x.data(), m.W_k.data(), n, d, d);
    matmul_forward(V.data(), x.data(), m.W_v.data(), n, d, d);
    // 3. attention per head: o (1 x d), weights (heads x n)
    for (int h = 0; h < m.heads; ++h) {
      const int c0 = h * d_head;
      attention_forward(o.data() + c0, weights.data() + h * n, q.data() + c0, K.data() + c0,
                        V.data() + c0, 1, n, d_head, d, scale, true);
    }
    // 4. read-out: logits (1 x n_out) = o W_out
    matmul_forward(logits.data(), o.data(), m.W_out.data(), 1, d, m.n_out);
    // 5. loss
    const T loss = cross_entropy(dlogits.data(), logits.data(), m.n_out, ex.target, grad_scale);
    result.loss += static_cast<double>(loss);
    int best = 0;
    for (int j = 1; j < m.n_out; ++j)
      if (logits[j] > logits[best]) best = j;
    if (best == ex.target) ++result.correct;
    if (!grads) continue;
    // ---- backward, mirroring the forward passes
    // 4. dout (1 x d), dW_out (d x n_out)
    for (T& v : dout) v = T(0);
    matmul_backward(dout.data(), grads->W_out.data(), dlogits.data(), o.data(), m.W_out.data(), 1,
                    d, m.n_out);
    // 3. dq (1 x d), dK, dV (n x d)
    for (T& v : dq) v = T(0);
    dK.assign(x.size(), T(0));
    dV.assign(x.size(), T(0));
    for (int h = 0; h < m.heads; ++h) {
      const int c0 = h * d_head;
      attention_backward(dq.data() + c0, dK.data() + c0, dV.data() + c0, dout.data() + c0,
                         weights.data() + h * n, q.data() + c0, K.data() + c0, V.data() + c0, 1,
                         n, d_head, d, scale, true);
    }
    // 2. dx (n x d), dW_q, dW_k, dW_v
    dx.assign(x.size(), T(0));
    matmul_backward(dx.data() + (n - 1) * d, grads->W_q.data(), dq.data(), x_last, m.W_q.data(),
                    1, d, d);
    matmul_backward(dx.data(), grads->W_k.data(), dK.data(), x.data(), m.W_k.data(), n, d, d);
    matmul_backward(dx.data(), grads->W_v.data(), dV.data(), x.data(), m.W_v.data(), n, d, d);
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
  matmul_forward(Q.data(), x.data(), m.W_q.data(), n, d, d);
  matmul_forward(K.data(), x.data(), m.W_k.data(), n, d, d);
  matmul_forward(V.data(), x.data(), m.W_v.data(), n, d, d);
  const int c0 = head * d_head;
  attention_forward(out.data() + c0, weights.data(), Q.data() + c0, K.data() + c0, V.data() + c0,
                    n, n, d_head, d, head_scale(m, scaled), true);
  return weights;
}

// ---- explicit instantiations --------------------------------------------------------
// T is a type: it cannot be put in parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ATTN_TRAIN_INSTANTIATE(T)                                                              \
  template void matmul_forward<T>(T*, const T*, const T*, int, int, int);                     \
  template void matmul_backward<T>(T*, T*, const T*, const T*, const T*, int, int, int);      \
  template void softmax_forward<T>(T*, const T*, int, int);                                   \
  template void softmax_backward<T>(T*, const T*, const T*, int);                             \
  template void attention_forward<T>(T*, T*, const T*, const T*, const T*, int, int, int, int, \
                                     T, bool);                                                \
  template void attention_backward<T>(T*, T*, T*, const T*, const T*, const T*, const T*,      \
                                      const T*, int, int, int, int, T, bool);                 \
  template T cross_entropy<T>(T*, const T*, int, int, T);                                     \
  template struct TinyModel<T>;                                                               \
  template BatchResult model_forward_backward<T>(const TinyModel<T>&,                         \
                                                 const std::vector<Example>&, bool,           \
                                                 TinyModel<T>*);                              \
  template std::vector<T> model_attention_map<T>(const TinyModel<T>&, const Example&, bool, int);

// NOLINTEND(bugprone-macro-parentheses)
ATTN_TRAIN_INSTANTIATE(float)
ATTN_TRAIN_INSTANTIATE(double)

}  // namespace attn::train
