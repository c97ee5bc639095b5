// Runs the explorer's core when the config changed: never per frame, and
// never for longer than a frame's slice. A config the core rejects leaves the
// last good result on screen (state.error says why).
//
// A trained projection needs the lab's model after trained_steps steps. When
// the lab has it (the reader picked "trained" there) its weights are used as
// they are; a config from elsewhere (a URL, --config) retrains the recipe,
// a few milliseconds per frame, while the last result stays on screen.
#include <algorithm>
#include <chrono>

#include "core/explorer_fields.hpp"
#include "ui/explorer/explorer.hpp"

namespace attn::ui {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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

// One slice of retraining c's model; true once it has all its steps (they
// are then kept in state.trained). Trainer is deterministic, so the weights
// equal what run_explorer would retrain in one go.
bool retrain_slice(AppState& state, const ExplorerConfig& c) {
  const TrainConfig recipe = trained_recipe(c);
  if (!state.retraining || !same_recipe(state.retraining->config(), recipe) ||
      int(state.retraining->history().size()) > c.trained_steps)
    state.retraining = std::make_unique<Trainer>(recipe);
  Trainer& trainer = *state.retraining;
  const Clock::time_point start = Clock::now();
  while (int(trainer.history().size()) < c.trained_steps && ms_since(start) < kRetrainBudgetMs) trainer.step();
  if (int(trainer.history().size()) < c.trained_steps) return false;
  state.trained = TrainedWeights{recipe, c.trained_steps, trainer.projections()};
  state.retraining.reset();
  return true;
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
  const bool changed = !state.checked_config || !same_config(*state.checked_config, state.config);
  if (!changed && !state.retraining) return;
  ExplorerConfig& config = state.config;
  if (changed) fit_custom_mask(config);
  state.checked_config = config;
  const MultiHeadWeights* trained = kept_weights(state, config);
  state.error = check_explorer_config(config, trained != nullptr);
  if (!state.error.empty() || !wants_trained(config)) state.retraining.reset();
  if (!state.error.empty()) return;
  if (wants_trained(config) && !trained) {
    if (!retrain_slice(state, config)) return;  // pending: retraining_progress() tells the reader
    trained = &state.trained->weights;
  }
  const auto start = Clock::now();
  state.result = run_explorer(config, state.result ? &*state.result : nullptr, trained);
  state.compute_ms = ms_since(start);
  const int n = int(state.result->tokens.size());
  state.selected_query = std::clamp(state.selected_query, 0, std::max(0, n - 1));
  const int heads = int(state.result->attention.heads.size());
  if (state.selected_head >= heads) state.selected_head = -1;
  state.lines_head_visible.resize(std::size_t(heads), true);
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
  return true;
}

}  // namespace attn::ui
