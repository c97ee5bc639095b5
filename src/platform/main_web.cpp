// Browser entry point: Emscripten's GLFW + WebGL2, the same UI as the desktop.
//
// Works around Dear ImGui 1.86 on Emscripten 3.1.6:
//  - GLFW ignores CSS size changes and devicePixelRatio: on every resize event
//    (and each frame, for zoom changes) the canvas backbuffer is set to CSS size
//    * devicePixelRatio, and style and fonts scale by it (mouse positions
//    already arrive in backbuffer pixels).
//  - Raw wheel deltas are unscaled and reversed: normalised in on_wheel.
// There is no emscripten_set_main_loop: web/main.js calls attn_frame only
// when something happened (input, a message, visible again) or the app is busy.
// URL parameters (read at start): the reader's state, one parameter per
// field of ui/state/lab_state.hpp (?text=...&heads=2&view=steps; ?debug=1 shows the
// debug view; ?lang and ?theme default to the browser's); a value that cannot
// be applied is named in a notice and a console warning, the rest still apply.
// Files the reader asks for (the debug view's dump, the export popup's CSV,
// JSON and 2x PNG) are offered as downloads (save_dump, web_download).
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
#include "platform/fonts.hpp"
#include "platform/frame_cache.hpp"
#include "platform/input_queue.hpp"
#include "platform/scan_number.hpp"
#include "platform/ui_scale.hpp"
#include "platform/web_app.hpp"
#include "platform/web_download.hpp"
#include "platform/web_memory.hpp"
#include "platform/web_modules.hpp"
#include "platform/web_poem.hpp"
#include "platform/web_text_input.hpp"
#include "ui/a11y/a11y.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/lab_state.hpp"
#include "ui/widgets/plot.hpp"

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

// Whether a framebuffer point is on a heatmap the wheel zooms.
bool over_zoomable_heatmap(const ui::AppState& state, double x, double y) {
  for (const ui::HeatmapLayout& entry : state.layout)
    if (entry.zoomable && x >= entry.cells.x && y >= entry.cells.y && x < entry.cells.x + entry.cells.w &&
        y < entry.cells.y + entry.cells.h)
      return true;
  return false;
}

// The wheel belongs to the page around the lab (an embedding chapter scrolls
// on), except when the reader means the lab: Ctrl+wheel (a trackpad pinch)
// over a zoomable heatmap, or any wheel once the reader has clicked into the
// lab (web/main.js: engaged until Esc or the focus leaves; a lab that is the
// whole page is always engaged). Browsers report deltas in pixels, lines or
// pages with "down" positive; ImGui wants notches with "up" positive.
EM_BOOL on_wheel(int, const EmscriptenWheelEvent* event, void* user_data) {
  const WebApp& app = *static_cast<const WebApp*>(user_data);
  const double ratio = emscripten_get_device_pixel_ratio();
  const bool zoom = event->mouse.ctrlKey &&
                    over_zoomable_heatmap(app.state, event->mouse.targetX * ratio, event->mouse.targetY * ratio);
  const bool engaged = EM_ASM_INT({ return Module.attnEngaged ? (Module.attnEngaged() ? 1 : 0) : 1; });
  if (!zoom && !engaged) return EM_FALSE;  // not handled: the browser scrolls the page
  double per_unit = 1.0 / 100.0;  // DOM_DELTA_PIXEL
  if (event->deltaMode == DOM_DELTA_LINE) per_unit = 1.0 / 3.0;
  if (event->deltaMode == DOM_DELTA_PAGE) per_unit = 80.0;
  ImGuiIO& io = ImGui::GetIO();
  io.MouseWheel -= float(event->deltaY * per_unit);
  io.MouseWheelH -= float(event->deltaX * per_unit);
  return EM_TRUE;  // handled: neither the page nor the browser's own Ctrl+wheel zoom moves
}

// A string the page computes (what = 0: its query, 1: navigator.language), as
// UTF-8. The query is location.search, or attentionLabSearch where the page's
// address cannot hold one (a notebook's figure: web/notebook.js).
std::string page_string(int what) {
  // wasm32: a pointer fits EM_ASM_INT (3.1.6 has no EM_ASM_PTR).
  char* value = reinterpret_cast<char*>(EM_ASM_INT({
    const v = ($0 === 0 ? window.attentionLabSearch || window.location.search : navigator.language) || "";
    const size = lengthBytesUTF8(v) + 1;
    const p = _malloc(size);
    stringToUTF8(v, p, size);
    return p;
  }, what));
  std::string text = value ? value : "";
  std::free(value);
  return text;
}

