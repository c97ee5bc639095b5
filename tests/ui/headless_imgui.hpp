// The current ImGui context set up for a test without a window or GL: no
// ini file, a 400 x 300 display at 60 frames a second, the default font
// atlas built (NewFrame asserts without one).
#pragma once

#include <imgui.h>

namespace attn::test {

inline ImGuiIO& headless_imgui() {
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.DisplaySize = ImVec2(400, 300);
  io.DeltaTime = 1.0f / 60;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  return io;
}

}  // namespace attn::test
