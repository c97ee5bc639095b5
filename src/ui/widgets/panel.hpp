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
// The wrap position of a tooltip's text: 35 lines of text wide, or the
// window's width on a phone (a tooltip is never cut at the screen's edge).
float tooltip_wrap_width();

// A control's label in a fixed column left of it (the scaling lab's rows), so
// a recorded control rect is the widget frame alone (tests drag inside it)
// and the controls line up; the next item's width leaves room for a "(?)".
void column_label(const char* label);

// `title` and its help marker: "title (?)" on one line when it fits, else
// "(?)" first and the title wrapped beside it (a narrow window cuts nothing).
void title_with_help(const char* title, const char* help);

// A bordered child window with title, help marker and formula; always pair
// with end_panel(). Returns false when the panel is clipped away. In the
// stacked layout it is a fitted child (begin_fitted_child).
bool begin_panel(const char* id, const ImVec2& size, const char* title, const char* help,
                 const char* formula);
void end_panel();

// A phone's screen (narrow in portrait, short in landscape) or an embed as
// narrow: views stack their panels in one scrolling column (a few side by side
// in landscape), each panel as tall as its content, instead of fitting them
// all into the window.
bool stacked_layout();
// The stacked layout on a window taller than wide (a phone held upright):
// heatmaps put their colorbar under the cells, so the cells get the whole width.
bool upright_phone();
// Whether a short window counts (the shell says, each frame): not for a figure
// alone (controls none), which an author sizes to fit it (height 'auto').
void set_stacked_when_short(bool short_counts);
// The most a stacked panel shows at once: the window's height below the tab bar.
float stacked_max_height();
// The height a stacked panel's next item may take for the whole panel to
// fit on the screen (stacked_max_height less what lies above it in the panel).
float stacked_room_below();
// Columns of stacked panels in the region: as many as panels about as wide
// as the screen is tall fit (one upright, two or three on a phone's side).
int stacked_columns(int count);

// A child window that, in the stacked layout, is as tall as its content was
// in the last frame (size.y is its height until it has been measured);
// otherwise ImGui::BeginChild. Pair with end_fitted_child().
bool begin_fitted_child(const char* id, ImVec2 size, bool border, ImGuiWindowFlags flags);
void end_fitted_child();
// Whether the ImGui window with this id was begun by begin_fitted_child (a panel).
bool fitted_child(ImGuiID window_id);
// True when a fitted child changed its height since the last call: the next
// frame lays the view out again (the shell keeps the lab pending).
bool take_fitted_resize();

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
