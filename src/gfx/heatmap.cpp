// Heatmap textures; see heatmap.hpp. Shader sources: shaders/heatmap.*.
#include "gfx/heatmap.hpp"

#include <algorithm>

#include "attn/shader_sources.hpp"
#include "gfx/shader.hpp"

namespace attn::gfx {
namespace {

void set_nearest_clamp(GLenum target) {
  // NEAREST: a cell is one flat colour; R32F is not filterable on WebGL2 anyway.
  glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
}

}  // namespace

// ---- HeatmapRenderer ---------------------------------------------------------

bool HeatmapRenderer::init(std::string* error) {
  if (ready()) return true;
  program = build_program(shaders::heatmap_vert, shaders::heatmap_frag, error);
  if (!program) return false;
  loc_values = glGetUniformLocation(program, "u_values");
  loc_lut = glGetUniformLocation(program, "u_lut");
  loc_lo = glGetUniformLocation(program, "u_lo");
  loc_hi = glGetUniformLocation(program, "u_hi");
  loc_masked = glGetUniformLocation(program, "u_masked_color");
  glGenVertexArrays(1, &vao);

  GLint previous_texture = 0, previous_alignment = 4;
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &previous_texture);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &previous_alignment);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glGenTextures(kColormapCount, lut);
  for (int i = 0; i < kColormapCount; ++i) {
    const ColormapLut& table = colormap_lut(Colormap(i));
    glBindTexture(GL_TEXTURE_2D, lut[i]);
    set_nearest_clamp(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, kLutSize, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 table.data());
  }
  glBindTexture(GL_TEXTURE_2D, GLuint(previous_texture));
  glPixelStorei(GL_UNPACK_ALIGNMENT, previous_alignment);
  return true;
}

void HeatmapRenderer::destroy() {
  if (program) glDeleteProgram(program);
  if (vao) glDeleteVertexArrays(1, &vao);
  if (lut[0]) glDeleteTextures(kColormapCount, lut);
  *this = HeatmapRenderer{};
}

// ---- GlState -----------------------------------------------------------------

void GlState::save() {
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &framebuffer);
  glGetIntegerv(GL_CURRENT_PROGRAM, &program);
  glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &vao);
  glGetIntegerv(GL_ACTIVE_TEXTURE, &active_texture);
  glGetIntegerv(GL_UNPACK_ALIGNMENT, &unpack_alignment);
  glActiveTexture(GL_TEXTURE0);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture0);
  glActiveTexture(GL_TEXTURE1);
  glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture1);
  glActiveTexture(GLenum(active_texture));
  glGetIntegerv(GL_VIEWPORT, viewport);
  blend = glIsEnabled(GL_BLEND);
  scissor = glIsEnabled(GL_SCISSOR_TEST);
  depth = glIsEnabled(GL_DEPTH_TEST);
  cull = glIsEnabled(GL_CULL_FACE);
}

void GlState::restore() const {
  glBindFramebuffer(GL_FRAMEBUFFER, GLuint(framebuffer));
  glUseProgram(GLuint(program));
  glBindVertexArray(GLuint(vao));
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, GLuint(texture1));
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, GLuint(texture0));
  glActiveTexture(GLenum(active_texture));
  glPixelStorei(GL_UNPACK_ALIGNMENT, unpack_alignment);
  glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
  auto set = [](GLenum cap, GLboolean on) { on ? glEnable(cap) : glDisable(cap); };
  set(GL_BLEND, blend);
  set(GL_SCISSOR_TEST, scissor);
  set(GL_DEPTH_TEST, depth);
  set(GL_CULL_FACE, cull);
}

// ---- Heatmap -----------------------------------------------------------------

void Heatmap::set_values(const float* values, int rows, int cols, uint64_t generation) {
  rows = std::max(rows, 0);
  cols = std::max(cols, 0);
  const std::size_t count = std::size_t(rows) * std::size_t(cols);
  const bool same_shape = rows == rows_ && cols == cols_;
  if (same_shape && generation != 0 && generation == generation_) return;
  generation_ = generation;
  if (same_shape && generation == 0 && std::equal(values, values + count, values_.begin())) return;
  values_.assign(values, values + count);
  rows_ = rows;
  cols_ = cols;
  values_dirty_ = colors_dirty_ = true;
}

void Heatmap::set_range(float lo, float hi) {
  if (lo == lo_ && hi == hi_) return;
  lo_ = lo;
  hi_ = hi;
  colors_dirty_ = true;
}

void Heatmap::set_colormap(Colormap colormap) {
  if (colormap == colormap_) return;
  colormap_ = colormap;
  colors_dirty_ = true;
}

bool Heatmap::render(const HeatmapRenderer& renderer, int width, int height, const GlState& restore_to) {
  if (!renderer.ready() || rows_ == 0 || cols_ == 0 || width <= 0 || height <= 0) return false;
  const bool resized = width != width_ || height != height_;
  if (!values_dirty_ && !colors_dirty_ && !resized) return false;

  if (!value_texture_) glGenTextures(1, &value_texture_);
  if (!color_texture_) glGenTextures(1, &color_texture_);
  if (!framebuffer_) glGenFramebuffers(1, &framebuffer_);

  glActiveTexture(GL_TEXTURE0);
  if (values_dirty_) {
    glBindTexture(GL_TEXTURE_2D, value_texture_);
    set_nearest_clamp(GL_TEXTURE_2D);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    // Texel (c, r) = value of query r, key c: texture row r is data row r.
    glTexImage2D(GL_TEXTURE_2D, 0, GL_R32F, cols_, rows_, 0, GL_RED, GL_FLOAT, values_.data());
    values_dirty_ = false;
  }
  if (resized) {
    // Same texture name at a new size: ImGui draw lists may already hold its id.
    glBindTexture(GL_TEXTURE_2D, color_texture_);
    set_nearest_clamp(GL_TEXTURE_2D);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color_texture_, 0);
    width_ = width;
    height_ = height;
  }

  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width, height);
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glDisable(GL_DEPTH_TEST);
  glDisable(GL_CULL_FACE);
  glUseProgram(renderer.program);
  glBindVertexArray(renderer.vao);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, value_texture_);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, renderer.lut[int(colormap_)]);
  glUniform1i(renderer.loc_values, 0);
  glUniform1i(renderer.loc_lut, 1);
  glUniform1f(renderer.loc_lo, lo_);
  glUniform1f(renderer.loc_hi, hi_);
  glUniform4f(renderer.loc_masked, kMaskedColor.r / 255.0f, kMaskedColor.g / 255.0f, kMaskedColor.b / 255.0f, 1.0f);
  // The FBO's row 0 is the texture's first row, which ImGui draws at the top
  // with uv (0,0)-(1,1): query 0 ends up on top with no flip anywhere.
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  colors_dirty_ = false;

  restore_to.restore();
  return true;
}

void Heatmap::destroy() {
  if (value_texture_) glDeleteTextures(1, &value_texture_);
  if (color_texture_) glDeleteTextures(1, &color_texture_);
  if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  *this = Heatmap{};
}

}  // namespace attn::gfx
