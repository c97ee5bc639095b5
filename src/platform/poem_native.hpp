// The desktop's poem model (ui/state/poem_lab.hpp): when the learned-heads
// view asks for it, the weights file and fortunes-zh's tang300 are read from
// disk and an api::PoemSession answers the view in-process.
//   weights: $ATTN_POEM_MODEL, else the build's poem_model.bin (the native
//            build trains it: scripts/poem_model.sh)
//   corpus:  $ATTN_POEM_CORPUS, else /usr/share/games/fortunes (Debian's fortunes-zh)
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Between frames: loads the model if the view asked for it (ModuleLoad::Requested).
void serve_poem_natively(ui::AppState& state);

}  // namespace attn::platform
