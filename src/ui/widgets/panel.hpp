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
// panels keep min_side and the region scrolls. A panel is never taller than
// its square plus `title_h` (the title above a square plot), nor lower than
// min_side. Returns the panel size.
ImVec2 grid_cell(int count, int* columns, float min_side, float title_h);

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

// How tall the open view wants to be at this width, for a host page that sizes
// its figure to the content (web/embed.js, height: 'auto'). A layout that
// fills the rest of its region (grid_cell, panel_grid, Figure 4.1's rows) says
// the height it would take at its natural size (panels at their minimum
// height, squares as wide as the columns that fit) and the height it was given;
// the shell adds the differences to the lab's height (shell/app.cpp,
// AppState::wanted_height).
void want_height(float natural, float given);
// The sum of (natural - given) since the last call, which resets it; *reported: whether any layout said.
float take_wanted_height_change(bool* reported = nullptr);

}  // namespace attn::ui
