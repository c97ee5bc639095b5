// What a frame records while it draws, for the tests, the page and the
// accessible copy: each heatmap's place and numbers (HeatmapLayout, into
// AppState::layout), each heatmap as a table (A11yTable, into
// AppState::a11y_tables) and where the controls landed (AppState::controls).
// The panels draw their heatmaps with draw_heatmap, so all three stay true.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

#include "core/types.hpp"
#include "gfx/colormap.hpp"
#include "ui/widgets/plot.hpp"

namespace attn::ui {

struct AppState;

// One heatmap: what is drawn (spec), where its numbers come from in
// compute() (source, head), and, once drawn, where its cells landed (cells).
// draw_heatmap fills `cells` and lists the entry in AppState::layout, which
// tests and the page read to locate cells: cells.x/y/w/h are the cell area
// only (no labels), in framebuffer pixels of the window, top-left origin; the
// cells shown are cells.rows x cells.cols starting at (cells.row0,
// cells.col0) of the matrix (zoom); spec.lo/hi are the exact normalisation floats.
struct HeatmapLayout {
  std::string name;    // "average", "head0", "steps_scores", ...
  std::string title;   // its panel's title, the caption of its table in the accessible mirror (A11yTable)
  std::string source;  // compute() result field: "average", "weights", "scores", "scaled_scores", ... ("" = none)
  int head = -1;       // index into result.<source>[head]; -1 for "average"
  bool masked = false;  // cells hidden by the mask are drawn in gfx::kMaskedColor
  bool zoomable = false;  // the wheel zooms it and a drag pans it
  plot::HeatmapSpec spec;    // in AppState::layout, its pointers and tooltip are cleared (the matrices
                             // are the frame's); lo, hi and colormap stay
  plot::HeatmapCells cells;
};

// One table of the mirror: a matrix window (values) or, for plots, rows of
// numbers already formatted as the plot's readout shows them (text).
struct A11yTable {
  static constexpr int kMaxSide = 64;  // a bigger window is cut to its first rows and columns (note says so)
  std::string caption;                 // the panel's title: "Head 2", "softmax(QK^T / sqrt(d_k))"
  std::string corner;                  // the header cell above the row headers ("query \\ key")
  std::vector<std::string> columns, rows;  // header labels
  std::vector<float> values;           // rows x columns, row-major (a matrix window)
  std::vector<std::vector<std::string>> text;  // or rows of formatted cells (plots)
  std::string note;                    // what was cut, or what the values are
  std::string heatmap;                 // the layout name of the heatmap it mirrors ("head0"), "" for plots
};

// The open view for the accessible copy: what a view's describe() (views.hpp)
// writes besides the heatmap tables the frame recorded.
struct A11yView {
  static constexpr const char* kNoHeatmap = " none";  // no heatmap's layout name
  std::string title;
  std::string summary;  // one paragraph
  // First the tables of the heatmaps the frame drew (AppState::a11y_tables):
  // all, or only the one named here; then these.
  std::string only_heatmap;  // kNoHeatmap: none of them
  std::vector<A11yTable> tables;
};

// The keyboard's cell cursor in the heatmaps view: its row is the selected
// query, its head the selected head; key is its column. Arrow keys move it
// while the canvas has the keyboard (handle_cell_keys); `moves` counts every
// move so the page announces each one once.
struct CellCursor {
  int key = 0;
  bool shown = false;  // drawn once the keyboard moved it (a mouse reader never sees it)
  long long moves = 0;
};

// record_control and the rest of widgets/records.hpp, into state.controls.
void record_control(AppState& state, const std::string& name);
void record_text_box(AppState& state, const std::string& name);
void record_region(AppState& state, const std::string& name);
void record_region(AppState& state, const std::string& name, const ImVec2& min, const ImVec2& max);
void record_scrollbar(AppState& state, const std::string& name);

// A heatmap spec over a whole matrix (row-major: row q = query q), coloured
// lo..hi; the caller adds labels, axes and the rest.
plot::HeatmapSpec matrix_spec(const Matrix& values, float lo, float hi, gfx::Colormap colormap);
// Draws entry.spec into `size` (<= 0: fill, as BeginPlot) and lists the entry
// in state.layout when it is wholly on screen. An entry with a source is a
// matrix of the explorer's result: its values must be a function of the
// result, the entry's name and head (they get spec.generation from them). Small panels (narrow:
// compact_when_narrow) drop the axis titles and get a slim colorbar. Returns the cells
// (hover/click).
plot::HeatmapCells draw_heatmap(AppState& state, HeatmapLayout entry, const ImVec2& size,
                                bool compact_when_narrow = true);
// draw_heatmap's share: the window of cells it drew, as a table, into
// state.a11y_tables (also for a heatmap scrolled out of sight: cells empty).
void a11y_record_heatmap(AppState& state, const HeatmapLayout& entry, const plot::HeatmapCells& cells);

}  // namespace attn::ui
