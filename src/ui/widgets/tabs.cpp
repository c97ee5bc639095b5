// The tab bar helper; see tabs.hpp.
#include "ui/widgets/tabs.hpp"

#include <algorithm>

#include <imgui.h>
#include <imgui_internal.h>  // ImGuiTabBar: where the bar's buttons landed, TabItemCalcSize

#include "ui/i18n/strings.hpp"
#include "ui/widgets/plot.hpp"
#include "ui/widgets/records.hpp"

namespace attn::ui {
namespace {

// The width of the buttons submitted to the current tab bar this frame
// (leading, trailing), with the spacing ImGui puts after each.
float bar_buttons_width() {
  const ImGuiContext& g = *GImGui;
  float width = 0;
  for (const ImGuiTabItem& tab : g.CurrentTabBar->Tabs)
    if (tab.LastFrameVisible == g.FrameCount && (tab.Flags & ImGuiTabItemFlags_Button))
      width += tab.ContentWidth + g.Style.ItemInnerSpacing.x;
  return width;
}

// Every shown tab at its label's full width, as ImGui would lay them out unsqueezed.
float tabs_ideal_width(const std::vector<TabItem>& items) {
  float width = 0;
  int shown = 0;
  for (const TabItem& item : items) {
    if (!item.shown) continue;
    width += ImGui::TabItemCalcSize(tr(item.label_key), false).x;
    ++shown;
  }
  return width + ImGui::GetStyle().ItemInnerSpacing.x * float(std::max(shown - 1, 0));
}

// The tab bar's buttons alone (the combo form): returns their width.
float buttons_bar(const std::string& id, const std::function<void()>& buttons) {
  if (!buttons || !ImGui::BeginTabBar(id.c_str())) return 0;
  buttons();
  const float width = bar_buttons_width();
  ImGui::EndTabBar();
  return width;
}

void tabs(Controls& controls, const std::vector<TabItem>& items, int* selected, bool by_code, const char* content_id,
          const std::function<void(int)>& draw) {
  for (int i = 0; i < int(items.size()); ++i) {
    const TabItem& item = items[std::size_t(i)];
    if (!item.shown) continue;
    const ImGuiTabItemFlags flags = (by_code && *selected == i) ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(tr(item.label_key), nullptr, flags);
    record_control(controls, item.control);
    if (!open) continue;
    if (by_code && *selected != i) {
      ImGui::EndTabItem();
      continue;
    }
    *selected = i;
    ImGui::BeginChild(content_id, ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    draw(i);
    plot::ScrollWindowWithWheel();
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
}

// The tabs as one combo box `width` wide at the cursor.
void tabs_combo(Controls& controls, const std::string& id, const std::vector<TabItem>& items, int* selected, float width,
                const char* combo_control) {
  const int current = std::clamp(*selected, 0, int(items.size()) - 1);
  ImGui::SetNextItemWidth(width);
  // HeightLargest: every view listed (the regular height shows eight; a ninth
  // would need the popup's scrollbar, which a reader may not see).
  if (ImGui::BeginCombo(id.c_str(), tr(items[std::size_t(current)].label_key), ImGuiComboFlags_HeightLargest)) {
    for (int i = 0; i < int(items.size()); ++i) {
      const TabItem& item = items[std::size_t(i)];
      if (!item.shown) continue;
      if (ImGui::Selectable(tr(item.label_key), i == current)) *selected = i;
      record_control(controls, item.control);
    }
    ImGui::EndCombo();
  }
  record_control(controls, combo_control);
}

}  // namespace

void tab_bar(Controls& controls, const char* id, const std::vector<TabItem>& items, int* selected,
             int* select_frames, const char* content_id, const std::function<void(int)>& draw,
             const std::function<void()>& trailing, const std::function<void()>& leading,
             const char* combo_control) {
  if (items.empty()) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGuiStorage& storage = *ImGui::GetStateStorage();
  const std::string bar_id = id;
  // The buttons' width as measured last frame: whether the tabs fit beside
  // them is decided before anything of this frame is drawn.
  const ImGuiID buttons_key = ImGui::GetID((bar_id + "##buttons_width").c_str());
  const ImGuiID combo_key = ImGui::GetID((bar_id + "##was_combo").c_str());
  const float buttons_w = storage.GetFloat(buttons_key, 0.0f);
  const float avail = ImGui::GetContentRegionAvail().x;
  const ImVec2 row = ImGui::GetCursorScreenPos();
  const bool fits = buttons_w + tabs_ideal_width(items) <= avail;
  // Back from the combo, the tab bar must be told which tab is open (it
  // remembers the tab it showed before the combo).
  if (fits && storage.GetBool(combo_key, false)) *select_frames = std::max(*select_frames, 2);
  storage.SetBool(combo_key, !fits);

  if (fits) {
    if (!ImGui::BeginTabBar(id)) return;
    if (leading) leading();
    if (trailing) trailing();
    storage.SetFloat(buttons_key, bar_buttons_width());
    tabs(controls, items, selected, *select_frames > 0, content_id, draw);
    if (*select_frames > 0) --*select_frames;
    ImGui::EndTabBar();
    return;
  }

  // The combo: [leading][combo][trailing] on one row when the combo's widest
  // label fits between the buttons, else the buttons on the row and the
  // combo on a row of its own below.
  float widest = 0;
  for (const TabItem& item : items)
    if (item.shown) widest = std::max(widest, ImGui::CalcTextSize(tr(item.label_key)).x);
  const float combo_needed = widest + style.FramePadding.x * 2 + ImGui::GetFrameHeight();
  const std::string combo_id = bar_id + "_combo";  // ids start with "##": no label
  float measured = 0;
  if (buttons_w + combo_needed <= avail) {
    const float leading_w = buttons_bar(bar_id + "_leading", leading);
    measured += leading_w;
    const float combo_w = std::floor(avail - buttons_w);
    ImGui::SetCursorScreenPos(ImVec2(row.x + leading_w, row.y));
    tabs_combo(controls, combo_id, items, selected, combo_w, combo_control);
    ImGui::SetCursorScreenPos(ImVec2(row.x + leading_w + combo_w + style.ItemInnerSpacing.x, row.y));
    measured += buttons_bar(bar_id, trailing);
  } else {
    measured = buttons_bar(bar_id, [&] {
      if (leading) leading();
      if (trailing) trailing();
    });
    ImGui::SetCursorScreenPos(ImVec2(row.x, row.y + ImGui::GetFrameHeight() + style.ItemSpacing.y));
    tabs_combo(controls, combo_id, items, selected, avail, combo_control);
  }
  storage.SetFloat(buttons_key, measured);
  if (*select_frames > 0) --*select_frames;
  ImGui::SetCursorScreenPos(ImVec2(row.x, ImGui::GetItemRectMax().y + style.ItemSpacing.y));
  ImGui::BeginChild(content_id, ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  draw(std::clamp(*selected, 0, int(items.size()) - 1));
  plot::ScrollWindowWithWheel();
  ImGui::EndChild();
}

}  // namespace attn::ui
