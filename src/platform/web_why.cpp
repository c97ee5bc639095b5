// The browser's side of the why-attention view's experiments (ui/state/why_lab.hpp),
// a module of their own that web/why.js loads when the view first asks
// (web_modules.hpp: "why"). The view's requests go to its Web Worker
// (web/why_worker.js), where the runs train, and come back through
// attn_module_answer; a page that cannot start the worker calls the
// module on its own thread instead.
#include <string>

#include "platform/web_modules.hpp"

namespace attn::platform {

void why_module_loaded(ui::AppState& state, std::string& error) {
  if (!error.empty()) return;
  state.why.call = [](const std::vector<uint8_t>& request) { return call_page_module("why", request); };
  state.why.post = page_module_threaded("why")
                       ? +[](const std::vector<uint8_t>& request) { post_to_page_module("why", request); }
                       : nullptr;
}

}  // namespace attn::platform
