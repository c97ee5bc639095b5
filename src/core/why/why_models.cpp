// The models; see why_models.hpp.
#include "why_models.hpp"

#include <cassert>
#include <cmath>
#include <cstddef>

#include "core/base/rng.hpp"
#include "core/layers/attention.hpp"
#include "core/layers/crossentropy.hpp"
#include "core/layers/embedding.hpp"
#include "core/layers/linear.hpp"
#include "core/layers/recurrent.hpp"
#include "core/masks.hpp"
#include "why_conv.hpp"

namespace attn::why {
namespace {

using std::size_t;

// Uniform in [-a, a] from 53 random bits: the same bits on every platform
// (a normal draw would go through the C library's log and cos).
template <class Real>
void fill_uniform(Real* out, size_t n, double a, Rng& rng) {
  for (size_t i = 0; i < n; ++i) out[i] = Real(a * (2.0 * rng.uniform_double() - 1.0));
}

// The causal attention of B sequences of T positions, D channels, scaled by
// 1/sqrt(D): one layers::attention per sequence; att (B, T, T).
template <class Real>
void attention_forward(Real* out, Real* att, const Real* q, const Real* k, const Real* v, int B, int T, int D) {
  const MaskMatrix causal = causal_mask(T);
  for (size_t b = 0; b < size_t(B); ++b) {
    const size_t row0 = b * size_t(T) * size_t(D);
    layers::attention_forward(out + row0, D, att + b * size_t(T) * size_t(T), q + row0, k + row0, v + row0, D, T, T,
                              D, 1.0 / std::sqrt(double(D)), causal.data());
  }
}
template <class Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dout, const Real* att, const Real* q, const Real* k,
                        const Real* v, int B, int T, int D) {
  const MaskMatrix causal = causal_mask(T);
  for (size_t b = 0; b < size_t(B); ++b) {
    const size_t row0 = b * size_t(T) * size_t(D);
    layers::attention_backward(dq + row0, dk + row0, dv + row0, dout + row0, D, att + b * size_t(T) * size_t(T),
                               q + row0, k + row0, v + row0, D, T, T, D, 1.0 / std::sqrt(double(D)), causal.data());
  }
}

// A tensor of the weights, and its part of a gradient array.
template <class Real>
const Real* tensor(const Model<Real>& m, std::size_t TensorOffsets::*which) {
  assert(m.at.*which != TensorOffsets::kNone);
  return m.params.data() + m.at.*which;
}
template <class Real>
Real* tensor(const Model<Real>& m, std::vector<Real>& flat, std::size_t TensorOffsets::*which) {
  assert(m.at.*which != TensorOffsets::kNone);
  return flat.data() + m.at.*which;
}

}  // namespace

const char* layer_name(Layer layer) {
  switch (layer) {
    case Layer::Rnn: return "rnn";
    case Layer::Gru: return "gru";
    case Layer::Attention: return "attention";
    case Layer::Cnn: return "cnn";
  }
  return "";
}

const char* projections_name(Projections p) {
  switch (p) {
    case Projections::None: return "none";
    case Projections::Tied: return "tied";
    case Projections::Separate: return "separate";
  }
  return "";
}

