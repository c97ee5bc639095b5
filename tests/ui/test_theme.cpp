// Both themes must stay readable: WCAG 2 contrast ratios of every text /
// background pair the UI draws (>= 4.5:1) and of lines, marks and widget
// outlines against what they sit on (>= 3:1), from the palettes and the
// ImGui styles built from them (ui/widgets/theme.hpp). Translucent colours are
// composited over the surface they are drawn on first. Series colours must
// also stay apart from each other (CIELAB delta E 1976 > 20).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/widgets/theme.hpp"

namespace {

using attn::ui::Palette;
using attn::ui::Theme;

struct Rgb {
  double r, g, b;  // 0..255
};

Rgb rgb_of(ImU32 c) {
  return {double((c >> IM_COL32_R_SHIFT) & 0xff), double((c >> IM_COL32_G_SHIFT) & 0xff),
          double((c >> IM_COL32_B_SHIFT) & 0xff)};
}
double alpha_of(ImU32 c) { return double((c >> IM_COL32_A_SHIFT) & 0xff) / 255.0; }

// `top` drawn over the opaque `below`, as the GPU blends it.
Rgb over(ImU32 top, Rgb below) {
  const Rgb t = rgb_of(top);
  const double a = alpha_of(top);
  return {t.r * a + below.r * (1 - a), t.g * a + below.g * (1 - a), t.b * a + below.b * (1 - a)};
}
Rgb over(const ImVec4& top, Rgb below) { return over(ImGui::ColorConvertFloat4ToU32(top), below); }
Rgb opaque(ImU32 c) { return over(c, Rgb{0, 0, 0}); }

double linear(double channel) {
  const double c = channel / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}
double luminance(Rgb c) { return 0.2126 * linear(c.r) + 0.7152 * linear(c.g) + 0.0722 * linear(c.b); }
// WCAG 2: (L1 + 0.05) / (L2 + 0.05), lighter over darker.
double contrast(Rgb a, Rgb b) {
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// CIELAB (D65) distance, for "can two series be told apart".
struct Lab {
  double l, a, b;
};
Lab lab_of(Rgb c) {
  const double r = linear(c.r), g = linear(c.g), b = linear(c.b);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}
double delta_e(Rgb a, Rgb b) {
  const Lab p = lab_of(a), q = lab_of(b);
  return std::sqrt((p.l - q.l) * (p.l - q.l) + (p.a - q.a) * (p.a - q.a) + (p.b - q.b) * (p.b - q.b));
}

void check_pair(const char* theme, const std::string& what, Rgb fg, Rgb bg, double minimum) {
  const double ratio = contrast(fg, bg);
  INFO(theme << ": " << what << " has contrast " << ratio << ":1, needs " << minimum << ":1");
  CHECK(ratio >= minimum);
}

constexpr double kText = 4.5, kGraphics = 3.0;

void check_palette(Theme theme) {
  const char* name = attn::ui::theme_id(theme);
  const Palette& p = attn::ui::palette(theme);
  const Rgb window = opaque(p.window_bg), panel = opaque(p.panel_bg), plot = opaque(p.plot_bg),
            popup = opaque(p.popup_bg);
  const Rgb highlight = opaque(p.highlight_row_bg);
  const std::vector<std::pair<const char*, Rgb>> surfaces = {
      {"window", window}, {"panel", panel}, {"plot", plot}, {"popup", popup}};

  // Text: the plain and muted text may sit on any surface, the coloured
  // kinds on the window, panels and tooltips.
  for (const auto& [where, bg] : surfaces) {
    check_pair(name, std::string("text on ") + where, opaque(p.text), bg, kText);
    check_pair(name, std::string("muted text on ") + where, opaque(p.text_muted), bg, kText);
    check_pair(name, std::string("formula on ") + where, opaque(p.formula), bg, kText);
    check_pair(name, std::string("notice on ") + where, opaque(p.notice), bg, kText);
    check_pair(name, std::string("error on ") + where, opaque(p.error), bg, kText);
    check_pair(name, std::string("success on ") + where, opaque(p.success), bg, kText);
    check_pair(name, std::string("selected label on ") + where, opaque(p.selection), bg, kText);
    for (std::size_t i = 0; i < p.series.size(); ++i)  // head checkboxes, legends above plots, tooltips
      check_pair(name, "series " + std::to_string(i) + " as text on " + where, opaque(p.series[i]), bg, kText);
  }
  check_pair(name, "text on the highlighted table row", opaque(p.text), highlight, kText);
  check_pair(name, "muted text on the highlighted table row", opaque(p.text_muted), highlight, kText);

  // Lines and marks against the plot and the panel around it.
  for (const auto& [where, bg] : {std::pair<const char*, Rgb>{"plot", plot}, {"panel", panel}}) {
    check_pair(name, std::string("axis on ") + where, opaque(p.axis), bg, kGraphics);
    check_pair(name, std::string("border on ") + where, opaque(p.border), bg, kGraphics);
    check_pair(name, std::string("neutral series on ") + where, opaque(p.neutral), bg, kGraphics);
    check_pair(name, std::string("reference marks on ") + where, opaque(p.reference), bg, kGraphics);
    check_pair(name, std::string("current mark on ") + where, opaque(p.current), bg, kGraphics);
    check_pair(name, std::string("selection outline on ") + where, opaque(p.selection), bg, kGraphics);
    for (std::size_t i = 0; i < p.series.size(); ++i)
      check_pair(name, "series " + std::to_string(i) + " line on " + where, opaque(p.series[i]), bg, kGraphics);
  }
  check_pair(name, "border on the window", opaque(p.border), window, kGraphics);

  // Lines on one plot must be told apart: every pair of series colours, and
  // each against the neutral grey and the current-value mark drawn beside them.
  std::vector<Rgb> lines;
  for (ImU32 c : p.series) lines.push_back(opaque(c));
  for (std::size_t i = 0; i < lines.size(); ++i) {
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      INFO(name << ": series " << i << " and " << j << " differ by delta E " << delta_e(lines[i], lines[j]));
      CHECK(delta_e(lines[i], lines[j]) > 20.0);
    }
    INFO(name << ": series " << i << " and the neutral grey differ by delta E " << delta_e(lines[i], opaque(p.neutral)));
    CHECK(delta_e(lines[i], opaque(p.neutral)) > 20.0);
  }
  // The lab's plots: raw (series 1) and scaled (series 0) beside the current mark.
  CHECK(delta_e(opaque(p.current), lines[0]) > 20.0);
  CHECK(delta_e(opaque(p.current), lines[1]) > 20.0);
}

// The ImGui style: text on every widget surface it appears on, check marks
// and slider grabs on their field, outlines and scrollbars on the panel.
void check_style(Theme theme) {
  const char* name = attn::ui::theme_id(theme);
  const ImGuiStyle style = attn::ui::themed_style(theme, 1.0f);
  const ImVec4* c = style.Colors;
  const Rgb window = over(c[ImGuiCol_WindowBg], Rgb{0, 0, 0});
  const Rgb panel = over(c[ImGuiCol_ChildBg], window);
  const Rgb popup = over(c[ImGuiCol_PopupBg], panel);
  const Rgb text = over(c[ImGuiCol_Text], panel), muted = over(c[ImGuiCol_TextDisabled], panel);
  const Rgb frame = over(c[ImGuiCol_FrameBg], panel);
  struct Surface {
    const char* what;
    Rgb bg;
  };
  const std::vector<Surface> text_surfaces = {
      {"WindowBg", window},
      {"ChildBg", panel},
      {"PopupBg", popup},
      {"FrameBg", frame},
      {"FrameBgHovered", over(c[ImGuiCol_FrameBgHovered], panel)},
      {"FrameBgActive", over(c[ImGuiCol_FrameBgActive], panel)},
      {"Button", over(c[ImGuiCol_Button], panel)},
      {"ButtonHovered", over(c[ImGuiCol_ButtonHovered], panel)},
      {"ButtonActive", over(c[ImGuiCol_ButtonActive], panel)},
      {"Header", over(c[ImGuiCol_Header], popup)},
      {"HeaderHovered", over(c[ImGuiCol_HeaderHovered], popup)},
      {"HeaderActive", over(c[ImGuiCol_HeaderActive], popup)},
      {"Tab", over(c[ImGuiCol_Tab], window)},
      {"TabHovered", over(c[ImGuiCol_TabHovered], window)},
      {"TabActive", over(c[ImGuiCol_TabActive], window)},
      {"TableHeaderBg", over(c[ImGuiCol_TableHeaderBg], panel)},
      {"TableRowBgAlt", over(c[ImGuiCol_TableRowBgAlt], panel)},
      {"TextSelectedBg", over(c[ImGuiCol_TextSelectedBg], frame)},
  };
  for (const Surface& s : text_surfaces) check_pair(name, std::string("Text on ") + s.what, text, s.bg, kText);
  check_pair(name, "TextDisabled on WindowBg", muted, window, kText);
  check_pair(name, "TextDisabled on ChildBg", muted, panel, kText);
  check_pair(name, "TextDisabled on PopupBg", muted, popup, kText);
  check_pair(name, "TextDisabled on FrameBg", muted, frame, kText);

  check_pair(name, "CheckMark on FrameBg", over(c[ImGuiCol_CheckMark], frame), frame, kGraphics);
  check_pair(name, "SliderGrab on FrameBg", over(c[ImGuiCol_SliderGrab], frame), frame, kGraphics);
  check_pair(name, "Border on ChildBg", over(c[ImGuiCol_Border], panel), panel, kGraphics);
  check_pair(name, "Border on WindowBg", over(c[ImGuiCol_Border], window), window, kGraphics);
  const Rgb scrollbar = over(c[ImGuiCol_ScrollbarBg], panel);
  check_pair(name, "ScrollbarGrab on ScrollbarBg", over(c[ImGuiCol_ScrollbarGrab], scrollbar), scrollbar, kGraphics);
  check_pair(name, "TableBorderStrong on ChildBg", over(c[ImGuiCol_TableBorderStrong], panel), panel, 1.0);

  // The style and the palette agree on what panels draw by hand.
  const Palette& p = attn::ui::palette(theme);
  CHECK(ImGui::ColorConvertFloat4ToU32(c[ImGuiCol_WindowBg]) == p.window_bg);
  CHECK(ImGui::ColorConvertFloat4ToU32(c[ImGuiCol_ChildBg]) == p.panel_bg);
  CHECK(ImGui::ColorConvertFloat4ToU32(c[ImGuiCol_Text]) == p.text);
  CHECK(ImGui::ColorConvertFloat4ToU32(c[ImGuiCol_TextDisabled]) == p.text_muted);
}

}  // namespace

