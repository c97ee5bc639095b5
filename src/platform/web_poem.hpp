// The browser's poem model; see web_poem.cpp.
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Between frames: asks the page for the rest of the corpus if Start asked for
// it (the model itself comes as the view's module: web_modules.hpp).
void serve_poem_from_page(ui::AppState& state);

}  // namespace attn::platform
