// Where widgets landed, by name: tests and the page click real widgets
// (layout().controls), and a finger on a control goes to the lab
// (web/frames.js). The plot layer records into a Controls map it is given;
// the panels use the AppState overloads in state/records.hpp.
#pragma once

#include <map>
#include <string>

#include <imgui.h>

namespace attn::ui {

// A widget's rectangle in framebuffer pixels (for tests to click real widgets).
struct WidgetRect {
  float x = 0, y = 0, w = 0, h = 0;
  bool region = false;  // an area (a panel, the view), not a widget: a finger on it is no press (web/frames.js)
};
using Controls = std::map<std::string, WidgetRect>;

// Remembers the last ImGui item's rectangle as control `name`.
void record_control(Controls& controls, const std::string& name);
// The same for an area that holds controls (a child window just ended, the
// open view): listed with the controls, but marked WidgetRect::region.
void record_region(Controls& controls, const std::string& name);
void record_region(Controls& controls, const std::string& name, const ImVec2& min, const ImVec2& max);
// Remembers the current window's vertical scrollbar, when it has one, as
// control `name`: the page hands a finger on a control to the lab
// (web/frames.js), so a view taller than a phone's screen scrolls by touch.
void record_scrollbar(Controls& controls, const std::string& name);

}  // namespace attn::ui