TEST_CASE("theme ids: light and dark, nothing else") {
  CHECK(std::string(attn::ui::theme_id(Theme::Light)) == "light");
  CHECK(std::string(attn::ui::theme_id(Theme::Dark)) == "dark");
  Theme theme = Theme::Light;
  CHECK(attn::ui::theme_from_id("dark", &theme));
  CHECK(theme == Theme::Dark);
  CHECK(attn::ui::theme_from_id("light", &theme));
  CHECK(theme == Theme::Light);
  CHECK_FALSE(attn::ui::theme_from_id("Dark", &theme));
  CHECK_FALSE(attn::ui::theme_from_id("", &theme));
  CHECK(theme == Theme::Light);
}

TEST_CASE("the light palette is readable (WCAG AA)") { check_palette(Theme::Light); }
TEST_CASE("the dark palette is readable (WCAG AA)") { check_palette(Theme::Dark); }
TEST_CASE("the light ImGui style is readable (WCAG AA)") { check_style(Theme::Light); }
TEST_CASE("the dark ImGui style is readable (WCAG AA)") { check_style(Theme::Dark); }

TEST_CASE("the themes differ where it shows: page, panels, text") {
  const Palette& light = attn::ui::palette(Theme::Light);
  const Palette& dark = attn::ui::palette(Theme::Dark);
  CHECK(luminance(opaque(light.window_bg)) > 0.8);
  CHECK(luminance(opaque(dark.window_bg)) < 0.05);
  CHECK(luminance(opaque(light.text)) < luminance(opaque(light.panel_bg)));
  CHECK(luminance(opaque(dark.text)) > luminance(opaque(dark.panel_bg)));
}

