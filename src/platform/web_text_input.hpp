// Browser text input for ImGui's text fields: input methods (Chinese pinyin,
// Japanese, dead keys), insertText, paste, copy/cut to the system clipboard.
// The JavaScript half is web/text_input.js (its top comment has the design).
#pragma once

namespace attn::platform {

// Call once after ImGui_ImplGlfw_InitForOpenGL (it replaces the GLFW backend's
// clipboard functions, which are stubs in Emscripten's GLFW) and before the
// first frame. Connects to web/text_input.js if the page loaded it.
void install_web_text_input();

}  // namespace attn::platform
