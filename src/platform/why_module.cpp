// The "why attention" experiments' own wasm module (attention_why.js / .wasm),
// loaded by web/why.js only when the view first asks for it (or a page calls
// attentionLab.loadWhy()): the lab's first download does not carry the
// recurrent layers, the models and their training. It holds one run per
// panel (api::WhyRun) and answers in attention_cli why's JSON (api/why_json.hpp).
//
//   why_reset(settings_json) -> "" or the error: a fresh run for the settings'
//     panel ({"experiment": "recurrence" | "qkv", "distance", "task", "steps",
//     "seed", "batch", "lr"}, as read_why_settings reads them)
//   why_advance(panel, budget_ms) -> the steps taken within the budget (-1: no run)
//   why_report(panel) -> the run's document at its step, and "finished"; {"error"} without a run
//   why_compute(config_json) -> compute()'s {"why": settings}: a fresh run to its
//     last step, the document attention_cli why ... --json prints; or {"error": ...}
//   why_timing(seconds_each) -> {"forward": [...]}: one forward pass of each layer
//     for n = 16 ... 1024, timed here, as attention_cli why recurrence --timing
#include <limits>
#include <memory>
#include <string>

#include <emscripten.h>

#include "api/json_input.hpp"
#include "api/json_output.hpp"
#include "api/why_json.hpp"
#include "api/why_session.hpp"
#include "core/work_clock.hpp"

namespace {

using attn::api::OutJson;
using attn::api::WhyRun;

std::unique_ptr<WhyRun> runs[2];  // by WhyPanel
attn::WorkClock& frame_clock() {
  static attn::WorkClock steady(0.0);  // budgets are the page's frame time
  return steady;
}
std::string text;

const char* answer(const OutJson& j) {
  text = j.dump();
  return text.c_str();
}

const char* answer_error(const std::string& error) { return answer(OutJson{{"error", error}}); }

WhyRun* run_of(int panel) { return panel == 0 || panel == 1 ? runs[panel].get() : nullptr; }

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* why_reset(const char* settings_json) {
  attn::api::Json in;
  attn::api::WhyRunSettings settings;
  text = attn::api::parse_config(settings_json ? settings_json : "", in);
  if (text.empty()) text = attn::api::read_why_settings(in, settings);
  if (text.empty()) runs[int(settings.panel)] = std::make_unique<WhyRun>(settings);
  return text.c_str();
}

EMSCRIPTEN_KEEPALIVE int why_advance(int panel, double budget_ms) {
  WhyRun* run = run_of(panel);
  return run ? run->advance(frame_clock(), budget_ms) : -1;
}

EMSCRIPTEN_KEEPALIVE const char* why_report(int panel) {
  WhyRun* run = run_of(panel);
  if (!run) return answer_error("why: no run of that panel (why_reset first)");
  OutJson out = run->json();
  out["finished"] = run->finished();
  return answer(out);
}

EMSCRIPTEN_KEEPALIVE const char* why_compute(const char* config_json) {
  attn::api::Json config;
  if (std::string e = attn::api::parse_config(config_json ? config_json : "", config); !e.empty()) return answer_error(e);
  if (!config.is_object() || !config.contains("why")) return answer_error("why: expected {\"why\": {...}}");
  attn::api::WhyRunSettings settings;
  if (std::string e = attn::api::read_why_settings(config["why"], settings); !e.empty()) return answer_error(e);
  WhyRun run(settings);
  attn::WorkClock unlimited(0.0);
  run.advance(unlimited, std::numeric_limits<double>::infinity());
  return answer(run.json());
}

EMSCRIPTEN_KEEPALIVE const char* why_timing(double seconds_each) {
  return answer(OutJson{{"forward", attn::api::why_forward_json(seconds_each)}});
}

}  // extern "C"
