// Runs the explorer's core when the config changed, never per frame. A config
// the core rejects leaves the last good result on screen (state.error says why).
//
// The core runs as an ExplorerJob spread over frames: each frame gives it
// ExplorerJob::kFrameBudgetMs (both update_result calls of a frame share
// that), the last result stays on screen until the new one is complete, the
// set-up panel says how far it got (explorer_progress) and app_busy keeps the
// frames coming meanwhile. A small config completes within the frame of the
// change, as before; a newer config drops an unfinished job and starts its own.
//
// A trained projection needs the lab's model after trained_steps steps. When
// the lab has it (the reader picked "trained" in the projection list) its
// weights are used as they are; a config from elsewhere (a URL, --config)
// retrains the recipe in continue_retraining, one ~8 ms slice per frame,
// while the last result stays on screen.
#include <algorithm>

#include "core/explorer/explorer_fields.hpp"
#include "ui/explorer/explorer.hpp"

namespace attn::ui {
namespace {

// Retraining's share of a frame (the lab's own training takes the same).
constexpr double kRetrainBudgetMs = 8.0;

bool same_recipe(const TrainConfig& a, const TrainConfig& b) {
  return a.task == b.task && a.d_k == b.d_k && a.heads == b.heads && a.scaled == b.scaled &&
         a.learning_rate == b.learning_rate && a.batch == b.batch && a.seed == b.seed;
}

bool wants_trained(const ExplorerConfig& c) {
  return c.input == Input::Text && c.projection == Projection::Trained;
}

// The trained projection's weights for c, if already at hand.
const MultiHeadWeights* kept_weights(const AppState& state, const ExplorerConfig& c) {
  if (!wants_trained(c) || !state.trained || state.trained->steps != c.trained_steps) return nullptr;
  return same_recipe(state.trained->recipe, trained_recipe(c)) ? &state.trained->weights : nullptr;
}

// Starts (or keeps) retraining c's model; its steps are taken by
// continue_retraining, one slice per frame.
void start_retraining(AppState& state, const ExplorerConfig& c) {
  const TrainConfig recipe = trained_recipe(c);
  if (!state.retraining || !same_recipe(state.retraining->config(), recipe) ||
      int(state.retraining->history().size()) > c.trained_steps)
    state.retraining = std::make_unique<Trainer>(recipe);
}

// The result of a finished job goes on screen; the selection follows its sizes.
void show_result(AppState& state, ExplorerResult result) {
  static uint64_t generations = 0;  // process-wide: no two states' results share one
  state.result = std::move(result);
  state.result_generation = ++generations;
  mark_state_changed(state);  // the selection follows the new sizes
  state.compute_pieces = state.explorer_job ? state.explorer_job->progress().pieces : 0;
  state.explorer_job.reset();
  state.compute_ms = state.explorer_job_ms;
  const int n = int(state.result->tokens.size());
  state.selected_query = std::clamp(state.selected_query, 0, std::max(0, n - 1));
  const int heads = int(state.result->attention.heads.size());
  if (state.selected_head >= heads) state.selected_head = -1;
  state.lines_head_visible.resize(std::size_t(heads), true);
  check_shown_order(state);
}

// What is left of this frame's share for the core (ExplorerJob::kFrameBudgetMs).
double frame_budget_left(AppState& state) {
  if (state.explorer_frame != state.frames) {
    state.explorer_frame = state.frames;
    state.explorer_frame_ms = 0;
  }
  return ExplorerJob::kFrameBudgetMs - state.explorer_frame_ms;
}

// Steps the pending job with what is left of this frame's budget; `start`:
// when the caller began (a new job's construction counts). A new job gets at
// least a millisecond even when the frame's budget is spent, so a small
// config still completes in the frame that changed it.
void run_job(AppState& state, double start, bool new_job) {
  const double left = frame_budget_left(state);
  if (left <= 0 && !new_job) return;
  const int before = state.explorer_job->progress().pieces_done;
  state.explorer_job->step(std::max(left, new_job ? 1.0 : 0.0) - state.clock.ms_since(start), state.clock);
  state.frame_pieces += state.explorer_job->progress().pieces_done - before;
  const double spent = state.clock.ms_since(start);
  state.explorer_frame_ms += spent;
  state.explorer_job_ms += spent;
}

// A custom mask follows the token count: a new count starts from "all allowed".
void fit_custom_mask(ExplorerConfig& config) {
  if (config.mask != Mask::Kind::Custom) return;
  const int n = int(explorer_tokens(config).size());
  // A pasted novel must not allocate n^2 flags before the check rejects it.
  if (n <= ExplorerLimits::kMaxTokens && (config.custom_mask.rows() != n || config.custom_mask.cols() != n))
    config.custom_mask = MaskMatrix::Constant(n, n, true);
}

}  // namespace

void update_result(AppState& state) {
  const double start = state.clock.now_ms();
  if (state.checked_config && same_config(*state.checked_config, state.config)) {
    // A job finished at the end of the last frame: shown from this frame on
    // (so layout() and the pixels of a frame always belong to one result),
    // and a couple of frames more drawn without input (app_busy) for Dear
    // ImGui to lay out what is new (the first result's views: over two frames).
    if (state.explorer_job && state.explorer_job->done()) {
      show_result(state, state.explorer_job->take());
      state.settle_frames = 2;
    }
    return;
  }
  ExplorerConfig& config = state.config;
  mark_state_changed(state);  // e.g. the custom mask follows a new token count
  fit_custom_mask(config);
  state.checked_config = config;
  state.explorer_job.reset();  // a newer config: whatever was pending is not wanted any more
  const MultiHeadWeights* trained = kept_weights(state, config);
  // Checked before anything is allocated, the memory bound included.
  state.error = check_explorer_config(config, trained != nullptr);
  if (state.error.empty()) state.error = check_memory_available(explorer_peak_bytes(config));
  const bool retrain = state.error.empty() && wants_trained(config) && !trained;
  if (!retrain) state.retraining.reset();
  if (!state.error.empty()) return;
  if (retrain) {
    start_retraining(state, config);  // pending: the last result stays; retraining_progress() tells the reader
    return;
  }
  // Histograms only when the stats view shows them (stats_view bins them on demand otherwise).
  state.explorer_job = std::make_unique<ExplorerJob>(config, state.result ? &*state.result : nullptr, trained,
                                                     /*histograms=*/open_view(state).histograms);
  state.explorer_job_ms = 0;
  run_job(state, start, true);
  if (state.explorer_job->done()) show_result(state, state.explorer_job->take());
}

void continue_explorer_job(AppState& state) {
  if (state.explorer_job && !state.explorer_job->done()) run_job(state, state.clock.now_ms(), false);
}

bool fill_result_histograms(AppState& state) {
  if (!state.result || has_histograms(*state.result)) return true;
  const double start = state.clock.now_ms();
  const double left = frame_budget_left(state);
  if (left <= 0) return false;
  const bool done = fill_histograms(*state.result, left, state.clock);
  state.explorer_frame_ms += state.clock.ms_since(start);
  return done;
}

bool explorer_progress(const AppState& state, ExplorerProgress* progress) {
  if (!state.explorer_job) return false;
  *progress = state.explorer_job->progress();
  return true;
}

void continue_retraining(AppState& state) {
  if (!state.retraining) return;
  Trainer& trainer = *state.retraining;
  const int target = state.config.trained_steps;
  const double start = state.clock.now_ms();
  while (int(trainer.history().size()) < target && state.clock.ms_since(start) < kRetrainBudgetMs) trainer.step();
  if (int(trainer.history().size()) < target) return;
  // Trainer is deterministic: these are the weights run_explorer would retrain in one go.
  state.trained = TrainedWeights{trainer.config(), target, trainer.projections()};
  state.retraining.reset();
  state.checked_config.reset();  // the next update_result runs the core with them
}

bool retraining_progress(const AppState& state, int* steps, int* target) {
  if (!state.retraining) return false;
  *steps = int(state.retraining->history().size());
  *target = state.config.trained_steps;
  return true;
}

bool use_lab_model(AppState& state) {
  std::optional<TrainedWeights> model = lab_trained_weights(state.scaling);
  if (!model) return false;
  ExplorerConfig& c = state.config;
  // The model's recipe goes into the config, so the config alone reproduces the view.
  c.projection = Projection::Trained;
  c.d_model = model->recipe.d_k;
  c.heads = model->recipe.heads;
  c.seed = model->recipe.seed;
  c.trained_scaled = model->recipe.scaled;
  c.trained_learning_rate = model->recipe.learning_rate;
  c.trained_steps = model->steps;
  state.trained = std::move(model);
  state.retraining.reset();  // a retraining of another recipe is no longer wanted
  return true;
}

}  // namespace attn::ui
