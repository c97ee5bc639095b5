// Colormap tables: see colormap.hpp for the matplotlib conventions followed.
#include "gfx/colormap.hpp"

#include <algorithm>

namespace attn::gfx {
namespace {

// YlOrRd: ColorBrewer's 9-class scheme as equally spaced anchors (0xRRGGBB),
// exactly what matplotlib's LinearSegmentedColormap interpolates.
constexpr uint32_t kYlOrRd[] = {0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c,
                                0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026};

// Viridis is a ListedColormap of 256 hand-tuned colours, not an
// interpolation: no handful of anchors reproduces it (a 10-sample blend was
// off by up to 15 levels near the yellow end). So the table itself is
// carried: matplotlib's viridis (CC0, by Stefan van der Walt and Nathaniel
// Smith) as the bytes matplotlib gives, written by tests/golden/make_colormaps.py.
struct Rgb8 {
  uint8_t r, g, b;
};
constexpr Rgb8 kViridis[] = {
#include "gfx/viridis_table.inc"
};
static_assert(sizeof(kViridis) / sizeof(kViridis[0]) == kLutSize, "viridis needs 256 entries");

template <std::size_t N>
ColormapLut interpolate(const uint32_t (&anchors)[N]) {
  ColormapLut lut{};
  for (int i = 0; i < kLutSize; ++i) {
    // Entry i sits at x = i / 255 (matplotlib: linspace(0, 1, N)).
    const double x = double(i) / double(kLutSize - 1) * double(N - 1);
    const std::size_t k = std::min<std::size_t>(std::size_t(x), N - 2);
    const double f = x - double(k);
    auto channel = [&](int shift) {
      const double a = double((anchors[k] >> shift) & 0xff) / 255.0;
      const double b = double((anchors[k + 1] >> shift) & 0xff) / 255.0;
      const double v = a + (b - a) * f;
      return uint8_t(std::clamp(v * 255.0, 0.0, 255.0));  // truncation, as matplotlib
    };
    lut[i] = Rgba8{channel(16), channel(8), channel(0), 255};
  }
  return lut;
}

ColormapLut listed(const Rgb8 (&table)[kLutSize]) {
  ColormapLut lut{};
  for (int i = 0; i < kLutSize; ++i) lut[i] = Rgba8{table[i].r, table[i].g, table[i].b, 255};
  return lut;
}

}  // namespace

const char* colormap_name(Colormap colormap) {
  switch (colormap) {
    case Colormap::YlOrRd: return "ylorrd";
    case Colormap::Viridis: return "viridis";
  }
  return "ylorrd";
}

const ColormapLut& colormap_lut(Colormap colormap) {
  // Function-local constants: computed once, never modified afterwards.
  static const ColormapLut ylorrd = interpolate(kYlOrRd);
  static const ColormapLut viridis = listed(kViridis);
  return colormap == Colormap::Viridis ? viridis : ylorrd;
}

int colormap_index(float t) {
  if (!(t > 0.0f)) return 0;  // also catches NaN
  if (t >= 1.0f) return kLutSize - 1;
  return std::min(int(t * float(kLutSize)), kLutSize - 1);
}

Rgba8 colormap_color(Colormap colormap, float t) {
  return colormap_lut(colormap)[colormap_index(t)];
}

float normalise_value(float value, float lo, float hi) {
  const float range = hi - lo;
  if (!(range > 0.0f)) return 0.0f;
  return std::clamp((value - lo) / range, 0.0f, 1.0f);
}

}  // namespace attn::gfx
