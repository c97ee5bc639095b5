// The scaling lab's schedule: what to recompute when the reader changes
// something, within a per-frame time budget, and the time-sliced training.
// The maths is the core's (run_figure42_dim, attention_row, saturation,
// naive/stable softmax, Trainer); this file only decides when to call it.
#include <algorithm>

#include "ui/scaling/scaling.hpp"

namespace attn::ui {
namespace {

// While the d_k slider is dragged, a slow recompute (large d_k: up to a few
// hundred ms) waits until twice its last duration has passed, so the slider
// keeps following the mouse; the value it is released at is always computed.
bool may_recompute(const ScalingLab& lab, WorkClock& clock, double cost_ms, double done_ms) {
  return !lab.dk_dragging || clock.ms_since(done_ms) >= 2.0 * cost_ms;
}

// Per frame, the training and the background curve points each get about
// this much time, so the UI keeps ~60 frames per second while they run.
constexpr double kTrainBudgetMs = 8.0;
constexpr double kCurveBudgetMs = 8.0;
// Figure 4.2's seed (np.random.seed(42), as the chapter's script: its four dims show the book's numbers)
// and the saturation curves' seed.
constexpr uint64_t kFigure42Seed = 42;
constexpr uint64_t kSaturationSeed = 7;

Figure42Config figure42_config(int samples) {
  Figure42Config config;
  config.samples = samples;
  config.seed = kFigure42Seed;
  return config;
}

// Rows averaged per saturation point: fewer for many keys, so one point of
// the curve (trials x (n + 1) x d_k normals) stays within a frame or two.
int saturation_trials(int n_keys) { return std::clamp(2048 / std::max(n_keys, 1), 16, 128); }

Figure42Point point_of(const Figure42Dim& dim) {
  return Figure42Point{dim.raw_std, dim.scaled_std, dim.raw_peak, dim.scaled_peak};
}

// start: when the frame's share began on `clock` (the curve points stop when it is spent).
void update_figure42(ScalingLab& lab, WorkClock& clock, double start) {
  if ((lab.current_d_k != lab.d_k || lab.current_samples != lab.samples) &&
      may_recompute(lab, clock, lab.figure42_cost_ms, lab.figure42_done_ms)) {
    const double begin = clock.now_ms();
    lab.current = run_figure42_dim(lab.d_k, figure42_config(lab.samples), kFigure42Seed);
    lab.current_d_k = lab.d_k;
    lab.current_samples = lab.samples;
    lab.figure42_done_ms = clock.now_ms();
    lab.figure42_cost_ms = lab.figure42_done_ms - begin;
  }
  if (lab.curve_samples != lab.samples) {
    lab.fig42_curve.clear();
    lab.curve_samples = lab.samples;
  }
  // The grid's points: the same numbers as the current d_k's when they meet.
  if (lab.current && lab.current_samples == lab.samples) {
    const auto& grid = scaling_grid();
    if (std::find(grid.begin(), grid.end(), lab.current->d_k) != grid.end())
      lab.fig42_curve[lab.current->d_k] = point_of(*lab.current);
  }
  for (int d_k : scaling_grid()) {
    if (lab.fig42_curve.count(d_k)) continue;
    if (clock.ms_since(start) > kCurveBudgetMs) return;
    lab.fig42_curve[d_k] = point_of(run_figure42_dim(d_k, figure42_config(lab.samples), kFigure42Seed));
  }
}

void update_saturation(ScalingLab& lab, WorkClock& clock, double start) {
  const bool row_stale = lab.row_d_k != lab.d_k || lab.row_keys != lab.n_keys || lab.row_drawn_seed != lab.row_seed;
  if (row_stale) {
    lab.row = attention_row(lab.d_k, lab.n_keys, lab.row_seed);
    lab.row_d_k = lab.d_k;
    lab.row_keys = lab.n_keys;
    lab.row_drawn_seed = lab.row_seed;
    lab.naive = naive_softmax(lab.row->raw_scores);
    lab.stable = stable_softmax(lab.row->raw_scores);
  }
  if (lab.saturation_keys != lab.n_keys) {
    lab.saturation_curve.clear();
    lab.saturation_keys = lab.n_keys;
    lab.saturation_d_k = -1;
  }
  const int trials = saturation_trials(lab.n_keys);
  if (lab.saturation_d_k != lab.d_k && may_recompute(lab, clock, lab.saturation_cost_ms, lab.saturation_done_ms)) {
    const double begin = clock.now_ms();
    const auto cached = lab.saturation_curve.find(lab.d_k);
    lab.current_saturation = cached != lab.saturation_curve.end()
                                 ? cached->second
                                 : saturation(lab.d_k, lab.n_keys, trials, kSaturationSeed);
    lab.saturation_d_k = lab.d_k;
    lab.saturation_done_ms = clock.now_ms();
    lab.saturation_cost_ms = lab.saturation_done_ms - begin;
  }
  for (int d_k : scaling_grid()) {
    if (lab.saturation_curve.count(d_k)) continue;
    if (clock.ms_since(start) > kCurveBudgetMs) return;
    lab.saturation_curve[d_k] = saturation(d_k, lab.n_keys, trials, kSaturationSeed);
  }
}

// The heatmaps and held-out accuracies follow the models: the examples
// every frame the models stepped, the evaluation (256 sequences, heavier)
// when paused and every 100 steps while running.
void refresh_training_views(ScalingLab& lab) {
  if (!lab.scaled_model || !lab.unscaled_model) return;
  const int steps = lab_trained_steps(lab);
  if (lab.example_steps != steps) {
    lab.scaled_example = lab.scaled_model->example_weights();
    lab.unscaled_example = lab.unscaled_model->example_weights();
    lab.example_tokens = lab.scaled_model->example_tokens();
    lab.example_steps = steps;
  }
  const bool due = lab.eval_steps < 0 || (!lab.running && lab.eval_steps != steps) ||
                   (lab.running && steps - lab.eval_steps >= 100);
  if (due) {
    lab.scaled_eval = lab.scaled_model->evaluate();
    lab.unscaled_eval = lab.unscaled_model->evaluate();
    lab.eval_steps = steps;
  }
}

}  // namespace

void scaling_update(AppState& state, bool visible, bool fill_curves) {
  ScalingLab& lab = state.scaling;
  if (!visible) return;
  // Past the budget, only the current d_k's numbers are computed (they are
  // needed now); the missing grid points wait for the next frame.
  const double start = state.clock.now_ms() - (fill_curves ? 0 : kCurveBudgetMs + 1);
  update_figure42(lab, state.clock, start);
  if (lab.panel == ScalingPanel::Saturation) update_saturation(lab, state.clock, start);
}

bool scaling_busy(const ScalingLab& lab, bool visible) { return lab.running || scaling_pending(lab, visible); }

bool scaling_pending(const ScalingLab& lab, bool visible) {
  if (!visible) return false;
  const std::size_t grid = scaling_grid().size();
  const bool figure42 = lab.current_d_k != lab.d_k || lab.current_samples != lab.samples ||
                        lab.curve_samples != lab.samples || lab.fig42_curve.size() < grid;
  const bool saturation = lab.panel == ScalingPanel::Saturation &&
                          (lab.saturation_d_k != lab.d_k || lab.saturation_keys != lab.n_keys ||
                           lab.saturation_curve.size() < grid);
  return figure42 || saturation;
}

void scaling_train(AppState& state, bool visible) {
  ScalingLab& lab = state.scaling;
  // Whole step pairs until the budget is used (at least one pair, so a slow
  // machine still makes progress).
  lab.steps_last_frame = 0;
  const double start = state.clock.now_ms();
  if (lab.running && ensure_trainers(lab)) {
    if (lab.run_until < 0) {
      lab.run_until = lab_trained_steps(lab) + ScalingLab::kTrainStepBudget;
      lab.stopped = ScalingLab::Stopped::No;
    }
    do {
      training_step(lab);
      ++lab.steps_last_frame;
    } while (state.clock.ms_since(start) < kTrainBudgetMs && lab_trained_steps(lab) < lab.run_until);
    const bool converged = training_converged(lab.scaled_model->history()) &&
                           training_converged(lab.unscaled_model->history());
    if (converged || lab_trained_steps(lab) >= lab.run_until) {
      lab.running = false;
      lab.stopped = converged ? ScalingLab::Stopped::Converged : ScalingLab::Stopped::Budget;
      lab.stopped_at = lab_trained_steps(lab);
    }
  }
  if (!lab.running) lab.run_until = -1;
  lab.train_ms_last_frame = state.clock.ms_since(start);
  if (visible) ensure_trainers(lab);
  if (visible || lab.running) refresh_training_views(lab);
}

}  // namespace attn::ui
