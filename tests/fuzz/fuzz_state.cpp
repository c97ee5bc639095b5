// libFuzzer target: the reader's state from outside the app. The first byte
// picks the way in, the rest is what comes in:
//   even: a URL query (apply_url_query, the page's ?text=...&heads=2 and the
//         desktop's --url). Whatever it holds, the state then prints as JSON
//         (no invalid UTF-8 got in) and its own URL loads into a fresh state
//         without a notice and gives the same fields back.
//   odd:  a host page's set() message (web/messages.js -> attn_set_fields:
//         parse_config, then apply_state_fields). All or nothing: a refused
//         set leaves every field as it was.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/json_input.hpp"
#include "fuzz_check.hpp"
#include "ui/shell/app.hpp"
#include "ui/state/lab_state.hpp"

using namespace attn;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  ui::AppState state;
  const ui::StateJson start = ui::state_fields_json(state);
  if (data[0] % 2 == 0) {
    (void)ui::apply_url_query(state, text);
    const ui::StateJson now = ui::state_fields_json(state);
    (void)now.dump();  // throws (and so fails) on invalid UTF-8
    ui::AppState reloaded;
    const std::vector<std::string> notes = ui::apply_url_query(reloaded, ui::url_query(state, start));
    FUZZ_CHECK(notes.empty(), "the state's own URL gives notices");
    FUZZ_CHECK(ui::state_fields_json(reloaded) == now, "the state's own URL gives another state");
  } else {
    api::Json fields;
    std::string error = api::parse_config(text, fields);
    if (error.empty()) error = ui::apply_state_fields(state, fields);
    (void)ui::state_fields_json(state).dump();
    if (!error.empty()) FUZZ_CHECK(ui::state_fields_json(state) == start, "a refused set() changed the state");
  }
  return 0;
}
