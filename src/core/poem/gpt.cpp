// The poem model: parameter layout, forward, backward (mirroring forward
// layer by layer, last to first), AdamW.
#include "gpt.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "core/kernels/per_isa.hpp"
#include "core/masks.hpp"
#include "core/base/parallel.hpp"
#include "core/base/rng.hpp"
#include "core/layers/attention.hpp"
#include "core/layers/crossentropy.hpp"
#include "core/layers/embedding.hpp"
#include "core/layers/gelu.hpp"
#include "core/layers/layernorm.hpp"
#include "core/layers/linear.hpp"
#include "core/layers/residual.hpp"
#include "gpt_layers.hpp"

namespace attn::poem {

namespace {

using Z = std::ptrdiff_t;
std::size_t sz(Z n) { return static_cast<std::size_t>(n); }

// The fast float layer where there is one and the path asks for it, else the plain loops.
template <class Real>
struct Layers {
  bool fast;
  void matmul_forward(Real* out, const Real* inp, const Real* w, const Real* b, int N, int C, int OC) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::matmul_forward(out, inp, w, b, N, C, OC);
    layers::linear_forward(out, inp, w, b, N, C, OC);
  }
  void matmul_backward(Real* dinp, Real* dw, Real* db, const Real* dout, const Real* inp, const Real* w, int N, int C,
                       int OC) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::matmul_backward(dinp, dw, db, dout, inp, w, N, C, OC);
    layers::linear_backward(dinp, dw, db, dout, inp, w, N, C, OC);
  }
  // The tied output layer and the softmax with its losses.
  void output_forward(Real* logits, Real* probs, Real* losses, const Real* inp, const Real* wte, const int* targets,
                      int N, int C, int V) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::output_forward(logits, probs, losses, inp, wte, targets, N, C, V);
    layers::logits_forward(logits, inp, wte, N, C, V);
    layers::crossentropy_forward(probs, losses, static_cast<int*>(nullptr), logits, targets, N, V);
  }
  void logits_backward(Real* dinp, Real* dwte, const Real* dlogits, const Real* inp, const Real* wte, int N, int C,
                       int V) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::logits_backward(dinp, dwte, dlogits, inp, wte, N, C, V);
    layers::logits_backward(dinp, dwte, dlogits, inp, wte, N, C, V);
  }
  void attention_forward(Real* out, Real* att, const Real* qkv, const bool* allowed, int B, int T, int C,
                         int NH) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::attention_forward(out, att, qkv, allowed, B, T, C, NH);
    const Z C3 = Z(C) * 3, hs = C / NH;
    for (Z b = 0; b < B; ++b)
      for (Z h = 0; h < NH; ++h) {
        const Real* q = qkv + b * T * C3 + h * hs;
        layers::attention_forward(out + b * T * C + h * hs, C, att + (b * NH + h) * T * T, q, q + C, q + 2 * C,
                                  int(C3), T, T, int(hs), 1.0 / std::sqrt(double(hs)), allowed);
      }
  }
  void gelu_forward(Real* out, const Real* inp, int N) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::gelu_forward(out, inp, N);
    layers::gelu_forward(out, inp, N);
  }
  void gelu_backward(Real* dinp, const Real* inp, const Real* dout, int N) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::gelu_backward(dinp, inp, dout, N);
    layers::gelu_backward(dinp, inp, dout, N);
  }
  void crossentropy_backward(Real* dlogits, const Real* probs, const int* targets, int count, int N, int V) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::crossentropy_softmax_backward(dlogits, probs, targets, 1.0f / float(count), N, V);
    layers::crossentropy_backward(dlogits, probs, targets, count, N, V);
  }
  void attention_backward(Real* dqkv, const Real* dout, const Real* att, const Real* qkv, const bool* allowed, int B,
                          int T, int C, int NH) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::attention_backward(dqkv, dout, att, qkv, B, T, C, NH);
    const Z C3 = Z(C) * 3, hs = C / NH;
    for (Z b = 0; b < B; ++b)
      for (Z h = 0; h < NH; ++h) {
        const Real* q = qkv + b * T * C3 + h * hs;
        Real* dq = dqkv + b * T * C3 + h * hs;
        layers::attention_backward(dq, dq + C, dq + 2 * C, dout + b * T * C + h * hs, C, att + (b * NH + h) * T * T, q,
                                   q + C, q + 2 * C, int(C3), T, T, int(hs), 1.0 / std::sqrt(double(hs)), allowed);
      }
  }
  void layernorm_forward(Real* out, Real* mean, Real* rstd, const Real* inp, const Real* weight, const Real* bias,
                         int N, int C) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::layernorm_forward(out, mean, rstd, inp, weight, bias, N, C);
    layers::layernorm_forward(out, mean, rstd, inp, weight, bias, N, C);
  }
  void layernorm_backward(Real* dinp, Real* dweight, Real* dbias, const Real* dout, const Real* inp, const Real* weight,
                          const Real* mean, const Real* rstd, int N, int C) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
    layers::layernorm_backward(dinp, dweight, dbias, dout, inp, weight, mean, rstd, N, C);
  }
  void residual_forward(Real* out, const Real* a, const Real* b, int N) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::residual_forward(out, a, b, N);
    layers::residual_forward(out, a, b, N);
  }
  void residual_backward(Real* da, Real* db, const Real* dout, int N) const {
    if constexpr (std::is_same_v<Real, float>)
      if (fast) return fast::residual_backward(da, db, dout, N);
    layers::residual_backward(da, db, dout, N);
  }
};

