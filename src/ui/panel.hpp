// Panel scaffolding shared by all panels, in the style of imgui_demo.cpp:
// a title, a "(?)" help marker with one sentence of intuition, and the
// formula line the panel illustrates.
#pragma once

#include <imgui.h>

namespace attn::ui {

// "(?)" that shows `text` in a wrapped tooltip when hovered.
void help_marker(const char* text);

// `title` and its help marker: "title (?)" on one line when it fits, else
// "(?)" first and the title wrapped beside it (a narrow window cuts nothing).
void title_with_help(const char* title, const char* help);

// A bordered child window with title, help marker and formula; always pair
// with end_panel(). Returns false when the panel is clipped away.
bool begin_panel(const char* id, const ImVec2& size, const char* title, const char* help,
                 const char* formula);
void end_panel();

}  // namespace attn::ui
