// The explorer's state without a window: update_result runs the core when
// the config changes (no flag to raise), the trained projection uses the
// lab's model as it is or retrains its recipe a slice per frame, and the
// line above the heatmaps names the selected query once.
#include <doctest/doctest.h>

#include "core/explorer_fields.hpp"
#include "ui/app.hpp"
#include "ui/explorer/explorer.hpp"

namespace attn::ui {
namespace {

bool same_weights(const MultiHeadWeights& a, const MultiHeadWeights& b) {
  return a.heads == b.heads && a.W_q == b.W_q && a.W_k == b.W_k && a.W_v == b.W_v && a.W_o == b.W_o;
}

TEST_CASE("update_result recomputes exactly when the config changed") {
  AppState state;
  update_result(state);
  REQUIRE(state.result);
  CHECK(state.error.empty());
  CHECK(same_config(state.result->config, state.config));
  const float before = state.result->attention.heads[0].weights(0, 0);

  state.config.temperature = 2.0f;  // what a slider does: edit the config, nothing else
  update_result(state);
  CHECK(state.result->config.temperature == 2.0f);
  CHECK(state.result->attention.heads[0].weights(0, 0) != before);

  // An unchanged config does not run the core again (the result object stays).
  const ExplorerResult* result = &*state.result;
  const double compute_ms = state.compute_ms;
  state.compute_ms = -1;
  update_result(state);
  CHECK(&*state.result == result);
  CHECK(state.compute_ms == -1);
  state.compute_ms = compute_ms;

  // A bad change keeps the last good result and says why.
  state.config.heads = 5;
  update_result(state);
  CHECK(state.error.rfind("heads: 5 does not divide d_model 32", 0) == 0);
  CHECK(state.result->config.temperature == 2.0f);
  state.config.heads = 4;
  update_result(state);
  CHECK(state.error.empty());
  CHECK(state.result->config.heads == 4);
}

TEST_CASE("a custom mask follows the token count and its cells are part of the config") {
  AppState state;
  state.config.mask = Mask::Kind::Custom;
  update_result(state);
  REQUIRE(state.result);
  CHECK(state.config.custom_mask.rows() == 6);  // "The cat sat on the mat"
  state.config.custom_mask(0, 1) = false;       // what a click on a heatmap cell does
  update_result(state);
  CHECK(state.result->attention.heads[0].weights(0, 1) == 0.0f);
}

TEST_CASE("the trained projection uses the lab's model at any step count") {
  // Regression: with more than 2000 lab steps at d_k 32 (31 at d_k 256) the
  // explorer retrained the recipe, hit the training-work limit and showed a
  // config error instead of the model.
  AppState state;
  for (int i = 0; i < 2100; ++i) training_step(state.scaling);
  REQUIRE(lab_has_trained_model(state.scaling));
  REQUIRE(use_lab_model(state));
  CHECK(state.config.projection == Projection::Trained);
  CHECK(state.config.trained_steps == 2100);
  CHECK(state.config.d_model == 32);
  CHECK(!check_explorer_config(state.config).empty());  // too much work to retrain...
  update_result(state);
  CHECK(state.error.empty());  // ...so the lab's weights are used as they are
  REQUIRE(state.result);
  CHECK(same_weights(state.result->weights, state.scaling.scaled_model->projections()));
  int steps = 0, target = 0;
  CHECK(!retraining_progress(state, &steps, &target));
  // A lab that trained past what a config may name is still used as it is.
  ExplorerConfig long_run = state.config;
  long_run.trained_steps = ExplorerLimits::kMaxTrainedSteps + 1;
  CHECK(!check_explorer_config(long_run).empty());
  CHECK(check_explorer_config(long_run, /*has_trained_weights=*/true).empty());
}

TEST_CASE("a trained config from elsewhere is retrained a slice per frame, to the same weights") {
  // Regression: the retraining ran inside one frame (up to about a second).
  AppState state;
  state.config.projection = Projection::Trained;
  state.config.heads = 1;
  state.config.trained_steps = 2000;  // at d_model 32: the most that may be retrained
  // A frame, as app_frame runs it: one slice of retraining, the core when due.
  auto frame = [&state] {
    continue_retraining(state);
    update_result(state);
  };
  frame();
  int steps = 0, target = 0;
  REQUIRE(retraining_progress(state, &steps, &target));
  CHECK(target == 2000);
  CHECK(steps < 2000);    // one 8 ms slice cannot take 2000 steps (0.4 ms each)
  CHECK(!state.result);   // nothing to show yet: the panel shows the progress
  int frames = 1;
  while (retraining_progress(state, &steps, &target) && frames < 10000) {
    frame();
    ++frames;
  }
  frame();  // the frame after the last slice shows the result
  CHECK(frames > 1);
  REQUIRE(state.result);
  CHECK(state.error.empty());
  Trainer reference(trained_recipe(state.config));
  for (int s = 0; s < 2000; ++s) reference.step();
  CHECK(same_weights(state.result->weights, reference.projections()));
  // The same config again needs no retraining: the weights were kept.
  state.config.temperature = 0.5f;
  frame();
  CHECK(!retraining_progress(state, &steps, &target));
  CHECK(state.result->config.temperature == 0.5f);
}

TEST_CASE("picking the lab's model stops a retraining of another recipe") {
  AppState state;
  state.config.projection = Projection::Trained;
  state.config.heads = 1;
  state.config.trained_steps = 2000;
  continue_retraining(state);
  update_result(state);
  int steps = 0, target = 0;
  REQUIRE(retraining_progress(state, &steps, &target));
  for (int i = 0; i < 30; ++i) training_step(state.scaling);
  REQUIRE(use_lab_model(state));
  continue_retraining(state);
  update_result(state);
  CHECK(!retraining_progress(state, &steps, &target));
  REQUIRE(state.result);
  CHECK(state.result->config.trained_steps == 30);
  // And nothing runs again on the next frame.
  const ExplorerResult* result = &*state.result;
  continue_retraining(state);
  update_result(state);
  CHECK(&*state.result == result);
}

TEST_CASE("the selected-query line names the query once") {
  // Regression: the steps view printed "Selected query: 0 '0 'The''". Both
  // views now print this function's text (a test of the drawn text itself
  // would need a GL context).
  AppState state;
  update_result(state);
  REQUIRE(state.result);
  CHECK(selected_query_text(*state.result, 0) == "Selected query: 0 'The'");
  CHECK(selected_query_text(*state.result, 5) == "Selected query: 5 'mat'");
  CHECK(selected_query_text(*state.result, 99) == "Selected query: 99 ''");
}

}  // namespace
}  // namespace attn::ui
