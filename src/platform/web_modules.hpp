// The views' own modules, asked of the page: the one way the browser's lab
// loads a module that is not in its first download (ui/state/module_load.hpp).
//
//   C++  a view sets its load to Requested -> Module.attnRequestModule(Module, name)
//        (web/main.js: the module's loader script, then the module itself)
//   JS   _attn_add_view_strings(records): the view's strings, which travel with its module
//   JS   _attn_module_loaded("name US error"): error "" when the module answers;
//        then the view's own loaded() sets its calls (or says why it cannot)
//
// Adding a lazy view: a row in modules (web_modules.cpp) and one in main.js's loaders.
#pragma once

#include <string>

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Once a frame: asks the page for every module a view has requested.
void request_modules_from_page(ui::AppState& state);

// Each view's own end of its load (web_poem.cpp, web_why.cpp). error: "" when
// the page's module answers, else why not; with "" the view sets its calls,
// or sets error to say why the module cannot serve it after all.
void poem_module_loaded(ui::AppState& state, std::string& error);
void why_module_loaded(ui::AppState& state, std::string& error);

}  // namespace attn::platform
