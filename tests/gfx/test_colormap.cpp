// The app's colormap lookup tables must be matplotlib's, byte for byte: the
// golden CSV files are matplotlib's own colormaps[name](np.arange(256),
// bytes=True) (tests/golden/make_colormaps.py), so a table built any other
// way (e.g. a blend of a few viridis samples) fails here.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gfx/colormap.hpp"

namespace {

using attn::gfx::Colormap;
using Rgb = std::array<int, 3>;

// Rows "index,r,g,b" in index order; '#' comment lines and the header skipped.
std::vector<Rgb> read_golden(const std::string& file) {
  const std::string path = std::string(ATTN_GOLDEN_DIR) + "/" + file;
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
