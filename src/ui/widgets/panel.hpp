// Panel scaffolding shared by all panels, in the style of imgui_demo.cpp:
// a title, a "(?)" help marker with one sentence of intuition, and the
// formula line the panel illustrates.
#pragma once

#include <imgui.h>

namespace attn::ui {

// ImGui 1.86 edits a char buffer: as an InputText callback (with
// ImGuiInputTextFlags_CallbackResize and the std::string as user data) this
// lets it grow a std::string.
int resize_string(ImGuiInputTextCallbackData* data);

// "(?)" that shows `text` in a wrapped tooltip when hovered.
void help_marker(const char* text);

// A control's label in a fixed column left of it (the scaling lab's rows), so
// a recorded control rect is the widget frame alone (tests drag inside it)
// and the controls line up; the next item's width leaves room for a "(?)".
void column_label(const char* label);

// `title` and its help marker: "title (?)" on one line when it fits, else
// "(?)" first and the title wrapped beside it (a narrow window cuts nothing).
void title_with_help(const char* title, const char* help);

// A bordered child window with title, help marker and formula; always pair
// with end_panel(). Returns false when the panel is clipped away.
bool begin_panel(const char* id, const ImVec2& size, const char* title, const char* help,
                 const char* formula);
void end_panel();

// `count` equal panels filling the region: the rows x columns grid whose
// panels have the largest square side; when that side is below min_side the
// panels keep min_side and the region scrolls. Returns the panel size.
ImVec2 grid_cell(int count, int* columns, float min_side);

// `count` plot panels in the region, row by row: as many columns (at most
// max_columns) as keep each panel at least min_width wide, the rows sharing
// the height but no panel lower than min_height (below that the view
// scrolls) or taller than the region. Returns the panel size; *columns the
// columns per row.
ImVec2 panel_grid(int count, int max_columns, float min_width, float min_height, int* columns);

// ImGui::SameLine() if an item `width` wide still fits beside the last one,
// else nothing (it goes on a new line): rows of controls wrap rather than
// run past the window's edge. True when it stayed on the line.
bool same_line_if_fits(float width);

}  // namespace attn::ui
