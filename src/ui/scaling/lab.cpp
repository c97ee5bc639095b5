// The scaling lab's bookkeeping: what to recompute when the reader changes
// something, the time-sliced training, the state() export and the sub-tabs.
// The maths is the core's (run_figure42_dim, attention_row, saturation,
// naive/stable softmax, Trainer); this file decides when to call it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <imgui.h>

#include "ui/explorer/explorer.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/strings.hpp"

namespace attn::ui {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(Clock::now().time_since_epoch()).count();
}

// While the d_k slider is dragged, a slow recompute (large d_k: up to a few
// hundred ms) waits until twice its last duration has passed, so the slider
// keeps following the mouse; the value it is released at is always computed.
bool may_recompute(const ScalingLab& lab, double cost_ms, double done_ms) {
  return !lab.dk_dragging || now_ms() - done_ms >= 2.0 * cost_ms;
}

// Per frame, the training and the background curve points each get about
// this much time, so the UI keeps ~60 frames per second while they run.
constexpr double kTrainBudgetMs = 8.0;
constexpr double kCurveBudgetMs = 8.0;
// Figure 4.2's seed (0 as in the chapter, so its four dims show its numbers)
// and the saturation curves' seed.
constexpr uint64_t kFigure42Seed = 0;
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

void update_figure42(ScalingLab& lab, Clock::time_point start) {
  if ((lab.current_d_k != lab.d_k || lab.current_samples != lab.samples) &&
      may_recompute(lab, lab.figure42_cost_ms, lab.figure42_done_ms)) {
    const double begin = now_ms();
    lab.current = run_figure42_dim(lab.d_k, figure42_config(lab.samples), kFigure42Seed);
    lab.current_d_k = lab.d_k;
    lab.current_samples = lab.samples;
    lab.figure42_done_ms = now_ms();
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
    if (ms_since(start) > kCurveBudgetMs) return;
    lab.fig42_curve[d_k] = point_of(run_figure42_dim(d_k, figure42_config(lab.samples), kFigure42Seed));
  }
}

void update_saturation(ScalingLab& lab, Clock::time_point start) {
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
  if (lab.saturation_d_k != lab.d_k && may_recompute(lab, lab.saturation_cost_ms, lab.saturation_done_ms)) {
    const double begin = now_ms();
    const auto cached = lab.saturation_curve.find(lab.d_k);
    lab.current_saturation = cached != lab.saturation_curve.end()
                                 ? cached->second
                                 : saturation(lab.d_k, lab.n_keys, trials, kSaturationSeed);
    lab.saturation_d_k = lab.d_k;
    lab.saturation_done_ms = now_ms();
    lab.saturation_cost_ms = lab.saturation_done_ms - begin;
  }
  for (int d_k : scaling_grid()) {
    if (lab.saturation_curve.count(d_k)) continue;
    if (ms_since(start) > kCurveBudgetMs) return;
    lab.saturation_curve[d_k] = saturation(d_k, lab.n_keys, trials, kSaturationSeed);
  }
}

