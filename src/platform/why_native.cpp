// See why_native.hpp.
#include "platform/why_native.hpp"

#include "api/why/why_calls.hpp"

namespace attn::platform {

void serve_why_natively(ui::AppState& state) {
  if (state.why.load != ui::ModuleLoad::Requested) return;
  state.why.call = api::why_call;
  state.why.load = ui::ModuleLoad::Ready;
  ui::mark_state_changed(state);
}

}  // namespace attn::platform