// Every element is written by the forward pass, so a resize need not zero.
template <class Real>
void resize(std::vector<Real>& v, Z n) { v.resize(sz(n)); }

}  // namespace

std::string check_gpt_config(const GptConfig& c) {
  if (c.vocab < 1 || c.vocab > GptLimits::kMaxVocab) return "vocab: 1.." + std::to_string(GptLimits::kMaxVocab);
  if (c.context < 1 || c.context > GptLimits::kMaxContext) return "context: 1.." + std::to_string(GptLimits::kMaxContext);
  if (c.layers < 1 || c.layers > GptLimits::kMaxLayers) return "layers: 1.." + std::to_string(GptLimits::kMaxLayers);
  if (c.heads < 1 || c.heads > GptLimits::kMaxHeads) return "heads: 1.." + std::to_string(GptLimits::kMaxHeads);
  if (c.d_model < 1 || c.d_model > GptLimits::kMaxDModel) return "d_model: 1.." + std::to_string(GptLimits::kMaxDModel);
  if (c.d_model % c.heads != 0) return "d_model: a multiple of heads (" + std::to_string(c.heads) + ")";
  return "";
}

std::vector<ParamTensor> param_tensors(const GptConfig& c) {
  const std::size_t C = sz(c.d_model), V = sz(c.vocab), T = sz(c.context);
  std::vector<ParamTensor> tensors;
  std::size_t offset = 0;
  // The matrices (weights and embeddings) decay; the vectors (gains, biases) do not.
  auto add = [&](std::string name, std::size_t rows, std::size_t cols) {
    const bool matrix = name.size() >= 2 && name.compare(name.size() - 2, 2, "_w") == 0 && name.find("ln") == std::string::npos;
    const bool decay = matrix || name == "wte" || name == "wpe";
    tensors.push_back({std::move(name), offset, rows * cols, decay, rows, cols});
    offset += rows * cols;
  };
  add("wte", V, C);
  add("wpe", T, C);
  for (int l = 0; l < c.layers; ++l) {
    const std::string h = "h" + std::to_string(l) + ".";
    add(h + "ln1_w", 1, C);
    add(h + "ln1_b", 1, C);
    add(h + "qkv_w", C, 3 * C);
    add(h + "qkv_b", 1, 3 * C);
    add(h + "proj_w", C, C);
    add(h + "proj_b", 1, C);
    add(h + "ln2_w", 1, C);
    add(h + "ln2_b", 1, C);
    add(h + "fc_w", C, 4 * C);
    add(h + "fc_b", 1, 4 * C);
    add(h + "fcproj_w", 4 * C, C);
    add(h + "fcproj_b", 1, C);
  }
  add("lnf_w", 1, C);
  add("lnf_b", 1, C);
  return tensors;
}

std::size_t param_count(const GptConfig& config) {
  const std::vector<ParamTensor> tensors = param_tensors(config);
  return tensors.back().offset + tensors.back().size;
}

template <class Real>
GptParams<Real> bind_params(const GptConfig& c, Real* flat) {
  const std::vector<ParamTensor> tensors = param_tensors(c);
  std::size_t i = 0;
  auto next = [&] { return flat + tensors[i++].offset; };
  GptParams<Real> p{};
  p.wte = next();
  p.wpe = next();
  p.layer.resize(sz(c.layers));
  for (auto& l : p.layer) {
    l.ln1_w = next();
    l.ln1_b = next();
    l.qkv_w = next();
    l.qkv_b = next();
    l.proj_w = next();
    l.proj_b = next();
    l.ln2_w = next();
    l.ln2_b = next();
    l.fc_w = next();
    l.fc_b = next();
    l.fcproj_w = next();
    l.fcproj_b = next();
  }
  p.lnf_w = next();
  p.lnf_b = next();
  return p;
}
template GptParams<float> bind_params(const GptConfig&, float*);
template GptParams<double> bind_params(const GptConfig&, double*);

