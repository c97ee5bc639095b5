// Widget rectangles by name; see records.hpp.
#include "ui/widgets/records.hpp"

#include <imgui_internal.h>  // the window's scrollbar (record_scrollbar)

namespace attn::ui {

namespace {

// ImGui's rectangle (UI units) in framebuffer pixels, under `name`.
void record_rect(Controls& controls, const std::string& name, const ImVec2& a, const ImVec2& b, bool region) {
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  controls[name] = WidgetRect{a.x * scale, a.y * scale, (b.x - a.x) * scale, (b.y - a.y) * scale, region};
}

}  // namespace

void record_control(Controls& controls, const std::string& name) {
  record_rect(controls, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), false);
}

void record_region(Controls& controls, const std::string& name) {
  record_rect(controls, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), true);
}

void record_region(Controls& controls, const std::string& name, const ImVec2& min, const ImVec2& max) {
  record_rect(controls, name, min, max, true);
}

void record_scrollbar(Controls& controls, const std::string& name) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (!window->ScrollbarY) return;
  const ImRect r = ImGui::GetWindowScrollbarRect(window, ImGuiAxis_Y);
  record_rect(controls, name, r.Min, r.Max, false);
}

}  // namespace attn::ui
