// Panel scaffolding; see panel.hpp.
#include "ui/widgets/panel.hpp"

#include <string>

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <imgui_internal.h>  // a child window's content extent (end_fitted_child)

#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {

int resize_string(ImGuiInputTextCallbackData* data) {
  if (data->EventFlag == ImGuiInputTextFlags_CallbackResize) {
    auto* text = static_cast<std::string*>(data->UserData);
    text->resize(std::size_t(data->BufTextLen));
    data->Buf = text->data();
  }
  return 0;
}

float tooltip_wrap_width() {
  const float font = ImGui::GetFontSize();
  return std::min(font * 35.0f, ImGui::GetIO().DisplaySize.x - font * 2.0f);
}

void help_marker(const char* text) {
  ui::text_disabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(tooltip_wrap_width());
    ui::text(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void column_label(const char* label) {
  ImGui::AlignTextToFramePadding();
  ui::text(label);
  ImGui::SameLine(ImGui::GetFontSize() * 6.5f);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 1.8f);
}

void title_with_help(const char* title, const char* help) {
  const float marker_w = ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
  if (ImGui::CalcTextSize(title).x + marker_w <= ImGui::GetContentRegionAvail().x) {
    ui::text(title);
    ImGui::SameLine();
    help_marker(help);
    return;
  }
  help_marker(help);
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ui::text(title);
  ImGui::PopTextWrapPos();
}

bool begin_panel(const char* id, const ImVec2& size, const char* title, const char* help,
                 const char* formula) {
  const bool visible = begin_fitted_child(id, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  if (!visible) return false;
  title_with_help(title, help);
  if (formula && *formula) {
    // Formulas in a quiet blue, so they read as maths rather than as labels.
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().formula));
    ImGui::PushTextWrapPos(0.0f);  // narrow panels wrap the formula instead of clipping it
    ui::text(formula);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  return true;
}

void end_panel() { end_fitted_child(); }

namespace {
std::unordered_map<ImGuiID, float> g_fitted_heights;  // a fitted child's content height in its last frame
std::unordered_set<ImGuiID> g_fitted_windows;  // their ImGui windows' ids
std::vector<ImGuiID> g_fitted_open;  // the fitted children begun and not yet ended, by the id of their str_id
bool g_fitted_resized = false;
}  // namespace

bool g_stacked_when_short = true;

void set_stacked_when_short(bool short_counts) { g_stacked_when_short = short_counts; }

bool stacked_layout() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float font = ImGui::GetFontSize();
  return display.x < font * 43.0f || (g_stacked_when_short && display.y < font * 32.0f);
}

bool upright_phone() {
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  return stacked_layout() && display.y > display.x;
}

float stacked_max_height() {
  return std::max(ImGui::GetIO().DisplaySize.y - ImGui::GetFrameHeightWithSpacing() * 2.0f -
                      ImGui::GetStyle().WindowPadding.y * 2.0f, ImGui::GetFontSize() * 8.0f);
}

float stacked_room_below() {
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float above = fitted_child(window->ID) ? window->DC.CursorPos.y - window->Pos.y + window->WindowPadding.y
                                               : ImGui::GetFrameHeightWithSpacing() * 2.0f;
  return std::max(stacked_max_height() - above, ImGui::GetFontSize() * 6.0f);
}

int stacked_columns(int count) {
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  return std::clamp(int((ImGui::GetContentRegionAvail().x + gap) / (stacked_max_height() + gap)), 1, std::max(count, 1));
}

bool begin_fitted_child(const char* id, ImVec2 size, bool border, ImGuiWindowFlags flags) {
  const ImGuiID key = ImGui::GetID(id);
  g_fitted_open.push_back(key);
  const bool stacked = stacked_layout();
  if (stacked) {
    const auto fitted = g_fitted_heights.find(key);
    if (fitted != g_fitted_heights.end()) size.y = fitted->second;
    // Slim margins: on a 360 px screen they let twelve tokens keep cells of 24 px.
    const float padding = std::floor(ImGui::GetFontSize() * 0.4f);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(padding, padding));
  }
  const bool visible = ImGui::BeginChild(id, size, border, flags);
  if (stacked) ImGui::PopStyleVar();
  g_fitted_windows.insert(ImGui::GetCurrentWindow()->ID);
  return visible;
}

bool fitted_child(ImGuiID window_id) { return g_fitted_windows.count(window_id) > 0; }