std::vector<float> init_params(const GptConfig& config, uint64_t seed) {
  std::vector<float> params(param_count(config), 0.0f);
  Rng rng(seed, 23);
  const float residual_std = 0.02f / std::sqrt(2.0f * static_cast<float>(config.layers));
  for (const ParamTensor& t : param_tensors(config)) {
    const bool gain = t.name.find("ln") != std::string::npos && t.name.back() == 'w';
    const bool bias = t.name.back() == 'b';
    const bool residual = t.name.find("proj_w") != std::string::npos;  // proj_w and fcproj_w
    for (std::size_t i = 0; i < t.size; ++i) {
      float& p = params[t.offset + i];
      if (gain) p = 1.0f;
      else if (!bias) p = rng.normal() * (residual ? residual_std : 0.02f);
    }
  }
  return params;
}

template <class Real>
Real gpt_forward(GptWorkspace<Real>& ws, const GptConfig& cfg, const Real* params, const int* tokens,
                 const int* targets, int B, int T, Path path) {
  const int C = cfg.d_model, V = cfg.vocab, NH = cfg.heads, N = B * T;
  const Z BT = Z(B) * T;
  const Layers<Real> f{path == Path::Fast};
  const GptParams<Real> p = bind_params(cfg, const_cast<Real*>(params));
  ws.B = B;
  ws.T = T;
  ws.tokens.assign(tokens, tokens + BT);
  if (targets) ws.targets.assign(targets, targets + BT);
  else ws.targets.assign(sz(BT), -1);
  resize(ws.encoded, BT * C);
  ws.layer.resize(sz(cfg.layers));
  const MaskMatrix mask = causal_mask(T);  // row-major: allowed[t * T + t2]

  // Dropout masks come from one stream in a fixed order (embeddings, then each
  // block's attention and MLP outputs), so a seed fixes every mask.
  const bool dropout = ws.dropout > 0.0f;
  Rng dropout_rng(ws.dropout_seed, 41);
  auto drop = [&](std::vector<Real>& values, std::vector<Real>& keep) {
    if (!dropout) return keep.clear();
    resize(keep, Z(values.size()));
    layers::dropout_mask(keep.data(), int(values.size()), ws.dropout, dropout_rng);
    layers::dropout_forward(values.data(), values.data(), keep.data(), int(values.size()));
  };

  layers::embedding_forward(ws.encoded.data(), tokens, p.wte, p.wpe, B, T, C);
  drop(ws.encoded, ws.encoded_mask);
  const Real* x = ws.encoded.data();  // the residual stream entering each block
  for (int l = 0; l < cfg.layers; ++l) {
    const auto& w = p.layer[sz(l)];
    auto& a = ws.layer[sz(l)];
    resize(a.ln1, BT * C), resize(a.ln1_mean, BT), resize(a.ln1_rstd, BT), resize(a.qkv, BT * 3 * C);
    resize(a.att, Z(B) * NH * T * T), resize(a.atty, BT * C), resize(a.attproj, BT * C), resize(a.residual2, BT * C);
    resize(a.ln2, BT * C), resize(a.ln2_mean, BT), resize(a.ln2_rstd, BT), resize(a.fch, BT * 4 * C);
    resize(a.fch_gelu, BT * 4 * C), resize(a.fcproj, BT * C), resize(a.residual3, BT * C);

    f.layernorm_forward(a.ln1.data(), a.ln1_mean.data(), a.ln1_rstd.data(), x, w.ln1_w, w.ln1_b, N, C);
    f.matmul_forward(a.qkv.data(), a.ln1.data(), w.qkv_w, w.qkv_b, N, C, 3 * C);
    f.attention_forward(a.atty.data(), a.att.data(), a.qkv.data(), mask.data(), B, T, C, NH);
    f.matmul_forward(a.attproj.data(), a.atty.data(), w.proj_w, w.proj_b, N, C, C);
    drop(a.attproj, a.attproj_mask);
    f.residual_forward(a.residual2.data(), x, a.attproj.data(), N * C);
    f.layernorm_forward(a.ln2.data(), a.ln2_mean.data(), a.ln2_rstd.data(), a.residual2.data(), w.ln2_w, w.ln2_b,
                           N, C);
    f.matmul_forward(a.fch.data(), a.ln2.data(), w.fc_w, w.fc_b, N, C, 4 * C);
    f.gelu_forward(a.fch_gelu.data(), a.fch.data(), N * 4 * C);
    f.matmul_forward(a.fcproj.data(), a.fch_gelu.data(), w.fcproj_w, w.fcproj_b, N, 4 * C, C);
    drop(a.fcproj, a.fcproj_mask);
    f.residual_forward(a.residual3.data(), a.residual2.data(), a.fcproj.data(), N * C);
    x = a.residual3.data();
  }
  if (ws.attention_only) return Real(0);
  resize(ws.lnf, BT * C), resize(ws.lnf_mean, BT), resize(ws.lnf_rstd, BT);
  resize(ws.logits, BT * V), resize(ws.probs, BT * V), resize(ws.losses, BT);
  f.layernorm_forward(ws.lnf.data(), ws.lnf_mean.data(), ws.lnf_rstd.data(), x, p.lnf_w, p.lnf_b, N, C);
  f.output_forward(ws.logits.data(), ws.probs.data(), ws.losses.data(), ws.lnf.data(), p.wte, ws.targets.data(), N, C,
                   V);

  Real sum = 0;
  int counted = 0;
  for (Z i = 0; i < BT; ++i)
    if (ws.targets[sz(i)] >= 0) sum += ws.losses[sz(i)], ++counted;
  return counted ? sum / Real(counted) : Real(0);
}

