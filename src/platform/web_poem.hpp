// The browser's poem model; see web_poem.cpp.
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Between frames: asks the page to load the model if the view asked for it.
void serve_poem_from_page(ui::AppState& state);

}  // namespace attn::platform
