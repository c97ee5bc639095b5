// UI scale shared by both mains: style sizes and the font atlas follow the
// number of framebuffer pixels per UI unit (devicePixelRatio on the web, the
// monitor content scale natively), so text stays crisp on HiDPI screens.
// The fonts themselves are fonts.hpp's (included here, so both mains reach
// update_fonts through this header). The canvas clear colour follows the
// theme, as the style does.
#pragma once

#include "platform/fonts.hpp"

namespace attn::platform {

// Safe to call again whenever the scale changes: the style is redone at
// once, the font atlas and its texture at the next update_fonts.
void set_ui_scale(float scale);

// glClearColor with the canvas colour of the theme the UI is drawn in (the
// palette's window background, ui/widgets/theme.hpp), so no other colour shows at
// the canvas edges or between frames.
void set_theme_clear_color();
// That colour as r, g, b, a.
void theme_clear_color(float out[4]);

}  // namespace attn::platform
