// The accessible mirror of the open view (see a11y.hpp): the heatmap tables
// collected while drawing, the cell cursor's keys and announcement, the
// controls, and the JSON the page builds its hidden DOM from. The per-view
// summaries and plot tables are in a11y_views.cpp.
#include "ui/a11y/a11y.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>

#include <imgui.h>

#include "gfx/heatmap.hpp"
#include "ui/a11y/a11y_views.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/app_state.hpp"
#include "ui/state/controls.hpp"
#include "ui/state/export_requests.hpp"
#include "ui/state/presets.hpp"
#include "ui/widgets/theme.hpp"

namespace attn::ui {
namespace {

bool key_pressed(ImGuiKey key) { return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key)); }

// ---- the page's JSON, written by hand ---------------------------------------------
// Flat text of strings, numbers and lists: a few lines. (nlohmann's dump
// aborts a no-exceptions build on a byte that is not UTF-8 unless told to
// replace it; here the page decodes any stray byte as U+FFFD and the JSON
// stays valid. The text is checked UTF-8 anyway: the tokenizer.)
std::string quote(const std::string& text) {
  std::string out = "\"";
  for (const char ch : text) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(static_cast<unsigned char>(ch)));
      out += escape;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}
std::string number(double value) {
  if (!std::isfinite(value)) return "null";
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", value);
  return text;
}
// [a, b, ...] of JSON texts.
std::string array(const std::vector<std::string>& items) {
  std::string out = "[";
  for (const std::string& item : items) out += (out.size() > 1 ? "," : "") + item;
  return out + "]";
}
std::string strings(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) quoted.push_back(quote(item));
  return array(quoted);
}
// {"key": value, ...} of JSON texts.
std::string object(const std::vector<std::pair<const char*, std::string>>& members) {
  std::string out = "{";
  for (const auto& [key, value] : members) out += (out.size() > 1 ? "," : "") + quote(key) + ":" + value;
  return out + "}";
}

std::string table_json(const A11yTable& table) {
  std::vector<std::string> rows;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string> cells;
    if (!table.text.empty()) {
      cells = table.text[r];
    } else {
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        const float value = table.values[r * table.columns.size() + c];
        // The steps' "+ mask" matrix marks masked cells (drawn grey): say so, not -3.4e38.
        cells.push_back(value == gfx::kMaskedValue ? tr("a11y.masked_cell") : a11y_number(value));
      }
    }
    rows.push_back(object({{"header", quote(table.rows[r])}, {"cells", strings(cells)}}));
  }
  return object({{"caption", quote(table.caption)}, {"corner", quote(table.corner)}, {"columns", strings(table.columns)},
                 {"rows", array(rows)}, {"note", quote(table.note)}, {"heatmap", quote(table.heatmap)}});
}

// One control of the page's panel (web/a11y.js); value and options' values are JSON texts.
struct Control {
  std::string field, label, kind, value = "null";
  std::vector<std::pair<std::string, std::string>> options;  // value, label
  std::string min = "null", max = "null", step = "null";

  Control& option(std::string option_value, std::string option_label) {
    options.emplace_back(std::move(option_value), std::move(option_label));
    return *this;
  }
  std::string json() const {
    std::vector<std::string> items;
    for (const auto& [v, l] : options) items.push_back(object({{"value", v}, {"label", quote(l)}}));
    return object({{"field", quote(field)}, {"label", quote(label)}, {"kind", quote(kind)}, {"value", value},
                   {"options", array(items)}, {"min", min}, {"max", max}, {"step", step}});
  }
};

// The page's controls, in order (not widgets/records.hpp's Controls: where widgets landed).
using PageControls = std::vector<Control>;

// Appends a control; value is JSON text.
Control& add(PageControls& controls, const char* field, const char* label, const char* kind, std::string value) {
  Control& c = controls.emplace_back();
  c.field = field;
  c.label = label;
  c.kind = kind;
  c.value = std::move(value);
  return c;
}

// A control as its row describes it (state/controls.hpp), with a value.
Control& add_row(PageControls& controls, const ControlRow& row, std::string value) {
  static const char* const kinds[] = {"text", "select", "checkbox", "range", "number"};  // ControlKind's order
  return add(controls, row.field, tr(row.label_key), kinds[int(row.kind)], std::move(value));
}

