// The browser app's single instance. Exported C functions (web_bindings.cpp)
// are called from JavaScript without any user pointer, so the app they talk
// to has to be reachable from here; nothing else is global.
#pragma once

#include <string>

#include "platform/frame_cache.hpp"
#include "ui/shell/app.hpp"
#include "ui/state/lab_state.hpp"

struct GLFWwindow;

namespace attn::platform {

struct WebApp {
  GLFWwindow* window = nullptr;
  ui::AppState state;
  ui::StateJson start_fields;   // the state fields a load without URL parameters has (lab_state.hpp)
  std::string published_query;  // the state's URL query the page was last told ...
  uint64_t published_generation = ~uint64_t(0);  // ... and the state generation it was made for
  // The accessible copy (attn_a11y) and what it was built from: rebuilt only
  // when one of these moved; `version` counts the rebuilds (web/a11y.js asks it first).
  struct A11yCopy {
    uint64_t state_generation = ~uint64_t(0), result_generation = ~uint64_t(0);
    long long busy_frame = -1;  // AppState::busy_frame (training, a recompute; every frame in the debug view)
    int version = 0;
    std::string json;
  } a11y;
  // The browser tests set window.attentionLabCheckGenerations: the URL and the
  // accessible copy are then built every time anyway, and a change that their
  // generations missed is a console error (so every browser test checks them).
  bool check_generations = false;
  float ui_scale = 0;         // devicePixelRatio the fonts and style were built for
  int width = 0, height = 0;  // canvas backbuffer size (CSS size * devicePixelRatio)
  int reported_height = 0;    // the wanted height (CSS px) web/messages.js last told a host page
  FrameCache frame_cache;     // a frame the canvas already shows is not drawn again
  // Strings handed to JavaScript: valid until the next call of the same function.
  std::string compute_result, layout_result, config_result, state_result, fields_result, set_result;
};

WebApp& web_app();

// The accessible copy's version, rebuilding the copy (a11y.json) first when
// what it is built from changed.
int a11y_version(WebApp& app);

}  // namespace attn::platform
