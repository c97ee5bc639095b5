// The browser app's single instance. Exported C functions (web_bindings.cpp)
// are called from JavaScript without any user pointer, so the app they talk
// to has to be reachable from here; nothing else is global.
#pragma once

#include <string>

#include "ui/shell/app.hpp"
#include "ui/state/lab_state.hpp"

struct GLFWwindow;

namespace attn::platform {

struct WebApp {
  GLFWwindow* window = nullptr;
  ui::AppState state;
  ui::StateJson start_fields;
  std::string published_query;  // the state's URL query the page was last told  // the state fields a load without URL parameters has (lab_state.hpp)
  float ui_scale = 0;         // devicePixelRatio the fonts and style were built for
  int width = 0, height = 0;  // canvas backbuffer size (CSS size * devicePixelRatio)
  // Strings handed to JavaScript: valid until the next call of the same function.
  std::string compute_result, layout_result, config_result, state_result, fields_result, set_result, a11y_result;
};

WebApp& web_app();

}  // namespace attn::platform