// A number control: the set-up panel's widget has the same range and step.
void add_ranged(PageControls& controls, const ControlRow& row, double value) {
  Control& c = add_row(controls, row, number(value));
  c.min = number(row.lo);
  c.max = number(row.hi);
  if (row.step > 0) c.step = number(row.step);
}

void add_int_select(PageControls& controls, const ControlRow& row, int value, const std::vector<int>& values) {
  Control& select = add_row(controls, row, std::to_string(value));
  for (const int v : values) select.option(std::to_string(v), std::to_string(v));
}

// The rows that draw themselves at `place`, as the panel draws them there.
void add_placed(PageControls& controls, const AppState& state, ControlPlace place) {
  for (const ControlRow* row : placed_controls(state, place)) add_ranged(controls, *row, row->get(state));
}

// The explorer's set-up controls in the set-up panel's order, then the head
// and query its views read.
void explorer_controls(PageControls& controls, const AppState& state) {
  const ExplorerConfig& c = state.config;
  const bool text = c.input == Input::Text;
  if (text) add_row(controls, control_row("text"), quote(c.text));
  // A preset is applied when picked; the first entry only names the list.
  Control& preset = add(controls, "preset", tr("setup.presets"), "select", quote(""));
  preset.option(quote(""), "(" + std::string(tr("setup.presets")) + ")");
  for (const Preset& p : presets()) preset.option(quote(p.id), tr(p.label_key.c_str()));
  if (text) add_ranged(controls, control_row("d_model"), c.d_model);
  add_ranged(controls, control_row("heads"), c.heads);
  if (text) add_ranged(controls, control_row("seed"), double(c.seed));
  add_placed(controls, state, ControlPlace::ExplorerScoring);
  Control& scale = add_row(controls, control_row("scale"), quote(c.scale.kind == Scale::Kind::None ? "none" : "sqrt"));
  scale.option(quote("sqrt"), tr("setup.scale.sqrt")).option(quote("none"), tr("setup.scale.none"));
  if (c.scale.kind == Scale::Kind::Value) {  // from a config: shown as the canvas shows it
    char label[32];
    std::snprintf(label, sizeof label, "x %g", double(c.scale.value));
    scale.value = number(c.scale.value);
    scale.option(scale.value, label);
  }
  if (text) {
    Control& projection = add_row(controls, control_row("projection"), quote(projection_name(c.projection)));
    for (const Projection p : {Projection::Random, Projection::Identity, Projection::Chapter})
      projection.option(quote(projection_name(p)), tr(projection_label_key(p).c_str()));
    if (c.projection == Projection::Trained)  // chosen on the canvas, from the scaling lab's model
      projection.option(quote(projection_name(c.projection)), tr(projection_label_key(c.projection).c_str()));
    add_row(controls, control_row("positions"), c.positions ? "true" : "false");
    add_ranged(controls, control_row("shuffle"), double(c.shuffle));
  }
  Control& mask = add_row(controls, control_row("mask"), quote(mask_name(c.mask)));
  for (const Mask::Kind kind : {Mask::Kind::None, Mask::Kind::Causal, Mask::Kind::Padding})
    mask.option(quote(mask_name(kind)), tr(mask_label_key(kind).c_str()));
  if (c.mask == Mask::Kind::Custom) {  // the mask in use (space on the cell cursor toggles its cells)
    mask.value = quote(mask_name(c.mask));
    mask.option(mask.value, tr(mask_label_key(c.mask).c_str()));
  } else if (state.result && state.result->tokens.size() <= std::size_t(A11yTable::kMaxSide)) {
    // A custom mask starts as every pair allowed: the field's n x n list of 1s.
    const std::size_t n = state.result->tokens.size();
    std::string row = "[";
    for (std::size_t k = 0; k < n; ++k) row += k ? ",1" : "1";
    row += "]";
    std::string all = "[";
    for (std::size_t q = 0; q < n; ++q) all += (q ? "," : "") + row;
    mask.option(all + "]", tr(mask_label_key(Mask::Kind::Custom).c_str()));
  }
  add_placed(controls, state, ControlPlace::ExplorerMask);
  if (!state.result) return;
  const ExplorerResult& r = *state.result;
  Control& head = add(controls, "head", tr("a11y.head"), "select", std::to_string(state.selected_head));
  head.option("-1", tr("view.average"));
  for (int h = 0; h < int(r.attention.heads.size()); ++h) head.option(std::to_string(h), head_title(h));
  Control& query = add(controls, "query", tr("axis.query"), "select", std::to_string(state.selected_query));
  for (int q = 0; q < int(r.tokens.size()); ++q) query.option(std::to_string(q), token_label(r, q));
}

