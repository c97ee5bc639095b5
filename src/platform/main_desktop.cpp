// Desktop entry point: GLFW + OpenGL 3.3 core, the same UI as the web build.
// Used for debugging and for screenshots under `xvfb-run -a`.
//
//   attention_app [--size WxH] [--frames N] [--screenshot FILE.png] [--layout FILE.json]
//                 [--state FILE.json] [--train-steps N] [--url QUERY] [--<parameter> VALUE ...]
//                 [--export-dir DIR] [--export png,weights_head0.csv,...]
//
// With --screenshot, --layout, --state or --frames the app renders N frames
// (default 3) and then until the lab has nothing left to do, writes the
// requested files from that last frame and exits 0.
// Bad flags exit 2. The state is set as on the web page: --url takes the
// page's query (?text=...&heads=2), and every URL parameter is also a flag
// (--view steps, --d_model 16, --preset fig41; ui/state/lab_state.hpp).
#include <cfloat>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "gfx/gl.hpp"
#include "gfx/screenshot.hpp"
#include "platform/export_png.hpp"
#include "platform/input_queue.hpp"
#include "platform/native_memory.hpp"
#include "platform/poem_native.hpp"
#include "platform/why_native.hpp"
#include "platform/ui_scale.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/shell/app.hpp"
#include "ui/state/export_requests.hpp"
#include "ui/state/lab_state.hpp"
#include "ui/state/presets.hpp"

namespace {

std::string usage() {
  return "usage: attention_app [--size WxH] [--frames N] [--screenshot FILE.png] [--layout FILE.json]\n"
         "  --size WxH          window size in pixels (default 1280x800)\n"
         "  --frames N          render N frames and until the lab is idle, then exit (default 3 with --screenshot/--layout/--state)\n"
         "  --screenshot FILE   write the last frame as PNG and exit\n"
         "  --layout FILE       write the heatmap layout JSON of the last frame and exit\n"
         "  --state FILE        write the state JSON (config, tokens, stats table) of the last frame\n"
         "  --train-steps N     train the scaling lab's two models N steps before the first frame\n"
         "  --url QUERY         the state as the web page's URL query (text=...&heads=2)\n"
         "  --url-fields        print the URL parameters as a markdown table and exit\n"
         "  --views             print the views (id, source, always shown, debug only) as JSON and exit\n"
         "  --PARAM VALUE       one URL parameter, e.g. --view steps, --text TEXT, --lang zh:\n"
         "                      preset, config (a whole JSON config), " + attn::ui::state_field_names() + "\n"
         "  --view ID           start in view " + attn::ui::view_ids() + "\n"
         "  --panel ID          the scaling lab's panel " + attn::ui::scaling_panel_ids() + "\n"
         "  --preset ID         start from preset " + attn::ui::preset_ids() + "\n"
         "  --export-dir DIR    where the export popup's files go (default: the current directory)\n"
         "  --export LIST       export these once the view is drawn, comma-separated: png (the view\n"
         "                      at 2x) or <matrix>.csv / .json, e.g. weights_head0.csv,average.json (ui/shell/export.hpp)\n"
         "The debug view's matrix dump is written to attention_dump.json in the current directory.\n";
}

// How many frames past --frames a batch run waits for the lab to settle.
constexpr int kSettleWaitFrames = 600;

struct Options {
  int width = 1280, height = 800;
  int frames = 0;  // 0: interactive
  int train_steps = 0;
  std::string screenshot, layout, state;
  std::string query;  // --url and the --<parameter> flags, as one URL query
  std::string export_dir = ".";  // --export-dir: the export popup's files are written here
  std::string exports;           // --export: comma-separated exports to ask for at the first frame
};

bool parse_int(const std::string& text, int lo, int hi, int* out) {
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9) return false;
  const int value = std::atoi(text.c_str());
  if (value < lo || value > hi) return false;
  *out = value;
  return true;
}

