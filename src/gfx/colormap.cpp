// Colormap tables: see colormap.hpp for the matplotlib conventions followed.
#include "gfx/colormap.hpp"

#include <algorithm>

namespace attn::gfx {
namespace {

// Equally spaced anchors, given as 0xRRGGBB.
// YlOrRd: ColorBrewer's 9-class scheme, exactly what matplotlib interpolates.
constexpr uint32_t kYlOrRd[] = {0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c,
                                0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026};
// Viridis sampled at linspace(0, 1, 10).
constexpr uint32_t kViridis[] = {0x440154, 0x482878, 0x3e4989, 0x31688e, 0x26828e,
                                 0x1f9e89, 0x35b779, 0x6ece58, 0xb5de2b, 0xfde725};

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
  static const ColormapLut viridis = interpolate(kViridis);
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
