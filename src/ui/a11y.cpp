// The accessible mirror of the open view (see a11y.hpp): the heatmap tables
// collected while drawing, the cell cursor's keys and announcement, the
// controls, and the JSON the page builds its hidden DOM from. The per-view
// summaries and plot tables are in a11y_views.cpp.
#include "ui/a11y.hpp"

#include <algorithm>
#include <cstdio>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "gfx/heatmap.hpp"
#include "ui/a11y_views.hpp"
#include "ui/app.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/theme.hpp"
#include "ui/presets.hpp"
#include "ui/strings.hpp"

namespace attn::ui {
namespace {

using Json = nlohmann::json;

bool key_pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

Json table_json(const A11yTable& table) {
  Json rows = Json::array();
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    Json cells = Json::array();
    if (!table.text.empty()) {
      for (const std::string& cell : table.text[r]) cells.push_back(cell);
    } else {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const float value = table.values[r * table.columns.size() + c];
        // The steps' "+ mask" matrix marks masked cells (drawn grey): say so, not -3.4e38.
        cells.push_back(value == gfx::kMaskedValue ? tr("a11y.masked_cell") : a11y_number(value));
      }
    }
    rows.push_back({{"header", table.rows[r]}, {"cells", std::move(cells)}});
  }
  return {{"caption", table.caption}, {"corner", table.corner}, {"columns", table.columns},
          {"rows", std::move(rows)},    {"note", table.note},     {"heatmap", table.heatmap}};
}

Json option(const Json& value, const std::string& label) { return {{"value", value}, {"label", label}}; }

Json control(const char* field, const std::string& label, const char* kind, const Json& value) {
  return {{"field", field}, {"label", label}, {"kind", kind}, {"value", value}};
}

// The controls a keyboard or screen-reader reader needs to do what a mouse
// reader does on the canvas: pick the view, the sentence, the heads and the
// mask, the head and query to read, the scaling lab's panel and d_k, the
// language and theme. Each is a state field (lab_state.hpp), so the page sets
// it with set(); labels are the canvas's own.
Json controls_json(const AppState& state) {
  Json controls = Json::array();
  // A figure shown as in a book (?controls=none) has none: the canvas, with
  // its cell cursor, is its one Tab stop, as the author chose.
  if (state.controls_mode == ControlsMode::None) return controls;
  Json views_control = control("view", tr("a11y.view"), "select", view_id(state.view));
  for (const ViewSpec& spec : views())
    if (!spec.debug_only || state.debug) views_control["options"].push_back(option(spec.id, tr(spec.label_key)));
  controls.push_back(std::move(views_control));
  const bool explorer = state.view != View::Chapter && state.view != View::Scaling && state.view != View::Debug;
  if (explorer) {
    if (state.config.input == Input::Text) controls.push_back(control("text", tr("setup.sentence"), "text", state.config.text));
    Json heads = control("heads", tr("setup.heads"), "range", state.config.heads);
    heads["min"] = 1;
    heads["max"] = kMaxUiHeads;
    controls.push_back(std::move(heads));
    Json mask = control("mask", tr("setup.mask"), "select", mask_name(state.config.mask));
    for (const Mask::Kind kind : {Mask::Kind::None, Mask::Kind::Causal, Mask::Kind::Padding})
      mask["options"].push_back(option(mask_name(kind), tr(mask_label_key(kind))));
    if (state.config.mask == Mask::Kind::Custom)  // set from the canvas or a config: shown, not offered
      mask["options"].push_back(option(mask_name(Mask::Kind::Custom), tr(mask_label_key(Mask::Kind::Custom))));
    controls.push_back(std::move(mask));
  }
  if (explorer && state.result) {
    const ExplorerResult& r = *state.result;
    Json head = control("head", tr("a11y.head"), "select", state.selected_head);
    head["options"].push_back(option(-1, tr("view.average")));
    for (int h = 0; h < int(r.attention.heads.size()); ++h) head["options"].push_back(option(h, head_title(h)));
    controls.push_back(std::move(head));
    Json query = control("query", tr("axis.query"), "select", state.selected_query);
    for (int q = 0; q < int(r.tokens.size()); ++q)
      query["options"].push_back(option(q, token_label(r, q)));
    controls.push_back(std::move(query));
  }
  if (state.view == View::Scaling) {
    Json panel = control("panel", tr("a11y.panel"), "select", scaling_panel_id(state.scaling.panel));
    for (const ScalingPanel p : {ScalingPanel::Figure42, ScalingPanel::Saturation, ScalingPanel::Training})
      panel["options"].push_back(option(scaling_panel_id(p), tr(scaling_panel_label_key(p))));
    controls.push_back(std::move(panel));
    Json dk = control("dk", tr("scaling.dk"), "select", state.scaling.d_k);
    std::vector<int> dims = scaling_grid();
    if (std::find(dims.begin(), dims.end(), state.scaling.d_k) == dims.end()) dims.push_back(state.scaling.d_k);
    std::sort(dims.begin(), dims.end());
    for (const int d : dims) dk["options"].push_back(option(d, std::to_string(d)));
    controls.push_back(std::move(dk));
  }
  Json language = control("lang", tr("a11y.lang"), "select", current_language().code);
  for (const Language& l : languages()) language["options"].push_back(option(l.code, l.name));
  controls.push_back(std::move(language));
  Json theme = control("theme", tr("a11y.theme"), "select", theme_id(state.theme));
  theme["options"].push_back(option("light", tr("a11y.theme.light")));
  theme["options"].push_back(option("dark", tr("a11y.theme.dark")));
  controls.push_back(std::move(theme));
  return controls;
}