template <class Real>
Model<Real> make_model(const ModelSpec& spec, uint64_t input_seed, uint64_t seed) {
  Model<Real> m;
  m.spec = spec;
  m.vocab = task_vocab(spec.task);
  m.length = task_length(spec.task);
  const int C = spec.width, A = m.classes;
  // Inputs of about unit norm: uniform in [-a, a] has variance a^2 / 3 per channel.
  Rng inputs(input_seed, 71);
  const double unit = std::sqrt(3.0 / double(C));
  m.symbols.resize(size_t(m.vocab) * size_t(C));
  if (spec.task == Task::Lookup) {
    // A pair's token is its key's vector plus its value's, a query's its
    // key's plus a query mark: matching can use one feature, the answer the other.
    std::vector<Real> keys(size_t(kLookupKeys) * size_t(C)), values(size_t(kAlphabet) * size_t(C));
    std::vector<Real> mark(static_cast<size_t>(C));
    fill_uniform(keys.data(), keys.size(), unit, inputs);
    fill_uniform(values.data(), values.size(), unit, inputs);
    fill_uniform(mark.data(), mark.size(), unit, inputs);
    for (int id = 0; id < m.vocab; ++id) {
      const bool query = id >= kLookupKeys * kAlphabet;
      const int key = query ? id - kLookupKeys * kAlphabet : id / kAlphabet;
      const Real* second = query ? mark.data() : values.data() + size_t(id % kAlphabet) * size_t(C);
      for (int c = 0; c < C; ++c)
        m.symbols[size_t(id) * size_t(C) + size_t(c)] = keys[size_t(key) * size_t(C) + size_t(c)] + second[c];
    }
  } else {
    fill_uniform(m.symbols.data(), m.symbols.size(), unit, inputs);
  }
  if (spec.layer == Layer::Attention) {
    m.positions.resize(size_t(m.length) * size_t(C));
    fill_uniform(m.positions.data(), m.positions.size(), unit, inputs);
  }
  // The layer's tensors, then the read-out's.
  size_t at = 0;
  auto add = [&](const char* name, std::size_t TensorOffsets::*which, size_t size) {
    m.tensors.push_back(Tensor{name, at, size});
    m.at.*which = at;
    at += size;
  };
  using O = TensorOffsets;
  const size_t CC = size_t(C) * size_t(C);
  switch (spec.layer) {
    case Layer::Rnn:
      add("wx", &O::wx, CC), add("wh", &O::wh, CC), add("b", &O::b, size_t(C));
      break;
    case Layer::Gru:
      add("w", &O::w, 3 * CC), add("u", &O::u, 3 * CC), add("b", &O::b, 3 * size_t(C));
      break;
    case Layer::Attention:
      if (spec.projections == Projections::Separate) add("wq", &O::wq, CC), add("wk", &O::wk, CC), add("wv", &O::wv, CC);
      if (spec.projections == Projections::Tied) add("wqk", &O::wqk, CC), add("wv", &O::wv, CC);
      break;
    case Layer::Cnn:
      add("conv_w", &O::conv_w, size_t(spec.conv_layers) * size_t(kConvKernel) * CC);
      add("conv_b", &O::conv_b, size_t(spec.conv_layers) * size_t(C));
      break;
  }
  add("wo", &O::wo, size_t(C) * size_t(A)), add("bo", &O::bo, size_t(A));
  m.params.assign(at, Real(0));
  Rng weights(seed, 72);
  for (const Tensor& t : m.tensors) {
    if (t.offset == m.at.b || t.offset == m.at.bo || t.offset == m.at.conv_b) continue;  // biases start at 0
    // Variance 1 / C: a recurrent matrix of spectral radius about 1. A
    // convolution's taps 2 / (3 C) (He's, for a ReLU after a sum over 3 C inputs):
    // its outputs keep their inputs' scale through the stack.
    const double a = t.offset == m.at.conv_w ? std::sqrt(6.0 / (double(kConvKernel) * C)) : unit;
    fill_uniform(m.params.data() + t.offset, t.size, a, weights);
  }
  return m;
}

