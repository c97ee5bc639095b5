// Colormaps for heatmaps and colorbars, equal byte for byte to matplotlib's
// 256-entry lookup tables (colormaps[name](np.arange(256), bytes=True); the
// golden copies and their generator are in tests/golden/, checked by
// tests/gfx/). YlOrRd and RdBu_r interpolate their ColorBrewer anchors
// linearly (LinearSegmentedColormap with N = 256, the reversed map with its
// anchors at 1 - x) and truncate float channels to bytes, as matplotlib does;
// viridis, a ListedColormap of 256 colours, is matplotlib's table itself
// (viridis_table.inc). A normalised value t in [0, 1] picks entry
// min(int(t * 256), 255), as imshow does.
//
// Which map for what: attention weights (in [0, 1]) use viridis, perceptually
// uniform and readable with every common colour-vision deficiency; the head
// average keeps the chapter's YlOrRd (Figure 4.1), a sequential scheme that
// ColorBrewer marks colour-blind safe (its lightness falls monotonically, so
// the order reads without telling hues apart) and that keeps the figure as
// the book prints it.
// Signed matrices (raw and scaled scores, Q, K, V, outputs) use the diverging
// RdBu_r with a range symmetric around 0 (see symmetric_range): blue below
// zero, near white at zero, red above; red/blue is the one diverging pair
// that stays apart for red-green colour-blind readers (ColorBrewer: safe).
//
// The same table drives the GPU (uploaded as a 256 x 1 texture, see
// heatmap.cpp) and the CPU (colorbars), so both always agree.
#pragma once

#include <array>
#include <cstdint>

namespace attn::gfx {

enum class Colormap {
  YlOrRd,   // the chapter's head average: ColorBrewer 9-class YlOrRd
  Viridis,  // matplotlib's default, perceptually uniform: weights
  RdBu_r,   // diverging, ColorBrewer 11-class RdBu reversed: signed scores
};
constexpr int kColormapCount = 3;
constexpr int kLutSize = 256;

struct Rgba8 {
  uint8_t r = 0, g = 0, b = 0, a = 255;
};
using ColormapLut = std::array<Rgba8, kLutSize>;

// Stable lowercase name used in JSON ("ylorrd", "viridis", "rdbu_r").
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

// A colour range symmetric around 0 for a diverging map: lo = -m, hi = +m
// with m = max(|min|, |max|), so 0 always sits on the map's neutral middle
// and equal magnitudes get equally strong colours. An all-zero matrix (or
// one without a finite m) gets [-1, 1], so its zeros still show as neutral
// rather than as the map's lowest (most negative) colour.
struct ValueRange {
  float lo = 0, hi = 0;
};
ValueRange symmetric_range(float min_value, float max_value);

}  // namespace attn::gfx
