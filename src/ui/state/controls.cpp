// The controls' table; see controls.hpp.
#include "ui/state/controls.hpp"

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"

namespace attn::ui {
namespace {

bool text_config(const AppState& s) { return s.config.input == Input::Text; }

// The slider's flags: the value stays in the row's range, on its scale.
ImGuiSliderFlags slider_flags(const ControlRow& row) {
  return ImGuiSliderFlags_AlwaysClamp | (row.logarithmic ? ImGuiSliderFlags_Logarithmic : 0);
}

// The widget of one row; true when the reader changed the value. `label` is
// the ImGui label (the visible text, or "##id" when the label is drawn beside it).
bool draw_value(const ControlRow& row, const char* label, double* value) {
  if (row.step > 0) {
    int64_t v = int64_t(*value);
    const int64_t step = int64_t(row.step);
    const bool changed = ImGui::InputScalar(label, ImGuiDataType_S64, &v, &step);
    if (changed) *value = double(v < int64_t(row.lo) ? int64_t(row.lo) : v > int64_t(row.hi) ? int64_t(row.hi) : v);
    return changed;
  }
  if (row.format[1] == 'd') {  // "%d": whole numbers
    int v = int(*value);
    const bool changed = ImGui::SliderInt(label, &v, int(row.lo), int(row.hi), row.format, slider_flags(row));
    *value = v;
    return changed;
  }
  float v = float(*value);
  const bool changed = ImGui::SliderFloat(label, &v, float(row.lo), float(row.hi), row.format, slider_flags(row));
  *value = double(v);
  return changed;
}

// The values of the rows drawn by themselves.
double temperature(const AppState& s) { return double(s.config.temperature); }
void set_temperature(AppState& s, double v) { s.config.temperature = float(v); }
bool pads_shown(const AppState& s) { return s.config.mask == Mask::Kind::Padding && text_config(s); }
double pads(const AppState& s) { return double(s.config.pads); }
void set_pads(AppState& s, double v) { s.config.pads = int(v); }
double learning_rate(const AppState& s) { return double(s.scaling.learning_rate); }
void set_learning_rate(AppState& s, double v) {
  s.scaling.learning_rate = float(v);
  training_reset(s.scaling);  // a new rate starts both models again
}

double poem_length(const AppState& s) { return double(s.poem.sample_length); }
void set_poem_length(AppState& s, double v) { s.poem.sample_length = int(v); }
double poem_temperature(const AppState& s) { return double(s.poem.sample_temperature); }
void set_poem_temperature(AppState& s, double v) { s.poem.sample_temperature = float(v); }
double poem_seed(const AppState& s) { return double(s.poem.sample_seed); }
void set_poem_seed(AppState& s, double v) { s.poem.sample_seed = int(v); }

using K = ControlKind;
using P = ControlPlace;
constexpr double kMaxSeed = 9007199254740991.0;  // 2^53 - 1: exact in a double (the widget is 64-bit, as the config)

// field, kind, label, help, lo, hi, step, format, logarithmic, place, shown, get, set, widget id
const ControlRow kRows[] = {
    // The explorer's set-up panel, top to bottom.
    {"text", K::Text, "setup.sentence", "setup.sentence.help"},
    {"d_model", K::Slider, "setup.d_model", "", 8, 512},
    {"heads", K::Slider, "setup.heads", "", 1, 16, 1},  // a config may ask for up to ExplorerLimits::kMaxHeads
    {"seed", K::Number, "setup.seed", "setup.seed.help", 0, kMaxSeed, 1},
    {"temperature", K::Number, "setup.temperature", "setup.temperature.help", 0.1, 5, 0, "%.2f", true,
     P::ExplorerScoring, nullptr, temperature, set_temperature},
    {"scale", K::Choice, "setup.scale", "setup.scale.help"},
    {"projection", K::Choice, "setup.projection", "setup.projection.note"},
    {"positions", K::Checkbox, "setup.positions", ""},
    {"shuffle", K::Number, "setup.shuffle", "setup.shuffle.help", 0, kMaxSeed, 1},
    {"mask", K::Choice, "setup.mask", ""},
    {"pads", K::Slider, "setup.pads", "", 0, 32, 0, "%d", false, P::ExplorerMask, pads_shown, pads, set_pads},
    // The scaling lab's set-up panel.
    {"dk", K::Choice, "scaling.dk", "scaling.dk.help", ScalingLimits::kMinDk, ScalingLimits::kMaxDk, 0, "%d", true},
    {"samples", K::Choice, "scaling.samples", "scaling.samples.help"},
    {"keys", K::Slider, "scaling.keys", "scaling.keys.help", ScalingLimits::kMinKeys, ScalingLimits::kMaxKeys, 0, "%d",
     true},
    {"train_dk", K::Choice, "scaling.train.dk", ""},
    {"train_lr", K::Number, "scaling.train.lr", "scaling.train.lr.help", 0.0001, 0.1, 0, "%.4f", true,
     P::ScalingTraining, nullptr, learning_rate, set_learning_rate},
    // The learned-heads view's 续写 (continue).
    {"poem_length", K::Slider, "poem.sample.length", "", 1, api::PoemLimits::kMaxSampleLength, 0, "%d", false,
     P::PoemContinue, nullptr, poem_length, set_poem_length},
    {"poem_temperature", K::Slider, "poem.sample.temperature", "poem.sample.temperature.help", 0, 2, 0, "%.2f", false,
     P::PoemContinue, nullptr, poem_temperature, set_poem_temperature},
    {"poem_seed", K::Number, "setup.seed", "", 0, 2147483647, 1, "%d", false, P::PoemContinue, nullptr, poem_seed,
     set_poem_seed},
};

}  // namespace

const std::vector<ControlRow>& control_rows() {
  static const std::vector<ControlRow> rows(std::begin(kRows), std::end(kRows));
  return rows;
}

const ControlRow& control_row(const std::string& field) {
  for (const ControlRow& row : control_rows())
    if (field == row.field) return row;
  return control_rows().front();
}

std::vector<const ControlRow*> placed_controls(const AppState& state, ControlPlace place) {
  std::vector<const ControlRow*> placed;
  for (const ControlRow& row : control_rows())
    if (row.place == place && row.get && (!row.shown || row.shown(state))) placed.push_back(&row);
  return placed;
}

void draw_placed_controls(AppState& state, ControlPlace place) {
  const float width = ImGui::GetContentRegionAvail().x * 0.6f;
  for (const ControlRow* row : placed_controls(state, place)) {
    const std::string id = row->widget_id ? row->widget_id : row->field;
    double value = row->get(state);
    bool changed = false;
    if (place == ControlPlace::ScalingTraining) {
      column_label(tr(row->label_key));
      changed = draw_value(*row, ("##" + id).c_str(), &value);
    } else {
      ImGui::SetNextItemWidth(width);
      changed = draw_value(*row, tr(row->label_key), &value);
    }
    if (changed) row->set(state, value);
    record_control(state, id);
    if (*row->help_key) {
      ImGui::SameLine();
      help_marker(tr(row->help_key));
    }
  }
}

// The string tables name them by the core's own ids: "mask." + mask_name, "projection." + projection_name.
std::string mask_label_key(Mask::Kind kind) { return std::string("mask.") + mask_name(kind); }

std::string projection_label_key(Projection projection) {
  return std::string("projection.") + projection_name(projection);
}

}  // namespace attn::ui
