// The scaling lab's state: why attention divides scores by sqrt(d_k).
//
// One struct (held by AppState) with what the reader chose, the core's
// results cached per choice, and the two trainers. Nothing here is computed
// per frame: Figure 4.2 and the saturation curves are computed once per d_k
// (and cached for the fixed grid of d_k values), the training runs a few
// steps per frame within a time budget (schedule.cpp: scaling_update,
// scaling_train). lab.cpp holds the tables, the trainers and the reports.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/chapter/experiments.hpp"
#include "core/scaling/scaling.hpp"
#include "core/scaling/trainer.hpp"

namespace attn::ui {

// The lab's sub-views (tabs inside the "Scaling lab" tab).
enum class ScalingPanel { Figure42, Saturation, Training };
// The panels' ids (scaling/view.cpp holds the panels table).
const char* scaling_panel_id(ScalingPanel panel);  // "fig42", "saturation", "training"
bool scaling_panel_from_id(const std::string& id, ScalingPanel* panel);
std::string scaling_panel_ids();  // "fig42|saturation|training", for messages
const char* scaling_panel_label_key(ScalingPanel panel);  // tr() key of its tab label

// The lab's controls: d_k over the core's whole range; the keys of the
// single row a range that stays readable as bars.
struct ScalingLimits {
  static constexpr int kMinDk = SaturationLimits::kMinDk, kMaxDk = SaturationLimits::kMaxDk;
  static constexpr int kMinKeys = 2, kMaxKeys = 256;
};

// The d_k values the curves are measured at (1, 2, 4, ..., 1024), the chapter's
// four dims among them; the current d_k is added to each curve as one more point.
const std::vector<int>& scaling_grid();
const std::vector<int>& chapter_dims();  // {8, 32, 128, 512}
// The sample counts offered (the chapter uses 4000).
const std::vector<int>& scaling_sample_counts();
// The training widths offered (model width = d_k, one head).
const std::vector<int>& training_dims();

// One point of the Figure 4.2 curves (std and softmax peak at one d_k).
struct Figure42Point {
  float raw_std = 0, scaled_std = 0, raw_peak = 0, scaled_peak = 0;
};

// The statistics for the current d_k exactly as displayed (state() parses them).
struct ScalingNumbersText {
  std::string raw_std, scaled_std, raw_peak, scaled_peak;
};

// One model's last step, shown as text and reported by state().
struct TrainerSummary {
  int steps = 0;
  float first_loss = 0, loss = 0, accuracy = 0, grad_norm = 0;
};

struct ScalingLab {
  // ---- what the reader chose ---------------------------------------------------
  int d_k = 64;                  // the scores' dimension (log slider 1-1024)
  int samples = 4000;            // Figure 4.2 draws per d_k (the chapter's count)
  int n_keys = 16;               // keys in the single attention row
  uint64_t row_seed = 1;         // "new sample" draws another row
  ScalingPanel panel = ScalingPanel::Figure42;
  int select_panel_frames = 0;   // > 0: the sub-tab bar follows `panel` (URL, --panel)
  bool dk_dragging = false;      // the d_k slider is held: slow recomputes are spaced out
  int train_d_k = TrainConfig{}.d_k;                // the trained models' width
  float learning_rate = TrainConfig{}.learning_rate;  // the core's default (Adam)
  uint64_t train_seed = TrainConfig{}.seed;

  // ---- Figure 4.2 at the current d_k and along the grid -------------------------
  std::optional<Figure42Dim> current;   // full samples + histograms at d_k
  int current_d_k = -1, current_samples = -1;
  double figure42_cost_ms = 0, figure42_done_ms = 0;  // last recompute's duration and end (AppState::clock)
  std::map<int, Figure42Point> fig42_curve;  // d_k -> point, for `curve_samples`
  int curve_samples = -1;

  // ---- saturation (entropy, Jacobian norm) and the single row --------------------
  std::map<int, Saturation> saturation_curve;  // d_k -> means, for `saturation_keys`
  int saturation_keys = -1;
  Saturation current_saturation;
  int saturation_d_k = -1;
  double saturation_cost_ms = 0, saturation_done_ms = 0;
  std::optional<AttentionRow> row;
  int row_d_k = -1, row_keys = -1;
  uint64_t row_drawn_seed = 0;
  std::vector<float> naive, stable;  // softmax of row->raw_scores, naive vs stable (float32)

  // ---- training: two models that differ only in TrainConfig::scaled --------------
  std::unique_ptr<Trainer> scaled_model, unscaled_model;
  std::string train_error;       // check_train_config's message, "" when fine
  bool running = false;
  // Training stops by itself: when both models have converged
  // (training_converged) or after kTrainStepBudget steps per start.
  static constexpr int kTrainStepBudget = 5000;
  int run_until = -1;            // the step count this start stops at (-1: not running)
  enum class Stopped { No, Converged, Budget } stopped = Stopped::No;
  int stopped_at = 0;
  double train_ms_last_frame = 0;
  int steps_last_frame = 0;
  // Example attention (seq_len x seq_len) of each model, refreshed when it steps.
  Matrix scaled_example, unscaled_example;
  std::vector<std::string> example_tokens;
  int example_steps = -1;
  float scaled_eval = -1, unscaled_eval = -1;  // held-out accuracy, refreshed while paused
  int eval_steps = -1;
};

// Training controls' actions (the buttons, and the desktop's --train-steps):
// reset rebuilds both models from the current choices; step advances both by one.
void training_reset(ScalingLab& lab);
void training_step(ScalingLab& lab);
// Builds the two models from the current choices if they do not exist yet;
// false (and lab.train_error) when the choices cannot train.
bool ensure_trainers(ScalingLab& lab);
// Steps taken by the models (both take the same).
int lab_trained_steps(const ScalingLab& lab);

// The training panel's buttons, in order: the canvas draws them
// (scaling/controls.cpp) and the accessible copy lists and presses them
// (a11y.cpp: a11y_press) from this one table.
struct TrainingAction {
  const char* id;         // "train_start": the control's name in layout() and the action a11y_press takes
  const char* label_key;  // tr() key of the button
  bool (*enabled)(const ScalingLab& lab);  // null: always enabled
  void (*press)(ScalingLab& lab);
};
const std::vector<TrainingAction>& training_actions();

// A trained projection's weights with the recipe and step count that give
// them (the explorer's "trained" projection).
struct TrainedWeights {
  TrainConfig recipe;
  int steps = 0;
  MultiHeadWeights weights;
};
// The scaled model, which the explorer offers as its trained projection:
// nothing until it has taken a step.
bool lab_has_trained_model(const ScalingLab& lab);
std::optional<TrainedWeights> lab_trained_weights(const ScalingLab& lab);

}  // namespace attn::ui