std::string url_search() { return page_string(0); }

// The state the URL asks for (ui/state/lab_state.hpp: the same parameters as the
// desktop's flags). The browser's language and colour scheme come first
// (ui::language_for_tag: zh, zh-CN, zh-TW ... read the Chinese interface);
// ?lang= and ?theme= override them. What cannot be applied becomes a notice on the page.
void apply_url(WebApp& app) {
  ui::AppState& state = app.state;
  // Every view's code but the first's is the main module's deferred part,
  // fetched once the first view is ready (web/main.js) or when a view asks.
  state.views_code = ui::ModuleLoad::Idle;
  app.check_generations = EM_ASM_INT({ return window.attentionLabCheckGenerations ? 1 : 0; }) != 0;
  ui::set_language(ui::language_for_tag(page_string(1)));
  state.browser_dark = EM_ASM_INT({ return !!(window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches); });
  state.host_dark = EM_ASM_INT({ return Module.attnHostDark ? Module.attnHostDark() : -1; });
  if (state.browser_dark) state.theme = ui::Theme::Dark;
  // prefers-reduced-motion: nothing on the canvas moves by itself (the text cursor does not blink).
  state.reduced_motion =
      EM_ASM_INT({ return !!(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches); });
  app.start_fields = ui::state_fields_json(state);  // the URL leaves out what a fresh load already has
  for (std::string& note : ui::apply_url_query(state, url_search())) {
    EM_ASM({ console.warn("attention lab: " + UTF8ToString($0)); }, note.c_str());
    state.notices.push_back(std::move(note));
  }
}

// What the reader asked to save, as browser downloads (the page has no file
// system): the debug view's dump, the export popup's files, and its PNG of
// the open view, drawn again at 2x offscreen (export_png.hpp).
void save_dump(WebApp& app) {
  ui::AppState& state = app.state;
  if (!state.dump_request.empty()) download("attention_dump.json", "application/json", state.dump_request);
  state.dump_request.clear();
  for (const api::ExportFile& file : state.export_requests) download(file.name, file.mime.c_str(), file.bytes);
  state.export_requests.clear();
  if (state.png_request.empty()) return;
  const std::string name = std::move(state.png_request);
  state.png_request.clear();
  RgbaImage image;
  std::string error;
  if (render_view_png(state, app.ui_scale, float(emscripten_get_device_pixel_ratio()), &image, &error))
    download_png(name, image);
  else
    state.notices.push_back("export: " + name + ": " + error);
}

// After a frame: when the state changed, the page learns its new URL query
// (web/main.js puts it in the address bar, debounced, and tells a host page);
// "Copy link" copies the URL of this state.
// The query is built only when the state's generation moved (a frame with
// input, set(), a result: ui::mark_state_changed), not on every frame.
void publish_state(WebApp& app) {
  ui::AppState& state = app.state;
  const bool moved = state.state_generation != app.published_generation;
  if (moved || app.check_generations) {
    const std::string query = ui::url_query(state, app.start_fields);
    if (!moved && query != app.published_query)
      EM_ASM({ console.error("attention lab: the URL changed without a new state generation: " + UTF8ToString($0)); },
             query.c_str());
    app.published_generation = state.state_generation;
    if (query != app.published_query) {
      app.published_query = query;
      state.link_copied = false;
      EM_ASM({ if (Module.attnStateChanged) Module.attnStateChanged(UTF8ToString($0)); }, query.c_str());
    }
  }
  if (state.copy_link_request) {
    state.copy_link_request = false;
    state.link_copied = true;
    EM_ASM({ if (Module.attnCopyLink) Module.attnCopyLink(UTF8ToString($0)); }, app.published_query.c_str());
  }
}

}  // namespace

// The accessible copy is built from the state, the explorer's result and,
// while the app is busy (training, curves, a recompute), from what each frame
// adds: rebuilt when one of these moved. The debug view's copy states the
// last frame's time: it follows every frame.
int a11y_version(WebApp& app) {
  const ui::AppState& state = app.state;
  WebApp::A11yCopy& copy = app.a11y;
  const long long busy_frame = ui::open_view(state).shown == ui::ViewShown::Debug ? state.frames : state.busy_frame;
  const bool moved = copy.state_generation != state.state_generation ||
                     copy.result_generation != state.result_generation || copy.busy_frame != busy_frame;
  if (!moved && !app.check_generations) return copy.version;
  std::string json = ui::a11y_json(state);
  if (!moved && json != copy.json)
    EM_ASM({ console.error("attention lab: the accessible copy changed without a new generation: " + UTF8ToString($0)); },
           json.c_str());
  copy.state_generation = state.state_generation;
  copy.result_generation = state.result_generation;
  copy.busy_frame = busy_frame;
  if (json != copy.json) {
    copy.json = std::move(json);
    ++copy.version;
  }
  return copy.version;
}

