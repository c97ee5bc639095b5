// The attention explorer's panels, one function each (imgui_demo style), and
// the few helpers they share. Every number they show comes from the
// attn::ExplorerResult in AppState (src/core/explorer/explorer.hpp); these files only
// arrange, label and colour it.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "ui/state/app_state.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"

namespace attn::ui {

// ---- panels (explorer/*.cpp) ----------------------------------------------------
void setup_panel(AppState& state);    // setup.cpp: sentence, presets, sizes, mask
void heatmaps_view(AppState& state);  // heatmaps.cpp: one heatmap per head + average
void focus_view(AppState& state);     // focus.cpp: one query's weights and values
void steps_view(AppState& state);     // steps.cpp: Q, K, V -> QK^T -> scale -> mask -> softmax -> xV
void lines_view(AppState& state);     // lines.cpp: BertViz-like head lines
void filters_view(AppState& state);   // filters.cpp: the convolution's fixed filter beside attention's weights
void stats_view(AppState& state);     // stats.cpp: histograms and the statistics table
void debug_view(AppState& state);     // debug.cpp: timings, config JSON, matrix dump

// ---- order (order.cpp) ----------------------------------------------------------------
// Shuffle and Original order, and what the shuffle showed (the set-up panel).
void shuffle_controls(AppState& state);
// The shown result's order check, when its tokens are shuffled (show_result calls it).
void check_shown_order(AppState& state);
// The check in sentences ("" when the tokens are in order): the panel and the accessible copy.
std::string order_sentence(const AppState& state);

// ---- the core behind the panels (update.cpp) -------------------------------------------
// Starts the core (an ExplorerJob) when state.config differs from the config
// it last looked at (controls only edit state.config) and shows its result
// once complete; app_frame calls it before and after the panels. A small
// config's result is on screen when it returns; a big one's follows in later
// frames (continue_explorer_job) while the last result stays.
void update_result(AppState& state);
// The rest of this frame's share (ExplorerJob::kFrameBudgetMs) for a pending
// recompute (app_frame, after the views: the budget goes to the newest
// config). A result completed here is shown by the next frame's update_result.
void continue_explorer_job(AppState& state);
// A recompute is pending: how far it got.
bool explorer_progress(const AppState& state, ExplorerProgress* progress);
// Bins the result's weight histograms if it has none yet (a recompute made
// outside the stats view skips them), within what is left of the frame's
// share. True when they are all there (stats_view; app_busy while not).
bool fill_result_histograms(AppState& state);
// One ~8 ms slice of a trained config's retraining (app_frame, once a frame);
// when it is done, the next update_result shows the trained weights.
void continue_retraining(AppState& state);
// A trained config's model is being retrained, a slice per frame: *steps of *target done.
bool retraining_progress(const AppState& state, int* steps, int* target);
// Picks the scaling lab's scaled model as the trained projection: its recipe
// into the config, its weights kept so nothing is retrained. False until it has trained.
bool use_lab_model(AppState& state);

// ---- shared helpers (common.cpp) ---------------------------------------------------
// The statistics table exactly as displayed (state() parses these strings).
struct StatsRow {
  std::string head;  // "0", "1", ... or "avg"
  std::string min, max, mean, mean_entropy;
};
std::vector<StatsRow> stats_table_text(const ExplorerResult& result);

// A query x key weights heatmap's labels (the tokens, with their original
// places when shuffled), axes, value name and the selected query's row.
void weights_axes(const AppState& state, plot::HeatmapSpec& spec);

// The head combo (the average first): it sets state.selected_head; control_id names it in layout().
void head_picker(AppState& state, int heads, const char* control_id);

// The note shown when some query rows have every key masked (never NaN).
void fully_masked_note(const ExplorerResult& result);

// "Selected query: 3 'sat'": the line above the heatmaps and the steps.
std::string selected_query_text(const ExplorerResult& result, int query);

// "3 'sat'" style token name for tables and tooltips.
std::string token_label(const ExplorerResult& result, int index);

}  // namespace attn::ui
