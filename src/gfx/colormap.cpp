// Colormap tables: see colormap.hpp for the matplotlib conventions followed.
#include "gfx/colormap.hpp"

#include <algorithm>
#include <cmath>

namespace attn::gfx {
namespace {

// YlOrRd: ColorBrewer's 9-class scheme as equally spaced anchors (0xRRGGBB),
// exactly what matplotlib's LinearSegmentedColormap interpolates.
constexpr uint32_t kYlOrRd[] = {0xffffcc, 0xffeda0, 0xfed976, 0xfeb24c, 0xfd8d3c,
                                0xfc4e2a, 0xe31a1c, 0xbd0026, 0x800026};

// RdBu: ColorBrewer's 11-class diverging scheme, red (low) to blue (high), as
// matplotlib lists it; RdBu_r is it reversed (blue for negative scores).
constexpr uint32_t kRdBu[] = {0x67001f, 0xb2182b, 0xd6604d, 0xf4a582, 0xfddbc7, 0xf7f7f7,
                              0xd1e5f0, 0x92c5de, 0x4393c3, 0x2166ac, 0x053061};

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

// matplotlib's LinearSegmentedColormap.from_list(anchors, N = 256), reversed
// or not, step for step in double precision (colors._create_lookup_table):
// anchors at x_k = k * (1 / (n - 1)) (numpy linspace; the last exactly 1),
// a reversed map's at 1 - x in reverse order (Colormap.reversed), both scaled
// by 255; entry i at 255 * (i * (1 / 255)); the anchor pair found as
// searchsorted does; channel = distance * (b - a) + a, clipped to [0, 1],
// times 255, truncated. A plain i / 255 * (n - 1) blend differs from
// matplotlib by one level in 9 of RdBu_r's 256 entries, so every rounding
// step is kept.
template <std::size_t N>
ColormapLut interpolate(const uint32_t (&anchors)[N], bool reversed) {
  static_assert(N >= 2, "an interpolated colormap needs two anchors");
  double x[N];
  uint32_t colour[N];
  const double step = 1.0 / double(N - 1);
  for (std::size_t k = 0; k < N; ++k) {
    const double position = k + 1 == N ? 1.0 : double(k) * step;
    if (reversed) {
      x[N - 1 - k] = 1.0 - position;
      colour[N - 1 - k] = anchors[k];
    } else {
      x[k] = position;
      colour[k] = anchors[k];
    }
  }
  for (double& v : x) v *= double(kLutSize - 1);
  auto channel = [](uint32_t rgb, int shift) { return double((rgb >> shift) & 0xff) / 255.0; };
  auto to_byte = [](double v) { return uint8_t(std::clamp(v, 0.0, 1.0) * 255.0); };  // truncation, as matplotlib

  ColormapLut lut{};
  const double entry_step = 1.0 / double(kLutSize - 1);
  for (int i = 0; i < kLutSize; ++i) {
    const uint32_t first = colour[0], last = colour[N - 1];
    if (i == 0 || i == kLutSize - 1) {
      const uint32_t rgb = i == 0 ? first : last;
      lut[i] = Rgba8{to_byte(channel(rgb, 16)), to_byte(channel(rgb, 8)), to_byte(channel(rgb, 0)), 255};
      continue;
    }
    const double xi = double(kLutSize - 1) * (double(i) * entry_step);
    std::size_t hi = 1;
    while (hi + 1 < N && x[hi] < xi) ++hi;  // searchsorted (left): first x >= xi
    const double distance = (xi - x[hi - 1]) / (x[hi] - x[hi - 1]);
    auto blend = [&](int shift) {
      const double a = channel(colour[hi - 1], shift), b = channel(colour[hi], shift);
      return to_byte(distance * (b - a) + a);
    };
    lut[i] = Rgba8{blend(16), blend(8), blend(0), 255};
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
    case Colormap::RdBu_r: return "rdbu_r";
  }
  return "ylorrd";
}

const ColormapLut& colormap_lut(Colormap colormap) {
  // Function-local constants: computed once, never modified afterwards.
  static const ColormapLut ylorrd = interpolate(kYlOrRd, /*reversed=*/false);
  static const ColormapLut viridis = listed(kViridis);
  static const ColormapLut rdbu_r = interpolate(kRdBu, /*reversed=*/true);
  switch (colormap) {
    case Colormap::Viridis: return viridis;
    case Colormap::RdBu_r: return rdbu_r;
    case Colormap::YlOrRd: break;
  }
  return ylorrd;
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

ValueRange symmetric_range(float min_value, float max_value) {
  const float m = std::max(std::fabs(min_value), std::fabs(max_value));
  if (!(m > 0.0f) || !std::isfinite(m)) return ValueRange{-1.0f, 1.0f};
  return ValueRange{-m, m};
}

}  // namespace attn::gfx
