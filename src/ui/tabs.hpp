// A tab bar whose selection can also be set by code (a preset, the URL,
// --view, --panel): the app's views and the scaling lab's panels both use it.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace attn::ui {

struct AppState;

struct TabItem {
  const char* label_key;  // tr() key of the label
  std::string control;    // the tab's name in layout().controls (tests click it)
  bool shown = true;
};

// Tab `*selected` follows the reader's clicks. While *select_frames > 0 the
// tab bar is made to open *selected instead (ImGui needs a frame or two to
// switch), and only that tab draws content: another tab may still report
// open in the same frame. draw(i) draws tab i's content in a child region
// `content_id` that starts below the tab bar.
// trailing (optional) draws extra items at the right end of the bar (e.g.
// ImGui::TabItemButton with ImGuiTabItemFlags_Trailing).
void tab_bar(AppState& state, const char* id, const std::vector<TabItem>& items, int* selected,
             int* select_frames, const char* content_id, const std::function<void(int)>& draw,
             const std::function<void()>& trailing = nullptr);

}  // namespace attn::ui
