// Where a view's own module stands: the learned-heads view's poem model and
// the why-attention view's experiments. In the browser each is a wasm module
// of its own, fetched only when its view first opens (web/main.js script(),
// web/poem.js, web/why.js), so the lab's first download does not carry it;
// the desktop and the UI tests serve it in-process. The view asks
// (Requested), the platform answers (Loading, then Ready or Failed).
#pragma once

namespace attn::ui {

enum class ModuleLoad {
  Idle,       // nothing asked yet
  Requested,  // the view was opened: the platform should load the module
  Loading,    // the platform is fetching it
  Ready,      // its calls answer
  Failed,     // the view's load_error says why; the rest of the lab keeps working
};

// The load as state() names it: "idle", "requested", "loading", "ready", "failed".
inline const char* module_load_name(ModuleLoad load) {
  static const char* const names[] = {"idle", "requested", "loading", "ready", "failed"};
  return names[int(load)];
}

}  // namespace attn::ui