// Returns an empty string on success, else what is wrong.
std::string parse_options(int argc, char** argv, Options* options, bool* help) {
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--url-fields") {  // docs/reference.md's table of URL parameters
      std::fputs(attn::ui::state_fields_markdown().c_str(), stdout);
      std::exit(0);
    }
    if (flag == "--views") {  // the views table, for the tests
      std::puts(attn::ui::views_json().c_str());
      std::exit(0);
    }
    if (flag == "--help" || flag == "-h") {
      *help = true;
      return "";
    }
    std::string* text_value = flag == "--screenshot" ? &options->screenshot
                              : flag == "--layout"   ? &options->layout
                              : flag == "--state"    ? &options->state
                              : flag == "--export-dir" ? &options->export_dir
                              : flag == "--export"   ? &options->exports
                                                     : nullptr;
    const std::string parameter = flag.rfind("--", 0) == 0 ? flag.substr(2) : "";
    const bool is_parameter = attn::ui::is_url_parameter(parameter);
    if (!text_value && !is_parameter && flag != "--size" && flag != "--frames" && flag != "--train-steps" &&
        flag != "--url")
      return "unknown option '" + flag + "'";
    if (i + 1 >= argc) return flag + " needs a value";
    const std::string value = argv[++i];
    if (flag == "--url" || is_parameter) {
      const std::string part = flag == "--url" ? value : parameter + "=" + attn::ui::percent_encode(value);
      options->query += (options->query.empty() ? "" : "&") + part;
    } else if (text_value) {
      *text_value = value;
    } else if (flag == "--size") {
      const std::size_t x = value.find('x');
      if (x == std::string::npos || !parse_int(value.substr(0, x), 64, 8192, &options->width) ||
          !parse_int(value.substr(x + 1), 64, 8192, &options->height))
        return "--size expects WxH with 64 <= W, H <= 8192, got '" + value + "'";
    } else if (flag == "--frames") {
      if (!parse_int(value, 1, 100000, &options->frames))
        return "--frames expects a whole number >= 1, got '" + value + "'";
    } else if (!parse_int(value, 0, int(attn::TrainLimits::kMaxSteps), &options->train_steps)) {
      return "--train-steps expects a whole number in 0-" + std::to_string(attn::TrainLimits::kMaxSteps) +
             ", got '" + value + "'";
    }
  }
  // The state flags are checked by applying them to a scratch state: the
  // same function (and messages) the real start and the web page use.
  attn::ui::AppState probe;
  const std::vector<std::string> problems = attn::ui::apply_url_query(probe, options->query);
  if (!problems.empty()) return "--" + problems.front();
  if ((!options->screenshot.empty() || !options->layout.empty() || !options->state.empty() ||
       !options->exports.empty()) && options->frames == 0)
    options->frames = 3;
  return "";
}

void glfw_error(int code, const char* description) {
  std::fprintf(stderr, "attention_app: GLFW error %d: %s\n", code, description);
}

