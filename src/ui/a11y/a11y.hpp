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

// The page's buttons, as the canvas's buttons do them: "train_start",
// "train_pause", "train_step", "train_reset", "copy_link" and "export:<file>"
// (request_export's names: "png", "weights_head0.csv"). False for an unknown action.
bool a11y_press(AppState& state, const std::string& action);

// How the mirror prints a weight, score or statistic: as the heatmap's tooltip does.
std::string a11y_number(float value);

}  // namespace attn::ui