template <class Real>
void gpt_backward(GptWorkspace<Real>& ws, const GptConfig& cfg, const Real* params, Real* grads, Path path) {
  const int B = ws.B, T = ws.T, C = cfg.d_model, V = cfg.vocab, NH = cfg.heads, N = B * T;
  const Z BT = Z(B) * T;
  const Layers<Real> f{path == Path::Fast};
  const GptParams<Real> p = bind_params(cfg, const_cast<Real*>(params));
  const GptParams<Real> g = bind_params(cfg, grads);
  int counted = 0;
  for (int t : ws.targets) counted += t >= 0;
  if (counted == 0) return;

  // Every buffer is the workspace's (zeroed where backward adds into it), and
  // the logits' gradient is written over probs, their last reader.
  auto& bk = ws.back;
  const auto zeroed = [](std::vector<Real>& v, Z n) -> std::vector<Real>& { return v.assign(sz(n), Real(0)), v; };
  std::vector<Real>& dlnf = zeroed(bk.dlnf, BT * C);
  std::vector<Real>& dx = zeroed(bk.dx, BT * C);
  Real* dlogits = ws.probs.data();
  const MaskMatrix mask = causal_mask(T);  // row-major: allowed[t * T + t2]
  f.crossentropy_backward(dlogits, ws.probs.data(), ws.targets.data(), counted, N, V);
  f.logits_backward(dlnf.data(), g.wte, dlogits, ws.lnf.data(), p.wte, N, C, V);
  const Real* last = cfg.layers ? ws.layer.back().residual3.data() : ws.encoded.data();
  f.layernorm_backward(dx.data(), g.lnf_w, g.lnf_b, dlnf.data(), last, p.lnf_w, ws.lnf_mean.data(),
                          ws.lnf_rstd.data(), N, C);

  // dx: the gradient of the residual stream leaving block l, then entering it.
  std::vector<Real>&dres2 = bk.dres2, &dfcproj = bk.dfcproj, &dfch_gelu = bk.dfch_gelu, &dfch = bk.dfch;
  std::vector<Real>&dln2 = bk.dln2, &dattproj = bk.dattproj, &datty = bk.datty, &dqkv = bk.dqkv;
  std::vector<Real>&dln1 = bk.dln1, &dx_in = bk.dx_in;
  for (int l = cfg.layers - 1; l >= 0; --l) {
    const auto& w = p.layer[sz(l)];
    const auto& gw = g.layer[sz(l)];
    const auto& a = ws.layer[sz(l)];
    const Real* x = l == 0 ? ws.encoded.data() : ws.layer[sz(l - 1)].residual3.data();
    for (auto* v : {&dres2, &dfcproj, &dln2, &dattproj, &datty, &dln1, &dx_in}) zeroed(*v, BT * C);
    zeroed(dfch_gelu, BT * 4 * C), zeroed(dfch, BT * 4 * C), zeroed(dqkv, BT * 3 * C);

    f.residual_backward(dres2.data(), dfcproj.data(), dx.data(), N * C);
    if (!a.fcproj_mask.empty()) layers::dropout_backward(dfcproj.data(), a.fcproj_mask.data(), N * C);
    f.matmul_backward(dfch_gelu.data(), gw.fcproj_w, gw.fcproj_b, dfcproj.data(), a.fch_gelu.data(), w.fcproj_w, N,
                      4 * C, C);
    f.gelu_backward(dfch.data(), a.fch.data(), dfch_gelu.data(), N * 4 * C);
    f.matmul_backward(dln2.data(), gw.fc_w, gw.fc_b, dfch.data(), a.ln2.data(), w.fc_w, N, C, 4 * C);
    f.layernorm_backward(dres2.data(), gw.ln2_w, gw.ln2_b, dln2.data(), a.residual2.data(), w.ln2_w,
                            a.ln2_mean.data(), a.ln2_rstd.data(), N, C);
    f.residual_backward(dx_in.data(), dattproj.data(), dres2.data(), N * C);
    if (!a.attproj_mask.empty()) layers::dropout_backward(dattproj.data(), a.attproj_mask.data(), N * C);
    f.matmul_backward(datty.data(), gw.proj_w, gw.proj_b, dattproj.data(), a.atty.data(), w.proj_w, N, C, C);
    f.attention_backward(dqkv.data(), datty.data(), a.att.data(), a.qkv.data(), mask.data(), B, T, C, NH);
    f.matmul_backward(dln1.data(), gw.qkv_w, gw.qkv_b, dqkv.data(), a.ln1.data(), w.qkv_w, N, C, 3 * C);
    f.layernorm_backward(dx_in.data(), gw.ln1_w, gw.ln1_b, dln1.data(), x, w.ln1_w, a.ln1_mean.data(),
                            a.ln1_rstd.data(), N, C);
    dx.swap(dx_in);
  }
  if (!ws.encoded_mask.empty()) layers::dropout_backward(dx.data(), ws.encoded_mask.data(), N * C);
  layers::embedding_backward(g.wte, g.wpe, dx.data(), ws.tokens.data(), B, T, C);
}

