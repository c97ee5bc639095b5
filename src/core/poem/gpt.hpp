// A decoder-only character transformer, the chapter's causal attention put to
// work as a language model (GPT-2's layout at toy size):
//
//   tokens (B,T) -> wte[token] + wpe[t]                          (B,T,C)
//   L blocks:  x += proj(attention(causal, qkv(LN1(x))))          (B,T,C)
//              x += fcproj(GELU(fc(LN2(x))))        fc: C -> 4C -> C
//   LNf(x) wte^T -> logits (B,T,V), the output layer tied to wte
//
// The parameters are one flat float array (param_tensors names its pieces);
// a forward pass keeps what backward needs in a GptWorkspace. Path::Fast uses
// the project's kernels where they fit (gpt_layers.hpp), Path::Reference the
// plain loops (and double, for the finite-difference checks). The mask is
// masks.hpp's causal_mask: position t sees positions 0..t and nothing else.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/optim/adam.hpp"

namespace attn::poem {

struct GptConfig {
  int vocab = 0;     // characters and the special tokens (vocab.hpp)
  int context = 64;  // T: the longest sequence; wpe has this many rows
  int layers = 2;
  int heads = 4;
  int d_model = 64;  // C, divided among the heads
};

// What check_gpt_config accepts (and the CLI's flags, so a flag never allows
// what the model then refuses).
struct GptLimits {
  static constexpr int kMaxVocab = 1 << 16;
  static constexpr int kMaxContext = 1024;
  static constexpr int kMaxLayers = 16;
  static constexpr int kMaxHeads = 64;
  static constexpr int kMaxDModel = 1024;
};
// Empty when the config is usable, else "<field>: <why>".
std::string check_gpt_config(const GptConfig& config);

// One named piece of the flat parameter array. decay: AdamW's weight decay
// applies (the matrices and embeddings, not the LayerNorm gains and biases).
struct ParamTensor {
  std::string name;  // "wte", "wpe", "h0.qkv_w", ..., "lnf_b"
  std::size_t offset = 0, size = 0;
  bool decay = false;
  std::size_t rows = 1, cols = 0;  // a matrix's shape (rows x cols = size); a vector: 1 x size
};
std::vector<ParamTensor> param_tensors(const GptConfig& config);
std::size_t param_count(const GptConfig& config);

// Pointers into a flat array laid out as param_tensors says. Matrices are
// stored (in, out): a layer computes x W + b.
template <class Real>
struct GptParams {
  struct Layer {
    Real *ln1_w, *ln1_b;        // (C)
    Real *qkv_w, *qkv_b;        // (C,3C), (3C)
    Real *proj_w, *proj_b;      // (C,C), (C)
    Real *ln2_w, *ln2_b;        // (C)
    Real *fc_w, *fc_b;          // (C,4C), (4C)
    Real *fcproj_w, *fcproj_b;  // (4C,C), (C)
  };
  Real* wte;  // (V,C), also the output layer
  Real* wpe;  // (context,C)
  std::vector<Layer> layer;
  Real *lnf_w, *lnf_b;  // (C)
};
template <class Real>
GptParams<Real> bind_params(const GptConfig& config, Real* flat);

// GPT-2's initialisation: weights N(0, 0.02), the two projections into the
// residual stream N(0, 0.02 / sqrt(2 L)), biases 0, LayerNorm gains 1.
std::vector<float> init_params(const GptConfig& config, uint64_t seed);

enum class Path { Fast, Reference };

// What one forward pass keeps for backward and for the views: sized for the
// (B,T) of the last forward.
template <class Real>
struct GptWorkspace {
  // Training sets these before a forward pass: dropout on the embeddings and
  // on each block's two outputs into the residual stream (GPT-2's embd_pdrop
  // and resid_pdrop), its masks drawn from dropout_seed, so one seed gives the
  // same masks every time (the finite-difference check relies on it). 0 (the
  // default, and every read of a trained model) draws nothing.
  float dropout = 0;
  uint64_t dropout_seed = 0;
  // The attention weights only: the forward pass stops after the blocks (no
  // output layer, some three quarters of a read's work; no loss, no probs).
  // Reading the heads needs no more (head_patterns.hpp).
  bool attention_only = false;
  int B = 0, T = 0;
  std::vector<int> tokens, targets;  // (B,T); a target of -1 has no loss
  std::vector<Real> encoded;         // (B,T,C)
  std::vector<Real> encoded_mask;    // (B,T,C) with dropout, else empty
  struct Layer {
    std::vector<Real> ln1, ln1_mean, ln1_rstd;  // (B,T,C), (B,T), (B,T)
    std::vector<Real> qkv;                      // (B,T,3C)
    std::vector<Real> att;                      // (B,NH,T,T) the attention weights
    std::vector<Real> atty;                     // (B,T,C) heads' outputs
    std::vector<Real> attproj;                  // (B,T,C) after dropout
    std::vector<Real> attproj_mask;             // (B,T,C) with dropout, else empty
    std::vector<Real> residual2;                // (B,T,C) x after attention
    std::vector<Real> ln2, ln2_mean, ln2_rstd;
    std::vector<Real> fch, fch_gelu;            // (B,T,4C)
    std::vector<Real> fcproj;                   // (B,T,C) after dropout
    std::vector<Real> fcproj_mask;              // (B,T,C) with dropout, else empty
    std::vector<Real> residual3;                // (B,T,C) x after the MLP
  };
  std::vector<Layer> layer;
  std::vector<Real> lnf, lnf_mean, lnf_rstd;
  std::vector<Real> logits, probs;  // (B,T,V); backward turns probs into the logits' gradient
  std::vector<Real> losses;         // (B,T)
  // Backward's own buffers, kept so that a training step allocates nothing.
  struct Backward {
    std::vector<Real> dlnf, dx, dres2, dfcproj, dfch_gelu, dfch, dln2, dattproj, datty, dqkv, dln1, dx_in;
  } back;
};

// Runs the model on tokens (B*T ids < vocab, T <= context). targets (B*T, or
// null for no loss) are the next tokens; returns the mean loss over targets
// that are not -1 (0 when there are none). Precondition: check_gpt_config.
template <class Real>
Real gpt_forward(GptWorkspace<Real>& ws, const GptConfig& config, const Real* params, const int* tokens,
                 const int* targets, int B, int T, Path path);
// The gradient of that mean loss, ACCUMULATED into grads (param_count floats).
// It overwrites ws.probs with the logits' gradient.
template <class Real>
void gpt_backward(GptWorkspace<Real>& ws, const GptConfig& config, const Real* params, Real* grads, Path path);

// AdamW for the model: core/optim's update (betas 0.9 and 0.95, weight decay
// 0.1 on the tensors marked decay, none on the others), in pieces spread over
// the threads.
struct AdamW {
  optim::AdamSettings settings{0.9, 0.95, 1e-8, 0.1};
  std::vector<float> m, v;
  optim::AdamClock clock;
  // threads: as parallel_for's (each element's update is its own, so the
  // count changes no bit).
  void step(std::vector<float>& params, const std::vector<float>& grads, const std::vector<ParamTensor>& tensors,
            float learning_rate, int threads = 1);
};

}  // namespace attn::poem
