// The experiments; see why_lab.hpp.
#include "why_lab.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <functional>

#include <Eigen/Core>

#include "core/base/detmath.hpp"
#include "why_conv.hpp"

namespace attn::why {
namespace {

using std::size_t;

// The held-out set: its own stream of the seed, so training never draws it.
// For the copy task, kEvalSequences at each reported distance (the mix) or
// at the trained one.
std::vector<Batch> held_out(const ExperimentSettings& s) {
  Rng rng(s.seed, 73);
  std::vector<Batch> out;
  if (s.task == Task::Copy) {
    if (s.distance == 0) {
      for (const int k : kReportDistances) out.push_back(copy_batch(rng, kEvalSequences, k));
    } else {
      out.push_back(copy_batch(rng, kEvalSequences, s.distance));
    }
  } else {
    out.push_back(task_batch(s.task, rng, kEvalSequences));
  }
  return out;
}

double norm(const float* v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += double(v[i]) * double(v[i]);
  return std::sqrt(s);
}

// The scores S = q k^T of every held-out sequence (what the softmax saw): how
// far from symmetric (max |S - S^T| / max |S|) and how often a query's
// strongest visible key is its own position.
void score_symmetry(const Model<float>& m, const Pass<float>& pass, ModelReport& r) {
  const int B = pass.B, T = pass.T, C = m.spec.width;
  const std::vector<float>& q = m.spec.projections == Projections::None ? pass.x : pass.q;
  const std::vector<float>& k = m.spec.projections == Projections::Separate ? pass.k : q;
  double max_score = 0, max_gap = 0;
  long long queries = 0, self = 0;
  std::vector<double> S(size_t(T) * size_t(T));
  auto row = [&](const std::vector<float>& a, int b, int t) { return a.data() + (size_t(b) * size_t(T) + size_t(t)) * size_t(C); };
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t)
      for (int j = 0; j < T; ++j) {
        double dot = 0;
        for (int c = 0; c < C; ++c) dot += double(row(q, b, t)[c]) * double(row(k, b, j)[c]);
        S[size_t(t) * size_t(T) + size_t(j)] = dot;
        max_score = std::max(max_score, std::fabs(dot));
      }
    for (int t = 0; t < T; ++t) {
      for (int j = 0; j < T; ++j)
        max_gap = std::max(max_gap, std::fabs(S[size_t(t) * size_t(T) + size_t(j)] - S[size_t(j) * size_t(T) + size_t(t)]));
      if (t == 0) continue;
      int best = 0;
      for (int j = 1; j <= t; ++j)
        if (S[size_t(t) * size_t(T) + size_t(j)] > S[size_t(t) * size_t(T) + size_t(best)]) best = j;
      ++queries;
      self += best == t;
    }
  }
  r.asymmetry = max_score > 0 ? max_gap / max_score : 0.0;
  r.self_strongest = queries ? double(self) / double(queries) : 0.0;
}

// Where the timed passes leave a result, so that none is optimised away.
volatile float timing_sink = 0;

}  // namespace

std::string check_settings(const ExperimentSettings& s) {
  if (s.task == Task::Copy && s.distance != 0) {
    if (std::string e = check_distance(s.distance); !e.empty()) return e;
  }
  if (s.conv_layers < 1 || s.conv_layers > kMaxConvLayers)
    return "convolution layers " + std::to_string(s.conv_layers) + ": 1.." + std::to_string(kMaxConvLayers);
  if (s.batch < 1 || s.batch > 1024) return "batch " + std::to_string(s.batch) + ": 1..1024";
  if (!(s.learning_rate > 0.0f && s.learning_rate <= 1.0f))
    return "learning rate " + std::to_string(s.learning_rate) + ": a number in (0, 1]";
  return "";
}

std::string model_key(const ModelSpec& spec, bool by_projections) {
  return by_projections && spec.layer == Layer::Attention ? projections_name(spec.projections) : layer_name(spec.layer);
}

std::vector<ModelSpec> recurrence_models() {
  // The convolution last: the others keep the weights (seed * 16 + place) they had without it.
  std::vector<ModelSpec> out;
  for (const Layer layer : {Layer::Rnn, Layer::Gru, Layer::Attention, Layer::Cnn})
    out.push_back(ModelSpec{layer, Projections::Separate, Task::Copy, kWidth});
  return out;
}

