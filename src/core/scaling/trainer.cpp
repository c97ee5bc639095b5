#include "trainer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace attn {
namespace {

constexpr int kKeys = 8;     // A..H
constexpr int kValues = 8;   // 0..7
constexpr int kPairs = 6;    // pairs per sequence (distinct keys)
constexpr int kPairTokens = kKeys * kValues;  // token k*kValues + v = "k:v"
constexpr int kVocab = kPairTokens + kKeys;   // then the query tokens "k?"

// Fixed streams so each use of the seed draws independent numbers.
constexpr uint64_t kInitStream = 11, kBatchStream = 12, kEvalStream = 13, kExampleStream = 14;
constexpr uint64_t kEvalSeed = 20240401, kExampleSeed = 7;

int below(Rng& rng, int n) { return static_cast<int>(rng.next_u32() % static_cast<uint32_t>(n)); }

// 100 as "100", 0.5 as "0.5": a limit as a reader would write it (snprintf,
// not a stringstream, which would pull iostreams into the wasm build).
std::string number_text(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

}  // namespace

const char* train_task_name(TrainTask task) {
  switch (task) {
    case TrainTask::Retrieve: return "retrieve";
  }
  return "retrieve";
}

bool train_task_from_name(const std::string& name, TrainTask& task) {
  if (name == "retrieve") {
    task = TrainTask::Retrieve;
    return true;
  }
  return false;
}

std::string check_train_config(const TrainConfig& c) {
  using L = TrainLimits;
  auto range = [](int lo, int hi) { return std::to_string(lo) + ".." + std::to_string(hi); };
  if (c.d_k < L::kMinDk || c.d_k > L::kMaxDk) return "dk: must be " + range(L::kMinDk, L::kMaxDk);
  if (c.heads < 1 || c.heads > L::kMaxHeads) return "heads: must be " + range(1, L::kMaxHeads);
  if (c.d_k % c.heads != 0) return "heads: must divide dk";
  // Negated comparisons: every comparison with NaN is false, so NaN is rejected.
  if (!(c.learning_rate > 0.0f) || !(c.learning_rate <= L::kMaxLearningRate))
    return "lr: must be a finite number in (0, " + number_text(L::kMaxLearningRate) + "]";
  if (c.batch < 1 || c.batch > L::kMaxBatch) return "batch: must be " + range(1, L::kMaxBatch);
  return {};
}

int task_vocab(TrainTask) { return kVocab; }
int task_outputs(TrainTask) { return kValues; }
int task_seq_len(TrainTask) { return kPairs + 1; }

std::string task_token_name(TrainTask, int token) {
  if (token < 0 || token >= kVocab) return "?";
  if (token < kPairTokens)
    return std::string(1, static_cast<char>('A' + token / kValues)) + ":" +
           std::string(1, static_cast<char>('0' + token % kValues));
  return std::string(1, static_cast<char>('A' + (token - kPairTokens))) + "?";
}

std::string task_output_name(TrainTask, int output) {
  return std::string(1, static_cast<char>('0' + output));
}

train::Example sample_example(TrainTask, Rng& rng) {
  // kPairs distinct keys (partial Fisher-Yates), a value for each, then the
  // query of one of them.
  int keys[kKeys];
  for (int k = 0; k < kKeys; ++k) keys[k] = k;
  for (int i = 0; i < kPairs; ++i) {
    const int j = i + below(rng, kKeys - i);
    const int t = keys[i];
    keys[i] = keys[j];
    keys[j] = t;
  }
  train::Example ex;
  int values[kPairs];
  for (int i = 0; i < kPairs; ++i) {
    values[i] = below(rng, kValues);
    ex.tokens.push_back(keys[i] * kValues + values[i]);
  }
  const int asked = below(rng, kPairs);
  ex.tokens.push_back(kPairTokens + keys[asked]);
  ex.target = values[asked];
  return ex;
}

Trainer::Trainer(const TrainConfig& config)
    : config_(config), batch_rng_(config.seed, kBatchStream) {
  const int d = config.d_k;
  // Embedding rows: keys A..H, values 0..7, the query marker.
  model_.resize(task_vocab(config.task), d, config.heads, task_outputs(config.task),
                kKeys + kValues + 1);
  model_.rows_per_token = 2;
  model_.token_rows.clear();
  for (int token = 0; token < kVocab; ++token) {
    if (token < kPairTokens) {
      model_.token_rows.push_back(token / kValues);            // key
      model_.token_rows.push_back(kKeys + token % kValues);    // value
    } else {
      model_.token_rows.push_back(token - kPairTokens);        // key
      model_.token_rows.push_back(kKeys + kValues);            // marker
    }
  }
  grads_ = model_;
  adam_m_ = grads_;
  adam_v_ = grads_;
  // Embedding rows ~ N(0, 1/2) (a token sums two: variance 1), projections
  // ~ N(0, 1/d): q and k entries then have variance ~1, so raw scores q.k
  // have variance ~d_head, as in Figure 4.2.
  Rng init(config.seed, kInitStream);
  const float w_std = static_cast<float>(1.0 / std::sqrt(static_cast<double>(d)));
  const float e_std = static_cast<float>(std::sqrt(0.5));
  for (float& v : model_.E) v = e_std * init.normal();
  for (std::vector<float>* w : {&model_.W_q, &model_.W_k, &model_.W_v, &model_.W_out})
    for (float& v : *w) v = w_std * init.normal();
}

TrainStepStats Trainer::step() {
  batch_.clear();
  for (int b = 0; b < config_.batch; ++b) batch_.push_back(sample_example(config_.task, batch_rng_));
  grads_.zero();
  const train::BatchResult r = train::model_forward_backward(model_, batch_, config_.scaled, &grads_);
  // Gradient norm (in double, fixed order), then the Adam update
  // (core/optim/adam.hpp: in float, unclipped), tensor by tensor.
  double sum_sq = 0;
  for (const std::vector<float>* g : grads_.params())
    for (float v : *g) sum_sq += static_cast<double>(v) * static_cast<double>(v);
  const optim::AdamSettings adam;
  const optim::AdamStep step = adam_clock_.next(adam);
  const auto params = model_.params();
  const auto grads = grads_.params();
  const auto ms = adam_m_.params();
  const auto vs = adam_v_.params();
  for (std::size_t p = 0; p < params.size(); ++p)
    optim::adam_update(adam, step, config_.learning_rate, params[p]->data(), grads[p]->data(), ms[p]->data(),
                       vs[p]->data(), params[p]->size());
  TrainStepStats s;
  s.step = static_cast<int>(history_.size()) + 1;
  s.loss = static_cast<float>(r.loss);
  s.accuracy = static_cast<float>(r.correct) / static_cast<float>(config_.batch);
  s.grad_norm = static_cast<float>(std::sqrt(sum_sq));
  history_.push_back(s);
  return s;
}

train::BatchResult Trainer::evaluate_batch(int sequences) const {
  Rng rng(kEvalSeed, kEvalStream);
  std::vector<train::Example> set;
  set.reserve(std::size_t(std::max(sequences, 0)));
  for (int i = 0; i < sequences; ++i) set.push_back(sample_example(config_.task, rng));
  return train::model_forward_backward<float>(model_, set, config_.scaled, nullptr);
}

float Trainer::evaluate(int sequences) const {
  if (sequences < 1) return 0.0f;
  return static_cast<float>(evaluate_batch(sequences).correct) / static_cast<float>(sequences);
}

static train::Example the_example(TrainTask task) {
  Rng rng(kExampleSeed, kExampleStream);
  return sample_example(task, rng);
}

Matrix Trainer::example_weights(int head) const {
  const train::Example ex = the_example(config_.task);
  const int n = static_cast<int>(ex.tokens.size());
  Matrix m = Matrix::Zero(n, n);
  if (head < 0 || head >= config_.heads) return m;
  const std::vector<float> w = train::model_attention_map(model_, ex, config_.scaled, head);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m(i, j) = w[std::size_t(i) * std::size_t(n) + std::size_t(j)];
  return m;
}

std::vector<std::string> Trainer::example_tokens() const {
  const train::Example ex = the_example(config_.task);
  std::vector<std::string> names;
  for (int t : ex.tokens) names.push_back(task_token_name(config_.task, t));
  return names;
}

MultiHeadWeights Trainer::projections() const {
  const int d = model_.d;
  MultiHeadWeights w;
  w.heads = config_.heads;
  w.W_q = Eigen::Map<const Matrix>(model_.W_q.data(), d, d);
  w.W_k = Eigen::Map<const Matrix>(model_.W_k.data(), d, d);
  w.W_v = Eigen::Map<const Matrix>(model_.W_v.data(), d, d);
  w.W_o = Matrix::Identity(d, d);
  return w;
}

bool training_converged(const std::vector<TrainStepStats>& history, int window, float accuracy) {
  if (window < 1 || history.size() < std::size_t(window)) return false;
  double sum = 0;
  for (auto it = history.end() - window; it != history.end(); ++it) sum += it->accuracy;
  return sum / window >= accuracy;
}

}  // namespace attn
