// The "why attention" experiments' own wasm module (attention_why.js / .wasm),
// loaded by web/why.js only when the view first opens (or a page calls
// attentionLab.loadWhy()): the lab's first download does not carry the
// recurrent layers, the models and their training. One instance serves the
// page (compute(), and the view when no worker starts), another the view's
// trainer thread (web/why_worker.js); both answer api/why/why_wire.hpp's
// bytes, as the poem module answers its own:
//
//   why_call(request, size) -> the answer (valid until the next call); why_answer_size()
//   why_compute(config_json) -> compute()'s {"why": settings}: a fresh run to its
//     last step, the document attention_cli why ... --json prints; or {"error": ...}
//   why_view_strings() -> the view's strings (added to the lab's tables)
#include <cstdint>
#include <string>
#include <vector>

#include <emscripten.h>

#include "api/why/why_calls.hpp"
#include "platform/view_strings.hpp"

namespace {

std::vector<uint8_t> answer;
std::string text;  // the last text answer, valid until the next call

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const uint8_t* why_call(const uint8_t* request, int size) {
  answer = attn::api::why_call(std::vector<uint8_t>(request, request + (size > 0 ? size : 0)));
  return answer.data();
}

EMSCRIPTEN_KEEPALIVE int why_answer_size() { return int(answer.size()); }

EMSCRIPTEN_KEEPALIVE const char* why_compute(const char* config_json) {
  text = attn::api::why_call_compute(config_json ? config_json : "");
  return text.c_str();
}

// The view's strings (platform/view_strings.hpp).
EMSCRIPTEN_KEEPALIVE const char* why_view_strings() {
  text = attn::platform::view_string_records();
  return text.c_str();
}

}  // extern "C"
