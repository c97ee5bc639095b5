// See ui_scale.hpp.
#include "platform/ui_scale.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "ui/app.hpp"

namespace attn::platform {

void set_ui_scale(float scale) {
  scale = std::clamp(scale, 0.5f, 4.0f);
  ui::apply_style(scale);
  // Rasterise the font at the final pixel size rather than stretching a
  // 13 px atlas, which would blur on HiDPI screens.
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  ImFontConfig config;
  config.SizePixels = std::round(13.0f * scale);
  io.Fonts->AddFontDefault(&config);
  // Before the first frame the backend builds the texture itself.
  if (io.Fonts->TexID) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
}

}  // namespace attn::platform
