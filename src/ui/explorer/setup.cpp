// The set-up panel: what the reader types and chooses. Every control only
// edits state.config; update_result (update.cpp) sees the change and runs
// the core once (not every frame). The preset buttons load ui/state/presets.hpp's data.
#include <algorithm>
#include <cstdio>
#include <vector>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/controls.hpp"
#include "ui/state/presets.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

void sentence_box(AppState& state) {
  const ControlRow& sentence = control_row("text");
  title_with_help(tr(sentence.label_key), tr(sentence.help_key));
  ImGui::SetNextItemWidth(-1);
  // InputTextMultiline wraps nothing in 1.86; one line keeps Enter meaningful.
  if (state.config.input == Input::Text) {
    if (ImGui::InputText("##sentence", state.config.text.data(), state.config.text.capacity() + 1,
                         ImGuiInputTextFlags_CallbackResize, resize_string, &state.config.text))
      state.config.input = Input::Text;
  } else {
    // An experiment has no sentence: the box is empty, and typing starts one
    // (the same widget id, so the text being typed carries over to the branch above).
    std::string typed;
    if (ImGui::InputTextWithHint("##sentence", tr("setup.sentence.hint"), typed.data(), typed.capacity() + 1,
                                 ImGuiInputTextFlags_CallbackResize, resize_string, &typed)) {
      state.config.text = typed;
      state.config.input = Input::Text;
    }
  }
  record_control(state, "sentence");
  if (state.config.input == Input::Figure41) ui::text_wrapped("%s", tr("setup.input.fig41"));
  if (state.config.input == Input::Causal) ui::text_wrapped("%s", tr("setup.input.causal"));
}

void preset_buttons(AppState& state) {
  ui::text(tr("setup.presets"));
  for (const Preset& preset : presets()) {
    // Long labels are cut to the panel width; the tooltip shows the whole
    // label and the sentence the preset loads.
    const std::string label = std::string(tr(preset.label_key.c_str())) + "##" + preset.id;
    if (ImGui::Button(label.c_str(), ImVec2(-1, 0))) apply_preset(state, preset.id);
    record_control(state, "preset_" + preset.id);
    if (ImGui::IsItemHovered()) {
      ImGui::BeginTooltip();
      ui::text(tr(preset.label_key.c_str()));
      if (preset.config.input == Input::Text) ui::text_disabled("%s", preset.config.text.c_str());
      ImGui::EndTooltip();
    }
  }
}

void size_controls(AppState& state) {
  ExplorerConfig& c = state.config;
  const float button = ImGui::GetFrameHeight();
  const float spacing = ImGui::GetStyle().ItemInnerSpacing.x;
  const float width = std::max(ImGui::GetContentRegionAvail().x * 0.6f, button * 3);
  const ControlRow& d_model = control_row("d_model");
  ImGui::SetNextItemWidth(width);
  ImGui::SliderInt(tr(d_model.label_key), &c.d_model, int(d_model.lo), int(d_model.hi), "%d",
                   ImGuiSliderFlags_AlwaysClamp);
  record_control(state, d_model.field);

  // heads: a slider (ctrl+click to type) between - and + buttons.
  const ControlRow& heads = control_row("heads");
  const int min_heads = int(heads.lo), max_heads = int(heads.hi), step = int(heads.step);
  ImGui::PushButtonRepeat(true);
  if (ImGui::Button("-##heads", ImVec2(button, button)) && c.heads > min_heads)
    c.heads = std::max(min_heads, c.heads - step);
  record_control(state, "heads_minus");
  ImGui::SameLine(0, spacing);
  ImGui::SetNextItemWidth(width - 2 * (button + spacing));
  ImGui::SliderInt("##heads", &c.heads, min_heads, max_heads, "%d", ImGuiSliderFlags_AlwaysClamp);
  record_control(state, heads.field);
  ImGui::SameLine(0, spacing);
  if (ImGui::Button("+##heads", ImVec2(button, button)) && c.heads < max_heads)
    c.heads = std::min(max_heads, c.heads + step);
  record_control(state, "heads_plus");
  ImGui::PopButtonRepeat();
  ImGui::SameLine(0, spacing);
  ui::text(tr(heads.label_key));

  // heads must divide d_model: say so and offer the nearest counts that do.
  if (c.input == Input::Text && c.heads > 0 && c.d_model % c.heads != 0) {
    int below = 0, above = 0;
    nearest_valid_heads(c.d_model, c.heads, below, above);
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().error));
    ui::text_wrapped(tr("setup.heads.invalid.fmt"), c.heads, c.d_model);
    ImGui::PopStyleColor();
    const int options[2] = {below, above};
    const char* names[2] = {"heads_use_below", "heads_use_above"};
    for (int i = 0; i < 2; ++i) {
      if (options[i] < min_heads || options[i] > max_heads) continue;  // the slider's range
      char label[48];
      std::snprintf(label, sizeof label, tr("setup.heads.use.fmt"), options[i]);
      if (i == 1 && below > 0) ImGui::SameLine();
      if (ImGui::Button(label)) c.heads = options[i];
      record_control(state, names[i]);
    }
  }

  // 64-bit, as in the config (a seed from --config or a URL must show as is).
  const ControlRow& seed = control_row("seed");
  const uint64_t seed_step = uint64_t(seed.step);
  ImGui::SetNextItemWidth(width);
  ImGui::InputScalar(tr(seed.label_key), ImGuiDataType_U64, &c.seed, &seed_step);
  record_control(state, seed.field);
  ImGui::SameLine();
  help_marker(tr(seed.help_key));
}