namespace {

void frame() {
  WebApp& app = web_app();
  sync_canvas_size(app);
  glfwPollEvents();
  const int font_builds = font_status().builds;
  request_modules_from_page(app.state);  // the views' own modules, once they ask (web/main.js)
  serve_poem_from_page(app.state);       // the poem trainer's corpus, once Start asks (web/poem.js)
  update_fonts(app.state);  // between frames: the atlas follows the characters in use (fonts.hpp)
  // The accessible copy names the characters the atlas lacks by code point.
  if (font_status().builds != font_builds) ui::mark_state_changed(app.state);
  feed_input_queue(ImGui::GetIO(), insert_page_text);  // at most one change per key a frame
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ui::app_frame(app.state);
  ImGui::Render();
  FrameInputs inputs;
  inputs.width = app.width;
  inputs.height = app.height;
  theme_clear_color(inputs.clear);  // the theme's page colour (ui_scale.hpp)
  if (const plot::Context* plots = plot::GetCurrentContext()) inputs.textures_drawn = plots->textures_drawn;
  inputs.font_builds = font_status().builds;
  if (!app.frame_cache.unchanged(*ImGui::GetDrawData(), inputs)) {
    glViewport(0, 0, app.width, app.height);
    glClearColor(inputs.clear[0], inputs.clear[1], inputs.clear[2], inputs.clear[3]);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  save_dump(app);
  publish_state(app);
  // A host page that sizes the figure to its content (embed.js, height: 'auto') learns the height it wants.
  const int wanted = int(std::ceil(app.state.wanted_height / app.state.css_pixel_ratio));
  if (wanted > 0 && wanted != app.reported_height) {
    app.reported_height = wanted;
    EM_ASM({ if (Module.attnWantedHeight) Module.attnWantedHeight($0); }, wanted);
  }
}

}  // namespace
}  // namespace attn::platform

// ImGui's scanf: numbers between literal text (scan_number.hpp says why).
extern "C" int sscanf(const char* text, const char* format, ...) {
  va_list out;
  va_start(out, format);
  const int read = attn::platform::scan_numbers(text, format, out);
  va_end(out);
  return read;
}

int main() {
  using namespace attn::platform;
  // A big recompute asks whether wasm memory can grow first (core/explorer/explorer.hpp).
  attn::set_memory_probe(wasm_memory_room);
  WebApp& app = web_app();
  if (!glfwInit()) return 1;
  double css_w = 0, css_h = 0;
  emscripten_get_element_css_size(kCanvas, &css_w, &css_h);
  const double ratio = emscripten_get_device_pixel_ratio();
  app.width = std::max(1, int(std::lround(css_w * ratio)));
  app.height = std::max(1, int(std::lround(css_h * ratio)));
  // The WebGL version comes from -sMIN/MAX_WEBGL_VERSION=2, not from hints.
  // Nothing draws with depth or stencil, and every pixel is opaque (the clear
  // colour's alpha is 1 and ImGui's blending keeps it 1): a canvas without
  // those buffers and without alpha is one the browser clears and composites
  // with less work each frame (Emscripten's GLFW asks for all three by default).
  glfwWindowHint(GLFW_DEPTH_BITS, 0);
  glfwWindowHint(GLFW_STENCIL_BITS, 0);
  glfwWindowHint(GLFW_ALPHA_BITS, 0);
  app.window = glfwCreateWindow(app.width, app.height, attn::ui::tr("app.title"), nullptr, nullptr);
  if (!app.window) {
    EM_ASM({ if (Module.onWebGLUnavailable) Module.onWebGLUnavailable(); });
    return 1;
  }
  glfwMakeContextCurrent(app.window);
  apply_url(app);

  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no localStorage/FS use; every load starts the same
  // On a Mac, iPhone or iPad the shortcuts are Cmd+key and words move with
  // Option, as in every other text field there (input_queue.cpp maps the right Cmd).
  ImGui::GetIO().ConfigMacOSXBehaviors =
      EM_ASM_INT({ return /Mac|iPhone|iPad|iPod/.test(navigator.platform) ? 1 : 0; }) != 0;
  ImGui_ImplGlfw_InitForOpenGL(app.window, true);
  ImGui_ImplOpenGL3_Init("#version 300 es");
  glfwSetScrollCallback(app.window, nullptr);  // replaced by on_wheel
  glfwSetKeyCallback(app.window, input_queue_key_callback);  // quick taps are not lost (input_queue.hpp)
  glfwSetCharCallback(app.window, input_queue_char_callback);
  emscripten_set_wheel_callback(kCanvas, &app, EM_FALSE, on_wheel);
  emscripten_set_resize_callback(EMSCRIPTEN_EVENT_TARGET_WINDOW, &app, EM_FALSE, on_resize);
  install_web_text_input();  // IME, insertText, paste, clipboard (web/text_input.js)

  frame();  // the first frame: the layout exists when the module's promise resolves
  return 0;   // web/main.js draws the next frames (attn_frame) when something happens
}