// The tab bar's Export popup: a file to pick (the page keeps the choice), then
// the button saves it (a11y_press("export:<file>"), named as request_export
// names files): the view's PNG, and in the explorer every matrix as CSV or JSON.
void export_controls(PageControls& controls, const AppState& state) {
  Control& what = add(controls, "export_what", tr("export.button"), "choice", quote("png"));
  what.option(quote("png"), tr("export.png"));
  if (open_view(state).exports == ViewExports::Poem && state.poem.reading)
    for (const char* id : kPoemExports)
      for (const char* format : {"csv", "json"})
        what.option(quote(std::string(id) + "." + format), std::string(tr((std::string("export.") + id).c_str())) +
                                                               " (" + tr(format[0] == 'c' ? "export.csv" : "export.json") + ")");
  if (open_view(state).exports == ViewExports::Matrices && state.result)
    for (const ExportItem& item : export_items(*state.result))
      for (const char* format : {"csv", "json"}) {
        std::string label = tr(item.label_key);
        if (item.head >= 0) label += ", " + head_title(item.head);
        label += std::string(" (") + tr(format[0] == 'c' ? "export.csv" : "export.json") + ")";
        what.option(quote(item.id + "." + format), label);
      }
  add(controls, "export", tr("export.button"), "button", quote("export_what"));
}

// The scaling lab's panel and the open panel's controls.
void scaling_controls(PageControls& controls, const AppState& state) {
  const ScalingLab& lab = state.scaling;
  Control& panel = add(controls, "panel", tr("a11y.panel"), "select", quote(scaling_panel_id(lab.panel)));
  for (const ScalingPanel p : {ScalingPanel::Figure42, ScalingPanel::Saturation, ScalingPanel::Training})
    panel.option(quote(scaling_panel_id(p)), tr(scaling_panel_label_key(p)));
  if (lab.panel == ScalingPanel::Training) {
    add_int_select(controls, control_row("train_dk"), lab.train_d_k, training_dims());
    add_placed(controls, state, ControlPlace::ScalingTraining);
    // The panel's buttons: actions (a11y_press), not state fields.
    for (const TrainingAction& action : training_actions())
      add(controls, action.id, tr(action.label_key), "button", "null");
    return;
  }
  std::vector<int> dims = scaling_grid();
  if (std::find(dims.begin(), dims.end(), lab.d_k) == dims.end()) dims.push_back(lab.d_k);
  std::sort(dims.begin(), dims.end());
  add_int_select(controls, control_row("dk"), lab.d_k, dims);
  if (lab.panel == ScalingPanel::Figure42)
    add_int_select(controls, control_row("samples"), lab.samples, scaling_sample_counts());
  else
    add_ranged(controls, control_row("keys"), lab.n_keys);
}

// The learned-heads view's controls, as its set-up panel and heatmaps offer
// them: the text or a held-out poem, the layer, head and position, 续写.
void poem_controls(PageControls& controls, const AppState& state) {
  const PoemLab& lab = state.poem;
  if (lab.load != ModuleLoad::Ready || !lab.summary) {
    if (lab.load == ModuleLoad::Failed) add(controls, "poem_retry", tr("poem.load.retry"), "button", "null");
    return;
  }
  add(controls, "poem_text", tr("poem.text"), "text", quote(poem_text_shown(lab)));
  add(controls, "poem_probe", tr("poem.probe"), "button", "null");
  Control& pick = add(controls, "poem", tr("poem.held_out"), "select", std::to_string(lab.poem));
  pick.option("-1", tr("poem.source.own"));
  for (int i = 0; i < int(lab.summary->held_out.size()); ++i)
    pick.option(std::to_string(i), std::to_string(i + 1) + ". " + poem_label(*lab.summary, i));
  Control& layer = add(controls, "poem_layer", tr("poem.layer"), "select", std::to_string(lab.layer));
  for (int l = 0; l < lab.summary->layers; ++l) layer.option(std::to_string(l), std::to_string(l + 1));
  Control& head = add(controls, "poem_head", tr("a11y.head"), "select", std::to_string(lab.head));
  for (int h = 0; h < lab.summary->heads; ++h) head.option(std::to_string(h), std::to_string(h + 1));
  if (lab.reading) {
    Control& query = add(controls, "poem_query", tr("axis.query"), "select", std::to_string(poem_query(lab)));
    for (int t = 0; t < lab.reading->size(); ++t)
      query.option(std::to_string(t), std::to_string(t) + " " + poem_token_label(lab.reading->tokens[std::size_t(t)]));
  }
  Control& start = add(controls, "poem_start", tr("poem.sink.title"), "select",
                       quote(lab.sink_start.empty() ? "poem" : lab.sink_start));
  for (const std::string& s : poem_starts()) start.option(quote(s.empty() ? "poem" : s), poem_start_label(s));
  add_placed(controls, state, ControlPlace::PoemContinue);
  add(controls, "poem_continue", tr(lab.sampling ? "poem.sample.stop" : "poem.sample.go"), "button", "null");
}

