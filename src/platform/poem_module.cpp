// The poem model's own wasm module (attention_poem.js / .wasm), loaded by
// web/poem.js only when the learned-heads view is first opened (or a page
// calls attentionLab.loadPoem()): the lab's first download does not carry the
// model's code. It holds one api::PoemSession and answers the lab's requests
// in api/poem/poem_wire.hpp's bytes; poem_compute is compute()'s poem config.
//
//   poem_load(model, model_size, tang300, tang300_size) -> "" or the error
//   poem_corpus(slice, size) -> "" or the error (training in the page needs it: corpus/tang_train)
//   poem_view_strings() -> the view's strings (added to the lab's tables)
//   poem_call(request, size) -> the answer (valid until the next call); poem_answer_size()
//   poem_waiting() -> 1 when this replica's part of a training step waits for the others' (web/poem_worker.js)
//   poem_checksum() -> {"steps": n, "hash": "<FNV-1a 64 of the weights' bytes, hex>"} of the model being
//     trained: the page's workers compare theirs (the same bits in both)
//   poem_compute(config_json) -> JSON (api/poem/poem_json.hpp's document, or {"error": ...}); in the
//     trainer's worker too, for the model being trained
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <emscripten.h>

#include "api/json_input.hpp"
#include "api/json_output.hpp"
#include "api/poem/poem_json.hpp"
#include "api/poem/poem_session.hpp"
#include "platform/view_strings.hpp"

namespace {

attn::api::PoemSession& session() {
  static attn::api::PoemSession s;
  return s;
}
std::vector<uint8_t> answer;
std::string text;

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* poem_load(const uint8_t* model, int model_size, const char* tang300, int tang300_size) {
  text = session().load(model, std::size_t(model_size > 0 ? model_size : 0),
                        std::string_view(tang300, std::size_t(tang300_size > 0 ? tang300_size : 0)));
  return text.c_str();
}

// The learned-heads view's strings (platform/view_strings.hpp).
EMSCRIPTEN_KEEPALIVE const char* poem_view_strings() {
  text = attn::platform::view_string_records();
  return text.c_str();
}

// The slice of the training poems the page trains on.
EMSCRIPTEN_KEEPALIVE const char* poem_corpus(const char* slice, int size) {
  text = session().train_corpus(std::string_view(slice, std::size_t(size > 0 ? size : 0)));
  return text.c_str();
}

EMSCRIPTEN_KEEPALIVE const uint8_t* poem_call(const uint8_t* request, int size) {
  answer = session().serve(request, std::size_t(size > 0 ? size : 0));
  return answer.data();
}

EMSCRIPTEN_KEEPALIVE int poem_answer_size() { return int(answer.size()); }

EMSCRIPTEN_KEEPALIVE int poem_waiting() { return session().training().waiting ? 1 : 0; }

EMSCRIPTEN_KEEPALIVE const char* poem_checksum() {
  const attn::poem::PoemModel* m = session().trained_model();
  uint64_t hash = 14695981039346656037ull;
  if (m)
    for (const float& x : m->params) {
      const auto* b = reinterpret_cast<const uint8_t*>(&x);
      for (int i = 0; i < 4; ++i) hash = (hash ^ b[i]) * 1099511628211ull;
    }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  text = attn::api::OutJson{{"steps", session().training().steps}, {"hash", m ? hex : ""}}.dump();
  return text.c_str();
}

// {"poem": {"text": "床前明月光"}} -> what `attention_cli poem attend --json` prints;
// "model": "training" reads the model being trained (in the trainer's worker,
// web/poem_worker.js, when there is one), "shipped" (the default) the one loaded.
EMSCRIPTEN_KEEPALIVE const char* poem_compute(const char* config_json) {
  using attn::api::Json;
  attn::api::OutJson out;
  const Json config = Json::parse(config_json ? config_json : "", nullptr, false);
  const Json* poem = config.is_object() && config.contains("poem") ? &config["poem"] : nullptr;
  const Json model = poem && poem->is_object() ? poem->value("model", Json("shipped")) : Json();
  const attn::poem::PoemModel* read_by = model == "training" ? session().trained_model() : session().model();
  std::string error;
  if (!poem || !poem->is_object() || !poem->contains("text") || !(*poem)["text"].is_string()) {
    error = "poem: expected {\"poem\": {\"text\": \"...\"}}";
  } else if (model != "shipped" && model != "training") {
    error = "poem: model: expected \"shipped\" or \"training\"";
  } else if (!read_by) {
    error = model == "training" ? "poem: no model is being trained (Start or Step first)" : "poem: the model is not loaded";
  } else {
    error = attn::api::poem_attend(*read_by, (*poem)["text"].get<std::string>(), out);
  }
  text = error.empty() ? out.dump() : attn::api::OutJson{{"error", error}}.dump();
  return text.c_str();
}

}  // extern "C"
