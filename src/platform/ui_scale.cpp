// See ui_scale.hpp.
#include "platform/ui_scale.hpp"

#include <algorithm>

#include "ui/app.hpp"

namespace attn::platform {

void set_ui_scale(float scale) {
  scale = std::clamp(scale, 0.5f, 4.0f);
  ui::apply_style(scale);
  // Fonts are rasterised at the final pixel size rather than stretching a
  // 13 px atlas, which would blur on HiDPI screens (fonts.cpp).
  set_font_scale(scale);
}

}  // namespace attn::platform
