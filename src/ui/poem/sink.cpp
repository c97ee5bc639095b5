// The head that looks at the start: the set-up panel's probe (the first
// token as trained, left out, or another in its place) and what it showed
// for the selected head, measured (api/poem/sink_probe.hpp), in a sentence.
#include <string>
#include <vector>

#include <imgui.h>

#include "api/poem/sink_probe.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// The detector that counts the first position (core/poem/head_detectors.hpp: kFirst).
constexpr int kFirstDetector = 2;
// A head looks at the start when its mean weight there is at least this.
constexpr float kSinkWeight = 0.15f;

}  // namespace

const std::vector<std::string>& poem_starts() {
  // As trained, without <poem>, and two characters in its place: "。" and "月".
  static const std::vector<std::string> starts = {"", "none", "\xE3\x80\x82", "\xE6\x9C\x88"};
  return starts;
}

std::string poem_start_label(const std::string& start) {
  if (start.empty()) return tr("poem.sink.as_trained");
  if (start == "none") return tr("poem.sink.none");
  return format(tr("poem.sink.char.fmt"), start.c_str());
}

std::string poem_sink_heads_text(const PoemLab& lab) {
  const std::vector<api::PoemHead>* heads = poem_heads_shown(lab);
  if (!heads) return "";
  std::string list;
  for (const api::PoemHead& h : *heads)
    if (h.weight[kFirstDetector] >= kSinkWeight)
      list += (list.empty() ? "" : ", ") + format(tr("poem.sink.head.fmt"), h.layer + 1, h.head + 1,
                                                   double(h.weight[kFirstDetector]) * 100);
  return list.empty() ? tr("poem.sink.heads.none") : format(tr("poem.sink.heads.fmt"), list.c_str());
}

std::string poem_sink_text(const PoemLab& lab) {
  if (lab.sink_start.empty()) return "";
  if (lab.read_trained) return tr("poem.sink.trained");
  if (!lab.sink_error.empty()) return lab.sink_error;
  if (!lab.reading || !lab.sink_reading) return "";
  api::SinkProbe p;
  if (std::string e = api::sink_probe(*lab.reading, *lab.sink_reading, lab.sink_start == "none", lab.layer, lab.head, p);
      !e.empty())
    return e;
  std::string out = format(tr("poem.sink.before.fmt"), lab.layer + 1, lab.head + 1, p.first_before * 100);
  out += " " + format(tr("poem.sink.after.fmt"), poem_start_label(lab.sink_start).c_str(),
                      p.gain_key < 0 ? "-" : poem_char_text(p.gain_token).c_str(), p.gain * 100,
                      (p.self_after - p.self_before) * 100, p.loss_before, p.loss_after);
  if (!p.removed) out += " " + format(tr("poem.sink.replaced.fmt"), p.first_after * 100);
  return out + " " + tr("poem.sink.why");
}

void poem_sink_controls(AppState& state) {
  PoemLab& lab = state.poem;
  ImGui::Separator();
  title_with_help(tr("poem.sink.title"), tr("poem.sink.help"));
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##poem_start", poem_start_label(lab.sink_start).c_str())) {
    for (std::size_t i = 0; i < poem_starts().size(); ++i) {
      const std::string& start = poem_starts()[i];
      if (ImGui::Selectable(poem_start_label(start).c_str(), lab.sink_start == start)) lab.sink_start = start;
      record_control(state, "poem_start_" + std::to_string(i));
    }
    ImGui::EndCombo();
  }
  record_control(state, "poem_start");
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ui::text_wrapped("%s", poem_sink_heads_text(lab).c_str());
  if (const std::string text = poem_sink_text(lab); !text.empty()) ui::text_wrapped("%s", text.c_str());
  ImGui::PopStyleColor();
}

}  // namespace attn::ui
