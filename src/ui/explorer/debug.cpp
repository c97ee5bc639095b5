// The debug panel: where the frame time goes (the core vs building the UI),
// the current config as JSON, and a dump of every matrix (the platform saves
// state.dump_request: a file on the desktop, a download in the browser).
#include "api/explorer/explorer_json.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {

void debug_view(AppState& state) {
  ImGui::PushTextWrapPos(0.0f);  // a phone's width wraps every line rather than cut it
  ui::textf(tr("debug.timing.fmt"), state.compute_ms, state.frame_ms);
  ui::textf("%s", tr("debug.config"));
  // Wrapped text rather than a read-only text box: ImGui 1.86 text boxes do not wrap.
  ImGui::BeginChild("##config_json", ImVec2(-1, ImGui::GetTextLineHeightWithSpacing() * 6), true);
  ui::text_wrapped("%s", api::print_explorer_config(state.config).c_str());
  ImGui::EndChild();
  // Every matrix as JSON is ~40 bytes a weight: past a million weights the
  // text (and in the browser its copy as a download) risks running out of memory.
  constexpr long long kMaxDumpWeights = 1LL << 20;
  long long weights = 0;
  if (state.result) {
    const long long n = static_cast<long long>(state.result->tokens.size());
    weights = static_cast<long long>(state.result->attention.heads.size()) * n * n;
  }
  ImGui::BeginDisabled(!state.result || weights > kMaxDumpWeights);
  if (ImGui::Button(tr("debug.dump"))) state.dump_request = api::print_explorer_result(*state.result);
  ImGui::EndDisabled();
  record_control(state, "debug_dump");
  ui::text_disabled("%s", tr(weights > kMaxDumpWeights ? "debug.dump.too_big" : "debug.dumped"));
  ImGui::PopTextWrapPos();
}

}  // namespace attn::ui
