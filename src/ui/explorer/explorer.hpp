// The attention explorer's panels, one function each (imgui_demo style), and
// the few helpers they share. Every number they show comes from the
// attn::ExplorerResult in AppState (src/core/explorer.hpp); these files only
// arrange, label and colour it.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "ui/app.hpp"

namespace attn::ui {

// ---- panels (explorer/*.cpp) ----------------------------------------------------
void setup_panel(AppState& state);    // setup.cpp: sentence, presets, sizes, mask
void heatmaps_view(AppState& state);  // heatmaps.cpp: one heatmap per head + average
void focus_view(AppState& state);     // focus.cpp: one query's weights and values
void steps_view(AppState& state);     // steps.cpp: Q, K, V -> QK^T -> scale -> mask -> softmax -> xV
void lines_view(AppState& state);     // lines.cpp: BertViz-like head lines
void stats_view(AppState& state);     // stats.cpp: histograms and the statistics table
void debug_view(AppState& state);     // debug.cpp: timings, config JSON, matrix dump

// ---- shared helpers (common.cpp) ---------------------------------------------------
// Remembers the last ImGui item's rectangle as control `name` (for tests).
void record_control(AppState& state, const std::string& name);

// The statistics table exactly as displayed (state() parses these strings).
struct StatsRow {
  std::string head;  // "0", "1", ... or "avg"
  std::string min, max, mean, mean_entropy;
};
std::vector<StatsRow> stats_table_text(const ExplorerResult& result);

// One matrix as a heatmap, recorded in state.layout.
struct MatrixPlot {
  std::string name;         // layout name, unique per frame
  std::string source;       // compute() field the values come from ("" = not in compute())
  int head = -1;
  const Matrix* values = nullptr;
  float lo = 0, hi = 1;
  gfx::Colormap colormap = gfx::Colormap::Viridis;
  const std::vector<std::string>* row_labels = nullptr;
  const std::vector<std::string>* col_labels = nullptr;
  const std::vector<bool>* row_valid = nullptr;
  const std::vector<bool>* col_valid = nullptr;
  const char* row_axis = "";
  const char* col_axis = "";
  const char* value_name = "";
  int highlight_row = -1;
  plot::HeatmapZoom* zoom = nullptr;
  bool masked = false;  // values hold gfx::kMaskedValue where masked
  std::function<void(int, int)> tooltip;
};
// Draws into `size` (<= 0: fill, as BeginPlot); returns the cells (hover/click).
plot::HeatmapCells draw_matrix(AppState& state, const MatrixPlot& plot, const ImVec2& size);

// The note shown when some query rows have every key masked (never NaN).
void fully_masked_note(const ExplorerResult& result);

// "query 3 'sat'" style token name for tables and tooltips.
std::string token_label(const ExplorerResult& result, int index);

// `count` equal panels filling the region: the rows x columns grid whose
// panels have the largest square side; when that side is below min_side the
// panels keep min_side and the region scrolls. Returns the panel size.
ImVec2 grid_cell(int count, int* columns, float min_side);

}  // namespace attn::ui