TEST_CASE("the masked-cell grey reads on both themes' panels") {
  // gfx::kMaskedColor (150, 150, 150) is drawn inside heatmaps, framed by the
  // panel: it must not vanish into a dark panel either.
  const Rgb masked{150, 150, 150};
  for (Theme theme : {Theme::Light, Theme::Dark}) {
    const Palette& p = attn::ui::palette(theme);
    check_pair(attn::ui::theme_id(theme), "masked cells on the panel", masked, opaque(p.panel_bg), 2.5);
  }
}

TEST_CASE("apply_style keeps the scale when the theme follows the state, and the theme on a scale change") {
  ImGuiContext* context = ImGui::CreateContext();
  attn::ui::apply_style(2.0f, Theme::Light);
  const float padding = ImGui::GetStyle().WindowPadding.x;
  attn::ui::follow_theme(Theme::Dark);
  CHECK(attn::ui::current_theme() == Theme::Dark);
  CHECK(ImGui::GetStyle().WindowPadding.x == padding);
  CHECK(ImGui::ColorConvertFloat4ToU32(ImGui::GetStyle().Colors[ImGuiCol_WindowBg]) ==
        attn::ui::palette(Theme::Dark).window_bg);
  CHECK(&attn::ui::current_palette() == &attn::ui::palette(Theme::Dark));
  attn::ui::apply_style(1.0f);  // the platform's scale change (app.hpp)
  CHECK(attn::ui::current_theme() == Theme::Dark);
  CHECK(ImGui::GetStyle().WindowPadding.x == doctest::Approx(padding / 2.0f));
  attn::ui::follow_theme(Theme::Light);
  CHECK(ImGui::ColorConvertFloat4ToU32(ImGui::GetStyle().Colors[ImGuiCol_WindowBg]) ==
        attn::ui::palette(Theme::Light).window_bg);
  ImGui::DestroyContext(context);
}
