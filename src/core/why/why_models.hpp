// The models of the "why attention" experiments, each one layer between the
// same fixed inputs and a read-out, trained with Adam on the tasks of
// why_tasks.hpp:
//
//  - a tanh RNN or a GRU of width C, read out from its state after each
//    position that has a target;
//  - a stack of causal 1-D convolutions (why_conv.hpp: kernel 3, ReLU, width
//    C), read out from its last layer there: it reaches 2 x layers back;
//  - one causal attention layer of width C, read out from its output there,
//    with the Q/K/V projections of the chapter's question as the variant:
//      none      q = k = v = x   (only the read-out learns)
//      tied      q = k = x W_QK, v = x W_V
//      separate  q = x W_Q, k = x W_K, v = x W_V
//
// The inputs x_t are fixed, the same for every model of a task (from the
// task's seed, not the model's): a symbol's vector, plus for attention the
// position's (the recurrent models count positions by their steps, the
// convolution needs none: its taps are relative). The
// comparison is then between the layers alone: what each can route from one
// position to another, and what the projections add.
//
// Everything is computed in plain loops in a fixed order with det_exp, so a
// seed gives the same bits natively and in wasm (the page and attention_cli
// agree); Real is float, or double for the finite-difference tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/optim/adam.hpp"
#include "why_tasks.hpp"

namespace attn::why {

enum class Layer { Rnn, Gru, Attention, Cnn };
enum class Projections { None, Tied, Separate };
const char* layer_name(Layer layer);              // "rnn", "gru", "attention", "cnn"
const char* projections_name(Projections p);      // "none", "tied", "separate"

inline constexpr int kWidth = 32;
inline constexpr int kDefaultConvLayers = 4, kMaxConvLayers = 16;  // 16 layers reach 32 back

struct ModelSpec {
  Layer layer = Layer::Attention;
  Projections projections = Projections::Separate;  // attention only
  Task task = Task::Copy;
  int width = kWidth;
  int conv_layers = kDefaultConvLayers;  // the convolution only
};

// One named piece of the flat parameter array (for dumps and tests).
struct Tensor {
  const char* name;
  std::size_t offset, size;
};

// Where each of a model's tensors starts in its flat parameter array; kNone
// for the tensors its layer does not have. The layers' code names them as
// members, so a misspelt tensor does not compile.
struct TensorOffsets {
  static constexpr std::size_t kNone = std::size_t(-1);
  std::size_t wx = kNone, wh = kNone;             // tanh RNN: C x C each (and b)
  std::size_t w = kNone, u = kNone;               // GRU: 3C x C each (and b, 3C)
  std::size_t b = kNone;                          // the recurrent layer's bias
  std::size_t wq = kNone, wk = kNone, wqk = kNone, wv = kNone;  // attention's projections: C x C each
  std::size_t conv_w = kNone, conv_b = kNone;   // the convolutions: layers x (3, C, C) and layers x C
  std::size_t wo = kNone, bo = kNone;             // the read-out: C x classes, classes
};

template <class Real>
struct Model {
  ModelSpec spec;
  int vocab = 0, length = 0, classes = kAlphabet;
  std::vector<Real> symbols;    // vocab x C: each token's input vector (fixed)
  std::vector<Real> positions;  // length x C: each position's (fixed; attention only)
  std::vector<Tensor> tensors;  // in the order of params
  TensorOffsets at;
  std::vector<Real> params;
};

// The model with its fixed inputs (input_seed) and initial weights (seed).
template <class Real>
Model<Real> make_model(const ModelSpec& spec, uint64_t input_seed, uint64_t seed);

// What a forward pass keeps for backward, and what it measured.
template <class Real>
struct Pass {
  int B = 0, T = 0;
  std::vector<Real> x;                 // B x T x C: the layer's inputs
  std::vector<Real> hs, gates;         // the recurrent states (B x (T+1) x C) and GRU gates
  std::vector<Real> q, k, v, att, out; // attention
  std::vector<Real> conv;              // the convolutions' outputs: layers x B x T x C
  std::vector<int> rows;               // the (b * T + t) of every position with a target
  std::vector<Real> features, probs;   // per such row: what the read-out reads (C), its softmax (classes)
  std::vector<int> predicted;          // per such row: the read-out's argmax
  std::vector<int> targets;            // per such row: the symbol it must name
  double loss = 0;                     // mean cross-entropy over those rows (nats)
  double accuracy = 0;                 // share of them named right
};

template <class Real>
void forward(const Model<Real>& model, const Batch& batch, Pass<Real>& pass);
// The mean loss's gradient: ACCUMULATED into grads (params.size()); dx
// (B x T x C, written) gets the gradient reaching each input x_t.
template <class Real>
void backward(const Model<Real>& model, const Batch& batch, Pass<Real>& pass, std::vector<Real>& grads,
              std::vector<Real>& dx);

// Adam (beta1 0.9, beta2 0.999, eps 1e-8; core/optim/adam.hpp) in double, the
// gradient clipped to a global norm of 1 first (a recurrent network's gradient can explode).
inline optim::Adam<double> make_adam() {
  optim::Adam<double> adam;
  adam.settings.max_norm = 1.0;
  return adam;
}

}  // namespace attn::why
