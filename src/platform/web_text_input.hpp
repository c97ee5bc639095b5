// Browser text input for ImGui's text fields: input methods (Chinese pinyin,
// Japanese, dead keys), insertText, paste, copy/cut to the system clipboard.
// The JavaScript half is web/text_input.js (its top comment has the design).
#pragma once

#include <string>

struct ImGuiIO;

namespace attn::platform {

// Call once after ImGui_ImplGlfw_InitForOpenGL (it replaces the GLFW backend's
// clipboard functions, which are stubs in Emscripten's GLFW) and before the
// first frame. Connects to web/text_input.js if the page loaded it.
void install_web_text_input();

// The input queue's sink for text from the page (platform/input_queue.hpp):
// into ImGui's characters, or held back while Ctrl is down (see the .cpp).
void insert_page_text(ImGuiIO& io, const std::string& utf8);

}  // namespace attn::platform
