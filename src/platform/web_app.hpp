// The browser app's single instance. Exported C functions (web_bindings.cpp)
// are called from JavaScript without any user pointer, so the app they talk
// to has to be reachable from here; nothing else is global.
#pragma once

#include <string>

#include "ui/app.hpp"

struct GLFWwindow;

namespace attn::platform {

struct WebApp {
  GLFWwindow* window = nullptr;
  ui::AppState state;
  float ui_scale = 0;         // devicePixelRatio the fonts and style were built for
  int width = 0, height = 0;  // canvas backbuffer size (CSS size * devicePixelRatio)
  // Strings handed to JavaScript: valid until the next call of the same function.
  std::string compute_result, layout_result, config_result, state_result;
};

WebApp& web_app();

}  // namespace attn::platform
