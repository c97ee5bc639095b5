// The two palettes and the ImGui style built from them; see theme.hpp.
// The contrast ratios quoted are WCAG 2's, against the surface named.
#include "ui/widgets/theme.hpp"

namespace attn::ui {
namespace {

// A textbook page: off-white paper, white panels, black text, the chapter's
// blue formulas; tab10 series darkened until they read as text.
const Palette kLight = {
    /*window_bg=*/IM_COL32(247, 247, 245, 255),
    /*panel_bg=*/IM_COL32(255, 255, 255, 255),
    /*plot_bg=*/IM_COL32(255, 255, 255, 255),
    /*popup_bg=*/IM_COL32(255, 255, 255, 255),
    /*frame_bg=*/IM_COL32(237, 237, 237, 255),
    /*highlight_row_bg=*/IM_COL32(220, 232, 255, 255),
    /*text=*/IM_COL32(0, 0, 0, 255),
    /*text_muted=*/IM_COL32(100, 100, 100, 255),  // 5.9:1 on white (ImGui's 153 grey is 2.8:1)
    /*formula=*/IM_COL32(31, 71, 148, 255),
    /*notice=*/IM_COL32(158, 64, 0, 255),
    /*error=*/IM_COL32(191, 26, 26, 255),
    /*success=*/IM_COL32(26, 115, 26, 255),
    /*selection=*/IM_COL32(0, 90, 255, 255),
    /*axis=*/IM_COL32(40, 40, 40, 255),
    /*border=*/IM_COL32(130, 130, 130, 255),  // 3.8:1: checkboxes and fields stay findable
    /*grid=*/IM_COL32(0, 0, 0, 24),
    /*guide=*/IM_COL32(0, 0, 0, 90),
    /*neutral=*/IM_COL32(90, 90, 90, 255),
    /*reference=*/IM_COL32(140, 140, 140, 255),
    /*current=*/IM_COL32(214, 39, 40, 255),
    /*series=*/{IM_COL32(26, 112, 172, 255), IM_COL32(186, 78, 0, 255), IM_COL32(33, 128, 33, 255),
                IM_COL32(214, 39, 40, 255), IM_COL32(130, 86, 180, 255), IM_COL32(140, 86, 75, 255)},
};

// Dark grey surfaces (not black: pure black behind light text glares), light
// grey text, and the same hues lightened.
const Palette kDark = {
    /*window_bg=*/IM_COL32(22, 23, 26, 255),
    /*panel_bg=*/IM_COL32(30, 31, 35, 255),
    /*plot_bg=*/IM_COL32(26, 27, 31, 255),
    /*popup_bg=*/IM_COL32(44, 46, 52, 255),
    /*frame_bg=*/IM_COL32(50, 52, 58, 255),
    /*highlight_row_bg=*/IM_COL32(38, 58, 96, 255),
    /*text=*/IM_COL32(232, 232, 232, 255),
    /*text_muted=*/IM_COL32(165, 165, 165, 255),
    /*formula=*/IM_COL32(135, 175, 255, 255),
    /*notice=*/IM_COL32(250, 170, 85, 255),
    /*error=*/IM_COL32(255, 125, 125, 255),
    /*success=*/IM_COL32(115, 205, 115, 255),
    /*selection=*/IM_COL32(100, 165, 255, 255),
    /*axis=*/IM_COL32(190, 190, 190, 255),
    /*border=*/IM_COL32(112, 114, 120, 255),
    /*grid=*/IM_COL32(255, 255, 255, 26),
    /*guide=*/IM_COL32(255, 255, 255, 100),
    /*neutral=*/IM_COL32(175, 175, 175, 255),
    /*reference=*/IM_COL32(135, 135, 140, 255),
    /*current=*/IM_COL32(245, 105, 105, 255),
    /*series=*/{IM_COL32(94, 163, 235, 255), IM_COL32(245, 150, 60, 255), IM_COL32(95, 190, 95, 255),
                IM_COL32(245, 105, 105, 255), IM_COL32(190, 150, 230, 255), IM_COL32(205, 150, 130, 255)},
};

// What ImGui's style was last built for (see theme.hpp).
struct AppliedStyle {
  float scale = 1.0f;
  Theme theme = Theme::Light;
};
AppliedStyle g_applied;

ImVec4 rgb(int r, int g, int b, float a = 1.0f) { return ImVec4(float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, a); }

// Widget colours beyond the palette's surfaces. Light keeps ImGui's light
// blues (black text on them is >= 5.9:1) with a darker check mark and slider
// grab (3:1 on the field); dark replaces ImGui's dark blues, whose hovered
// and active shades leave light text at 2.4:1, by deeper opaque ones.
void widget_colors(Theme theme, ImVec4* c) {
  if (theme == Theme::Light) {
    c[ImGuiCol_CheckMark] = rgb(26, 102, 204);
    c[ImGuiCol_SliderGrab] = rgb(26, 102, 204);
    c[ImGuiCol_SliderGrabActive] = rgb(15, 75, 160);
    c[ImGuiCol_ScrollbarBg] = rgb(245, 245, 245);
    c[ImGuiCol_ScrollbarGrab] = rgb(140, 140, 140);
    c[ImGuiCol_ScrollbarGrabHovered] = rgb(110, 110, 110);
    c[ImGuiCol_ScrollbarGrabActive] = rgb(90, 90, 90);
    return;
  }
  c[ImGuiCol_FrameBgHovered] = rgb(62, 68, 82);
  c[ImGuiCol_FrameBgActive] = rgb(56, 76, 112);
  c[ImGuiCol_Button] = rgb(46, 72, 110);
  c[ImGuiCol_ButtonHovered] = rgb(56, 92, 145);
  c[ImGuiCol_ButtonActive] = rgb(40, 84, 150);
  c[ImGuiCol_Header] = rgb(46, 72, 110);
  c[ImGuiCol_HeaderHovered] = rgb(56, 92, 145);
  c[ImGuiCol_HeaderActive] = rgb(40, 84, 150);
  c[ImGuiCol_Tab] = rgb(44, 48, 58);
  c[ImGuiCol_TabHovered] = rgb(56, 92, 145);
  c[ImGuiCol_TabActive] = rgb(46, 80, 130);
  c[ImGuiCol_TabUnfocused] = c[ImGuiCol_Tab];
  c[ImGuiCol_TabUnfocusedActive] = c[ImGuiCol_TabActive];
  c[ImGuiCol_CheckMark] = rgb(110, 170, 250);
  c[ImGuiCol_SliderGrab] = rgb(110, 170, 250);
  c[ImGuiCol_SliderGrabActive] = rgb(150, 195, 255);
  c[ImGuiCol_ScrollbarBg] = rgb(26, 27, 31);
  c[ImGuiCol_ScrollbarGrab] = rgb(120, 122, 128);
  c[ImGuiCol_ScrollbarGrabHovered] = rgb(150, 152, 158);
  c[ImGuiCol_ScrollbarGrabActive] = rgb(175, 177, 183);
  c[ImGuiCol_TableHeaderBg] = rgb(48, 52, 62);
  c[ImGuiCol_TableBorderStrong] = rgb(96, 98, 106);
  c[ImGuiCol_TableBorderLight] = rgb(70, 72, 80);
  c[ImGuiCol_TableRowBgAlt] = rgb(255, 255, 255, 0.04f);
  c[ImGuiCol_TextSelectedBg] = rgb(66, 150, 250, 0.35f);
  c[ImGuiCol_SeparatorHovered] = rgb(110, 170, 250);
  c[ImGuiCol_SeparatorActive] = rgb(150, 195, 255);
  c[ImGuiCol_NavHighlight] = rgb(110, 170, 250);
}

}  // namespace

const char* theme_id(Theme theme) { return theme == Theme::Dark ? "dark" : "light"; }

bool theme_from_id(const std::string& id, Theme* theme) {
  if (id == "light") *theme = Theme::Light;
  else if (id == "dark") *theme = Theme::Dark;
  else return false;
  return true;
}

const Palette& palette(Theme theme) { return theme == Theme::Dark ? kDark : kLight; }
const Palette& current_palette() { return palette(g_applied.theme); }
Theme current_theme() { return g_applied.theme; }

ImVec4 to_vec4(ImU32 color) { return ImGui::ColorConvertU32ToFloat4(color); }

ImGuiStyle themed_style(Theme theme, float scale) {
  const Palette& p = palette(theme);
  ImGuiStyle style;  // fresh defaults, so repeated scaling does not compound
  if (theme == Theme::Dark) ImGui::StyleColorsDark(&style);
  else ImGui::StyleColorsLight(&style);
  // A textbook page: flat panels, thin borders.
  style.WindowRounding = 0.0f;
  style.ChildRounding = 3.0f;
  style.FrameRounding = 2.0f;
  style.WindowBorderSize = 0.0f;
  style.ChildBorderSize = 1.0f;
  style.FrameBorderSize = 1.0f;  // checkboxes and combos stay visible on the panels
  style.PopupBorderSize = 1.0f;
  style.WindowPadding = ImVec2(10, 8);
  ImVec4* c = style.Colors;
  c[ImGuiCol_WindowBg] = to_vec4(p.window_bg);
  c[ImGuiCol_ChildBg] = to_vec4(p.panel_bg);
  c[ImGuiCol_PopupBg] = to_vec4(p.popup_bg);
  c[ImGuiCol_FrameBg] = to_vec4(p.frame_bg);
  c[ImGuiCol_Border] = to_vec4(p.border);
  c[ImGuiCol_Separator] = to_vec4(p.border);
  c[ImGuiCol_Text] = to_vec4(p.text);
  c[ImGuiCol_TextDisabled] = to_vec4(p.text_muted);
  widget_colors(theme, c);
  style.ScaleAllSizes(scale);
  return style;
}

void apply_style(float scale, Theme theme) {
  ImGui::GetStyle() = themed_style(theme, scale);
  g_applied = AppliedStyle{scale, theme};
}

void apply_style(float scale) { apply_style(scale, current_theme()); }

void follow_theme(Theme theme) {
  if (theme != g_applied.theme) apply_style(g_applied.scale, theme);
}

}  // namespace attn::ui
