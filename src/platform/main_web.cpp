// Browser entry point: Emscripten's GLFW + WebGL2, the same UI as the desktop.
//
// Works around Dear ImGui 1.86 on Emscripten 3.1.6:
//  - GLFW ignores CSS size changes and devicePixelRatio: on every resize event
//    (and each frame, for zoom changes) the canvas backbuffer is set to CSS size
//    * devicePixelRatio, and style and fonts scale by it (mouse positions
//    already arrive in backbuffer pixels).
//  - Raw wheel deltas are unscaled and reversed: normalised in on_wheel.
// URL parameters (read once at start): ?debug=1 shows the debug view; ?preset,
// ?config, ?text, ?view, ?panel, ?dk and ?lang are the desktop's start-up
// flags (ui/startup.hpp lists their values; ?lang defaults to the browser's
// language); a value that cannot be applied is named in a console warning and
// the rest still apply.
// The debug view's matrix dump is offered as a download (attention_dump.json).
// The first frame is drawn inside main, so the layout exists as soon as the
// module's ready promise resolves (web/main.js then sets data-ready).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>

#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "gfx/gl.hpp"
#include "platform/ui_scale.hpp"
#include "platform/web_app.hpp"
#include "platform/web_text_input.hpp"
#include "ui/startup.hpp"
#include "ui/strings.hpp"

namespace attn::platform {

WebApp& web_app() {
  static WebApp app;
  return app;
}

namespace {

constexpr const char* kCanvas = "#canvas";

// Backbuffer = CSS size * devicePixelRatio, so one canvas pixel is one device pixel.
void sync_canvas_size(WebApp& app) {
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double ratio = emscripten_get_device_pixel_ratio();
  const int width = std::max(1, int(std::lround(css_w * ratio)));
  const int height = std::max(1, int(std::lround(css_h * ratio)));
  if (width != app.width || height != app.height) {
    // Not glfwSetWindowSize: Emscripten 3.1.6's version requests fullscreen
    // when the size equals the screen's (easy to hit with css * dpr). Browser's
    // setCanvasSize is what it calls otherwise; GLFW follows through its
    // canvas-resize listener, so glfwGetWindowSize stays right.
    EM_ASM({ Browser.setCanvasSize($0, $1); }, width, height);
    app.width = width;
    app.height = height;
  }
  if (float(ratio) != app.ui_scale) {
    set_ui_scale(float(ratio));
    app.ui_scale = float(ratio);
  }
  app.state.css_pixel_ratio = float(ratio);
}

EM_BOOL on_resize(int, const EmscriptenUiEvent*, void* user_data) {
  sync_canvas_size(*static_cast<WebApp*>(user_data));
  return EM_FALSE;
}

// Browsers report wheel deltas in pixels, lines or pages with "down" positive;
// ImGui wants notches with "up" positive.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* event, void*) {
  double per_unit = 1.0 / 100.0;  // DOM_DELTA_PIXEL
  if (event->deltaMode == DOM_DELTA_LINE) per_unit = 1.0 / 3.0;
  if (event->deltaMode == DOM_DELTA_PAGE) per_unit = 80.0;
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheel -= float(event->deltaY * per_unit);
  io.MouseWheelH -= float(event->deltaX * per_unit);
  return EM_TRUE;  // the page must not scroll under the canvas
}

// One URL query parameter ("" when absent); the returned string is malloc'd by JS.
std::string url_parameter(const char* name) {
  // wasm32: a pointer fits EM_ASM_INT (3.1.6 has no EM_ASM_PTR).
  char* value = reinterpret_cast<char*>(EM_ASM_INT({
    const v = new URLSearchParams(window.location.search).get(UTF8ToString($0)) || "";
    const size = lengthBytesUTF8(v) + 1;
    const p = _malloc(size);
    stringToUTF8(v, p, size);
    return p;
  }, name));
  std::string text = value ? value : "";
  std::free(value);
  return text;
}

// The URL's start-up options: the same as the desktop's flags (ui/startup.hpp).
void apply_url(ui::AppState& state) {
  state.debug = url_parameter("debug") == "1";
  ui::StartupOptions options;
  options.preset = url_parameter("preset");
  options.config = url_parameter("config");
  options.text = url_parameter("text");
  options.view = url_parameter("view");
  options.panel = url_parameter("panel");
  options.d_k = url_parameter("dk");
  // The browser's own language first (zh, zh-CN, zh-TW ... read the Chinese
  // interface); ?lang= overrides it, and an unknown ?lang= leaves it.
  ui::set_language(EM_ASM_INT({ return /^zh/i.test(navigator.language || ""); }) ? "zh" : "en");
  options.lang = url_parameter("lang");
  for (const std::string& problem : ui::apply_startup(state, options, "?"))
    EM_ASM({ console.warn("attention lab: " + UTF8ToString($0)); }, problem.c_str());
}

// The debug view's dump: a browser download, since the page has no file system.
void save_dump(std::string& dump) {
  if (dump.empty()) return;
  EM_ASM({
    const blob = new Blob([UTF8ToString($0)], {type: "application/json"});
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "attention_dump.json";
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }, dump.c_str());
  dump.clear();
}

void frame() {
  WebApp& app = web_app();
  sync_canvas_size(app);
  glfwPollEvents();
  update_fonts(app.state);  // between frames: the atlas follows the characters in use (fonts.hpp)
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ui::app_frame(app.state);
  ImGui::Render();
  glViewport(0, 0, app.width, app.height);
  glClearColor(0.97f, 0.97f, 0.96f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  save_dump(app.state.dump_request);
}

}  // namespace
}  // namespace attn::platform

int main() {
  using namespace attn::platform;
  WebApp& app = web_app();
  if (!glfwInit()) return 1;
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double ratio = emscripten_get_device_pixel_ratio();
  app.width = std::max(1, int(std::lround(css_w * ratio)));
  app.height = std::max(1, int(std::lround(css_h * ratio)));
  // The WebGL version comes from -sMIN/MAX_WEBGL_VERSION=2, not from hints.
  app.window = glfwCreateWindow(app.width, app.height, attn::ui::tr("app.title"), nullptr, nullptr);
  if (!app.window) {
    EM_ASM({ if (Module.onWebGLUnavailable) Module.onWebGLUnavailable(); });
    return 1;
  }
  glfwMakeContextCurrent(app.window);
  apply_url(app.state);

  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no localStorage/FS use; every load starts the same
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  glfwSetScrollCallback(app.window, nullptr);  // replaced by on_wheel
  emscripten_set_wheel_callback(kCanvas, nullptr, EM_FALSE, on_wheel);
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, &app, EM_FALSE, on_resize);
  install_web_text_input();  // IME, insertText, paste, clipboard (web/text_input.js)

  frame();
  emscripten_set_main_loop(frame, 0, EM_FALSE);
  return 0;
}
