// A tiny attention model trained with the core's own backward pass, to show
// what the sqrt(d_k) scaling does to learning.
//
// Model (one layer):  tokens -> embedding E (vocab x d_k)
//                     -> one attention layer (heads, W_q, W_k, W_v; scores
//                        scaled by 1/sqrt(d_k) or not at all)
//                     -> the last position's output -> linear read-out W_out
//                        (d_k x outputs) -> softmax cross-entropy
// Task "retrieve": a sequence of key/value pairs then a query key; the target
// is the value paired with that key (attention must learn to look it up).
//   keys A..H (8), values 0..7 (8). Each pair is ONE token "C:5" (64 pair
//   tokens), the query is a token "C?" (8 query tokens): vocab 72, outputs 8.
//   A sequence is 6 pairs with distinct keys, then the query of one of them:
//     "C:5 A:0 H:7 B:2 F:5 D:1 F?"  -> target 5        (seq_len 7)
//   Why pair tokens and not "C 5 A 0 ... F": with ONE attention layer the
//   position holding a value cannot know which key precedes it (that needs a
//   second layer, an induction head); a pair token carries both, so the
//   query can match on the key part and read out the value part.
//
// Determinism: the forward and backward passes are plain loops in a fixed
// order with the project's own exp/log (not libm, which differs between glibc
// and Emscripten's musl), so a seed gives bit-identical curves natively and
// in the browser.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/multihead.hpp"
#include "core/base/rng.hpp"
#include "core/optim/adam.hpp"
#include "tiny_model.hpp"
#include "core/types.hpp"

namespace attn {

enum class TrainTask { Retrieve };
const char* train_task_name(TrainTask task);
bool train_task_from_name(const std::string& name, TrainTask& task);

// The ranges a training run accepts. check_train_config enforces the ones on
// TrainConfig's fields, and the CLI's flags take the same constants, so a flag
// never accepts what the trainer then rejects (or the other way round).
struct TrainLimits {
  static constexpr int kMinDk = 1, kMaxDk = 1024;  // d_k 1024: 4 MB per projection
  static constexpr int kMaxHeads = 64;             // at least 1, and dividing d_k
  static constexpr int kMaxBatch = 4096;           // at least 1
  // Adam moves every parameter by about lr a step, so rates near this bound
  // only diverge; it rejects absurd input, not bad choices.
  static constexpr float kMaxLearningRate = 100.0f;  // > 0 and finite
  // Steps are not part of TrainConfig (a Trainer steps on demand); callers
  // that run a fixed count bound it here: 100000 steps take about a minute
  // at d_k 32 natively, and a step's cost grows with d_k^2.
  static constexpr long long kMaxSteps = 100000;     // at least 1
  // Seeds travel through JSON (configs, results, the browser's state), whose
  // numbers are doubles: 2^53 - 1 is the largest integer every reader keeps exact.
  static constexpr uint64_t kMaxSeed = (uint64_t{1} << 53) - 1;
};

struct TrainConfig {
  TrainTask task = TrainTask::Retrieve;
  int d_k = 32;              // model width (= d_model; one head unless heads > 1)
  int heads = 1;
  bool scaled = true;        // true: scores / sqrt(d_head); false: raw scores
  float learning_rate = 0.003f;  // Adam's step size
  int batch = 32;
  uint64_t seed = 1;
};
// Empty when the config can train, otherwise "<field>: <why>" (TrainLimits):
//   d_k 1..1024, heads 1..64 dividing d_k, learning_rate finite in (0, 100],
//   batch 1..4096. The seed is not checked: every uint64 trains.
std::string check_train_config(const TrainConfig& config);

// The task's data.
int task_vocab(TrainTask task);    // input tokens
int task_outputs(TrainTask task);  // classes of the read-out
int task_seq_len(TrainTask task);
std::string task_token_name(TrainTask task, int token);
std::string task_output_name(TrainTask task, int output);
train::Example sample_example(TrainTask task, Rng& rng);

struct TrainStepStats {
  int step = 0;
  float loss = 0;        // mean cross-entropy over the batch
  float accuracy = 0;    // fraction of the batch predicted right
  float grad_norm = 0;   // L2 norm of the gradient over all parameters
};

// Whether a run has learned its task: over its last `window` steps the mean
// batch accuracy is at least `accuracy`. The scaling lab stops training when
// both models have (a plateau is not enough: the unscaled model often sits
// on one for a while before it learns, and that delay is the lesson).
bool training_converged(const std::vector<TrainStepStats>& history, int window = 100, float accuracy = 0.99f);

class Trainer {
 public:
  // Precondition: check_train_config(config) is empty.
  explicit Trainer(const TrainConfig& config);
  const TrainConfig& config() const { return config_; }

  // One Adam step (beta1 0.9, beta2 0.999, eps 1e-8) on a fresh batch of
  // `batch` sequences. Adam, not plain SGD: SGD learns this task at d_k 32
  // (lr 0.3: 100 % by step 30) but its usable learning rate shrinks with the
  // width (at d_k 256, lr 0.3 stalls even scaled, and the unscaled run goes
  // NaN), so no single lr would serve the lab's whole d_k range. Adam at
  // 0.003 trains the scaled model at every d_k tried (32..256), which makes
  // "same learning rate, scaled vs not" a fair comparison.
  TrainStepStats step();
  // Loss and accuracy of the current parameters on a fixed held-out set.
  train::BatchResult evaluate_batch(int sequences = 256) const;
  // The parameters (float, row-major; see tiny_model.hpp).
  const train::TinyModel<float>& model() const { return model_; }
  const std::vector<TrainStepStats>& history() const { return history_; }
  // Accuracy on a fixed held-out set of sequences.
  float evaluate(int sequences = 256) const;
  // The attention weights (seq_len x seq_len) of head h on one fixed example,
  // for the lab's heatmaps; and that example's tokens.
  Matrix example_weights(int head = 0) const;
  std::vector<std::string> example_tokens() const;
  // The learned projections, for the explorer's "trained" projection mode
  // (d_model = d_k; W_o = identity).
  MultiHeadWeights projections() const;

 private:
  TrainConfig config_;
  std::vector<TrainStepStats> history_;
  train::TinyModel<float> model_;
  train::TinyModel<float> grads_;
  train::TinyModel<float> adam_m_, adam_v_;  // Adam's moment estimates
  optim::AdamClock adam_clock_;
  Rng batch_rng_;
  std::vector<train::Example> batch_;
};

}  // namespace attn