template <class Real>
void forward(const Model<Real>& m, const Batch& batch, Pass<Real>& p) {
  const int B = batch.B, T = batch.T, C = m.spec.width, A = m.classes;
  p.B = B;
  p.T = T;
  const size_t N = size_t(B) * size_t(T);
  p.x.assign(N * size_t(C), Real(0));
  layers::embedding_forward(p.x.data(), batch.tokens.data(), m.symbols.data(),
                            m.positions.empty() ? nullptr : m.positions.data(), B, T, C);
  // The layer: a feature vector per position.
  const Real* features = nullptr;  // B x T x C, row b * T + t; the recurrent states B x (T + 1) x C
  bool recurrent = false;
  switch (m.spec.layer) {
    case Layer::Rnn:
      p.hs.assign(size_t(B) * size_t(T + 1) * size_t(C), Real(0));
      layers::rnn_forward(p.hs.data(), p.x.data(), tensor(m, &TensorOffsets::wx), tensor(m, &TensorOffsets::wh), tensor(m, &TensorOffsets::b), B, T, C, C);
      features = p.hs.data(), recurrent = true;
      break;
    case Layer::Gru:
      p.hs.assign(size_t(B) * size_t(T + 1) * size_t(C), Real(0));
      p.gates.assign(N * 3 * size_t(C), Real(0));
      layers::gru_forward(p.hs.data(), p.gates.data(), p.x.data(), tensor(m, &TensorOffsets::w), tensor(m, &TensorOffsets::u), tensor(m, &TensorOffsets::b), B, T,
                       C, C);
      features = p.hs.data(), recurrent = true;
      break;
    case Layer::Attention: {
      const Real* q = p.x.data();
      const Real* k = p.x.data();
      const Real* v = p.x.data();
      if (m.spec.projections != Projections::None) {
        p.q.assign(N * size_t(C), Real(0));
        p.v.assign(N * size_t(C), Real(0));
        const bool tied = m.spec.projections == Projections::Tied;
        layers::linear_forward(p.q.data(), p.x.data(), tensor(m, tied ? &TensorOffsets::wqk : &TensorOffsets::wq), static_cast<const Real*>(nullptr),
                            int(N), C, C);
        layers::linear_forward(p.v.data(), p.x.data(), tensor(m, &TensorOffsets::wv), static_cast<const Real*>(nullptr), int(N), C, C);
        q = k = p.q.data();
        v = p.v.data();
        if (!tied) {
          p.k.assign(N * size_t(C), Real(0));
          layers::linear_forward(p.k.data(), p.x.data(), tensor(m, &TensorOffsets::wk), static_cast<const Real*>(nullptr), int(N), C, C);
          k = p.k.data();
        }
      }
      p.att.assign(N * size_t(T), Real(0));
      p.out.assign(N * size_t(C), Real(0));
      attention_forward(p.out.data(), p.att.data(), q, k, v, B, T, C);
      features = p.out.data();
      break;
    }
    case Layer::Cnn: {
      const size_t layer_size = N * size_t(C), taps = size_t(kConvKernel) * size_t(C) * size_t(C);
      p.conv.assign(size_t(m.spec.conv_layers) * layer_size, Real(0));
      for (size_t l = 0; l < size_t(m.spec.conv_layers); ++l)
        conv_forward(p.conv.data() + l * layer_size, l ? p.conv.data() + (l - 1) * layer_size : p.x.data(),
                     tensor(m, &TensorOffsets::conv_w) + l * taps, tensor(m, &TensorOffsets::conv_b) + l * size_t(C), B,
                     T, C, C, kConvKernel);
      features = p.conv.data() + (size_t(m.spec.conv_layers) - 1) * layer_size;
      break;
    }
  }
  // The read-out at every position with a target.
  p.rows.clear();
  for (size_t r = 0; r < N; ++r)
    if (batch.targets[r] >= 0) p.rows.push_back(int(r));
  const size_t R = p.rows.size();
  p.features.assign(R * size_t(C), Real(0));
  for (size_t i = 0; i < R; ++i) {
    const size_t r = size_t(p.rows[i]);
    // The recurrent state after input t is hs[b][t + 1].
    const size_t src = recurrent ? (r / size_t(T)) * size_t(T + 1) + r % size_t(T) + 1 : r;
    for (int c = 0; c < C; ++c) p.features[i * size_t(C) + size_t(c)] = features[src * size_t(C) + size_t(c)];
  }
  p.probs.assign(R * size_t(A), Real(0));
  layers::linear_forward(p.probs.data(), p.features.data(), tensor(m, &TensorOffsets::wo), tensor(m, &TensorOffsets::bo), int(R), C, A);
  // The loss: a softmax cross-entropy per read-out row, in place over its logits.
  p.targets.resize(R);
  for (size_t i = 0; i < R; ++i) p.targets[i] = batch.targets[size_t(p.rows[i])];
  p.predicted.assign(R, 0);
  std::vector<double> losses(R);
  layers::crossentropy_forward(p.probs.data(), losses.data(), p.predicted.data(), p.probs.data(), p.targets.data(),
                               int(R), A);
  double loss = 0;
  int right = 0;
  for (size_t i = 0; i < R; ++i) {
    loss += losses[i];
    right += p.predicted[i] == p.targets[i];
  }
  p.loss = R ? loss / double(R) : 0.0;
  p.accuracy = R ? double(right) / double(R) : 0.0;
}