// Whether a finger put down at CSS pixel (x, y) of the canvas is the lab's to
// drag (1: a heatmap to pan, a slider or another control; 2: a text box of
// several lines, which the drag scrolls) rather than the page's to scroll
// (web/frames.js's touch handling).
extern "C" EMSCRIPTEN_KEEPALIVE int attn_touch_owned(double x, double y) {
  using namespace attn;
  const ui::AppState& state = platform::web_app().state;
  const double ratio = emscripten_get_device_pixel_ratio();
  x *= ratio;
  y *= ratio;
  for (const ui::HeatmapLayout& entry : state.layout)
    if (x >= entry.cells.x && y >= entry.cells.y && x < entry.cells.x + entry.cells.w &&
        y < entry.cells.y + entry.cells.h)
      return 1;
  for (const auto& [name, r] : state.controls)
    if (!r.region && x >= r.x && y >= r.y && x < r.x + r.w && y < r.y + r.h) return r.text_box ? 2 : 1;
  return 0;
}

// The browser gave the canvas its WebGL context back after losing it (a GPU
// reset, too many contexts on one page; web/main.js): every GL object of the
// old context is gone. The ImGui backend's (shaders, buffers, the font atlas
// texture) are made again by the next frame, the heatmaps' as they are drawn.
// The lab's state never lived on the GPU, so the next frame shows it as it was.
extern "C" EMSCRIPTEN_KEEPALIVE void attn_gl_restored() {
  // The whole backend, not just its device objects: 1.86 remembers the sizes
  // of its old vertex and index buffers and would never size the new ones.
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplOpenGL3_Init("#version 300 es");
  attn::platform::web_app().frame_cache.forget();  // the canvas was cleared with the context
  if (attn::plot::Context* plots = attn::plot::GetCurrentContext()) {
    attn::plot::ShutdownContext(*plots);
    plots->renderer_error.clear();  // made again on the next PlotHeatmap
  }
}

// The colour schemes ?theme=auto and ?theme=host follow (web/main.js): the
// browser's prefers-color-scheme, and the embedding page's html.dark when that
// page is of this site (-1: it is not, or there is none). Told at start and on
// every change.
extern "C" EMSCRIPTEN_KEEPALIVE void attn_color_scheme(int browser_dark, int host_dark) {
  attn::ui::AppState& state = attn::platform::web_app().state;
  const attn::ui::Theme before = state.theme;
  state.browser_dark = browser_dark != 0;
  state.host_dark = host_dark;
  attn::ui::follow_color_scheme(state);
  if (state.theme != before) attn::ui::mark_state_changed(state);
}

// One frame, drawn by web/frames.js's scheduler on input, on a host page's
// message, or while the last frame asked for another. Returns bit 0: draw
// again, the lab has work of its own (training, curves, a retraining;
// ui::app_busy), an active widget or keys still queued for later frames
// (input_queue.hpp); bit 1: what was asked for is still being worked on
// (ui::app_pending, or queued keys), which frames.js's settled() waits out.
// An idle or hidden page draws nothing.
extern "C" EMSCRIPTEN_KEEPALIVE int attn_frame() {
  using namespace attn::platform;
  frame();
  const attn::ui::AppState& state = web_app().state;
  const bool pending = attn::ui::app_pending(state) || input_queue_pending();
  const bool again = pending || attn::ui::app_busy(state) || ImGui::IsAnyItemActive();
  return (again ? 1 : 0) | (pending ? 2 : 0);
}
