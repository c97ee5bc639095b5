// The app's colormap lookup tables must be matplotlib's, byte for byte: the
// golden CSV files are matplotlib's own colormaps[name](np.arange(256),
// bytes=True) (tests/golden/make_colormaps.py), so a table built any other
// way (e.g. a blend of a few viridis samples) fails here. The second half
// checks that the maps stay readable under simulated colour-vision deficiency.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gfx/colormap.hpp"
#include "../test_files.hpp"

namespace {

using attn::gfx::Colormap;
using Rgb = std::array<int, 3>;

// Rows "index,r,g,b" in index order; '#' comment lines and the header skipped.
std::vector<Rgb> read_golden(const std::string& file) {
  const std::string path = attn::test::file_from_env("ATTN_GOLDEN_DIR") + "/" + file;
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<Rgb> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line.rfind("index", 0) == 0) continue;
    std::istringstream fields(line);
    std::string cell;
    std::array<int, 4> v{};
    for (int& x : v) {
      REQUIRE_MESSAGE(std::getline(fields, cell, ','), "short row in " << path << ": " << line);
      x = std::atoi(cell.c_str());
    }
    REQUIRE_MESSAGE(v[0] == int(rows.size()), "rows out of order in " << path);
    rows.push_back({v[1], v[2], v[3]});
  }
  return rows;
}

