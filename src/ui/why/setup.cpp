// The "why attention" view's set-up panel: which experiment, its task, how
// long to train, and Start / Pause / Step / Reset. A control only writes
// WhyLab; the next why_update starts the runs the choices ask for.
#include <algorithm>
#include <string>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/why/why.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// Two choices side by side, the chosen one highlighted (one above the other
// when narrow); true when it changed.
bool choice_pair(AppState& state, const char* label_key, const char* a_key, const char* b_key, bool* second,
                 const char* name) {
  ui::text(tr(label_key));
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float half = (ImGui::GetContentRegionAvail().x - gap) * 0.5f;
  const bool side_by_side = std::max(ImGui::CalcTextSize(tr(a_key)).x, ImGui::CalcTextSize(tr(b_key)).x) < half;
  const ImVec2 size(side_by_side ? half : 0.0f, 0.0f);
  const bool was = *second;
  for (int i = 0; i < 2; ++i) {
    if (i && side_by_side) ImGui::SameLine();
    ImGui::PushID(i);
    if (ImGui::Selectable(tr(i ? b_key : a_key), *second == bool(i), 0, size)) *second = bool(i);
    ImGui::PopID();
    record_control(state, std::string(name) + "_" + std::to_string(i));
  }
  return *second != was;
}

void load_notice(AppState& state) {
  WhyLab& lab = state.why;
  if (lab.load == ModuleLoad::Failed) {
    ui::text_wrapped(tr("why.load.failed.fmt"), lab.load_error.c_str());
    if (ImGui::Button(tr("poem.load.retry"))) {
      lab.load = ModuleLoad::Requested;
      lab.load_error.clear();
    }
    record_control(state, "why_retry");
  } else {
    ui::text_wrapped("%s", tr("why.load.starting"));
  }
}

void task_controls(AppState& state) {
  WhyLab& lab = state.why;
  if (lab.panel == WhyPanel::Recurrence) {
    title_with_help(tr("why.distance"), tr("why.distance.help"));
    bool mix = lab.distance == 0;
    if (ImGui::Checkbox(tr("why.mix"), &mix)) lab.distance = mix ? 0 : 32;
    record_control(state, "why_mix");
    if (!mix) {
      ImGui::SetNextItemWidth(-1);
      ImGui::SliderInt("##why_distance", &lab.distance, 1, why::kMaxDistance, "k = %d", ImGuiSliderFlags_AlwaysClamp);
      record_control(state, "why_distance");
    }
    choice_pair(state, "why.recurrent", "why.model.rnn", "why.model.gru", &lab.gru, "why_recurrent");
    title_with_help(tr("why.conv_layers"), tr("why.conv_layers.help"));
    ImGui::SetNextItemWidth(-1);
    ImGui::SliderInt("##why_layers", &lab.conv_layers, 1, why::kMaxConvLayers, tr("why.conv_layers.fmt"),
                     ImGuiSliderFlags_AlwaysClamp);
    record_control(state, "why_layers");
  } else {
    choice_pair(state, "why.task", "why.task.previous", "why.task.lookup", &lab.lookup, "why_task");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ui::text_wrapped("%s", tr(lab.lookup ? "why.task.lookup.help" : "why.task.previous.help"));
    ImGui::PopStyleColor();
  }
  ui::text(tr("why.steps"));
  ImGui::SetNextItemWidth(-1);
  ImGui::SliderInt("##why_steps", &lab.steps, 1, api::WhyLimits::kPageMaxSteps, "%d", ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
  record_control(state, "why_steps");
}

void training_buttons(AppState& state) {
  WhyLab& lab = state.why;
  const WhyRunView& run = why_run_shown(lab);
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const ImVec2 button((ImGui::GetContentRegionAvail().x - gap) * 0.5f, 0);
  const struct {
    const char* label_key;
    const char* id;
    WhyAction action;
    bool enabled;
  } buttons[] = {
      {"scaling.train.start", "why_start", WhyAction::Start, !run.running && !run.finished},
      {"scaling.train.pause", "why_pause", WhyAction::Pause, run.running},
      {"scaling.train.step", "why_step", WhyAction::Step, !run.running && !run.finished},
      {"scaling.train.reset", "why_reset", WhyAction::Reset, true},
  };
  for (int i = 0; i < 4; ++i) {
    if (i % 2) ImGui::SameLine();
    ImGui::BeginDisabled(!buttons[i].enabled);
    const bool pressed = ImGui::Button(tr(buttons[i].label_key), button);
    ImGui::EndDisabled();
    if (pressed) why_train(state, buttons[i].action);
    record_control(state, buttons[i].id);
  }
  ui::text_wrapped(tr(run.running ? "why.status.running.fmt" : "why.status.paused.fmt"), run.step, lab.steps);
  if (!run.error.empty()) ui::text_wrapped("%s %s", tr("setup.error"), run.error.c_str());
}

}  // namespace

void why_setup_panel(AppState& state) {
  WhyLab& lab = state.why;
  ui::text(tr("tab.why"));
  if (lab.load != ModuleLoad::Ready) {
    load_notice(state);
    return;
  }
  ImGui::SameLine();
  help_marker(tr("why.help"));
  bool qkv = lab.panel == WhyPanel::Qkv;
  if (choice_pair(state, "why.panel", "why.panel.recurrence", "why.panel.qkv", &qkv, "why_panel"))
    lab.panel = qkv ? WhyPanel::Qkv : WhyPanel::Recurrence;
  ImGui::Separator();
  task_controls(state);
  ImGui::Spacing();
  training_buttons(state);
  if (lab.panel == WhyPanel::Recurrence) {
    ImGui::Separator();
    ImGui::BeginDisabled(lab.timing_next >= 0);
    if (ImGui::Button(tr(lab.timing_next >= 0 ? "why.timing.measuring" : "why.timing.measure"))) why_measure_timing(lab);
    ImGui::EndDisabled();
    record_control(state, "why_measure");
    ImGui::SameLine();
    help_marker(tr("why.timing.help"));
  }
}

}  // namespace attn::ui