// What the reader asked to save, as files: the debug view's dump
// (attention_dump.json in the current directory), the export popup's files
// and its PNG of the open view, drawn again at 2x offscreen (export_png.hpp),
// in --export-dir. --export asks for its exports once the view is on screen
// (the tab bar opens it within the first frames).
// Prints each path written; false when a file could not be written or an
// --export name is unknown.
bool save_requests(attn::ui::AppState& state, Options& options, float ui_scale) {
  bool ok = true;
  const auto report = [&](const std::string& path, bool written) {
    std::fprintf(stderr, "attention_app: %s %s\n", written ? "wrote" : "cannot write", path.c_str());
    ok = ok && written;
  };
  const auto write = [&](const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    out.close();
    report(path, !out.fail());
  };
  if (!state.dump_request.empty()) write("attention_dump.json", state.dump_request + "\n");
  state.dump_request.clear();
  if (!options.exports.empty() && state.result && state.controls.count("view_area")) {
    std::stringstream list(options.exports);
    for (std::string what; std::getline(list, what, ',');)
      if (!attn::ui::request_export(state, what)) {
        std::fprintf(stderr, "attention_app: --export: no export '%s' (png, or e.g. weights_head0.csv, x.json)\n",
                     what.c_str());
        ok = false;
      }
    options.exports.clear();
  }
  const auto in_export_dir = [&](const std::string& name) {
    return (std::filesystem::path(options.export_dir) / name).string();
  };
  for (const attn::api::ExportFile& file : state.export_requests) write(in_export_dir(file.name), file.bytes);
  state.export_requests.clear();
  if (!state.png_request.empty()) {
    const std::string path = in_export_dir(state.png_request);
    state.png_request.clear();
    attn::platform::RgbaImage image;
    std::string error;
    if (attn::platform::render_view_png(state, ui_scale, ImGui::GetIO().DisplayFramebufferScale.x, &image, &error) &&
        attn::gfx::save_rgba_png(path, image.width, image.height, image.rgba.data(), &error)) {
      report(path, true);
    } else {
      std::fprintf(stderr, "attention_app: %s: %s\n", path.c_str(), error.c_str());
      ok = false;
    }
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  attn::platform::keep_freed_memory();
  Options options;
  bool help = false;
  const std::string error = parse_options(argc, argv, &options, &help);
  if (help) {
    std::fputs(usage().c_str(), stdout);
    return 0;
  }
  if (!error.empty()) {
    std::fprintf(stderr, "attention_app: %s\n%s", error.c_str(), usage().c_str());
    return 2;
  }
  const bool batch = options.frames > 0;

  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) return 1;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  if (batch) glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);  // the size asked for is the size rendered
  GLFWwindow* window =
      glfwCreateWindow(options.width, options.height, attn::ui::tr("app.title"), nullptr, nullptr);
  if (!window) {
    std::fprintf(stderr, "attention_app: cannot create an OpenGL 3.3 core window\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(window);
  glfwSwapInterval(batch ? 0 : 1);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini: every run starts the same
  ImGui_ImplGlfw_InitForOpenGL(window, true);
  glfwSetKeyCallback(window, attn::platform::input_queue_key_callback);  // quick taps are not lost
  glfwSetCharCallback(window, attn::platform::input_queue_char_callback);
  ImGui_ImplOpenGL3_Init("#version 330 core");
  float content_scale = 1.0f, unused = 1.0f;
  glfwGetWindowContentScale(window, &content_scale, &unused);
  attn::platform::set_ui_scale(content_scale);

  attn::ui::AppState state;
  state.debug = true;  // the desktop build is the debugging build: the debug view is always there
  attn::ui::apply_url_query(state, options.query);  // checked in parse_options
  for (int i = 0; i < options.train_steps; ++i) attn::ui::training_step(state.scaling);
  int exit_code = 0;
  for (int frame = 1; !glfwWindowShouldClose(window); ++frame) {
    glfwPollEvents();
    attn::platform::serve_poem_natively(state);  // the learned-heads view's model, once it asks
    attn::platform::serve_why_natively(state);   // the why-attention view's experiments, once it asks
    attn::platform::update_fonts(state);  // between frames: the atlas follows the characters in use
    attn::platform::feed_input_queue(ImGui::GetIO());  // at most one change per key a frame (input_queue.hpp)
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Batch runs must not depend on where the X pointer happens to be.
    if (batch) ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    ImGui::NewFrame();
    attn::ui::app_frame(state);
    ImGui::Render();
    if (frame == 1 && !state.plot.renderer_error.empty())
      std::fprintf(stderr, "attention_app: heatmap shader: %s\n", state.plot.renderer_error.c_str());

    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    attn::platform::set_theme_clear_color();  // the theme's page colour (ui_scale.hpp)
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    if (!save_requests(state, options, content_scale)) exit_code = 1;

    // A batch run ends at the first frame from --frames on in which the lab
    // has nothing left to do (ui::app_pending: a recompute spread over frames,
    // the tab bar's first frames, a model loading) and every --export has
    // been asked for (once its view is on screen): a loaded machine draws
    // more frames before that, never a half-done one. A lab that stays busy
    // (training left running) ends kSettleWaitFrames later, and says so.
    const bool settled = !attn::ui::app_pending(state) && options.exports.empty();
    const bool waited_out = frame >= options.frames + kSettleWaitFrames;
    if (batch && frame >= options.frames && (settled || waited_out)) {
      if (!settled) std::fprintf(stderr, "attention_app: still busy after %d frames; files written anyway\n", frame);
      // Read the back buffer before swapping: its content is defined until then.
      std::string write_error;
      if (!options.screenshot.empty() &&
          !attn::gfx::save_framebuffer_png(options.screenshot, fb_w, fb_h, &write_error)) {
        std::fprintf(stderr, "attention_app: %s\n", write_error.c_str());
        exit_code = 1;
      }
      if (!options.layout.empty()) {
        std::ofstream out(options.layout);
        out << attn::ui::layout_json(state) << '\n';
        if (!out) {
          std::fprintf(stderr, "attention_app: cannot write %s\n", options.layout.c_str());
          exit_code = 1;
        }
      }
      if (!options.state.empty()) {
        std::ofstream out(options.state);
        out << attn::ui::state_json(state) << '\n';
        if (!out) {
          std::fprintf(stderr, "attention_app: cannot write %s\n", options.state.c_str());
          exit_code = 1;
        }
      }
      break;
    }
    glfwSwapBuffers(window);
  }

  attn::ui::app_shutdown(state);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  glfwDestroyWindow(window);
  glfwTerminate();
  return exit_code;
}