// What the cursor's cell says: head, query, key, raw and scaled score and
// weight (the head average has only weights), as the cell's tooltip.
std::string cursor_text(const AppState& state) {
  const ExplorerResult& r = *state.result;
  const int q = state.selected_query, k = state.cursor.key, head = state.selected_head;
  std::string text = (head < 0 ? std::string(tr("view.average")) : head_title(head)) + "; " + tr("tip.query") + " " +
                     token_label(r, q) + "; " + tr("tip.key") + " " + token_label(r, k) + "; ";
  if (head < 0) return text + tr("tip.weight") + " " + a11y_number(r.attention.average_weights(q, k));
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  text += std::string(tr("tip.raw")) + " " + a11y_number(h.raw_scores(q, k)) + "; " + tr("tip.scaled") + " " +
          a11y_number(h.scaled_scores(q, k)) + "; " + tr("tip.weight") + " " + a11y_number(h.weights(q, k));
  if (!h.allowed(q, k)) text += std::string("; ") + tr("tip.masked");
  return text;
}

// The cursor stays on the result's cells (the tokens or heads may have changed).
void clamp_cursor(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int n = int(r.tokens.size()), heads = int(r.attention.heads.size());
  state.selected_query = std::clamp(state.selected_query, 0, n - 1);
  state.cursor.key = std::clamp(state.cursor.key, 0, n - 1);
  state.selected_head = std::clamp(state.selected_head, -1, heads - 1);
}

}  // namespace

std::string a11y_number(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", double(value));
  return text;
}

void handle_cell_keys(AppState& state) {
  if (!state.result || state.result->tokens.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopup)) return;
  clamp_cursor(state);
  const int n = int(state.result->tokens.size()), heads = int(state.result->attention.heads.size());
  int q = state.selected_query, k = state.cursor.key, head = state.selected_head;
  const bool up = key_pressed(ImGuiKey_UpArrow), down = key_pressed(ImGuiKey_DownArrow);
  if (up) q = std::max(0, q - 1);
  if (down) q = std::min(n - 1, q + 1);
  state.selected_query = q;
  if (state.view != View::Heatmaps) return;
  const bool left = key_pressed(ImGuiKey_LeftArrow), right = key_pressed(ImGuiKey_RightArrow);
  if (left) k = std::max(0, k - 1);
  if (right) k = std::min(n - 1, k + 1);
  if (key_pressed(ImGuiKey_Home)) k = 0;
  if (key_pressed(ImGuiKey_End)) k = n - 1;
  if (key_pressed(ImGuiKey_PageUp)) head = head <= -1 ? heads - 1 : head - 1;
  if (key_pressed(ImGuiKey_PageDown)) head = head >= heads - 1 ? -1 : head + 1;
  // Every key press is one announcement, also at an edge (the reader hears where the cursor is).
  if (!(up || down || left || right || k != state.cursor.key || head != state.selected_head)) return;
  state.cursor.key = k;
  state.selected_head = head;
  state.cursor.shown = true;
  ++state.cursor.moves;
}

