// Light and dark themes: one Palette of colours per theme, and the ImGui
// style built from it.
//
//   apply_style(scale, theme);  // the platform, on start-up and on scale changes
//   follow_theme(state.theme);  // app_frame, each frame: redoes the style when the theme changed
//   const Palette& p = current_palette();  // panels and the plot layer, while drawing
//
// Every colour the UI draws comes from here, so both themes stay readable:
// text against its background has a WCAG 2 contrast ratio of at least 4.5:1;
// lines, marks, axes and widget outlines at least 3:1 (tests/ui/test_theme.cpp
// computes them). Heatmap cells use the colormaps (gfx/colormap.hpp) in both
// themes; the masked-cell grey (gfx::kMaskedColor) reads on both.
//
// ImGui's style is one global per ImGui context; the scale and theme it was
// last built for are remembered beside it, so a scale change keeps the theme
// and a theme change keeps the scale.
#pragma once

#include <array>
#include <string>

#include <imgui.h>


namespace attn::ui {

// The page's colours (?theme=, the desktop's --theme).
enum class Theme { Light, Dark };

// "light" / "dark" (the ?theme= and --theme values).
const char* theme_id(Theme theme);
// false (and *theme unchanged) for anything but "light" or "dark".
bool theme_from_id(const std::string& id, Theme* theme);

// Colours as IM_COL32 (0xAABBGGRR), opaque unless a comment says otherwise.
struct Palette {
  // ---- surfaces -----------------------------------------------------------
  ImU32 window_bg;         // the page behind the panels; also the canvas clear colour
  ImU32 panel_bg;          // panels (child windows)
  ImU32 plot_bg;           // inside a plot's frame
  ImU32 popup_bg;          // tooltips, combo lists, popups
  ImU32 frame_bg;          // checkboxes, sliders, text fields
  ImU32 highlight_row_bg;  // a table row picked out (the focus view's output row)

  // ---- text: >= 4.5:1 on every surface it is drawn on -----------------------
  ImU32 text;
  ImU32 text_muted;  // help sentences, pad tokens' labels, notes
  ImU32 formula;     // the chapter's formulas (blue, as in the book)
  ImU32 notice;      // notices and warnings (amber)
  ImU32 error;       // errors (red)
  ImU32 success;     // "works" (green)
  ImU32 selection;   // the selected query: its row outline, marker and label

  // ---- lines and marks: >= 3:1 on the panel and plot background --------------
  ImU32 axis;       // plot frames, ticks, heatmap and colorbar outlines
  ImU32 border;     // panel and widget outlines
  ImU32 grid;       // plot grid (translucent; decoration, the ticks carry the values)
  ImU32 guide;      // the hover readout's vertical guide (translucent)
  ImU32 neutral;    // a grey series: the head average, theory curves
  ImU32 reference;  // reference marks (the chapter's d_k values, dashed)
  ImU32 current;    // the current value's mark (the reader's d_k, dashed)
  // Series colours, matplotlib's tab10 order (blue, orange, green, red,
  // purple, brown) darkened (light) or lightened (dark) until each reaches
  // 4.5:1, because they also colour text (head checkboxes, legends above
  // plots, tooltips). Any two differ by more than 20 in CIELAB (delta E 1976).
  std::array<ImU32, 6> series;
};

const Palette& palette(Theme theme);

// The palette of the theme ImGui's style was last built for (light before
// any apply_style): what panels and the plot layer draw with.
const Palette& current_palette();
Theme current_theme();

// ImGui's style for a theme at a scale (framebuffer pixels per UI unit,
// devicePixelRatio on the web): fresh defaults each time, so repeated
// scaling does not compound. Needs no ImGui context.
ImGuiStyle themed_style(Theme theme, float scale);

// Makes themed_style(theme, scale) ImGui's style and remembers both.
void apply_style(float scale, Theme theme);

// The same in the theme last applied (the platform, on start-up and on scale
// changes); scale = framebuffer pixels per UI unit (devicePixelRatio on the
// web). Fonts are the platform's job (their texture lives in the backend).
void apply_style(float scale);
// Redoes the style at the remembered scale when `theme` is not the one it
// was built for (app_frame calls it each frame with state.theme).
void follow_theme(Theme theme);

// A palette colour as ImGui's float colour (for PushStyleColor, TextColored).
ImVec4 to_vec4(ImU32 color);

}  // namespace attn::ui