TrainConfig train_config(const ScalingLab& lab, bool scaled) {
  TrainConfig config;
  config.d_k = lab.train_d_k;
  config.learning_rate = lab.learning_rate;
  config.seed = lab.train_seed;
  config.scaled = scaled;
  return config;
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

int trained_steps(const ScalingLab& lab) {
  return lab.scaled_model ? int(lab.scaled_model->history().size()) : 0;
}

// The heatmaps and held-out accuracies follow the models: the examples
// every frame the models stepped, the evaluation (256 sequences, heavier)
// when paused and every 100 steps while running.
void refresh_training_views(ScalingLab& lab) {
  if (!lab.scaled_model || !lab.unscaled_model) return;
  const int steps = trained_steps(lab);
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

const char* scaling_panel_id(ScalingPanel panel) {
  switch (panel) {
    case ScalingPanel::Figure42: return "fig42";
    case ScalingPanel::Saturation: return "saturation";
    case ScalingPanel::Training: return "training";
  }
  return "fig42";
}

bool scaling_panel_from_id(const std::string& id, ScalingPanel* panel) {
  for (ScalingPanel p : {ScalingPanel::Figure42, ScalingPanel::Saturation, ScalingPanel::Training})
    if (id == scaling_panel_id(p)) {
      *panel = p;
      return true;
    }
  return false;
}

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

void training_reset(ScalingLab& lab) {
  lab.running = false;
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

void scaling_update(AppState& state, bool visible, bool fill_curves) {
  ScalingLab& lab = state.scaling;
  if (!visible) return;
  // Past the budget, only the current d_k's numbers are computed (they are
  // needed now); the missing grid points wait for the next frame.
  const Clock::time_point start =
      fill_curves ? Clock::now() : Clock::now() - std::chrono::milliseconds(int(kCurveBudgetMs) + 1);
  update_figure42(lab, start);
  if (lab.panel == ScalingPanel::Saturation) update_saturation(lab, start);
}

void scaling_train(AppState& state, bool visible) {
  ScalingLab& lab = state.scaling;
  // Whole step pairs until the budget is used (at least one pair, so a slow
  // machine still makes progress).
  lab.steps_last_frame = 0;
  const Clock::time_point start = Clock::now();
  if (lab.running && ensure_trainers(lab)) {
    do {
      training_step(lab);
      ++lab.steps_last_frame;
    } while (ms_since(start) < kTrainBudgetMs);
  }
  lab.train_ms_last_frame = ms_since(start);
  if (visible) ensure_trainers(lab);
  if (visible || lab.running) refresh_training_views(lab);
}

ScalingNumbersText scaling_numbers_text(const Figure42Dim& dim) {
  auto format = [](float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", double(value));
    return std::string(text);
  };
  return {format(dim.raw_std), format(dim.scaled_std), format(dim.raw_peak), format(dim.scaled_peak)};
}

void setup_log2_dk_axis(const char* y_label) {
  std::vector<double> values;
  std::vector<std::string> labels;
  for (int d_k : scaling_grid()) {
    values.push_back(std::log2(double(d_k)));
    labels.push_back(std::to_string(d_k));
  }
  plot::SetupAxes(tr("scaling.axis.dk_log"), y_label);
  plot::SetupXTicks(values, labels);
  plot::SetupAxisLimits(plot::Axis_X, -0.35, std::log2(double(ScalingLimits::kMaxDk)) + 0.35);
  plot::SetupXHoverFormat([](double x) {
    char text[48];
    std::snprintf(text, sizeof text, "d_k = %.1f", std::exp2(x));
    return std::string(text);
  });
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
  auto model = [](const Trainer* trainer, float eval) {
    const TrainerSummary s = trainer_summary(trainer);
    json m = {{"steps", s.steps}, {"loss", s.loss}, {"first_loss", s.first_loss}, {"accuracy", s.accuracy},
              {"grad_norm", s.grad_norm}};
    m["eval_accuracy"] = eval >= 0 ? json(eval) : json(nullptr);
    return m;
  };
  out["training"] = {{"running", lab.running},
                     {"steps", trained_steps(lab)},
                     {"d_k", lab.train_d_k},
                     {"learning_rate", lab.learning_rate},
                     {"seed", lab.train_seed},
                     {"error", lab.train_error},
                     {"steps_last_frame", lab.steps_last_frame},
                     {"train_ms_last_frame", lab.train_ms_last_frame},
                     {"scaled", model(lab.scaled_model.get(), lab.scaled_eval)},
                     {"unscaled", model(lab.unscaled_model.get(), lab.unscaled_eval)}};
  return out;
}

void scaling_view(AppState& state) {
  ScalingLab& lab = state.scaling;
  struct Tab {
    ScalingPanel panel;
    const char* label;
    const char* control;
  };
  static const Tab tabs[] = {{ScalingPanel::Figure42, "scaling.tab.fig42", "scaling_tab_fig42"},
                             {ScalingPanel::Saturation, "scaling.tab.saturation", "scaling_tab_saturation"},
                             {ScalingPanel::Training, "scaling.tab.training", "scaling_tab_training"}};
  if (!ImGui::BeginTabBar("##scaling_panels")) return;
  for (const Tab& tab : tabs) {
    const bool by_code = lab.select_panel_frames > 0;
    const ImGuiTabItemFlags flags = (by_code && lab.panel == tab.panel) ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(tr(tab.label), nullptr, flags);
    record_control(state, tab.control);
    if (!open) continue;
    if (by_code && lab.panel != tab.panel) {
      ImGui::EndTabItem();
      continue;
    }
    lab.panel = tab.panel;
    ImGui::BeginChild("##scaling_panel", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    switch (tab.panel) {
      case ScalingPanel::Figure42: figure42_panels(state); break;
      case ScalingPanel::Saturation: saturation_panels(state); break;
      case ScalingPanel::Training: training_panels(state); break;
    }
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (lab.select_panel_frames > 0) --lab.select_panel_frames;
  ImGui::EndTabBar();
}

}  // namespace attn::ui