void a11y_record_heatmap(AppState& state, const HeatmapLayout& entry, const plot::HeatmapCells& cells) {
  const plot::HeatmapSpec& spec = entry.spec;
  A11yTable table;
  table.caption = entry.title.empty() ? entry.name : entry.title;
  table.heatmap = entry.name;
  table.corner = std::string(spec.row_axis) + " \\ " + spec.col_axis;
  // The window shown (zoomed in, or as many cells as fit), cut to kMaxSide.
  const int row0 = cells.rows > 0 ? cells.row0 : 0, col0 = cells.cols > 0 ? cells.col0 : 0;
  const int shown_rows = cells.rows > 0 ? cells.rows : spec.rows, shown_cols = cells.cols > 0 ? cells.cols : spec.cols;
  const int rows = std::min(shown_rows, A11yTable::kMaxSide), cols = std::min(shown_cols, A11yTable::kMaxSide);
  const auto label = [](const std::vector<std::string>* labels, int i) {
    const std::string index = std::to_string(i);
    return labels && i < int(labels->size()) ? index + " " + (*labels)[std::size_t(i)] : index;
  };
  for (int r = 0; r < rows; ++r) table.rows.push_back(label(spec.row_labels, row0 + r));
  for (int c = 0; c < cols; ++c) table.columns.push_back(label(spec.col_labels, col0 + c));
  table.values.reserve(std::size_t(rows) * std::size_t(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      table.values.push_back(spec.values[std::size_t(row0 + r) * std::size_t(spec.cols) + std::size_t(col0 + c)]);
  if (rows < spec.rows || cols < spec.cols) {
    char note[160];
    std::snprintf(note, sizeof note, tr("a11y.window.fmt"), row0, row0 + rows - 1, spec.rows, col0, col0 + cols - 1,
                  spec.cols);
    table.note = note;
  }
  state.a11y_tables.push_back(std::move(table));
}

std::string a11y_json(const AppState& state) {
  const A11yView view = a11y_view(state);
  Json tables = Json::array();
  for (const A11yTable& table : view.tables) tables.push_back(table_json(table));
  Json cursor = nullptr;
  const bool has_cursor = state.view == View::Heatmaps && state.result && !state.result->tokens.empty();
  if (has_cursor) {
    AppState& clamped = const_cast<AppState&>(state);  // the tokens may have changed since the last key
    clamp_cursor(clamped);
    cursor = {{"heatmap", state.selected_head < 0 ? "average" : "head" + std::to_string(state.selected_head)},
              {"query", state.selected_query}, {"key", state.cursor.key}, {"text", cursor_text(state)},
              {"moves", state.cursor.moves}};
  }
  const Json out = {{"lang", current_language().code},
                    {"view", view_id(state.view)},
                    {"title", view.title},
                    {"canvas_label", view.title + " — " + tr(has_cursor ? "a11y.canvas.keys" : "a11y.canvas")},
                    {"summary", view.summary},
                    {"tables", std::move(tables)},
                    {"controls", controls_json(state)},
                    {"cursor", std::move(cursor)}};
  // Tokens are checked UTF-8 (tokenizer); replace, never abort, if one slipped through.
  return out.dump(-1, ' ', false, Json::error_handler_t::replace);
}

}  // namespace attn::ui
