// Panel scaffolding; see panel.hpp.
#include "ui/panel.hpp"

#include "ui/theme.hpp"

namespace attn::ui {

void help_marker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

void title_with_help(const char* title, const char* help) {
  const float marker_w = ImGui::GetStyle().ItemSpacing.x + ImGui::CalcTextSize("(?)").x;
  if (ImGui::CalcTextSize(title).x + marker_w <= ImGui::GetContentRegionAvail().x) {
    ImGui::TextUnformatted(title);
    ImGui::SameLine();
    help_marker(help);
    return;
  }
  help_marker(help);
  ImGui::SameLine();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(title);
  ImGui::PopTextWrapPos();
}

bool begin_panel(const char* id, const ImVec2& size, const char* title, const char* help,
                 const char* formula) {
  const bool visible = ImGui::BeginChild(id, size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  if (!visible) return false;
  title_with_help(title, help);
  if (formula && *formula) {
    // Formulas in a quiet blue, so they read as maths rather than as labels.
    ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().formula));
    ImGui::PushTextWrapPos(0.0f);  // narrow panels wrap the formula instead of clipping it
    ImGui::TextUnformatted(formula);
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
  }
  return true;
}

void end_panel() { ImGui::EndChild(); }

}  // namespace attn::ui
