// The "why attention" experiments as the view and attention_cli run them:
// several models trained side by side, step by step, on the same batches
// (one batch drawn per step, every model sees it), then measured on a fixed
// held-out set:
//   - accuracy (at the trained distance, and for the copy task at each of
//     1, 2, 4, ..., 64);
//   - the gradient reaching each input position, ‖∂L/∂x_t‖ (mean over the
//     held-out sequences): the recurrent layers' fades with distance;
//   - the attention weights of the first held-out sequence;
//   - for tied projections, the symmetry of the score matrix, and how often a
//     position's strongest score is its own.
// Deterministic for a seed: the page and attention_cli print the same numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "why_models.hpp"

namespace attn::why {

inline constexpr int kReportDistances[] = {1, 2, 4, 8, 16, 32, 64};
inline constexpr int kEvalSequences = 128;

struct ExperimentSettings {
  Task task = Task::Copy;
  int distance = 32;     // copy: 1..64, or 0 for a mix of distances
  int conv_layers = kDefaultConvLayers;  // the recurrence experiment's convolution: 1..kMaxConvLayers
  int batch = 32;
  float learning_rate = 0.01f;
  uint64_t seed = 1;
};
std::string check_settings(const ExperimentSettings& settings);  // "" or what is wrong

struct ModelReport {
  std::string key;                 // "rnn", "gru", "attention", "cnn"; "none", "tied", "separate"
  double loss = 0, accuracy = 0;   // held out, at the trained distance (or the mix)
  std::vector<double> by_distance; // copy: accuracy at each kReportDistances
  std::vector<double> gradient;    // ‖∂L/∂x_t‖ for t = 0..T-1
  std::vector<double> attention;   // T x T weights of held-out sequence 0 (attention only)
  double asymmetry = -1;           // max |S - S^T| / max |S| over the held-out scores (attention only)
  double self_strongest = -1;      // share of queries t >= 1 whose strongest score is their own key
};

struct CurvePoint {
  int step = 0;
  double loss = 0, accuracy = 0;  // the training batch's
};

class Experiment {
 public:
  Experiment(const ExperimentSettings& settings, const std::vector<ModelSpec>& models);
  // One Adam step of every model on one new batch.
  void step();
  int steps() const { return steps_; }
  const ExperimentSettings& settings() const { return settings_; }
  std::size_t size() const { return models_.size(); }
  const Model<float>& model(std::size_t i) const { return models_[i]; }
  const std::vector<CurvePoint>& curve(std::size_t i) const { return curves_[i]; }
  // Measures every model on the held-out set (the same every call).
  std::vector<ModelReport> report() const;

 private:
  ExperimentSettings settings_;
  std::vector<Model<float>> models_;
  std::vector<optim::Adam<double>> adam_;
  std::vector<std::vector<CurvePoint>> curves_;
  Rng batches_;
  int steps_ = 0;
};

// The key a model is reported under: its layer, or for attention in the
// Q/K/V experiment its projections.
std::string model_key(const ModelSpec& spec, bool by_projections);

// The recurrence experiment's models (a tanh RNN, a GRU, attention with
// separate projections, a stack of convolutions) and the Q/K/V experiment's
// (none, tied, separate). An Experiment gives them its settings' task and
// number of convolution layers.
std::vector<ModelSpec> recurrence_models();
std::vector<ModelSpec> qkv_models(Task task);

// Parallel against sequential: one forward pass of a layer over n positions
// (B = 1, width kWidth), timed on this machine.
struct ForwardTiming {
  std::string layer;     // "rnn", "gru", "attention", "cnn" (one layer of kernel 3)
  int n = 0;
  double ms = 0;         // the median of the repeats
  double flops = 0;      // multiply-adds x 2 of the pass
  int dependent_steps = 0;  // steps that must wait for the one before: n for a recurrence, 1 for attention or a convolution
  double gflops() const { return flops / ms / 1e6; }
};
std::vector<ForwardTiming> time_forward(const std::vector<int>& lengths, double seconds_each);

}  // namespace attn::why
