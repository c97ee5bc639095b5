// What a reader who cannot see the canvas gets of the open view: its title,
// a summary computed from the numbers shown, a table of each matrix or curve
// shown, the controls as a list (web/a11y.js turns them into labelled HTML
// controls) and the keyboard's cell cursor with the text to announce for its
// cell, all in the current language. The page keeps a visually hidden copy of
// it in the DOM (web/a11y.js), so a screen reader reads what the canvas shows.
//
// The tables are collected while the view draws (draw_heatmap copies the
// window of each heatmap it draws, at most kMaxSide x kMaxSide cells), so the
// mirror always holds what this frame showed; a11y_json formats them only
// when the page asks.
#pragma once

#include <string>
#include <vector>

namespace attn::ui {

struct AppState;

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

// The keyboard's cell cursor in the heatmaps view: its row is the selected
// query, its head the selected head; key is its column. Arrow keys move it
// while the canvas has the keyboard (handle_cell_keys); `moves` counts every
// move so the page announces each one once.
struct CellCursor {
  int key = 0;
  bool shown = false;  // drawn once the keyboard moved it (a mouse reader never sees it)
  long long moves = 0;
};

// While the lab has the keyboard and no text field, slider or popup takes
// keys: Up/Down move the selected query (the row every explorer view
// highlights); in the heatmaps view Left/Right, Home/End move the cursor's
// key, Page Up/Down the head (the average first) and Space toggles the cell
// of a custom mask. app_frame calls it.
void handle_cell_keys(AppState& state);

// {"lang", "view", "title", "canvas_label", "summary", "tables": [{"caption", "corner", "columns",
//  "rows": [{"header", "cells"}], "note", "heatmap"}], "controls": [{"field", "label", "kind":
//  "text"|"select"|"range"|"number"|"checkbox"|"choice" (kept by the page)|"button" (value: null, or
//  the field of the choice it sends: "export:<choice>"), "value", "options": [{"value", "label"}], "min", "max"}],
//  "cursor": {"heatmap", "query", "key", "text", "moves"} | null}
std::string a11y_json(const AppState& state);

// draw_heatmap's share: the window of cells it drew, as a table, into state.a11y_tables.
struct HeatmapLayout;
}  // namespace attn::ui
namespace attn::plot { struct HeatmapCells; }
namespace attn::ui {
void a11y_record_heatmap(AppState& state, const HeatmapLayout& entry, const plot::HeatmapCells& cells);

// The page's buttons, as the canvas's buttons do them: "train_start",
// "train_pause", "train_step", "train_reset", "copy_link" and "export:<file>"
// (request_export's names: "png", "weights_head0.csv"). False for an unknown action.
bool a11y_press(AppState& state, const std::string& action);

// How the mirror prints a weight, score or statistic: as the heatmap's tooltip does.
std::string a11y_number(float value);

}  // namespace attn::ui
