// The "why attention" experiments' own wasm module (attention_why.js / .wasm),
// loaded by web/why.js only when the view first opens (or a page calls
// attentionLab.loadWhy()): the lab's first download does not carry the
// recurrent layers, the models and their training. It exports the view's
// calls (api/why/why_calls.hpp), answering in attention_cli why's JSON:
//
//   why_reset(settings_json) -> "" or the error: a fresh run for the settings'
//     panel ({"experiment": "recurrence" | "qkv", "distance", "task", "steps",
//     "seed", "batch", "lr"}, as read_why_settings reads them)
//   why_advance(panel, budget_ms) -> the run's steps after those the budget
//     allows (a negative budget: none; -1: no run)
//   why_report(panel) -> the run's document at its step, and "finished"; {"error"} without a run
//   why_compute(config_json) -> compute()'s {"why": settings}: a fresh run to its
//     last step, the document attention_cli why ... --json prints; or {"error": ...}
//   why_timing(seconds_each, n) -> {"forward": [...]}: one forward pass of each layer
//     for n (0: n = 16 ... 1024), timed here, as attention_cli why recurrence --timing
//   why_view_strings() -> the view's strings (added to the lab's tables, as the poem module's)
#include <string>

#include <emscripten.h>

#include "api/why/why_calls.hpp"
#include "ui/i18n/strings.hpp"

namespace {

std::string text;  // the last answer, valid until the next call

const char* answer(std::string s) {
  text = std::move(s);
  return text.c_str();
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* why_reset(const char* settings_json) {
  return answer(attn::api::why_call_reset(settings_json ? settings_json : ""));
}

EMSCRIPTEN_KEEPALIVE int why_advance(int panel, double budget_ms) { return attn::api::why_call_advance(panel, budget_ms); }

EMSCRIPTEN_KEEPALIVE const char* why_report(int panel) { return answer(attn::api::why_call_report(panel)); }

EMSCRIPTEN_KEEPALIVE const char* why_compute(const char* config_json) {
  return answer(attn::api::why_call_compute(config_json ? config_json : ""));
}

EMSCRIPTEN_KEEPALIVE const char* why_timing(double seconds_each, int n) {
  return answer(attn::api::why_call_timing(seconds_each, n));
}

// The view's strings in every language, as records "code US key US text"
// separated by RS, as poem_view_strings sends them (ui/i18n/strings.hpp).
EMSCRIPTEN_KEEPALIVE const char* why_view_strings() {
  std::string records;
  for (const attn::ui::Language& language : attn::ui::languages())
    for (const attn::ui::StringEntry& entry : attn::ui::view_strings(language))
      records += std::string(language.code) + '\x1f' + entry.key + '\x1f' + entry.text + '\x1e';
  return answer(std::move(records));
}

}  // extern "C"