// The controls a keyboard or screen-reader reader needs to do what a mouse
// reader does on the canvas, in the layout's order: the view, the open
// view's controls, the language and the theme. Each is a state field
// (lab_state.hpp) the page sets with set(), or a button (a11y_press); the
// labels are the canvas's own.
std::string controls_json(const AppState& state) {
  // A figure shown as in a book (?controls=none) has none: the canvas, with
  // its cell cursor, is its one Tab stop, as the author chose.
  if (state.controls_mode == ControlsMode::None) return "[]";
  PageControls controls;
  Control& view = add(controls, "view", tr("a11y.view"), "select", quote(view_id(state.view)));
  for (const ViewSpec& spec : views())
    if (view_shown(state, spec)) view.option(quote(spec.id), tr(spec.label_key));
  const ViewSpec& open = open_view(state);
  if (open.a11y_controls && open.source == ViewSource::Scaling) scaling_controls(controls, state);
  else if (open.a11y_controls && open.source == ViewSource::Poem) poem_controls(controls, state);
  else if (open.a11y_controls) explorer_controls(controls, state);
  export_controls(controls, state);
  add(controls, "copy_link", tr("link.copy"), "button", "null");
  Control& language = add(controls, "lang", tr("a11y.lang"), "select", quote(current_language().code));
  for (const Language& l : languages()) language.option(quote(l.code), l.name);
  add(controls, "theme", tr("a11y.theme"), "select", quote(theme_id(state.theme)));
  controls.back().option(quote("light"), tr("a11y.theme.light")).option(quote("dark"), tr("a11y.theme.dark"));
  std::vector<std::string> items;
  for (const Control& c : controls) items.push_back(c.json());
  return array(items);
}

// What the cursor's cell says: head, query, key, raw and scaled score and
// weight (the head average has only weights), as the cell's tooltip.
std::string cursor_text(const ExplorerResult& r, int head, int q, int k) {
  std::string text = (head < 0 ? std::string(tr("view.average")) : head_title(head)) + "; " + tr("tip.query") + " " +
                     token_label(r, q) + "; " + tr("tip.key") + " " + token_label(r, k) + "; ";
  if (head < 0) return text + tr("tip.weight") + " " + a11y_number(r.attention.average_weights(q, k));
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  text += std::string(tr("tip.raw")) + " " + a11y_number(h.raw_scores(q, k)) + "; " + tr("tip.scaled") + " " +
          a11y_number(h.scaled_scores(q, k)) + "; " + tr("tip.weight") + " " + a11y_number(h.weights(q, k));
  if (!h.allowed(q, k)) text += std::string("; ") + tr("tip.masked");
  return text;
}

// The cursor's cell on the result's cells (the tokens or heads may have changed since the last key).
struct CursorCell {
  int head, query, key;
};
CursorCell cursor_cell(const AppState& state) {
  const ExplorerResult& r = *state.result;
  const int n = int(r.tokens.size()), heads = int(r.attention.heads.size());
  return {std::clamp(state.selected_head, -1, heads - 1), std::clamp(state.selected_query, 0, n - 1),
          std::clamp(state.cursor.key, 0, n - 1)};
}

}  // namespace

