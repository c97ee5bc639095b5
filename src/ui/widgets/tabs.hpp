// A tab bar whose selection can also be set by code (a preset, the URL,
// --view, --panel): the app's views and the scaling lab's panels both use it.
// When the labels do not fit beside the bar's buttons (a phone, an embedded
// figure, wider Chinese labels) the tabs become one combo box instead of
// squeezed tabs ("H.. F.. S.."): on the bar's row between the buttons, or on
// a row of its own below them when even the combo would be cut.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ui/widgets/records.hpp"

namespace attn::ui {


struct TabItem {
  const char* label_key;  // tr() key of the label
  std::string control;    // the tab's name in layout().controls (tests click it); the combo's
                          // popup lists the items under the same names while it is open
  bool shown = true;
};

// Tab `*selected` follows the reader's clicks. While *select_frames > 0 the
// tab bar is made to open *selected instead (ImGui needs a frame or two to
// switch), and only that tab draws content: another tab may still report
// open in the same frame. draw(i) draws tab i's content in a child region
// `content_id` that starts below the tab bar.
// trailing / leading (optional) draw extra items at the right / left end of
// the bar (ImGui::TabItemButton with ImGuiTabItemFlags_Trailing / _Leading);
// they stay on the bar in both forms. combo_control names the combo box in
// layout().controls when the tabs are shown as one. Each tab and the combo
// are recorded in `controls` (AppState::controls).
void tab_bar(Controls& controls, const char* id, const std::vector<TabItem>& items, int* selected,
             int* select_frames, const char* content_id, const std::function<void(int)>& draw,
             const std::function<void()>& trailing = nullptr, const std::function<void()>& leading = nullptr,
             const char* combo_control = "tab_combo");

}  // namespace attn::ui
