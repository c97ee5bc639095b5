// The learned-heads view's set-up panel: the text the model reads (typed,
// pasted or composed, or one of the held-out poems), 续写 (continue it by
// sampling), and what the model is.
#include <cstdio>
#include <string>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/state/controls.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// The text in use, editable: editing a held-out poem makes it the reader's own text.
// While the model being trained is shown, the poem it reads, not editable.
void text_box(AppState& state) {
  PoemLab& lab = state.poem;
  title_with_help(tr("poem.text"), tr("poem.text.help"));
  std::string text = poem_text_shown(lab);
  ImGui::SetNextItemWidth(-1);
  const float lines = ImGui::GetTextLineHeight() * 5 + ImGui::GetStyle().FramePadding.y * 2;
  if (ImGui::InputTextMultiline("##poem_text", text.data(), text.capacity() + 1, ImVec2(-1, lines),
                                ImGuiInputTextFlags_CallbackResize, resize_string, &text)) {
    lab.poem = PoemLab::kOwnText;
    lab.probe = 0;
    lab.text = text;
    lab.query = -1;
  }
  record_text_box(state, "poem_text");
  // The induction probe: random characters repeated once. A new draw each press.
  if (ImGui::Button(tr("poem.probe"))) poem_probe(state);
  record_control(state, "poem_probe");
  ImGui::SameLine();
  help_marker(tr("poem.probe.help"));
}

void held_out_picker(AppState& state) {
  PoemLab& lab = state.poem;
  if (!lab.summary) return;
  const int poems = int(lab.summary->held_out.size());
  title_with_help(tr("poem.held_out"), tr("poem.held_out.help"));
  const auto label = [&](int i) { return std::to_string(i + 1) + ". " + poem_label(*lab.summary, i); };
  ImGui::SetNextItemWidth(-1);
  const std::string current = poem_shows_trained(lab) ? label(lab.trained_poem)
                              : lab.probe > 0          ? tr("poem.probe")
                              : lab.poem >= 0          ? label(lab.poem)
                                                       : tr("poem.source.own");
  const bool open = ImGui::BeginCombo("##poem_pick", current.c_str());
  lab.labels_shown = open || ImGui::IsItemHovered();
  if (open) {
    ImGuiListClipper clipper;  // 313 poems: only the visible rows are laid out
    clipper.Begin(poems);
    while (clipper.Step())
      for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i)
        if (ImGui::Selectable(label(i).c_str(), i == lab.poem && lab.probe == 0)) {
          lab.poem = i;
          lab.probe = 0;
          lab.query = -1;
        }
    ImGui::EndCombo();
  }
  record_control(state, "poem_pick");
}

void continue_controls(AppState& state) {
  PoemLab& lab = state.poem;
  ImGui::Separator();
  ui::text(tr("poem.sample.title"));
  draw_placed_controls(state, ControlPlace::PoemContinue);
  if (lab.sampling) {
    if (ImGui::Button(tr("poem.sample.stop"))) lab.sampling = false;
  } else if (ImGui::Button(tr("poem.sample.go"))) {
    poem_continue(state);
  }
  record_control(state, "poem_continue");
  ImGui::SameLine();
  help_marker(tr("poem.sample.help"));
  if (!lab.sample_error.empty()) ui::text_wrapped("%s", lab.sample_error.c_str());
}

// Watch it learn: a fresh model trained here, a slice each frame.
void training_controls(AppState& state) {
  PoemLab& lab = state.poem;
  ImGui::Separator();
  title_with_help(tr("poem.train.title"), tr("poem.train.help"));
  const auto button = [&](const char* label_key, const char* id, PoemTrainAction action) {
    if (ImGui::Button((std::string(tr(label_key)) + "##" + id).c_str())) poem_train(state, action);
    record_control(state, id);
  };
  if (lab.training_running) button("poem.train.pause", "poem_train_pause", PoemTrainAction::Pause);
  else button("poem.train.start", "poem_train_start", PoemTrainAction::Start);
  ImGui::SameLine();
  button("poem.train.step", "poem_train_step", PoemTrainAction::Step);
  ImGui::SameLine();
  button("poem.train.reset", "poem_train_reset", PoemTrainAction::Reset);
  if (lab.corpus == ModuleLoad::Loading || lab.corpus == ModuleLoad::Requested) ui::text_wrapped("%s", tr("poem.train.corpus"));
  if (!lab.corpus_error.empty()) ui::text_wrapped("%s", lab.corpus_error.c_str());
  if (lab.training) {
    const api::PoemTraining& t = *lab.training;
    ui::text_wrapped(tr("poem.train.progress.fmt"), t.steps, t.target, t.sequences, t.batch);
    if (t.held_out > 0) ui::text_wrapped(tr("poem.train.evaluating.fmt"), t.evaluated, t.held_out);
    bool yours = lab.show_trained;
    if (ImGui::Checkbox(tr("poem.train.show"), &yours)) lab.show_trained = yours;
    record_control(state, "poem_train_show");
  }
}

void model_facts(const PoemLab& lab) {
  if (!lab.summary) return;
  const api::PoemSummary& s = *lab.summary;
  ImGui::Separator();
  ui::text_wrapped(tr("poem.model.fmt"), s.layers, s.heads, s.d_model, s.context, s.vocab,
                     double(s.parameters) / 1000.0);
}

}  // namespace

void poem_setup_panel(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.load != ModuleLoad::Ready) {
    ui::text_wrapped("%s", poem_load_text(lab).c_str());
    return;
  }
  // The model being trained reads the poem its heads are measured on: the
  // text and the picker show it, and wait until the reader's model is hidden.
  ImGui::BeginDisabled(poem_shows_trained(lab));
  text_box(state);
  held_out_picker(state);
  ImGui::EndDisabled();
  continue_controls(state);
  poem_sink_controls(state);
  training_controls(state);
  model_facts(lab);
}

}  // namespace attn::ui