// Compares every entry and reports the first few differences and the largest
// channel difference, so a failure says how far off the table is.
void check_lut(Colormap colormap, const std::string& file) {
  const std::vector<Rgb> golden = read_golden(file);
  REQUIRE(golden.size() == std::size_t(attn::gfx::kLutSize));
  const auto& lut = attn::gfx::colormap_lut(colormap);
  const std::string name = attn::gfx::colormap_name(colormap);
  int wrong = 0, max_diff = 0;
  for (int i = 0; i < attn::gfx::kLutSize; ++i) {
    const Rgb got{lut[i].r, lut[i].g, lut[i].b};
    int diff = 0;
    for (int ch = 0; ch < 3; ++ch) diff = std::max(diff, std::abs(got[ch] - golden[i][ch]));
    max_diff = std::max(max_diff, diff);
    if (diff != 0 && ++wrong <= 5)
      MESSAGE(name << "[" << i << "] = (" << got[0] << ", " << got[1]
              << ", " << got[2] << "), matplotlib (" << golden[i][0] << ", " << golden[i][1] << ", "
              << golden[i][2] << ")");
    CHECK(lut[i].a == 255);
  }
  INFO(name << ": " << wrong << " entries differ, by up to "
       << max_diff << " levels per channel");
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("viridis equals matplotlib's 256-entry table") {
  check_lut(Colormap::Viridis, "viridis_matplotlib.csv");
}

TEST_CASE("YlOrRd equals matplotlib's 256-entry table") {
  check_lut(Colormap::YlOrRd, "ylorrd_matplotlib.csv");
}

TEST_CASE("RdBu_r equals matplotlib's 256-entry table") {
  check_lut(Colormap::RdBu_r, "rdbu_r_matplotlib.csv");
}

TEST_CASE("every colormap has a distinct JSON name") {
  CHECK(std::string(attn::gfx::colormap_name(Colormap::YlOrRd)) == "ylorrd");
  CHECK(std::string(attn::gfx::colormap_name(Colormap::Viridis)) == "viridis");
  CHECK(std::string(attn::gfx::colormap_name(Colormap::RdBu_r)) == "rdbu_r");
}

TEST_CASE("RdBu_r: negative blue, zero near white, positive red, on a symmetric range") {
  const attn::gfx::ValueRange range = attn::gfx::symmetric_range(-0.5f, 2.0f);
  CHECK(range.lo == -2.0f);
  CHECK(range.hi == 2.0f);
  CHECK(attn::gfx::symmetric_range(-3.0f, 1.0f).hi == 3.0f);
  // An all-zero matrix keeps its zeros neutral instead of the lowest colour.
  CHECK(attn::gfx::symmetric_range(0.0f, 0.0f).lo == -1.0f);
  CHECK(attn::gfx::symmetric_range(0.0f, 0.0f).hi == 1.0f);
  const auto at = [&](float v) {
    return attn::gfx::colormap_color(Colormap::RdBu_r, attn::gfx::normalise_value(v, range.lo, range.hi));
  };
  const attn::gfx::Rgba8 negative = at(-2.0f), zero = at(0.0f), positive = at(2.0f);
  CHECK(negative.b > negative.r);
  CHECK(positive.r > positive.b);
  CHECK(zero.r >= 240);
  CHECK(zero.g >= 240);
  CHECK(zero.b >= 240);
}

TEST_CASE("colormap_color picks entry min(int(t * 256), 255), as matplotlib does") {
  const auto& lut = attn::gfx::colormap_lut(Colormap::Viridis);
  auto same = [](attn::gfx::Rgba8 a, attn::gfx::Rgba8 b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
  CHECK(same(attn::gfx::colormap_color(Colormap::Viridis, 0.0f), lut[0]));
  CHECK(same(attn::gfx::colormap_color(Colormap::Viridis, 0.5f), lut[128]));
  CHECK(same(attn::gfx::colormap_color(Colormap::Viridis, 1.0f), lut[255]));
  CHECK(attn::gfx::colormap_index(-1.0f) == 0);
  CHECK(attn::gfx::colormap_index(254.5f / 256.0f) == 254);
}

// ---------------------------------------------------------------------------
// Colour-vision deficiency (CVD). The header promises that viridis, YlOrRd and
// RdBu_r stay readable for the common deficiencies; these tests measure it.
//
// Method: every table colour is decoded from sRGB to linear RGB, multiplied by
// the Machado, Oliveira & Fernandes (2009) matrix for the deficiency at
// severity 1.0 (dichromacy: protanopia, deuteranopia, tritanopia), clamped to
// [0, 1] and converted to CIELAB (sRGB primaries, D65 white). Distances are
// delta E 1976 (Euclidean in L*a*b*).
//   G. M. Machado, M. M. Oliveira, L. A. F. Fernandes, "A Physiologically-based
//   Model for Simulation of Color Vision Deficiency", IEEE Transactions on
//   Visualization and Computer Graphics 15(6), 1291-1298, 2009; the matrices
//   are the severity-1.0 ones the authors publish with the paper
//   (https://www.inf.ufrgs.br/~oliveira/pubs_files/CVD_Simulation/CVD_Simulation.html).
// What "readable" means here:
//   sequential maps (viridis, YlOrRd): L* strictly monotonic in the map's
//     direction, so the order reads from lightness alone; the two ends far
//     apart (delta E > 40); entries 16 apart still distinguishable (delta E > 3,
//     a little above the just-noticeable difference of about 2.3), so no band
//     of the map collapses.
//   diverging RdBu_r: each half gets lighter towards the neutral middle, and
//     the colours at t and 1 - t (equal negative and positive scores) stay
//     apart (delta E > 10), so the sign is never lost.
// The thresholds hold for normal vision too, which the tests also check.
namespace {

using Vec3 = std::array<double, 3>;
using Mat3 = std::array<Vec3, 3>;

struct Vision {
  const char* name;
  Mat3 m;  // linear RGB -> simulated linear RGB
};

const Vision kVisions[] = {
    {"normal vision", {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}},
    {"protanopia",
     {{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}}},
    {"deuteranopia",
     {{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}}},
    {"tritanopia",
     {{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}}},
};

Vec3 mul(const Mat3& m, const Vec3& v) {
  Vec3 out{};
  for (int i = 0; i < 3; ++i) out[i] = m[i][0] * v[0] + m[i][1] * v[1] + m[i][2] * v[2];
  return out;
}

double srgb_to_linear(uint8_t byte) {
  const double c = byte / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

// The colour as seen with `vision`, in CIELAB (L*, a*, b*).
Vec3 to_lab(attn::gfx::Rgba8 colour, const Vision& vision) {
  Vec3 rgb = mul(vision.m, {srgb_to_linear(colour.r), srgb_to_linear(colour.g), srgb_to_linear(colour.b)});
  for (double& c : rgb) c = std::clamp(c, 0.0, 1.0);
  // Linear sRGB -> XYZ (IEC 61966-2-1), divided by the D65 white (the matrix's row sums).
  const Mat3 to_xyz{{{0.4124564, 0.3575761, 0.1804375},
                     {0.2126729, 0.7151522, 0.0721750},
                     {0.0193339, 0.1191920, 0.9503041}}};
  const Vec3 xyz = mul(to_xyz, rgb);
  Vec3 f{};
  for (int i = 0; i < 3; ++i) {
    const double t = xyz[i] / (to_xyz[i][0] + to_xyz[i][1] + to_xyz[i][2]);
    const double d = 6.0 / 29.0;
    f[i] = t > d * d * d ? std::cbrt(t) : t / (3 * d * d) + 4.0 / 29.0;
  }
  return {116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])};
}

double delta_e(const Vec3& a, const Vec3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]));
}

