// The scaling lab's fixed tables (panels, d_k grid, sample counts), its two
// trainers and what it reports (state(), the numbers as displayed). When to
// recompute what is schedule.cpp's job; drawing is the panels' (figure42.cpp,
// saturation.cpp, training.cpp, controls.cpp, view.cpp).
#include "ui/scaling/lab.hpp"

#include <cstdio>
#include <cstdlib>

#include "api/train_json.hpp"
#include "ui/scaling/scaling.hpp"

namespace attn::ui {
namespace {

TrainConfig train_config(const ScalingLab& lab, bool scaled) {
  TrainConfig config;
  config.d_k = lab.train_d_k;
  config.learning_rate = lab.learning_rate;
  config.seed = lab.train_seed;
  config.scaled = scaled;
  return config;
}

}  // namespace

const std::vector<int>& scaling_grid() {
  static const std::vector<int> grid = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  return grid;
}
const std::vector<int>& chapter_dims() {
  static const std::vector<int> dims = Figure42Config{}.dims;
  return dims;
}
const std::vector<int>& scaling_sample_counts() {
  static const std::vector<int> counts = {500, 1000, 2000, 4000, 8000};
  return counts;
}
const std::vector<int>& training_dims() {
  static const std::vector<int> dims = {8, 16, 32, 64, 128, 256};
  return dims;
}

bool ensure_trainers(ScalingLab& lab) {
  if (lab.scaled_model && lab.unscaled_model) return true;
  lab.train_error = check_train_config(train_config(lab, true));
  if (!lab.train_error.empty()) {
    lab.running = false;
    return false;
  }
  lab.scaled_model = std::make_unique<Trainer>(train_config(lab, true));
  lab.unscaled_model = std::make_unique<Trainer>(train_config(lab, false));
  lab.example_steps = -1;
  lab.eval_steps = -1;
  return true;
}

int lab_trained_steps(const ScalingLab& lab) {
  return lab.scaled_model ? int(lab.scaled_model->history().size()) : 0;
}

void training_reset(ScalingLab& lab) {
  lab.running = false;
  lab.stopped = ScalingLab::Stopped::No;
  lab.scaled_model.reset();
  lab.unscaled_model.reset();
  lab.scaled_example = Matrix();
  lab.unscaled_example = Matrix();
  lab.example_steps = lab.eval_steps = -1;
  lab.scaled_eval = lab.unscaled_eval = -1;
  ensure_trainers(lab);
}

void training_step(ScalingLab& lab) {
  if (!ensure_trainers(lab)) return;
  // Both models take the same steps on the same seeded batches.
  lab.scaled_model->step();
  lab.unscaled_model->step();
}

bool lab_has_trained_model(const ScalingLab& lab) {
  return lab.scaled_model && !lab.scaled_model->history().empty();
}

std::optional<TrainedWeights> lab_trained_weights(const ScalingLab& lab) {
  if (!lab_has_trained_model(lab)) return std::nullopt;
  return TrainedWeights{lab.scaled_model->config(), lab_trained_steps(lab), lab.scaled_model->projections()};
}

TrainerSummary trainer_summary(const Trainer* trainer) {
  TrainerSummary s;
  if (!trainer || trainer->history().empty()) return s;
  const auto& h = trainer->history();
  s.steps = int(h.size());
  s.first_loss = h.front().loss;
  s.loss = h.back().loss;
  s.accuracy = h.back().accuracy;
  s.grad_norm = h.back().grad_norm;
  return s;
}

ScalingNumbersText scaling_numbers_text(const Figure42Dim& dim) {
  auto format = [](float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", double(value));
    return std::string(text);
  };
  return {format(dim.raw_std), format(dim.scaled_std), format(dim.raw_peak), format(dim.scaled_peak)};
}

nlohmann::json scaling_state_json(const ScalingLab& lab) {
  using nlohmann::json;
  json out = {{"d_k", lab.d_k}, {"samples", lab.samples}, {"n_keys", lab.n_keys},
              {"panel", scaling_panel_id(lab.panel)}};
  // The numbers as the reader sees them: parsed back from the displayed text.
  if (lab.current && lab.current_d_k == lab.d_k && lab.current_samples == lab.samples) {
    const ScalingNumbersText text = scaling_numbers_text(*lab.current);
    out["raw_std"] = std::strtod(text.raw_std.c_str(), nullptr);
    out["scaled_std"] = std::strtod(text.scaled_std.c_str(), nullptr);
    out["raw_peak"] = std::strtod(text.raw_peak.c_str(), nullptr);
    out["scaled_peak"] = std::strtod(text.scaled_peak.c_str(), nullptr);
  } else {
    out["raw_std"] = out["scaled_std"] = out["raw_peak"] = out["scaled_peak"] = nullptr;
  }
  out["curve_points"] = lab.fig42_curve.size();
  // Each model in the schema `attention_cli train --json` prints (api/train_json.hpp).
  // Through its text: the float32 numbers print as the shortest text that reads
  // back exactly (0.003), where converting the tree would widen them to doubles
  // (0.003000000026077032).
  auto model = [](const Trainer* trainer, float eval) {
    return trainer ? json::parse(api::dump(api::trained_model_json(*trainer, eval, false))) : json(nullptr);
  };
  const char* stopped = lab.stopped == ScalingLab::Stopped::Converged ? "converged"
                        : lab.stopped == ScalingLab::Stopped::Budget  ? "budget"
                                                                      : nullptr;
  out["training"] = {{"running", lab.running},
                     {"stopped", stopped ? json(stopped) : json(nullptr)},
                     {"steps", lab_trained_steps(lab)},
                     {"error", lab.train_error},
                     {"steps_last_frame", lab.steps_last_frame},
                     {"train_ms_last_frame", lab.train_ms_last_frame},
                     {"scaled", model(lab.scaled_model.get(), lab.scaled_eval)},
                     {"unscaled", model(lab.unscaled_model.get(), lab.unscaled_eval)}};
  return out;
}

}  // namespace attn::ui
