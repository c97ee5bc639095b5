// A heatmap as one GL texture (never one rectangle per cell).
//
//   values (rows x cols floats) --upload--> R32F texture, one texel per cell
//   R32F --colormap shader, FBO--> RGBA8 texture of the on-screen pixel size
//   RGBA8 texture --> ImGui::Image((ImTextureID)(intptr_t)texture(), ...)
//
// Rendering at the exact on-screen size keeps cell edges on pixel edges.
// GL objects are freed by destroy(), not by destructors: the owner decides
// when a context is current (sokol style init/cleanup).
#pragma once

#include <cstdint>

#include <string>
#include <vector>

#include "gfx/colormap.hpp"
#include "gfx/gl.hpp"

namespace attn::gfx {

// GL objects shared by all heatmaps: the program, an empty VAO (core profile
// needs one bound to draw) and one 256 x 1 lookup texture per colormap.
struct HeatmapRenderer {
  GLuint program = 0, vao = 0;
  GLuint lut[kColormapCount] = {};
  GLint loc_values = -1, loc_lut = -1, loc_lo = -1, loc_hi = -1, loc_masked = -1;

  bool init(std::string* error);  // needs a current GL context
  void destroy();
  bool ready() const { return program != 0; }
};

// The GL state a heatmap's drawing changes (framebuffer, program, vertex
// array, texture units 0 and 1, unpack alignment, viewport, blend, scissor,
// depth and cull), saved to be put back. Saving asks GL, which in a browser
// is a round trip per query: the caller saves once per frame and every
// heatmap drawn in it restores that (12 queries per heatmap were a tenth of
// the learned-heads view's typing frame, its 16 heatmaps redrawn per key).
struct GlState {
  GLint framebuffer = 0, program = 0, vao = 0, active_texture = 0;
  GLint texture0 = 0, texture1 = 0, unpack_alignment = 4;
  GLint viewport[4] = {};
  GLboolean blend = GL_FALSE, scissor = GL_FALSE, depth = GL_FALSE, cull = GL_FALSE;

  void save();
  void restore() const;
};

// Value that marks a masked cell (drawn in the masked colour, not the colormap).
constexpr float kMaskedValue = -3.4028234e38f;  // -FLT_MAX
// The masked colour: a mid grey no colormap entry comes close to.
constexpr Rgba8 kMaskedColor{150, 150, 150, 255};

class Heatmap {
 public:
  // Row-major, row 0 drawn at the top. Re-uploads only when the data changed.
  // generation (non-zero): the caller's name for these exact values; the same
  // generation and shape as last time means the same values, which are then
  // not even compared (0: compare them).
  void set_values(const float* values, int rows, int cols, uint64_t generation = 0);
  uint64_t generation() const { return generation_; }
  void set_range(float lo, float hi);
  void set_colormap(Colormap colormap);

  // Draws the colour texture at width x height pixels if anything changed
  // (then true), and leaves GL as restore_to says (the state before it).
  bool render(const HeatmapRenderer& renderer, int width, int height, const GlState& restore_to);

  GLuint texture() const { return color_texture_; }
  int rows() const { return rows_; }
  int cols() const { return cols_; }
  float lo() const { return lo_; }
  float hi() const { return hi_; }
  Colormap colormap() const { return colormap_; }

  void destroy();

 private:
  std::vector<float> values_;
  int rows_ = 0, cols_ = 0;
  uint64_t generation_ = 0;
  float lo_ = 0, hi_ = 1;
  Colormap colormap_ = Colormap::YlOrRd;
  GLuint value_texture_ = 0, color_texture_ = 0, framebuffer_ = 0;
  int width_ = 0, height_ = 0;
  bool values_dirty_ = true, colors_dirty_ = true;
};

}  // namespace attn::gfx