std::vector<Vec3> lab_table(const attn::gfx::ColormapLut& lut, const Vision& vision) {
  std::vector<Vec3> lab;
  for (const attn::gfx::Rgba8& c : lut) lab.push_back(to_lab(c, vision));
  return lab;
}

// Smallest step of L* in `direction` (+1 lighter, -1 darker) over entries
// first, first + 8, ..., last (last always included); > 0 means strictly monotonic.
double worst_lightness_step(const std::vector<Vec3>& lab, int first, int last, int direction) {
  double worst = 1e9;
  for (int i = first; i < last;) {
    const int next = std::min(i + 8, last);
    worst = std::min(worst, direction * (lab[next][0] - lab[i][0]));
    i = next;
  }
  return worst;
}

struct SequentialMargins {
  double worst_step;     // L* step in the map's direction, every 8 entries
  double end_to_end;     // delta E between entries 0 and 255
  double worst_apart16;  // smallest delta E between entries i and i + 16
  int worst_apart16_at;
  bool readable() const { return worst_step > 0 && end_to_end > 40 && worst_apart16 > 3; }
};

SequentialMargins sequential_margins(const attn::gfx::ColormapLut& lut, const Vision& vision, int direction) {
  const std::vector<Vec3> lab = lab_table(lut, vision);
  SequentialMargins m{worst_lightness_step(lab, 0, attn::gfx::kLutSize - 1, direction),
                      delta_e(lab.front(), lab.back()), 1e9, 0};
  for (int i = 0; i + 16 < attn::gfx::kLutSize; ++i) {
    const double d = delta_e(lab[i], lab[i + 16]);
    if (d < m.worst_apart16) m = {m.worst_step, m.end_to_end, d, i};
  }
  return m;
}

struct DivergingMargins {
  double worst_step_low;   // L* rise from entry 0 up to 127 (towards the middle)
  double worst_step_high;  // L* fall from entry 128 up to 255 (away from it)
  double worst_pair;       // smallest delta E between t and 1 - t
  float worst_pair_t;
  bool readable() const { return worst_step_low > 0 && worst_step_high > 0 && worst_pair > 10; }
};

DivergingMargins diverging_margins(const attn::gfx::ColormapLut& lut, const Vision& vision) {
  const std::vector<Vec3> lab = lab_table(lut, vision);
  DivergingMargins m{worst_lightness_step(lab, 0, 127, +1), worst_lightness_step(lab, 128, 255, -1), 1e9, 0};
  // colormap_index(t) is the entry the app shows for t: 25/230, 51/204, 76/179, 102/153.
  for (const float t : {0.1f, 0.2f, 0.3f, 0.4f}) {
    const double d = delta_e(lab[attn::gfx::colormap_index(t)], lab[attn::gfx::colormap_index(1.0f - t)]);
    if (d < m.worst_pair) m = {m.worst_step_low, m.worst_step_high, d, t};
  }
  return m;
}