std::vector<ModelSpec> qkv_models(Task task) {
  std::vector<ModelSpec> out;
  for (const Projections p : {Projections::None, Projections::Tied, Projections::Separate})
    out.push_back(ModelSpec{Layer::Attention, p, task, kWidth});
  return out;
}

Experiment::Experiment(const ExperimentSettings& settings, const std::vector<ModelSpec>& models)
    : settings_(settings), batches_(settings.seed, 74) {
  for (std::size_t i = 0; i < models.size(); ++i) {
    ModelSpec spec = models[i];
    spec.task = settings.task;
    spec.conv_layers = settings.conv_layers;
    // The inputs from the task's seed (every model reads the same); the
    // weights from the seed and the model's place in the line-up.
    models_.push_back(make_model<float>(spec, settings.seed, settings.seed * 16 + i));
  }
  adam_.assign(models_.size(), make_adam());
  curves_.resize(models_.size());
}

void Experiment::step() {
  const Batch batch = task_batch(settings_.task, batches_, settings_.batch, settings_.distance);
  ++steps_;
  Pass<float> pass;
  std::vector<float> grads, dx;
  for (std::size_t i = 0; i < models_.size(); ++i) {
    Model<float>& m = models_[i];
    forward(m, batch, pass);
    grads.assign(m.params.size(), 0.0f);
    backward(m, batch, pass, grads, dx);
    adam_[i].step(m.params, grads, settings_.learning_rate);
    curves_[i].push_back(CurvePoint{steps_, pass.loss, pass.accuracy});
  }
}