template float gpt_forward(GptWorkspace<float>&, const GptConfig&, const float*, const int*, const int*, int, int, Path);
template double gpt_forward(GptWorkspace<double>&, const GptConfig&, const double*, const int*, const int*, int, int,
                            Path);
template void gpt_backward(GptWorkspace<float>&, const GptConfig&, const float*, float*, Path);
template void gpt_backward(GptWorkspace<double>&, const GptConfig&, const double*, double*, Path);

namespace {

// One piece of the AdamW update, cloned per vector width (kernels/per_isa.hpp)
// with core/optim's loop inlined.
ATTN_PER_ISA void adamw_piece(const optim::AdamSettings& settings, const optim::AdamStep& now, float learning_rate,
                              float* params, const float* grads, float* m, float* v, std::size_t n) {
  optim::adam_update(settings, now, learning_rate, params, grads, m, v, n);
}

}  // namespace

void AdamW::step(std::vector<float>& params, const std::vector<float>& grads, const std::vector<ParamTensor>& tensors,
                 float learning_rate, int threads) {
  if (m.size() != params.size()) m.assign(params.size(), 0.0f), v.assign(params.size(), 0.0f), clock = {};
  const optim::AdamStep now = clock.next(settings);
  optim::AdamSettings no_decay = settings;
  no_decay.weight_decay = 0;
  // The tensors in pieces of at most kPiece elements, spread over the threads.
  constexpr std::size_t kPiece = 1 << 15;
  struct Piece {
    std::size_t begin, end;
    const optim::AdamSettings* settings;
  };
  std::vector<Piece> pieces;
  for (const ParamTensor& tensor : tensors)
    for (std::size_t b = tensor.offset; b < tensor.offset + tensor.size; b += kPiece)
      pieces.push_back({b, std::min(b + kPiece, tensor.offset + tensor.size), tensor.decay ? &settings : &no_decay});
  parallel_for(static_cast<int>(pieces.size()), threads, [&](int i) {
    const Piece& piece = pieces[sz(i)];
    adamw_piece(*piece.settings, now, learning_rate, params.data() + piece.begin, grads.data() + piece.begin,
                m.data() + piece.begin, v.data() + piece.begin, piece.end - piece.begin);
  });
}

}  // namespace attn::poem
