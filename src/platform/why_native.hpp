// The desktop's why-attention experiments (ui/state/why_lab.hpp): once the
// view asks, its calls go to api/why/why_calls.hpp in-process, the functions the
// browser's module exports. The UI tests serve the view the same way.
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::platform {

void serve_why_natively(ui::AppState& state);

}  // namespace attn::platform