bool a11y_press(AppState& state, const std::string& action) {
  mark_state_changed(state);
  ScalingLab& lab = state.scaling;
  if (action.rfind("export:", 0) == 0) return request_export(state, action.substr(7));
  if (action == "copy_link") {
    state.copy_link_request = true;
    return true;
  }
  if (action == "poem_continue") {
    if (state.poem.sampling) state.poem.sampling = false;
    else poem_continue(state);
    return true;
  }
  if (action == "poem_probe") {
    poem_probe(state);
    return true;
  }
  if (action == "poem_retry") {
    if (state.poem.load == ModuleLoad::Failed) state.poem.load = ModuleLoad::Requested;
    return true;
  }
  for (const TrainingAction& training : training_actions())
    if (action == training.id) {
      training.press(lab);
      return true;
    }
  return false;
}

std::string a11y_number(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", double(value));
  return text;
}

void handle_cell_keys(AppState& state) {
  if (!state.result || state.result->tokens.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput || ImGui::IsAnyItemActive() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopup)) return;
  const int n = int(state.result->tokens.size()), heads = int(state.result->attention.heads.size());
  auto [head, q, k] = cursor_cell(state);
  const bool up = key_pressed(ImGuiKey_UpArrow), down = key_pressed(ImGuiKey_DownArrow);
  if (up) q = std::max(0, q - 1);
  if (down) q = std::min(n - 1, q + 1);
  if (up || down) state.selected_query = q;  // no key, no change: a query set for a newer result stays
  if (!open_view(state).cell_cursor) return;
  const bool left = key_pressed(ImGuiKey_LeftArrow), right = key_pressed(ImGuiKey_RightArrow);
  if (left) k = std::max(0, k - 1);
  if (right) k = std::min(n - 1, k + 1);
  if (key_pressed(ImGuiKey_Home)) k = 0;
  if (key_pressed(ImGuiKey_End)) k = n - 1;
  if (key_pressed(ImGuiKey_PageUp)) head = head <= -1 ? heads - 1 : head - 1;
  if (key_pressed(ImGuiKey_PageDown)) head = head >= heads - 1 ? -1 : head + 1;
  // Space toggles the cell in a custom mask, as a click on it does (heatmaps.cpp).
  const bool toggle = key_pressed(ImGuiKey_Space) && state.config.mask == Mask::Kind::Custom;
  MaskMatrix& m = state.config.custom_mask;
  if (toggle && state.error.empty() && m.rows() == n && m.cols() == n) m(q, k) = !m(q, k);
  // Every key press is one announcement, also at an edge (the reader hears where the cursor is).
  if (!(up || down || left || right || toggle || k != state.cursor.key || head != state.selected_head)) return;
  state.selected_query = q;
  state.cursor.key = k;
  state.selected_head = head;
  state.cursor.shown = true;
  ++state.cursor.moves;
}

std::string a11y_json(const AppState& state) {
  const A11yView view = a11y_view(state);
  std::vector<std::string> tables;
  for (const A11yTable& table : state.a11y_tables)
    if (view.only_heatmap.empty() || table.heatmap == view.only_heatmap) tables.push_back(table_json(table));
  for (const A11yTable& table : view.tables) tables.push_back(table_json(table));
  std::string cursor = "null";
  const bool has_cursor = open_view(state).cell_cursor && state.result && !state.result->tokens.empty();
  if (has_cursor) {
    const CursorCell cell = cursor_cell(state);
    cursor = object({{"heatmap", quote(cell.head < 0 ? "average" : "head" + std::to_string(cell.head))},
                     {"query", std::to_string(cell.query)}, {"key", std::to_string(cell.key)},
                     {"text", quote(cursor_text(*state.result, cell.head, cell.query, cell.key))},
                     {"moves", std::to_string(state.cursor.moves)}});
  }
  return object({{"lang", quote(current_language().code)},
                 {"view", quote(view_id(state.view))},
                 {"title", quote(view.title)},
                 {"canvas_label", quote(view.title + " — " + tr(has_cursor ? "a11y.canvas.keys" : "a11y.canvas"))},
                 {"summary", quote(view.summary)},
                 {"tables", array(tables)},
                 {"controls", controls_json(state)},
                 {"cursor", cursor}});
}

}  // namespace attn::ui
