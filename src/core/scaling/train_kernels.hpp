// The tiny trainer's layers as plain loops: forward and backward, one free
// function per layer with a shape comment (in the style of llm.c's
// train_gpt2.c). Backward functions ACCUMULATE (+=) into their gradient
// outputs; the caller zeroes them.
//
// Why plain loops and not Eigen: Eigen's GEMM blocks and vectorises
// differently with SSE (native) and without it (wasm), which changes the
// order of float additions and so the last bits. Here every sum runs in one
// fixed order (the compiler may vectorise only loops without a reduction,
// which does not change results; -ffp-contract stays off: GCC in ISO C++
// mode does not fuse, and wasm has no FMA). exp/log come from detmath.hpp.
//
// Templates on the number type: float for training, double for the
// finite-difference gradient checks (explicit instantiations in the .cpp).
#pragma once

#include <vector>

namespace attn::train {

// y (n x out) = x (n x in) . W (in x out); all row-major.
template <class T>
void matmul_forward(T* y, const T* x, const T* W, int n, int in, int out);
// dx (n x in) += dy W^T;  dW (in x out) += x^T dy. dx may be null.
template <class T>
void matmul_backward(T* dx, T* dW, const T* dy, const T* x, const T* W, int n, int in, int out);

// probs (n) = softmax(scores) over the first `allowed` entries (max subtracted
// first); entries from `allowed` on get exactly 0.
template <class T>
void softmax_forward(T* probs, const T* scores, int n, int allowed);
// dscores (n) += J^T dprobs with J = diag(p) - p p^T:
//   dscores_j += p_j (dprobs_j - sum_k p_k dprobs_k).
template <class T>
void softmax_backward(T* dscores, const T* probs, const T* dprobs, int n);

// One head of scaled dot-product attention.
//   Q (n_q x d), K (n_k x d), V (n_k x d): rows `ld` apart (a head is a
//   column slice of a wider matrix), out (n_q x d) rows `ld` apart too;
//   weights (n_q x n_k) dense.
//   Query i sits at position n_k - n_q + i: with causal, it sees keys j <= that.
//   scale: 1/sqrt(d) for the chapter's scaled attention, 1 for raw scores.
template <class T>
void attention_forward(T* out, T* weights, const T* Q, const T* K, const T* V, int n_q, int n_k,
                       int d, int ld, T scale, bool causal);
template <class T>
void attention_backward(T* dQ, T* dK, T* dV, const T* dout, const T* weights, const T* Q,
                        const T* K, const T* V, int n_q, int n_k, int d, int ld, T scale,
                        bool causal);

// Softmax cross-entropy for one row of logits (n): returns -log p_target and
// writes dlogits (n) = (p - onehot(target)) * grad_scale.
template <class T>
T cross_entropy(T* dlogits, const T* logits, int n, int target, T grad_scale);

// ---- the whole model ----------------------------------------------------------
// Token t's input is the sum of the embedding rows listed for it in
// token_rows (like a word plus a type embedding): for "retrieve", a pair token
// "C:5" is E[key C] + E[value 5] and a query "C?" is E[key C] + E[marker ?].
// tokens -> x (n x d) = sum of E rows per token -> q = x[n-1] W_q (1 x d), K = x W_k,
// V = x W_v (n x d) -> per head h (columns h*d_head ..): attention of the
// last position over all n (causal: it sees everything) -> o (1 x d)
// -> logits = o W_out (1 x n_out) -> cross-entropy against the target.
template <class T>
struct TinyModel {
  int vocab = 0, d = 0, heads = 1, n_out = 0;
  int rows = 0, rows_per_token = 1;
  std::vector<int> token_rows;  // vocab x rows_per_token, indices into E (not trained)
  std::vector<T> E;     // rows x d
  std::vector<T> W_q;   // d x d
  std::vector<T> W_k;   // d x d
  std::vector<T> W_v;   // d x d
  std::vector<T> W_out; // d x n_out

  // E gets `rows_` rows; token_rows defaults to token i -> row i (rows_per_token 1).
  void resize(int vocab_, int d_, int heads_, int n_out_, int rows_);
  void zero();
  // Every parameter array, in a fixed order (E, W_q, W_k, W_v, W_out).
  std::vector<std::vector<T>*> params();
  std::vector<const std::vector<T>*> params() const;
};

struct Example {
  std::vector<int> tokens;
  int target = 0;
};

struct BatchResult {
  double loss = 0;  // mean cross-entropy
  int correct = 0;  // argmax == target
};

// Mean loss over the batch; when grads is not null, ACCUMULATES the gradient
// of that mean into it. scaled: scores / sqrt(d_head), else raw.
template <class T>
BatchResult model_forward_backward(const TinyModel<T>& model, const std::vector<Example>& batch,
                                   bool scaled, TinyModel<T>* grads);

// Attention weights (n x n) of head h for one example with every position as
// a query (causal mask), for heatmaps.
template <class T>
std::vector<T> model_attention_map(const TinyModel<T>& model, const Example& example, bool scaled,
                                   int head);

}  // namespace attn::train
