// The tab bar helper; see tabs.hpp.
#include "ui/tabs.hpp"

#include <imgui.h>

#include "ui/explorer/explorer.hpp"
#include "ui/strings.hpp"

namespace attn::ui {

void tab_bar(AppState& state, const char* id, const std::vector<TabItem>& items, int* selected,
             int* select_frames, const char* content_id, const std::function<void(int)>& draw,
             const std::function<void()>& trailing) {
  if (!ImGui::BeginTabBar(id)) return;
  if (trailing) trailing();
  const bool by_code = *select_frames > 0;
  for (int i = 0; i < int(items.size()); ++i) {
    const TabItem& item = items[std::size_t(i)];
    if (!item.shown) continue;
    const ImGuiTabItemFlags flags = (by_code && *selected == i) ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(tr(item.label_key), nullptr, flags);
    record_control(state, item.control);
    if (!open) continue;
    if (by_code && *selected != i) {
      ImGui::EndTabItem();
      continue;
    }
    *selected = i;
    ImGui::BeginChild(content_id, ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    draw(i);
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (*select_frames > 0) --*select_frames;
  ImGui::EndTabBar();
}

}  // namespace attn::ui
