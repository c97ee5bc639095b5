// UI scale shared by both mains: style sizes and the font atlas follow the
// number of framebuffer pixels per UI unit (devicePixelRatio on the web, the
// monitor content scale natively), so text stays crisp on HiDPI screens.
#pragma once

namespace attn::platform {

// Call after the ImGui OpenGL3 backend is initialised; safe to call again
// whenever the scale changes (the font texture is rebuilt).
void set_ui_scale(float scale);

}  // namespace attn::platform
