// C functions exported to JavaScript (web/main.js wraps them as
// window.attentionLab). Each returns a UTF-8 JSON string owned by the app,
// valid until the next call of the same function; JavaScript copies it at once.
#include <emscripten.h>

#include "api/compute.hpp"
#include "api/json_input.hpp"
#include "core/base/tokenizer.hpp"
#include "platform/web_app.hpp"
#include "ui/a11y/a11y.hpp"
#include "ui/state/lab_state.hpp"

extern "C" {

// compute(config_json) -> result JSON, or {"error": "..."} (never aborts on bad input).
EMSCRIPTEN_KEEPALIVE const char* attn_compute(const char* config_json) {
  auto& app = attn::platform::web_app();
  app.compute_result = attn::api::compute(config_json ? config_json : "").json;
  return app.compute_result.c_str();
}

// Where each heatmap's cells were drawn in the last frame (see ui/shell/app.hpp).
EMSCRIPTEN_KEEPALIVE const char* attn_layout() {
  auto& app = attn::platform::web_app();
  app.layout_result = attn::ui::layout_json(app.state);
  return app.layout_result.c_str();
}

// The reader's explorer config (api::print_explorer_config).
EMSCRIPTEN_KEEPALIVE const char* attn_current_config() {
  auto& app = attn::platform::web_app();
  app.config_result = attn::ui::current_config_json(app.state);
  return app.config_result.c_str();
}

// The UI state for tests and embedding pages (see ui::state_json).
EMSCRIPTEN_KEEPALIVE const char* attn_state() {
  auto& app = attn::platform::web_app();
  app.state_result = attn::ui::state_json(app.state);
  return app.state_result.c_str();
}

// The reader's state as one JSON object of fields (ui/state/lab_state.hpp): what a
// host page's get() returns and its change events carry.
EMSCRIPTEN_KEEPALIVE const char* attn_get_fields() {
  auto& app = attn::platform::web_app();
  app.fields_result = attn::ui::state_fields_json(app.state).dump();
  return app.fields_result.c_str();
}

// The open view for readers who cannot see the canvas (ui/a11y/a11y.hpp): title,
// summary, tables, controls and the cell cursor; web/a11y.js mirrors it in the DOM.
EMSCRIPTEN_KEEPALIVE const char* attn_a11y() {
  auto& app = attn::platform::web_app();
  attn::platform::a11y_version(app);
  return app.a11y.json.c_str();
}

// Moves when the accessible copy changed: web/a11y.js reads attn_a11y only then.
EMSCRIPTEN_KEEPALIVE int attn_a11y_version() { return attn::platform::a11y_version(attn::platform::web_app()); }

// A button of the page's controls (web/a11y.js): 1 when the action exists.
EMSCRIPTEN_KEEPALIVE int attn_a11y_press(const char* action) {
  return attn::ui::a11y_press(attn::platform::web_app().state, action ? action : "") ? 1 : 0;
}

// A host page's set(): a JSON object of fields, applied all or nothing.
// Returns "" or the message naming the field (also shown as a notice).
EMSCRIPTEN_KEEPALIVE const char* attn_set_fields(const char* fields_json) {
  auto& app = attn::platform::web_app();
  attn::api::Json fields;
  app.set_result = attn::api::parse_config(fields_json ? fields_json : "", fields);
  if (app.set_result.empty()) app.set_result = attn::ui::apply_state_fields(app.state, fields);
  if (!app.set_result.empty()) app.state.notices.push_back(app.set_result + "; nothing changed");
  return app.set_result.c_str();
}

// A message from the page for the reader (web/utf16.js: text that could not
// be passed in), shown as a notice like the app's own.
EMSCRIPTEN_KEEPALIVE void attn_notice(const char* message) {
  if (!message) return;
  auto& app = attn::platform::web_app();
  if (!attn::utf8_error(message).empty()) return;
  app.state.notices.emplace_back(message);
  attn::ui::mark_state_changed(app.state);
}

}  // extern "C"
