// Widget rectangles by name; see records.hpp.
#include "ui/widgets/records.hpp"

#include <imgui_internal.h>  // the window's scrollbar (record_scrollbar), the frame's windows

#include "ui/widgets/panel.hpp"

namespace attn::ui {

float framebuffer_scale() {
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x;
  return scale > 0 ? scale : 1.0f;
}

namespace {

// ImGui's rectangle (UI units) in framebuffer pixels, under `name`.
void record_rect(Controls& controls, const std::string& name, const ImVec2& a, const ImVec2& b, bool region) {
  const float scale = framebuffer_scale();
  controls[name] = WidgetRect{a.x * scale, a.y * scale, (b.x - a.x) * scale, (b.y - a.y) * scale, region};
}

}  // namespace

void record_control(Controls& controls, const std::string& name) {
  record_rect(controls, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), false);
}

void record_text_box(Controls& controls, const std::string& name) {
  record_control(controls, name);
  controls[name].text_box = true;
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

std::vector<Section> last_frame_sections() {
  const float scale = framebuffer_scale();
  const auto rect = [scale](const ImRect& r) {
    return WidgetRect{r.Min.x * scale, r.Min.y * scale, r.GetWidth() * scale, r.GetHeight() * scale, true};
  };
  std::vector<Section> sections;
  ImGuiContext& g = *ImGui::GetCurrentContext();
  for (ImGuiWindow* window : g.Windows) {  // in the order they were created: parents first
    // Tooltips, popups and combo lists float above on purpose, and go away.
    if (!window->Active || window->Hidden || !window->RootWindow ||
        (window->RootWindow->Flags & (ImGuiWindowFlags_Tooltip | ImGuiWindowFlags_Popup)))
      continue;
    Section s;
    s.name = window->Name;
    s.parent = window->ParentWindow ? window->ParentWindow->Name : "";
    s.rect = rect(window->Rect());
    s.inner = rect(window->InnerRect);
    s.scroll_x = window->ScrollbarX;
    s.scroll_y = window->ScrollbarY;
    s.scroll_top = window->Scroll.y * scale;
    s.panel = fitted_child(window->ID);
    // This frame's extent (ContentSize is the last frame's until the next Begin).
    s.content_h = (window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y + window->WindowPadding.y * 2.0f) * scale;
    sections.push_back(std::move(s));
  }
  return sections;
}

}  // namespace attn::ui