std::vector<ModelReport> Experiment::report() const {
  const std::vector<Batch> sets = held_out(settings_);
  const bool by_projections = settings_.task != Task::Copy;
  std::vector<ModelReport> out;
  Pass<float> pass;
  std::vector<float> grads, dx;
  // The gradient profile and the attention come from one set: the trained
  // distance's, or in the mix the distance 32's.
  const bool mix = settings_.task == Task::Copy && settings_.distance == 0;
  std::size_t profiled = sets.size() - 1;
  for (std::size_t s = 0; mix && s < sets.size(); ++s)
    if (kReportDistances[s] == 32) profiled = s;
  for (const Model<float>& m : models_) {
    ModelReport r;
    r.key = model_key(m.spec, by_projections);
    const int C = m.spec.width;
    double loss = 0, right = 0;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const Batch& batch = sets[s];
      forward(m, batch, pass);
      loss += pass.loss;
      right += pass.accuracy;
      if (mix) r.by_distance.push_back(pass.accuracy);
      if (s != profiled) continue;
      grads.assign(m.params.size(), 0.0f);
      backward(m, batch, pass, grads, dx);
      r.gradient.assign(size_t(batch.T), 0.0);
      for (int b = 0; b < batch.B; ++b)
        for (int t = 0; t < batch.T; ++t)
          r.gradient[size_t(t)] += norm(dx.data() + (size_t(b) * size_t(batch.T) + size_t(t)) * size_t(C), C) / batch.B;
      if (m.spec.layer == Layer::Attention) {
        r.attention.assign(pass.att.begin(), pass.att.begin() + std::ptrdiff_t(batch.T) * batch.T);
        score_symmetry(m, pass, r);
      }
    }
    r.loss = loss / double(sets.size());
    r.accuracy = right / double(sets.size());
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<ForwardTiming> time_forward(const std::vector<int>& lengths, double seconds_each) {
  using Mat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Clock = std::chrono::steady_clock;
  const int C = kWidth;
  Rng rng(5, 75);
  auto random = [&](int rows, int cols) {
    Mat m(rows, cols);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) m(i, j) = float(2.0 * rng.uniform_double() - 1.0) / std::sqrt(float(C));
    return m;
  };
  const Mat wx = random(C, 3 * C), wh = random(C, 3 * C), wq = random(C, C), wk = random(C, C), wv = random(C, C);
  const Mat taps = random(kConvKernel * C, C);  // W_0; W_1; W_2 stacked
  std::vector<ForwardTiming> out;
  float sink = 0;  // every pass's result feeds it: no pass is optimised away
  for (const int n : lengths) {
    const Mat x = random(n, C);
    // Each layer at its best on one thread: every product that does not wait
    // on an earlier step is one matrix product.
    auto rnn = [&](int gates) {
      const Mat xw = x * wx.leftCols(gates * C);  // the inputs' part: all positions at once
      Eigen::Matrix<float, 1, Eigen::Dynamic> h = Eigen::Matrix<float, 1, Eigen::Dynamic>::Zero(C);
      for (int t = 0; t < n; ++t) {  // then n steps, each waiting on the one before
        const Eigen::Matrix<float, 1, Eigen::Dynamic> a = xw.row(t) + h * wh.leftCols(gates * C);
        if (gates == 1) {
          h = a.unaryExpr([](float v) { return std::tanh(v); });
        } else {  // the GRU's gates, simplified to their cost: z and n mix h
          const auto z = a.leftCols(C).unaryExpr([](float v) { return 1.0f / (1.0f + std::exp(-v)); });
          const auto cand = a.rightCols(C).unaryExpr([](float v) { return std::tanh(v); });
          h = (1.0f - z.array()).matrix().cwiseProduct(cand) + z.cwiseProduct(h);
        }
      }
      sink += h(0);
    };
    auto attention = [&]() {
      const Mat q = x * wq, k = x * wk, v = x * wv;
      Mat s = (q * k.transpose()) / std::sqrt(float(C));
      for (int t = 0; t < n; ++t) {  // the causal softmax of each row, vectorised by Eigen
        auto visible = s.row(t).leftCols(t + 1).array();
        visible = (visible - visible.maxCoeff()).exp();
        visible /= visible.sum();
        s.row(t).rightCols(n - t - 1).setZero();
      }
      const Mat o = s * v;
      sink += o(n - 1, 0);
    };
    // One convolution layer: every position's window [x_t, x_{t-1}, x_{t-2}]
    // times the stacked taps, one product for all positions at once.
    auto convolution = [&]() {
      Mat windows = Mat::Zero(n, kConvKernel * C);
      for (int j = 0; j < kConvKernel; ++j)
        windows.block(j, j * C, std::max(n - j, 0), C) = x.topRows(std::max(n - j, 0));
      const Mat y = (windows * taps).cwiseMax(0.0f);
      sink += y(n - 1, 0);
    };
    const double rnn_flops = double(n) * (2.0 * C * C + 2.0 * C * C);
    const double attention_flops = 3.0 * 2.0 * n * C * C + 2.0 * 2.0 * double(n) * n * C;  // the products as computed
    const double convolution_flops = 2.0 * kConvKernel * double(n) * C * C;
    const struct {
      const char* name;
      std::function<void()> run;
      double flops;
      int dependent;
    } layers[] = {{"rnn", [&] { rnn(1); }, rnn_flops, n},
                  {"gru", [&] { rnn(3); }, 3 * rnn_flops, n},
                  {"attention", attention, attention_flops, 1},
                  {"cnn", convolution, convolution_flops, 1}};
    const auto since = [](Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); };
    for (const auto& layer : layers) {
      // Each sample times a group of passes lasting at least kSampleMs: a
      // browser's clock ticks in 0.1 ms (Chromium) to 1 ms (Firefox,
      // WebKit), longer than one pass at small n. A group that ran shorter
      // (the first, or the code got faster: a browser compiles wasm again,
      // optimised, once it runs hot) is not a sample: the group doubles.
      constexpr double kSampleMs = 5.0, kWarmUpMs = 20.0;
      for (const auto warm = Clock::now(); since(warm) < kWarmUpMs;) layer.run();  // let the browser optimise it first
      int group = 1;
      std::vector<double> ms;
      const auto start = Clock::now();
      do {
        const auto t0 = Clock::now();
        for (int r = 0; r < group; ++r) layer.run();
        const double elapsed = since(t0);
        if (elapsed < kSampleMs && group < (1 << 20)) group *= 2;
        else ms.push_back(elapsed / group);
      } while (ms.size() < 3 || (since(start) < 1000.0 * seconds_each && ms.size() < 1000));
      std::sort(ms.begin(), ms.end());
      out.push_back(ForwardTiming{layer.name, n, ms[ms.size() / 2], layer.flops, layer.dependent});
    }
  }
  timing_sink = sink;
  return out;
}

}  // namespace attn::why
