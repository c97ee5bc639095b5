// The browser's side of the why-attention view's experiments (ui/state/why_lab.hpp):
// they run in a module of their own (why_module.cpp) that web/why.js loads
// when the view first opens.
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Between frames: asks the page for the module once the view wants it.
void serve_why_from_page(ui::AppState& state);

}  // namespace attn::platform
