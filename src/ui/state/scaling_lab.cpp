// The scaling lab's fixed tables (d_k grid, sample counts) and its two
// trainers. What it reports (state(), the numbers as displayed) is
// scaling/reports.cpp; when to recompute what is scaling/schedule.cpp's job;
// drawing is the panels' (figure42.cpp, saturation.cpp, training.cpp,
// controls.cpp, view.cpp).
#include "ui/state/scaling_lab.hpp"

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

const std::vector<TrainingAction>& training_actions() {
  static const std::vector<TrainingAction> table = {
      {"train_start", "scaling.train.start", [](const ScalingLab& lab) { return !lab.running; },
       [](ScalingLab& lab) { lab.running = true; }},
      {"train_pause", "scaling.train.pause", [](const ScalingLab& lab) { return lab.running; },
       [](ScalingLab& lab) { lab.running = false; }},
      {"train_step", "scaling.train.step", nullptr,
       [](ScalingLab& lab) {
         lab.running = false;
         training_step(lab);
       }},
      {"train_reset", "scaling.train.reset", nullptr, training_reset},
  };
  return table;
}

bool lab_has_trained_model(const ScalingLab& lab) {
  return lab.scaled_model && !lab.scaled_model->history().empty();
}

std::optional<TrainedWeights> lab_trained_weights(const ScalingLab& lab) {
  if (!lab_has_trained_model(lab)) return std::nullopt;
  return TrainedWeights{lab.scaled_model->config(), lab_trained_steps(lab), lab.scaled_model->projections()};
}

}  // namespace attn::ui