void scoring_controls(AppState& state) {
  ExplorerConfig& c = state.config;
  const float width = ImGui::GetContentRegionAvail().x * 0.6f;
  draw_placed_controls(state, ControlPlace::ExplorerScoring);  // the temperature

  // A numeric scale (from a config) gets a third entry, so the label matches the numbers.
  const bool numeric = c.scale.kind == Scale::Kind::Value;
  int scale = numeric ? 2 : c.scale.kind == Scale::Kind::None ? 1 : 0;
  char numeric_label[32];
  std::snprintf(numeric_label, sizeof numeric_label, "x %g", double(c.scale.value));
  const char* scales[] = {tr("setup.scale.sqrt"), tr("setup.scale.none"), numeric_label};
  const ControlRow& scale_row = control_row("scale");
  ImGui::SetNextItemWidth(width);
  if (ImGui::Combo(tr(scale_row.label_key), &scale, scales, numeric ? 3 : 2) && scale != 2)
    c.scale = scale == 1 ? Scale::none() : Scale::sqrt_dk();
  record_control(state, scale_row.field);
  ImGui::SameLine();
  help_marker(tr(scale_row.help_key));

  ImGui::BeginDisabled(c.input != Input::Text);
  const ControlRow& projection = control_row("projection");
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(tr(projection.label_key), tr(projection_label_key(c.projection).c_str()))) {
    for (int i = 0; i < 4; ++i) {
      const Projection p = Projection(i);
      // "trained" takes the scaling lab's scaled model: greyed until it has trained.
      const bool available = p != Projection::Trained || lab_has_trained_model(state.scaling);
      if (ImGui::Selectable(tr(projection_label_key(p).c_str()), c.projection == p,
                            available ? 0 : ImGuiSelectableFlags_Disabled)) {
        if (p == Projection::Trained) use_lab_model(state);
        else c.projection = p;
      }
      record_control(state, std::string("projection_item_") + projection_name(p));
    }
    ImGui::EndCombo();
  }
  record_control(state, projection.field);
  if (c.projection == Projection::Trained) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped(tr("setup.trained.fmt"), c.trained_steps,
                       tr(c.trained_scaled ? "setup.trained.scaled" : "setup.trained.raw"),
                       double(c.trained_learning_rate));
    ImGui::PopStyleColor();
  }
  int steps = 0, target = 0;
  if (retraining_progress(state, &steps, &target)) ui::text_wrapped(tr("setup.retraining.fmt"), steps, target);
  // The modes' one-line meaning, as a tooltip: the panel is narrow at 800 px.
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ui::text(tr(projection.help_key));
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  const ControlRow& positions = control_row("positions");
  ImGui::Checkbox(tr(positions.label_key), &c.positions);
  record_control(state, positions.field);
  shuffle_controls(state);
  ImGui::EndDisabled();
}

void mask_controls(AppState& state) {
  ExplorerConfig& c = state.config;
  const float width = ImGui::GetContentRegionAvail().x * 0.6f;
  static const Mask::Kind kinds[] = {Mask::Kind::None, Mask::Kind::Causal, Mask::Kind::Padding, Mask::Kind::Custom};
  const ControlRow& mask = control_row("mask");
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo(tr(mask.label_key), tr(mask_label_key(c.mask).c_str()))) {
    for (int i = 0; i < 4; ++i) {
      if (ImGui::Selectable(tr(mask_label_key(kinds[i]).c_str()), c.mask == kinds[i])) {
        c.mask = kinds[i];
        if (c.mask == Mask::Kind::Padding && c.pads == 0 && c.input == Input::Text) c.pads = 2;
      }
      record_control(state, std::string("mask_item_") + mask_name(kinds[i]));
    }
    ImGui::EndCombo();
  }
  record_control(state, mask.field);
  draw_placed_controls(state, ControlPlace::ExplorerMask);  // the pads, with a padding mask
  if (c.mask == Mask::Kind::Custom) ui::text_wrapped("%s", tr("setup.custom.note"));
}

}  // namespace

void setup_panel(AppState& state) {
  title_with_help(tr("setup.title"), tr("setup.help"));
  sentence_box(state);
  ImGui::Spacing();
  // The chapter's experiments fix their own sizes and projections: those
  // controls are shown but greyed until a sentence is typed or picked.
  const bool experiment = state.config.input != Input::Text;
  ImGui::BeginDisabled(experiment);
  size_controls(state);
  ImGui::EndDisabled();
  scoring_controls(state);
  mask_controls(state);
  if (!state.error.empty()) {
    // The last good result stays on screen; this says why the change did not apply.
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().error));
    ui::text_wrapped("%s %s", tr("setup.error"), state.error.c_str());
    ImGui::PopStyleColor();
  }
  record_control(state, "error");
  ExplorerProgress progress;
  if (explorer_progress(state, &progress)) {
    // A big recompute is spread over frames: say so (the controls keep working).
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    // The first result of a page has no last result to keep on screen.
    ui::text_wrapped(tr(state.result ? "setup.pending.fmt" : "setup.pending.first.fmt"), progress.heads_done, progress.heads, progress.percent());
    ImGui::PopStyleColor();
    record_control(state, "pending");
  }
  if (state.result) {
    const int n = int(state.result->tokens.size());
    const int heads = int(state.result->attention.heads.size());
    const int d_head = heads ? int(state.result->attention.heads[0].Q.cols()) : 0;
    char summary[96];
    std::snprintf(summary, sizeof summary, tr("setup.tokens.fmt"), n, heads, d_head);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped("%s", summary);
    ImGui::PopStyleColor();
  }
  ImGui::Separator();
  preset_buttons(state);
}

}  // namespace attn::ui
