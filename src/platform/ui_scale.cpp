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

void set_theme_clear_color() {
  const ImVec4 paper = ui::to_vec4(ui::current_palette().window_bg);
  glClearColor(paper.x, paper.y, paper.z, 1.0f);
}

}  // namespace attn::platform
