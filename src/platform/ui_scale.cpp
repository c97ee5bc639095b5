// See ui_scale.hpp.
#include "platform/ui_scale.hpp"

#include <algorithm>

#include "gfx/gl.hpp"
#include "ui/shell/app.hpp"
#include "ui/widgets/theme.hpp"

namespace attn::platform {

void set_ui_scale(float scale) {
  scale = std::clamp(scale, 0.5f, 4.0f);
  ui::apply_style(scale);  // keeps the theme the style was built for (ui/widgets/theme.hpp)
  // Fonts are rasterised at the final pixel size rather than stretching a
  // 13 px atlas, which would blur on HiDPI screens (fonts.cpp).
  set_font_scale(scale);
}

void theme_clear_color(float out[4]) {
  const ImVec4 paper = ui::to_vec4(ui::current_palette().window_bg);
  out[0] = paper.x, out[1] = paper.y, out[2] = paper.z, out[3] = 1.0f;
}

void set_theme_clear_color() {
  float c[4];
  theme_clear_color(c);
  glClearColor(c[0], c[1], c[2], c[3]);
}

}  // namespace attn::platform