// Each check separately, so a failure names the part that failed with its
// numbers. (Names go through std::string: doctest prints a char* as a pointer.)
void check_sequential(Colormap colormap, int direction) {
  for (const Vision& vision : kVisions) {
    const SequentialMargins m = sequential_margins(attn::gfx::colormap_lut(colormap), vision, direction);
    INFO(std::string(attn::gfx::colormap_name(colormap)) << ", " << std::string(vision.name)
         << ": worst L* step " << m.worst_step << ", end-to-end delta E " << m.end_to_end
         << ", worst delta E 16 entries apart " << m.worst_apart16 << " (entries "
         << m.worst_apart16_at << "/" << m.worst_apart16_at + 16 << ")");
    CHECK(m.worst_step > 0);
    CHECK(m.end_to_end > 40);
    CHECK(m.worst_apart16 > 3);
  }
}

// Linear in sRGB bytes from `low` (entry 0) through `middle` (entry 127.5) to
// `high` (entry 255): a stand-in for a diverging or sequential map.
attn::gfx::ColormapLut synthetic_lut(Vec3 low, Vec3 middle, Vec3 high) {
  attn::gfx::ColormapLut lut{};
  for (int i = 0; i < attn::gfx::kLutSize; ++i) {
    const double u = 2.0 * i / (attn::gfx::kLutSize - 1);
    const Vec3& a = u < 1 ? low : middle;
    const Vec3& b = u < 1 ? middle : high;
    const double s = u < 1 ? u : u - 1;
    lut[i] = {uint8_t(a[0] + (b[0] - a[0]) * s), uint8_t(a[1] + (b[1] - a[1]) * s),
              uint8_t(a[2] + (b[2] - a[2]) * s), 255};
  }
  return lut;
}

}  // namespace

// Directions measured from the tables under normal vision (L* of entries 0 and
// 255): viridis 14.9 -> 90.9 (dark to light), YlOrRd 98.9 -> 26.0 (light to dark).
TEST_CASE("viridis: lightness rises monotonically and stays distinct under protanopia, deuteranopia, tritanopia") {
  check_sequential(Colormap::Viridis, +1);
}

TEST_CASE("YlOrRd: lightness falls monotonically and stays distinct under protanopia, deuteranopia, tritanopia") {
  check_sequential(Colormap::YlOrRd, -1);
}

TEST_CASE("RdBu_r: halves lighten towards the middle, t and 1 - t stay apart under protanopia, deuteranopia, tritanopia") {
  for (const Vision& vision : kVisions) {
    const DivergingMargins m = diverging_margins(attn::gfx::colormap_lut(Colormap::RdBu_r), vision);
    INFO("rdbu_r, " << std::string(vision.name) << ": worst L* step 0..127 " << m.worst_step_low << ", 128..255 "
         << m.worst_step_high << ", worst delta E between t and 1 - t " << m.worst_pair << " (t = "
         << m.worst_pair_t << ")");
    CHECK(m.worst_step_low > 0);
    CHECK(m.worst_step_high > 0);
    CHECK(m.worst_pair > 10);
  }
}

// The checks above must be able to fail: a grey ramp passes the sequential
// check only in its own direction, and a red-white-green diverging map (the
// 5-class ColorBrewer RdYlGn end colours) is fine for normal vision but loses
// the sign under deuteranopia, where its red and green sides look alike.
TEST_CASE("the colour-vision checks reject a reversed ramp and a red-green diverging map") {
  const attn::gfx::ColormapLut grey = synthetic_lut({0, 0, 0}, {127.5, 127.5, 127.5}, {255, 255, 255});
  for (const Vision& vision : kVisions) {
    INFO(std::string(vision.name));
    CHECK(sequential_margins(grey, vision, +1).readable());
    CHECK_FALSE(sequential_margins(grey, vision, -1).readable());
  }
  const attn::gfx::ColormapLut red_green = synthetic_lut({26, 150, 65}, {247, 247, 247}, {215, 25, 28});
  const DivergingMargins normal = diverging_margins(red_green, kVisions[0]);
  const DivergingMargins deutan = diverging_margins(red_green, kVisions[2]);
  INFO("red-green: worst delta E between t and 1 - t " << normal.worst_pair << " (normal vision), "
       << deutan.worst_pair << " (deuteranopia, t = " << deutan.worst_pair_t << ")");
  CHECK(normal.readable());
  CHECK(deutan.worst_step_low > 0);  // lightness alone is fine: only the sign is lost
  CHECK(deutan.worst_step_high > 0);
  CHECK_FALSE(deutan.readable());
}
