// The views' own modules, asked of the page: the one way the browser's lab
// loads a module that is not in its first download (ui/state/module_load.hpp)
// and speaks to it (api/wire.hpp's bytes).
//
//   C++  a view sets its load to Requested -> Module.attnRequestModule(Module, name)
//        (web/main.js: the module's loader script, then the module itself)
//   JS   _attn_add_view_strings(records): the view's strings, which travel with its module
//   JS   _attn_module_loaded("name US error"): error "" when the module answers;
//        then the view's own loaded() sets its calls (or says why it cannot)
//   C++  call_page_module(name, request) -> Module.attnModuleCall(Module, name, pointer, size):
//        the module on the page's thread answers at once, copied into this heap as
//        [u32 size][bytes] (freed here)
//   C++  post_to_page_module(name, request) -> Module.attnModulePost(Module, name, pointer, size):
//        to the module's Web Worker; the answer comes later:
//   JS   _attn_module_answer(name, op, pointer, size), and the view's answer() takes it
//
// Adding a lazy view: a row in modules (web_modules.cpp) and one in main.js's lazyViews.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ui/state/app_state.hpp"

namespace attn::platform {

// Once a frame: asks the page for every module a view has requested.
void request_modules_from_page(ui::AppState& state);

// A request's answer from the module's instance on the page's thread (an
// error answer when the page has none).
std::vector<uint8_t> call_page_module(const char* name, const std::vector<uint8_t>& request);
// A request to the module's own thread; its answer comes through attn_module_answer.
void post_to_page_module(const char* name, const std::vector<uint8_t>& request);
// The module trains (or works) on a thread of its own, to which requests may be posted.
bool page_module_threaded(const char* name);

// Each view's own end of its load (web_poem.cpp, web_why.cpp). error: "" when
// the page's module answers, else why not; with "" the view sets its calls,
// or sets error to say why the module cannot serve it after all.
void poem_module_loaded(ui::AppState& state, std::string& error);
void why_module_loaded(ui::AppState& state, std::string& error);

}  // namespace attn::platform
