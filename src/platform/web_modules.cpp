// See web_modules.hpp.
#include "platform/web_modules.hpp"

#include <cstring>

#include <emscripten.h>

#include "platform/web_app.hpp"

namespace attn::platform {
namespace {

struct PageModule {
  const char* name;  // as web/main.js's loaders name it
  ui::ModuleLoad& (*load)(ui::AppState&);
  std::string& (*load_error)(ui::AppState&);
  void (*loaded)(ui::AppState&, std::string& error);
};

const PageModule kModules[] = {
    {"poem", [](ui::AppState& s) -> ui::ModuleLoad& { return s.poem.load; },
     [](ui::AppState& s) -> std::string& { return s.poem.load_error; }, poem_module_loaded},
    {"why", [](ui::AppState& s) -> ui::ModuleLoad& { return s.why.load; },
     [](ui::AppState& s) -> std::string& { return s.why.load_error; }, why_module_loaded},
};

}  // namespace

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
  for (const PageModule& m : kModules) {
    if (separator ? std::strncmp(m.name, name_and_error, std::size_t(separator - name_and_error)) != 0 ||
                        m.name[separator - name_and_error] != '\0'
                  : m.load(state) != attn::ui::ModuleLoad::Loading)
      continue;
    std::string error = separator ? separator + 1 : "this page has no loader for it (web/main.js)";
    m.loaded(state, error);
    m.load(state) = error.empty() ? attn::ui::ModuleLoad::Ready : attn::ui::ModuleLoad::Failed;
    m.load_error(state) = error;
    attn::ui::mark_state_changed(state);
  }
}

}  // extern "C"
