// The browser's side of the why-attention view's experiments (ui/state/why_lab.hpp),
// a module of their own that web/why.js loads when the view first asks
// (web_modules.hpp: "why"). Its calls go through web/why.js (window.attentionLabWhy):
//
//   C++  WhyCalls::advance           -> attentionLabWhy.train(panel, budget): the worker's run
//   C++  the other WhyCalls          -> Module.attnWhyCall(Module, op, panel, number, text): the
//        answer copied into this module's heap as a C string (freed here)
#include <cstdlib>
#include <string>

#include <emscripten.h>

#include "platform/web_modules.hpp"

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
// With its worker (web/why.js) the runs train there, and it asks for the frames.
bool threaded() { return EM_ASM_INT({ return window.attentionLabWhy.status().trainer === "worker" ? 1 : 0; }) != 0; }

}  // namespace

void why_module_loaded(ui::AppState& state, std::string& error) {
  if (error.empty()) state.why.calls = {reset, advance, report, timing, threaded};
}

}  // namespace attn::platform
