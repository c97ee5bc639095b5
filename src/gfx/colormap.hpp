// Colormaps for heatmaps and colorbars, equal byte for byte to matplotlib's
// 256-entry lookup tables (colormaps[name](np.arange(256), bytes=True); the
// golden copies and their generator are in tests/golden/, checked by
// tests/gfx/). YlOrRd interpolates its 9 ColorBrewer anchors linearly
// (LinearSegmentedColormap with N = 256) and truncates float channels to bytes,
// as matplotlib does; viridis, a ListedColormap of 256 colours, is matplotlib's
// table itself (viridis_table.inc). A normalised value t in [0, 1] picks entry
// min(int(t * 256), 255), as imshow does.
//
// The same table drives the GPU (uploaded as a 256 x 1 texture, see
// heatmap.cpp) and the CPU (colorbars), so both always agree.
#pragma once

#include <array>
#include <cstdint>

namespace attn::gfx {

enum class Colormap {
  YlOrRd,   // the chapter's heatmaps: ColorBrewer 9-class YlOrRd
  Viridis,  // matplotlib's default, perceptually uniform
};
constexpr int kColormapCount = 2;
constexpr int kLutSize = 256;

struct Rgba8 {
  uint8_t r = 0, g = 0, b = 0, a = 255;
};
using ColormapLut = std::array<Rgba8, kLutSize>;

// Stable lowercase name used in JSON ("ylorrd", "viridis").
const char* colormap_name(Colormap colormap);

// The 256-entry table (a constant, computed on first use).
const ColormapLut& colormap_lut(Colormap colormap);

// Lookup-table index for a normalised value: min(int(t * 256), 255), t clamped.
int colormap_index(float t);

// Colour of a normalised value t (clamped to [0, 1]).
Rgba8 colormap_color(Colormap colormap, float t);

// (value - lo) / (hi - lo) clamped to [0, 1]; 0 when hi <= lo (matplotlib
// maps a constant image to the lowest colour).
float normalise_value(float value, float lo, float hi);

}  // namespace attn::gfx