void end_fitted_child() {
  if (stacked_layout()) {
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const float height = window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y + window->WindowPadding.y * 2.0f;
    float& fitted = g_fitted_heights[g_fitted_open.back()];
    if (std::fabs(fitted - height) > 0.5f) g_fitted_resized = true;
    fitted = height;
  }
  g_fitted_open.pop_back();
  ImGui::EndChild();
}

bool take_fitted_resize() {
  const bool resized = g_fitted_resized;
  g_fitted_resized = false;
  return resized;
}

namespace {
// The height of `count` panels `columns` to a row, each `panel_h` high.
float rows_height(int count, int columns, float panel_h, float gap) {
  const int rows = (count + columns - 1) / columns;
  return float(rows) * panel_h + gap * float(rows - 1);
}
}  // namespace

ImVec2 grid_cell(int count, int* columns, float min_side, float title_h) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  count = std::max(count, 1);
  if (stacked_layout()) {  // a panel of the screen's height per column: one on a phone upright, two or three on its side
    const float visible = stacked_max_height();
    const int c = stacked_columns(count);
    if (columns) *columns = c;
    const float w = std::floor((avail.x - gap.x * float(c - 1)) / float(c));
    want_height(rows_height(count, c, std::min(visible, w + title_h), gap.y), avail.y);
    return ImVec2(w, std::min(visible, w + title_h));
  }
  ImVec2 best(1, 1);
  int best_columns = 1;
  float best_side = -1;
  // The column count whose panels have the largest square side wins.
  for (int c = 1; c <= count; ++c) {
    const int r = (count + c - 1) / c;
    const float w = std::floor((avail.x - gap.x * float(c - 1)) / float(c));
    const float h = std::floor((avail.y - gap.y * float(r - 1)) / float(r));
    const float side = std::min(w, h);
    if (side > best_side) {
      best_side = side;
      best = ImVec2(std::max(w, 1.0f), std::max(h, 1.0f));
      best_columns = c;
    }
  }
  // The natural size: as many columns as fit at min_side, squares as wide as they are.
  const int fit = std::clamp(int((avail.x + gap.x) / (min_side + gap.x)), 1, count);
  const float fit_w = std::max(min_side, std::floor((avail.x - gap.x * float(fit - 1)) / float(fit)));
  // Too small: keep panels at min_side and let the view scroll instead.
  if (best_side < min_side) {
    best_columns = fit;
    best = ImVec2(fit_w, min_side);
  }
  // No taller than a square plot under its title needs (a tall, narrow window
  // would otherwise leave white space under every panel).
  best.y = std::max(std::min(best.y, best.x + title_h), min_side);
  want_height(rows_height(count, fit, fit_w + title_h, gap.y), avail.y);
  if (columns) *columns = best_columns;
  return best;
}

bool same_line_if_fits(float width) {
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width > right_edge) return false;
  ImGui::SameLine();
  return true;
}

ImVec2 panel_grid(int count, int max_columns, float min_width, float min_height, int* columns) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  count = std::max(count, 1);
  int c = std::clamp(std::min(max_columns, count), 1, count);
  if (stacked_layout()) c = std::min(c, stacked_columns(count));  // upright, one to a row
  while (c > 1 && (avail.x - gap.x * float(c - 1)) / float(c) < min_width) --c;
  const int rows = (count + c - 1) / c;
  const float w = std::floor((avail.x - gap.x * float(c - 1)) / float(c));
  const float h = std::floor((avail.y - gap.y * float(rows - 1)) / float(rows));
  if (columns) *columns = c;
  if (stacked_layout()) {  // the view scrolls: plots as tall as three quarters of their width, within the screen
    const float stacked_h = std::floor(std::min(std::max(min_height, w * 0.75f), stacked_max_height()));
    want_height(rows_height(count, c, stacked_h, gap.y), avail.y);
    return ImVec2(std::max(w, 1.0f), stacked_h);
  }
  // Never taller than the region: a panel can always be seen whole.
  const ImVec2 size(std::max(w, 1.0f), std::max(h, std::min(min_height, std::max(avail.y, 1.0f))));
  want_height(rows_height(count, c, min_height, gap.y), avail.y);
  return size;
}

namespace {
float g_wanted_height_change = 0;  // since the last take_wanted_height_change()
bool g_wanted_height_reported = false;
}  // namespace

void want_height(float natural, float given) {
  g_wanted_height_change += natural - given;
  g_wanted_height_reported = true;
}

float take_wanted_height_change(bool* reported) {
  const float change = g_wanted_height_change;
  if (reported) *reported = g_wanted_height_reported;
  g_wanted_height_change = 0;
  g_wanted_height_reported = false;
  return change;
}

}  // namespace attn::ui
