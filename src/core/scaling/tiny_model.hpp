// The scaling lab's tiny model, trained by the tiny trainer (trainer.hpp)
// through the lab's layers (core/layers: linear, attention, cross-entropy),
// which sum in one fixed order: the same bits natively and in wasm.
// Templates on the number type: float for training, double for the
// finite-difference gradient checks (explicit instantiations in the .cpp).
#pragma once

#include <vector>

namespace attn::train {

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
