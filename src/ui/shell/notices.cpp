// The notices above the view; see notices.hpp.
#include "ui/shell/notices.hpp"

#include <string>

#include <imgui.h>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {

void draw_notices(AppState& state) {
  // A few at most: a URL with many bad parameters should not push the figure away.
  constexpr std::size_t kShown = 3;
  if (state.notices.size() > kShown) state.notices.erase(state.notices.begin(), state.notices.end() - kShown);
  for (std::size_t i = 0; i < state.notices.size(); ++i) {
    ImGui::PushID(int(i));
    const bool dismiss = ImGui::SmallButton("x");
    record_control(state, "notice_close_" + std::to_string(i));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("notice.dismiss"));
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().notice));
    ui::text_wrapped("%s", state.notices[i].c_str());
    ImGui::PopStyleColor();
    ImGui::PopID();
    if (dismiss) {
      state.notices.erase(state.notices.begin() + long(i));
      break;
    }
  }
}

}  // namespace attn::ui
