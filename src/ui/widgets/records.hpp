// Where widgets landed, by name: tests and the page click real widgets
// (layout().controls), and a finger on a control goes to the lab
// (web/frames.js). The plot layer records into a Controls map it is given;
// the panels use the AppState overloads in state/records.hpp.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <imgui.h>

namespace attn::ui {

// A widget's rectangle in framebuffer pixels (for tests to click real widgets).
struct WidgetRect {
  float x = 0, y = 0, w = 0, h = 0;
  bool region = false;  // an area (a panel, the view), not a widget: a finger on it is no press (web/frames.js)
  bool text_box = false;  // a text box of several lines: a finger's drag scrolls it, a tap places the cursor
};
using Controls = std::map<std::string, WidgetRect>;

// Framebuffer pixels per ImGui unit (1 before the platform sets it): what
// turns an item's rectangle into the pixels layout() reports.
float framebuffer_scale();

// Remembers the last ImGui item's rectangle as control `name`.
void record_control(Controls& controls, const std::string& name);
// The same for a text box of several lines (WidgetRect::text_box).
void record_text_box(Controls& controls, const std::string& name);
// The same for an area that holds controls (a child window just ended, the
// open view): listed with the controls, but marked WidgetRect::region.
void record_region(Controls& controls, const std::string& name);
void record_region(Controls& controls, const std::string& name, const ImVec2& min, const ImVec2& max);
// Remembers the current window's vertical scrollbar, when it has one, as
// control `name`: the page hands a finger on a control to the lab
// (web/frames.js), so a view taller than a phone's screen scrolls by touch.
void record_scrollbar(Controls& controls, const std::string& name);

// A section of the screen: the lab's window and every child window drawn in
// the last frame (a panel, the set-up, a table that scrolls), in framebuffer
// pixels. layout() lists them with the text runs (text.hpp), so a test can
// check from rectangles that no section is drawn over another and that no
// text is cut at a section's edge.
struct Section {
  std::string name, parent;  // ImGui window names ("" parent: the lab's own window)
  WidgetRect rect;           // the window
  WidgetRect inner;          // what it shows of its content (without scrollbars)
  bool scroll_x = false, scroll_y = false;  // a scrollbar reaches what lies beyond
  float scroll_top = 0;      // how far its content is scrolled up
  bool panel = false;        // a view's panel (begin_fitted_child): as tall as its content on a phone
  float content_h = 0;       // the height its content takes, with the window's padding
};
// The sections drawn in the last frame, parents before their children.
std::vector<Section> last_frame_sections();

}  // namespace attn::ui
