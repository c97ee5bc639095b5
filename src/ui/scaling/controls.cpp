// The scaling lab's set-up panel (left of the views while the lab is open):
// d_k, sample count and keys for the statistics, the current d_k's numbers,
// and the training controls. Each control only writes ScalingLab; the next
// scaling_update recomputes what it affects.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/controls.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

void section_title(const char* key) {
  ImGui::Spacing();
  ui::text(tr(key));
  ImGui::Separator();
}

// A combo over a list of ints; true when the choice changed. The combo is
// recorded as control `name`, its open items as `name`_item_<value>.
bool int_combo(AppState& state, const char* id, int* value, const std::vector<int>& choices, const char* name) {
  bool changed = false;
  const std::string preview = std::to_string(*value);
  const bool open = ImGui::BeginCombo(id, preview.c_str());
  record_control(state, name);
  if (open) {
    for (int choice : choices) {
      const bool selected = choice == *value;
      if (ImGui::Selectable(std::to_string(choice).c_str(), selected) && !selected) {
        *value = choice;
        changed = true;
      }
      record_control(state, std::string(name) + "_item_" + std::to_string(choice));
      if (selected) ImGui::SetItemDefaultFocus();
    }
    ImGui::EndCombo();
  }
  return changed;
}

void score_controls(AppState& state) {
  ScalingLab& lab = state.scaling;
  section_title("scaling.scores.title");

  const ControlRow& dk = control_row("dk");
  column_label(tr(dk.label_key));
  ImGui::SliderInt("##scaling_dk", &lab.d_k, int(dk.lo), int(dk.hi), "%d",
                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  record_control(state, "scaling_dk");
  lab.dk_dragging = ImGui::IsItemActive();
  ImGui::SameLine();
  help_marker(tr(dk.help_key));

  const ControlRow& samples = control_row("samples");
  column_label(tr(samples.label_key));
  int_combo(state, "##scaling_samples", &lab.samples, scaling_sample_counts(), "scaling_samples");
  ImGui::SameLine();
  help_marker(tr(samples.help_key));

  const ControlRow& keys = control_row("keys");
  column_label(tr(keys.label_key));
  ImGui::SliderInt("##scaling_keys", &lab.n_keys, int(keys.lo), int(keys.hi), "%d",
                   ImGuiSliderFlags_Logarithmic | ImGuiSliderFlags_AlwaysClamp);
  record_control(state, "scaling_keys");
  ImGui::SameLine();
  help_marker(tr(keys.help_key));
  if (ImGui::Button(tr("scaling.resample"))) ++lab.row_seed;
  record_control(state, "scaling_resample");
  ImGui::SameLine();
  help_marker(tr("scaling.resample.help"));
}

void current_numbers(AppState& state) {
  const ScalingLab& lab = state.scaling;
  // The last computed d_k (while a slow drag waits, that is the one drawn).
  if (!lab.current) return;
  const int d_k = lab.current->d_k;
  const ScalingNumbersText text = scaling_numbers_text(*lab.current);
  ImGui::Spacing();
  ui::text_wrapped(tr("scaling.numbers.dk.fmt"), d_k, lab.current_samples);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchSame;
  if (!ImGui::BeginTable("##scaling_numbers", 3, flags)) return;
  ImGui::TableSetupColumn("");
  ImGui::TableSetupColumn(tr("scaling.raw"));
  ImGui::TableSetupColumn(tr("scaling.scaled"));
  ImGui::TableHeadersRow();
  char theory[32];
  std::snprintf(theory, sizeof theory, "%.4f", std::sqrt(double(d_k)));
  const char* rows[][3] = {{tr("scaling.numbers.std"), text.raw_std.c_str(), text.scaled_std.c_str()},
                           {tr("scaling.numbers.theory"), theory, "1"},
                           {tr("scaling.numbers.peak"), text.raw_peak.c_str(), text.scaled_peak.c_str()}};
  for (const auto& row : rows) {
    ImGui::TableNextRow();
    for (const char* cell : row) {
      ImGui::TableNextColumn();
      ui::text(cell);
    }
  }
  ImGui::EndTable();
}

void training_controls(AppState& state) {
  ScalingLab& lab = state.scaling;
  section_title("scaling.train.title");
  ui::text_wrapped("%s", tr("scaling.train.task"));
  ui::text_disabled("%s", tr("scaling.train.task.more"));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap_width());
    ui::text(tr("scaling.train.task.help"));
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  column_label(tr(control_row("train_dk").label_key));
  if (int_combo(state, "##train_dk", &lab.train_d_k, training_dims(), "train_dk")) training_reset(lab);
  draw_placed_controls(state, ControlPlace::ScalingTraining);  // the learning rate

  // Start / Pause / Step / Reset in a 2 x 2 grid that fits narrow panels.
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 button((ImGui::GetContentRegionAvail().x - gap) * 0.5f, 0);
  const std::vector<TrainingAction>& actions = training_actions();
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const TrainingAction& action = actions[i];
    if (i % 2) ImGui::SameLine();
    if (action.enabled) ImGui::BeginDisabled(!action.enabled(lab));
    const bool pressed = ImGui::Button(tr(action.label_key), button);
    if (action.enabled) ImGui::EndDisabled();
    if (pressed) action.press(lab);
    record_control(state, action.id);
  }

  const TrainerSummary s = trainer_summary(lab.scaled_model.get());
  ui::textf(tr(lab.running ? "scaling.train.running.fmt" : "scaling.train.paused.fmt"), s.steps);
  if (lab.running)
    ui::text_disabled(tr("scaling.train.speed.fmt"), lab.steps_last_frame, lab.train_ms_last_frame);
  else if (lab.stopped == ScalingLab::Stopped::Converged)
    ui::text_wrapped(tr("scaling.train.stopped.converged.fmt"), lab.stopped_at);
  else if (lab.stopped == ScalingLab::Stopped::Budget)
    ui::text_wrapped(tr("scaling.train.stopped.budget.fmt"), lab.stopped_at, ScalingLab::kTrainStepBudget);
  if (!lab.train_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().error));
    ui::text_wrapped("%s %s", tr("setup.error"), lab.train_error.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace

void scaling_setup_panel(AppState& state) {
  title_with_help(tr("scaling.title"), tr("scaling.help"));
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().formula));
  ui::text_wrapped("%s", tr("scaling.formula"));
  ImGui::PopStyleColor();
  score_controls(state);
  current_numbers(state);
  training_controls(state);
}

}  // namespace attn::ui
