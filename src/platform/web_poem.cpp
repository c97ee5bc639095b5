// The browser's side of the poem model (ui/state/poem_lab.hpp). The model
// runs in a module of its own (poem_module.cpp) that web/poem.js loads with
// the weights when the learned-heads view first asks (web_modules.hpp: "poem"):
//
//   JS   _attn_poem_training(step, steps, seconds) while the model is still being trained
//        behind the page (scripts/run.sh serves before it is)
//   JS   _attn_poem_progress(received, total) while the weights arrive
//   C++  poem_module_loaded() once it answers: its summary, read here
//   C++  Start asks for the rest of the corpus -> Module.attnRequestPoemCorpus(Module);
//   JS   _attn_poem_corpus_loaded(error) once the trainer has the training slice: in Web
//        Workers of its own when the browser gives them (then the module is threaded,
//        and Module.attnPoemReplicas says how many take a part of every batch)
//   C++  a request's bytes             -> call_page_module("poem", ...) (web_modules.hpp)
//   C++  a request for the model being trained -> post_to_page_module("poem", ...), its
//        answer through attn_module_answer when the worker is done
#include "platform/web_poem.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <string>
#include <vector>

#include <emscripten.h>

#include "platform/web_app.hpp"
#include "platform/web_modules.hpp"
#include "ui/i18n/strings.hpp"

namespace attn::platform {

void serve_poem_from_page(ui::AppState& state) {
  ui::PoemLab& lab = state.poem;
  if (lab.corpus == ui::ModuleLoad::Requested) {
    lab.corpus = ui::ModuleLoad::Loading;
    ui::mark_state_changed(state);
    EM_ASM({
      if (typeof Module.attnRequestPoemCorpus === "function") Module.attnRequestPoemCorpus(Module);
      else Module._attn_poem_corpus_loaded(0);
    });
  }
}

void poem_module_loaded(ui::AppState& state, std::string& error) {
  ui::PoemLab& lab = state.poem;
  lab.model_training.reset();
  if (!error.empty()) return;
  lab.call = [](const std::vector<uint8_t>& request) { return call_page_module("poem", request); };
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::Summary));
  const std::vector<uint8_t> answer = lab.call(request.bytes);
  api::WireReader in(answer.data(), answer.size());
  error = in.str();
  api::PoemSummary summary = api::read_summary(in);
  if (error.empty() && !in.ok()) error = "the model's summary was cut short";
  if (!error.empty()) {
    lab.call = nullptr;
    return;
  }
  ui::poem_take_summary(lab, std::move(summary));
}

}  // namespace attn::platform

extern "C" {

EMSCRIPTEN_KEEPALIVE void attn_poem_progress(double received, double total) {
  attn::ui::AppState& state = attn::platform::web_app().state;
  if (state.poem.load != attn::ui::ModuleLoad::Ready) state.poem.load = attn::ui::ModuleLoad::Loading;
  state.poem.received = received;
  state.poem.total = total;
  attn::ui::mark_state_changed(state);
}

// The page was served before its model was trained (scripts/run.sh): the
// training behind it has come this far (web/poem.js polls poem_training.json).
EMSCRIPTEN_KEEPALIVE void attn_poem_training(int step, int steps, double seconds) {
  attn::ui::AppState& state = attn::platform::web_app().state;
  if (state.poem.load == attn::ui::ModuleLoad::Ready) return;
  state.poem.load = attn::ui::ModuleLoad::Loading;
  state.poem.model_training = attn::ui::PoemLab::ModelTraining{std::max(0, step), std::max(0, steps), seconds};
  attn::ui::mark_state_changed(state);
}

// The learned-heads view's strings, from the poem module: records "code US
// key US text" separated by RS (poem_module.cpp); the main module's tables
// leave them out (ui/i18n/strings.hpp).
EMSCRIPTEN_KEEPALIVE void attn_add_view_strings(const char* records) {
  std::string_view rest = records ? records : "";
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\x1e'), rest.size());
    const std::string_view record = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    const std::size_t a = record.find('\x1f'), b = a == std::string_view::npos ? a : record.find('\x1f', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string code(record.substr(0, a)), key(record.substr(a + 1, b - a - 1)), text(record.substr(b + 1));
    attn::ui::add_view_strings(code, {{key.c_str(), text.c_str()}});
  }
  attn::ui::mark_state_changed(attn::platform::web_app().state);
}

// The rest of the corpus reached the model's module (training can start); error as above.
EMSCRIPTEN_KEEPALIVE void attn_poem_corpus_loaded(const char* error) {
  attn::ui::AppState& state = attn::platform::web_app().state;
  attn::ui::mark_state_changed(state);
  state.poem.corpus = error && !*error ? attn::ui::ModuleLoad::Ready : attn::ui::ModuleLoad::Failed;
  state.poem.corpus_error = error ? error : "this page has no loader for it (web/poem.js)";
  // A new trainer (the first, or one after a worker stopped): Start begins from a fresh model.
  if (state.poem.corpus == attn::ui::ModuleLoad::Ready) state.poem.training.reset();
  // Without a worker (none in this browser, or it failed to start) training runs here, time-sliced.
  // To the trainer's Web Worker; the answer comes back through attn_module_answer.
  state.poem.post = attn::platform::page_module_threaded("poem")
                        ? +[](const std::vector<uint8_t>& request) { attn::platform::post_to_page_module("poem", request); }
                        : nullptr;
  // Workers that each train a part of every batch (web/poem.js: two when the browser starts both).
  state.poem.replicas = state.poem.post ? std::max(1, EM_ASM_INT({ return Module.attnPoemReplicas || 1; })) : 1;
}

}  // extern "C"
