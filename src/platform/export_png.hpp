// The export's PNG (ui/shell/export.hpp): the open view drawn at twice the CSS
// scale, for both mains.
//
// A picture at 2x should be drawn at 2x, not stretched: text rasterised at
// 26 px, not a 13 px atlas blown up. So the whole UI runs again with the
// display and the UI scale (fonts, style) multiplied, into an offscreen
// framebuffer, and the view's content area (control "view_area", recorded by
// the views table) is cut out of it. Dear ImGui lays out tab bars and tables
// from the previous frame's sizes, so it takes two frames at 2x (the first
// settles the layout) and one at the old scale afterwards (not drawn, so the
// next frame on screen is laid out as before). The frame on screen is never
// touched: the caller has already drawn it.
#pragma once

#include <string>
#include <vector>

namespace attn::ui {
struct AppState;
}

namespace attn::platform {

struct RgbaImage {
  int width = 0, height = 0;
  std::vector<unsigned char> rgba;  // rows top to bottom, 4 bytes a pixel
};

// Call between frames (after ImGui::Render and drawing, before the next
// NewFrame), with the GL context current. ui_scale: the scale the fonts and
// style are built for now (set_ui_scale's; restored afterwards).
// pixels_per_css: framebuffer pixels per CSS pixel now (the web's
// devicePixelRatio; the desktop's framebuffer scale, 1 on most screens).
// The image is exactly 2 x the view area's CSS size (rounded to whole pixels).
bool render_view_png(ui::AppState& state, float ui_scale, float pixels_per_css, RgbaImage* image,
                     std::string* error);

}  // namespace attn::platform
