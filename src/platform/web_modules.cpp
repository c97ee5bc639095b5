// See web_modules.hpp.
#include "platform/web_modules.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <emscripten.h>

#include "api/wire.hpp"
#include "platform/web_app.hpp"
#include "ui/state/poem_lab.hpp"
#include "ui/state/why_lab.hpp"

namespace attn::platform {
namespace {

struct PageModule {
  const char* name;  // as web/main.js's loaders name it
  ui::ModuleLoad& (*load)(ui::AppState&);
  std::string& (*load_error)(ui::AppState&);
  void (*loaded)(ui::AppState&, std::string& error);
  // An answer from the module's thread to a request posted there (op: the
  // request's); null for a module that is only code.
  void (*answer)(ui::AppState&, uint32_t op, const std::vector<uint8_t>& answer);
};

const PageModule kModules[] = {
    {"poem", [](ui::AppState& s) -> ui::ModuleLoad& { return s.poem.load; },
     [](ui::AppState& s) -> std::string& { return s.poem.load_error; }, poem_module_loaded,
     [](ui::AppState& s, uint32_t op, const std::vector<uint8_t>& a) { ui::poem_take_answer(s, api::PoemOp(op), a); }},
    {"why", [](ui::AppState& s) -> ui::ModuleLoad& { return s.why.load; },
     [](ui::AppState& s) -> std::string& { return s.why.load_error; }, why_module_loaded,
     [](ui::AppState& s, uint32_t op, const std::vector<uint8_t>& a) { ui::why_take_answer(s, api::WhyOp(op), a); }},
    // The main module's deferred part: the code of every view but the first (ui::view_code_ready).
    {"code", [](ui::AppState& s) -> ui::ModuleLoad& { return s.views_code; },
     [](ui::AppState& s) -> std::string& { return s.views_code_error; }, [](ui::AppState&, std::string&) {}, nullptr},
};

const PageModule* module_named(const char* name, std::size_t length) {
  for (const PageModule& m : kModules)
    if (std::strncmp(m.name, name, length) == 0 && m.name[length] == '\0') return &m;
  return nullptr;
}

}  // namespace

std::vector<uint8_t> call_page_module(const char* name, const std::vector<uint8_t>& request) {
  const uintptr_t answer = uintptr_t(EM_ASM_INT(
      { return Module.attnModuleCall ? Module.attnModuleCall(Module, UTF8ToString($0), $1, $2) : 0; }, name,
      request.data(), request.size()));
  if (!answer) return api::answer_error(std::string(name) + ": the view's module is not there");
  uint32_t size = 0;
  std::memcpy(&size, reinterpret_cast<const void*>(answer), 4);
  const uint8_t* bytes = reinterpret_cast<const uint8_t*>(answer) + 4;
  std::vector<uint8_t> out(bytes, bytes + size);
  std::free(reinterpret_cast<void*>(answer));
  return out;
}

void post_to_page_module(const char* name, const std::vector<uint8_t>& request) {
  EM_ASM({ Module.attnModulePost(Module, UTF8ToString($0), $1, $2); }, name, request.data(), request.size());
}

bool page_module_threaded(const char* name) {
  return EM_ASM_INT({ return Module.attnModuleThreaded && Module.attnModuleThreaded(UTF8ToString($0)) ? 1 : 0; }, name) != 0;
}

void request_modules_from_page(ui::AppState& state) {
  for (const PageModule& m : kModules) {
    if (m.load(state) != ui::ModuleLoad::Requested) continue;
    m.load(state) = ui::ModuleLoad::Loading;
    ui::mark_state_changed(state);
    EM_ASM({
      if (typeof Module.attnRequestModule === "function") Module.attnRequestModule(Module, UTF8ToString($0));
      else Module._attn_module_loaded(0);  // a page without main.js's loaders: said as a failure
    }, m.name);
  }
}

}  // namespace attn::platform

extern "C" {

// "name US error": error "" when the module answers. Null: the page has no
// loader (every requested module fails, saying so).
EMSCRIPTEN_KEEPALIVE void attn_module_loaded(const char* name_and_error) {
  using namespace attn::platform;
  attn::ui::AppState& state = web_app().state;
  const char* separator = name_and_error ? std::strchr(name_and_error, '\x1f') : nullptr;
  const PageModule* named = separator ? module_named(name_and_error, std::size_t(separator - name_and_error)) : nullptr;
  for (const PageModule& m : kModules) {
    if (separator ? &m != named : m.load(state) != attn::ui::ModuleLoad::Loading) continue;
    std::string error = separator ? separator + 1 : "this page has no loader for it (web/main.js)";
    m.loaded(state, error);
    m.load(state) = error.empty() ? attn::ui::ModuleLoad::Ready : attn::ui::ModuleLoad::Failed;
    m.load_error(state) = error;
    attn::ui::mark_state_changed(state);
  }
}

// A module's worker answered a request the lab posted to it (op: the request's).
EMSCRIPTEN_KEEPALIVE void attn_module_answer(const char* name, int op, const uint8_t* answer, int size) {
  using namespace attn::platform;
  const PageModule* m = name ? module_named(name, std::strlen(name)) : nullptr;
  if (m && m->answer)
    m->answer(web_app().state, uint32_t(op), std::vector<uint8_t>(answer, answer + std::max(0, size)));
}

}  // extern "C"
