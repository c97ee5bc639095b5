// See web_why.hpp. The calls go through web/why.js (window.attentionLabWhy):
//
//   C++  serve_why_from_page()       -> Module.attnRequestWhy(Module)     (main.js loads why.js)
//   JS   _attn_add_view_strings(records), then _attn_why_loaded(error): "" when the module answers
//   C++  WhyCalls                    -> Module.attnWhyCall(Module, op, panel, number, text): the
//        answer copied into this module's heap as a C string (freed here)
#include "platform/web_why.hpp"

#include <cstdlib>
#include <string>

#include <emscripten.h>

#include "platform/web_app.hpp"

namespace attn::platform {
namespace {

enum Op { Reset, Report, Timing };

std::string call_why(Op op, int panel, double number, const std::string& text) {
  char* answer = reinterpret_cast<char*>(EM_ASM_INT({ return Module.attnWhyCall(Module, $0, $1, $2, $3); }, int(op),
                                                    panel, number, text.c_str()));
  if (!answer) return "{\"error\": \"why: the experiments' module is not there\"}";
  std::string out(answer);
  std::free(answer);
  return out;
}

std::string reset(const std::string& settings) { return call_why(Reset, 0, 0, settings); }
// The view's runs train in web/why.js's worker (or on the page's thread without one).
int advance(int panel, double budget_ms) {
  return EM_ASM_INT({ return window.attentionLabWhy.train($0, $1); }, panel, budget_ms);
}
std::string report(int panel) { return call_why(Report, panel, 0, ""); }
std::string timing(double seconds_each, int n) { return call_why(Timing, n, seconds_each, ""); }

}  // namespace

void serve_why_from_page(ui::AppState& state) {
  if (state.why.load != ui::ModuleLoad::Requested) return;
  state.why.load = ui::ModuleLoad::Loading;
  ui::mark_state_changed(state);
  EM_ASM({
    if (typeof Module.attnRequestWhy === "function") Module.attnRequestWhy(Module);
    else Module._attn_why_loaded(0);  // a page without why.js: said as a failure
  });
}

}  // namespace attn::platform

extern "C" {

// error: "" when the module answers; null when the page has no loader.
EMSCRIPTEN_KEEPALIVE void attn_why_loaded(const char* error) {
  using namespace attn;
  ui::AppState& state = platform::web_app().state;
  ui::mark_state_changed(state);
  if (!error || *error) {
    state.why.load = ui::ModuleLoad::Failed;
    state.why.load_error = error ? error : "this page has no loader for it (web/why.js)";
    return;
  }
  state.why.calls = {platform::reset, platform::advance, platform::report, platform::timing};
  state.why.load = ui::ModuleLoad::Ready;
  state.why.load_error.clear();
}

}  // extern "C"