template <class Real>
void backward(const Model<Real>& m, const Batch& /*batch (its targets are in p)*/, Pass<Real>& p, std::vector<Real>& grads, std::vector<Real>& dx) {
  const int B = p.B, T = p.T, C = m.spec.width, A = m.classes;
  const size_t N = size_t(B) * size_t(T), R = p.rows.size();
  dx.assign(N * size_t(C), Real(0));
  if (!R) return;
  // The read-out: d logits = (softmax - one-hot) / R.
  std::vector<Real> dz(R * size_t(A));
  layers::crossentropy_backward(dz.data(), p.probs.data(), p.targets.data(), int(R), int(R), A);
  std::vector<Real> dfeatures(R * size_t(C), Real(0));
  layers::linear_backward(dfeatures.data(), tensor(m, grads, &TensorOffsets::wo), tensor(m, grads, &TensorOffsets::bo), dz.data(), p.features.data(),
                       tensor(m, &TensorOffsets::wo), int(R), C, A);
  switch (m.spec.layer) {
    case Layer::Rnn:
    case Layer::Gru: {
      std::vector<Real> dhs(size_t(B) * size_t(T + 1) * size_t(C), Real(0));
      for (size_t i = 0; i < R; ++i) {
        const size_t r = size_t(p.rows[i]);
        const size_t state = (r / size_t(T)) * size_t(T + 1) + r % size_t(T) + 1;
        for (int c = 0; c < C; ++c) dhs[state * size_t(C) + size_t(c)] += dfeatures[i * size_t(C) + size_t(c)];
      }
      if (m.spec.layer == Layer::Rnn)
        layers::rnn_backward(dx.data(), tensor(m, grads, &TensorOffsets::wx), tensor(m, grads, &TensorOffsets::wh), tensor(m, grads, &TensorOffsets::b), dhs.data(),
                          p.hs.data(), p.x.data(), tensor(m, &TensorOffsets::wx), tensor(m, &TensorOffsets::wh), B, T, C, C);
      else
        layers::gru_backward(dx.data(), tensor(m, grads, &TensorOffsets::w), tensor(m, grads, &TensorOffsets::u), tensor(m, grads, &TensorOffsets::b), dhs.data(),
                          p.hs.data(), p.gates.data(), p.x.data(), tensor(m, &TensorOffsets::w), tensor(m, &TensorOffsets::u), B, T, C, C);
      break;
    }
    case Layer::Attention: {
      std::vector<Real> dout(N * size_t(C), Real(0));
      for (size_t i = 0; i < R; ++i)
        for (int c = 0; c < C; ++c)
          dout[size_t(p.rows[i]) * size_t(C) + size_t(c)] += dfeatures[i * size_t(C) + size_t(c)];
      if (m.spec.projections == Projections::None) {
        // q = k = v = x: the three roles' gradients sum into dx.
        attention_backward(dx.data(), dx.data(), dx.data(), dout.data(), p.att.data(), p.x.data(), p.x.data(),
                           p.x.data(), B, T, C);
        break;
      }
      const bool tied = m.spec.projections == Projections::Tied;
      std::vector<Real> dq(N * size_t(C), Real(0)), dv(N * size_t(C), Real(0)), dk;
      if (!tied) dk.assign(N * size_t(C), Real(0));
      Real* dkp = tied ? dq.data() : dk.data();  // tied: the query's and the key's gradients sum in one
      attention_backward(dq.data(), dkp, dv.data(), dout.data(), p.att.data(), p.q.data(),
                         tied ? p.q.data() : p.k.data(), p.v.data(), B, T, C);
      layers::linear_backward(dx.data(), tensor(m, grads, tied ? &TensorOffsets::wqk : &TensorOffsets::wq), static_cast<Real*>(nullptr), dq.data(),
                           p.x.data(), tensor(m, tied ? &TensorOffsets::wqk : &TensorOffsets::wq), int(N), C, C);
      if (!tied)
        layers::linear_backward(dx.data(), tensor(m, grads, &TensorOffsets::wk), static_cast<Real*>(nullptr), dk.data(), p.x.data(),
                             tensor(m, &TensorOffsets::wk), int(N), C, C);
      layers::linear_backward(dx.data(), tensor(m, grads, &TensorOffsets::wv), static_cast<Real*>(nullptr), dv.data(), p.x.data(),
                           tensor(m, &TensorOffsets::wv), int(N), C, C);
      break;
    }
    case Layer::Cnn: {
      // Down the stack: each layer's input gradient is the one below's output gradient.
      const size_t layer_size = N * size_t(C), taps = size_t(kConvKernel) * size_t(C) * size_t(C);
      std::vector<Real> dy(layer_size, Real(0)), din;
      for (size_t i = 0; i < R; ++i)
        for (int c = 0; c < C; ++c) dy[size_t(p.rows[i]) * size_t(C) + size_t(c)] += dfeatures[i * size_t(C) + size_t(c)];
      for (size_t l = size_t(m.spec.conv_layers); l-- > 0;) {
        Real* below = dx.data();
        if (l) {
          din.assign(layer_size, Real(0));
          below = din.data();
        }
        conv_backward(below, tensor(m, grads, &TensorOffsets::conv_w) + l * taps,
                      tensor(m, grads, &TensorOffsets::conv_b) + l * size_t(C), dy.data(), p.conv.data() + l * layer_size,
                      l ? p.conv.data() + (l - 1) * layer_size : p.x.data(), tensor(m, &TensorOffsets::conv_w) + l * taps,
                      B, T, C, C, kConvKernel);
        if (l) dy.swap(din);
      }
      break;
    }
  }
}

#define ATTN_WHY_MODELS(Real)                                                                          \
  template Model<Real> make_model<Real>(const ModelSpec&, uint64_t, uint64_t);                         \
  template void forward(const Model<Real>&, const Batch&, Pass<Real>&);                                \
  template void backward(const Model<Real>&, const Batch&, Pass<Real>&, std::vector<Real>&, std::vector<Real>&);
ATTN_WHY_MODELS(float)
ATTN_WHY_MODELS(double)
#undef ATTN_WHY_MODELS

}  // namespace attn::why
