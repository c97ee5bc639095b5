// The view's PNG at 2x; see export_png.hpp.
#include "platform/export_png.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include "gfx/gl.hpp"
#include "platform/ui_scale.hpp"
#include "ui/shell/app.hpp"

namespace attn::platform {
namespace {

// One whole UI frame with the display `size` (ImGui units), built but not drawn.
void ui_frame(ui::AppState& state, ImVec2 size) {
  update_fonts(state);  // the atlas at the scale just set
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = size;
  io.MousePos = ImVec2(-FLT_MAX, -FLT_MAX);  // no hover highlight or tooltip in the picture
  // Frames back to back can read the same coarse browser clock; ImGui refuses a zero step.
  io.DeltaTime = std::max(io.DeltaTime, 1e-4f);
  ImGui::NewFrame();
  ui::app_frame(state);
  ImGui::Render();
}

// An RGBA8 framebuffer that frees itself and rebinds what was bound before.
struct Offscreen {
  GLuint framebuffer = 0, colour = 0;
  GLint previous = 0;
  Offscreen(int width, int height) {
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glGenRenderbuffers(1, &colour);
    glBindRenderbuffer(GL_RENDERBUFFER, colour);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glGenFramebuffers(1, &framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colour);
  }
  bool complete() const { return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE; }
  ~Offscreen() {
    glBindFramebuffer(GL_FRAMEBUFFER, GLuint(previous));
    glDeleteFramebuffers(1, &framebuffer);
    glDeleteRenderbuffers(1, &colour);
  }
};

bool view_area(const ui::AppState& state, ui::WidgetRect* rect) {
  const auto it = state.controls.find("view_area");
  if (it == state.controls.end() || it->second.w <= 0 || it->second.h <= 0) return false;
  *rect = it->second;
  return true;
}

// Draws the last ImGui frame into a width x height offscreen framebuffer and
// reads `out` (its size set) from (x, y), top-left origin.
bool draw_and_read(int width, int height, int x, int y, RgbaImage* out, std::string* error) {
  Offscreen target(width, height);
  if (!target.complete()) {
    *error = "cannot create a " + std::to_string(width) + "x" + std::to_string(height) + " framebuffer";
    return false;
  }
  glViewport(0, 0, width, height);
  const ImVec4 paper = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(paper.x, paper.y, paper.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  const std::size_t row = std::size_t(out->width) * 4;
  std::vector<unsigned char> pixels(row * std::size_t(out->height));
  GLint alignment = 4;
  glGetIntegerv(GL_PACK_ALIGNMENT, &alignment);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  // GL's rows start at the bottom.
  glReadPixels(x, height - y - out->height, out->width, out->height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  glPixelStorei(GL_PACK_ALIGNMENT, alignment);
  out->rgba.resize(pixels.size());
  for (int r = 0; r < out->height; ++r)
    std::memcpy(out->rgba.data() + std::size_t(r) * row, pixels.data() + std::size_t(out->height - 1 - r) * row, row);
  // The framebuffer has no alpha to speak of (the UI is opaque): make it so in the file.
  for (std::size_t i = 3; i < out->rgba.size(); i += 4) out->rgba[i] = 255;
  return true;
}

}  // namespace

bool render_view_png(ui::AppState& state, float ui_scale, float pixels_per_css, RgbaImage* image,
                     std::string* error) {
  ui::WidgetRect view;
  if (!view_area(state, &view)) {
    *error = "no view on screen to draw";
    return false;
  }
  if (!(pixels_per_css > 0)) pixels_per_css = 1;
  // The 2x frame has 2 framebuffer pixels per CSS pixel: everything grows by k.
  const float k = 2.0f / pixels_per_css;
  image->width = int(std::lround(view.w / pixels_per_css * 2.0f));
  image->height = int(std::lround(view.h / pixels_per_css * 2.0f));
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 display = io.DisplaySize;
  const float fb_scale = io.DisplayFramebufferScale.x > 0 ? io.DisplayFramebufferScale.x : 1.0f;
  const ImVec2 big(display.x * k, display.y * k);
  const int fb_w = int(std::lround(big.x * fb_scale)), fb_h = int(std::lround(big.y * fb_scale));
  GLint max_size = 0, max_viewport[2] = {0, 0};
  glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &max_size);
  glGetIntegerv(GL_MAX_VIEWPORT_DIMS, max_viewport);
  if (fb_w > std::min(max_size, max_viewport[0]) || fb_h > std::min(max_size, max_viewport[1])) {
    *error = "the window at 2x (" + std::to_string(fb_w) + "x" + std::to_string(fb_h) +
             ") is larger than this GPU draws (" + std::to_string(max_size) + ")";
    return false;
  }

  set_ui_scale(ui_scale * k);
  ui_frame(state, big);  // settles tab bars and tables at the new sizes
  ui_frame(state, big);
  ui::WidgetRect big_view;
  bool ok = view_area(state, &big_view);
  if (!ok) *error = "the view was not drawn at 2x";
  if (ok) {
    // The 2x layout may round a pixel differently from 2 x the 1x one: the
    // picture keeps exactly twice the CSS size, placed where the view is now.
    image->width = std::min(image->width, fb_w);
    image->height = std::min(image->height, fb_h);
    const int x = std::clamp(int(std::lround(big_view.x)), 0, fb_w - image->width);
    const int y = std::clamp(int(std::lround(big_view.y)), 0, fb_h - image->height);
    ok = draw_and_read(fb_w, fb_h, x, y, image, error);
  }
  set_ui_scale(ui_scale);
  ui_frame(state, display);  // back at the old scale: the next frame on screen is laid out as before
  return ok;
}

}  // namespace attn::platform
