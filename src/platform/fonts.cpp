// See fonts.hpp.
#include "platform/fonts.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "ui/state/text_in_use.hpp"

// The desktop's CJK font: the build tree's subset (src/platform/CMakeLists.txt
// passes its path), else the system's collection it was cut from.
#ifndef ATTN_CJK_FONT_FILE
#define ATTN_CJK_FONT_FILE ""
#endif
#ifndef ATTN_CJK_FONT_FALLBACK
#define ATTN_CJK_FONT_FALLBACK "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"
#endif

namespace attn::platform {
namespace {

constexpr float kLatinPx = 13.0f;  // ProggyClean's design size, in UI units
// CJK text at 14 CSS px per em: ideographs at ProggyClean's 13 px lose strokes.
constexpr float kCjkEmPx = 14.0f;
constexpr ImWchar kBoxChar = 0x25A1;  // WHITE SQUARE: the missing-glyph box
// The characters a rebuild keeps beside those in use (update_fonts): some
// 1,500 ideographs at 14 px fit a 1024 x 1024 atlas at devicePixelRatio 2.
constexpr std::size_t kKeptChars = 1500;
// WenQuanYi Micro Hei's ideographs, median over the 6,763 GB2312 hanzi: ink
// from 0.809 em above the baseline to 0.090 em below it (measured with
// fontTools). Used to centre them on the Latin line.
constexpr float kInkTopEm = 0.809f, kInkBottomEm = 0.090f;

// What stb_truetype's ScaleForPixelHeight divides by (hhea ascender -
// descender) and the em, so the CJK font can be asked for by em size.
struct FontMetrics {
  int units_per_em = 0, ascender = 0, descender = 0;
};

enum class Cjk { Unused, Requested, Loaded, Failed };

struct FontState {
  float scale = 1;
  bool dirty = true;         // the atlas must be rebuilt before the next frame
  bool extended = false;     // something beyond Latin-1 was in use: box fallback (+ CJK)
  Cjk cjk = Cjk::Unused;
  std::vector<unsigned char> cjk_data;  // kept: the atlas reads it at every build
  FontMetrics cjk_metrics;
  std::vector<ImWchar> chars;  // characters beyond Latin-1 the atlas was built for, sorted
  ImVector<ImWchar> ranges;    // their glyph ranges; the atlas's config points into them
  float ascent_px = 0, ascent = 0;  // ProggyClean's Ascent at ascent_px (latin_ascent)
  int builds = 0;
  double build_ms = 0;
};

// One atlas per process, like ImGui's own context.
FontState& font_state() {
  static FontState state;
  return state;
}

int read_u16(const std::vector<unsigned char>& d, std::size_t at) {
  return at + 2 <= d.size() ? (d[at] << 8) | d[at + 1] : 0;
}

std::size_t read_u32(const std::vector<unsigned char>& d, std::size_t at) {
  return at + 4 <= d.size() ? (std::size_t(d[at]) << 24) | (std::size_t(d[at + 1]) << 16) |
                                  (std::size_t(d[at + 2]) << 8) | d[at + 3]
                            : 0;
}

// head.unitsPerEm and hhea.ascender/descender of face 0 (a .ttf, or the
// first font of a .ttc collection, as ImFontConfig::FontNo 0 reads it).
bool read_metrics(const std::vector<unsigned char>& d, FontMetrics* m) {
  std::size_t face = 0;
  if (d.size() >= 16 && std::memcmp(d.data(), "ttcf", 4) == 0) face = read_u32(d, 12);
  const int tables = read_u16(d, face + 4);
  for (int i = 0; i < tables; ++i) {
    const std::size_t record = face + 12 + 16 * std::size_t(i);
    if (record + 16 > d.size()) return false;
    const std::size_t at = read_u32(d, record + 8);
    if (std::memcmp(&d[record], "head", 4) == 0) m->units_per_em = read_u16(d, at + 18);
    if (std::memcmp(&d[record], "hhea", 4) == 0) {
      m->ascender = int16_t(read_u16(d, at + 4));
      m->descender = int16_t(read_u16(d, at + 6));
    }
  }
  return m->units_per_em > 0 && m->ascender - m->descender > 0;
}

// ImGui puts a merged font's baseline round(Ascent) below the line top, the
// Ascent being ProggyClean's at this size: a throwaway atlas tells it (once per size).
float latin_ascent(FontState& f, float latin_px) {
  if (f.ascent_px != latin_px) {
    ImFontAtlas probe;
    ImFontConfig config;
    config.SizePixels = latin_px;
    ImFont* font = probe.AddFontDefault(&config);
    probe.Build();
    f.ascent_px = latin_px;
    f.ascent = font->Ascent;
  }
  return f.ascent;
}

#ifndef __EMSCRIPTEN__
std::vector<unsigned char> read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!*path || !in) return {};
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}
#endif

void request_cjk_font(FontState& f) {
  f.cjk = Cjk::Requested;
#ifdef __EMSCRIPTEN__
  request_cjk_font_from_page();  // answers later, through set_cjk_font
#else
  std::vector<unsigned char> bytes = read_file(ATTN_CJK_FONT_FILE);
  if (bytes.empty()) bytes = read_file(ATTN_CJK_FONT_FALLBACK);
  if (bytes.empty())
    std::fprintf(stderr, "attention_app: no CJK font at %s or %s: Chinese text shows as boxes\n",
                 ATTN_CJK_FONT_FILE, ATTN_CJK_FONT_FALLBACK);
  set_cjk_font(std::move(bytes));
#endif
}

// The box glyph's pixels: a hollow rectangle in the custom rect reserved for it.
void draw_box(ImFontAtlas* atlas, int rect_index, int thickness) {
  const ImFontAtlasCustomRect* r = atlas->GetCustomRectByIndex(rect_index);
  if (!r || !r->IsPacked() || !atlas->TexPixelsAlpha8) return;
  for (int y = 0; y < r->Height; ++y)
    for (int x = 0; x < r->Width; ++x) {
      const bool edge = x < thickness || y < thickness || x >= r->Width - thickness || y >= r->Height - thickness;
      atlas->TexPixelsAlpha8[(r->Y + y) * atlas->TexWidth + (r->X + x)] = edge ? 255 : 0;
    }
}

// The CJK font merged into `latin` for f.chars, sized by em and moved so its
// ideographs' ink is centred on the Latin line (which also keeps baselines
// within a pixel of each other).
void add_cjk_font(FontState& f, float latin_px, float em) {
  ImFontGlyphRangesBuilder builder;
  for (ImWchar c : f.chars) builder.AddChar(c);
  f.ranges.clear();
  builder.BuildRanges(&f.ranges);
  const FontMetrics& m = f.cjk_metrics;
  ImFontConfig config;
  config.FontData = f.cjk_data.data();
  config.FontDataSize = int(f.cjk_data.size());
  config.FontDataOwnedByAtlas = false;  // kept for the next build
  config.MergeMode = true;
  // ImGui 1.86 takes sizes as ascender-to-descender height (its em-size mode is broken).
  config.SizePixels = em * float(m.ascender - m.descender) / float(m.units_per_em);
  // Snapped and not oversampled: crisp at 1x, and the atlas stays small.
  config.OversampleH = config.OversampleV = 1;
  config.PixelSnapH = true;
  const float baseline = std::round(latin_ascent(f, latin_px));
  config.GlyphOffset.y = std::round(latin_px * 0.5f - baseline + 0.5f * (kInkTopEm - kInkBottomEm) * em);
  config.GlyphRanges = f.ranges.Data;
  std::snprintf(config.Name, sizeof config.Name, "CJK subset, %dpx em", int(em));
  ImGui::GetIO().Fonts->AddFont(&config);
}

void build_atlas(FontState& f) {
  const auto started = std::chrono::steady_clock::now();
  ImGuiIO& io = ImGui::GetIO();
  // Before the first frame the backend builds and uploads the texture itself;
  // after it, the new atlas needs a new texture. (Asked now: Build() resets TexID.)
  const bool uploaded = io.Fonts->TexID != ImTextureID(0);
  io.Fonts->Clear();
  // ProggyClean exactly as the app always built it (same config, same size):
  // while nothing beyond Latin-1 is in use, the atlas is unchanged.
  const float latin_px = std::round(kLatinPx * f.scale);
  ImFontConfig config;
  config.SizePixels = latin_px;
  ImFont* font = io.Fonts->AddFontDefault(&config);
  if (f.extended) {
    const float em = std::round(kCjkEmPx * f.scale);
    if (f.cjk == Cjk::Loaded && !f.chars.empty()) add_cjk_font(f, latin_px, em);
    // The box has a CJK character's advance, so text does not reflow when the
    // web font arrives, and is thinner than any ideograph (口 is a square).
    const int w = int(std::round(em * 0.55f)), h = int(std::round(em * 0.78f));
    const int rect = io.Fonts->AddCustomRectFontGlyph(font, kBoxChar, w, h, em,
                                                      ImVec2(std::floor((em - float(w)) * 0.5f),
                                                             std::round((latin_px - float(h)) * 0.5f)));
    font->FallbackChar = kBoxChar;
    io.Fonts->Build();
    draw_box(io.Fonts, rect, std::max(1, int(f.scale)));
  }
  ++f.builds;
  if (uploaded) {
    ImGui_ImplOpenGL3_DestroyFontsTexture();
    ImGui_ImplOpenGL3_CreateFontsTexture();
  }
  f.build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

void set_font_scale(float scale) {
  FontState& f = font_state();
  if (scale == f.scale) return;
  f.scale = scale;
  f.dirty = true;
}

void set_cjk_font(std::vector<unsigned char> bytes) {
  FontState& f = font_state();
  FontMetrics metrics;
  if (bytes.empty() || !read_metrics(bytes, &metrics)) {
    f.cjk = Cjk::Failed;
    return;
  }
  f.cjk_data = std::move(bytes);
  f.cjk_metrics = metrics;
  f.cjk = Cjk::Loaded;
  f.dirty = true;
}

void update_fonts(const ui::AppState& state) {
  FontState& f = font_state();
  std::vector<ImWchar> wanted;
  for (uint32_t cp : ui::characters_in_use(state)) {
    if (cp <= 0xFF) continue;  // ProggyClean has Latin-1
    if (!f.extended) f.extended = f.dirty = true;
    // ImWchar is 32-bit (cmake/imgui.cmake): characters beyond U+FFFF get their
    // glyph when the font has one. The box is the fallback glyph itself.
    if (cp != kBoxChar) wanted.push_back(ImWchar(cp));
  }
  if (!wanted.empty() && f.cjk == Cjk::Unused) request_cjk_font(f);
  // Only characters the atlas lacks trigger a rebuild (deleting text does not).
  // A rebuild keeps the characters it already holds beside the new ones, up
  // to kKeptChars: the learned-heads view's predictions bring new characters
  // with almost every key, and rebuilding for exactly those in use redid the
  // atlas (9 ms, and its texture) in every typing frame. Past the cap it
  // keeps just those in use. Before the font is there they would all be
  // boxes anyway.
  const bool grew = !std::includes(f.chars.begin(), f.chars.end(), wanted.begin(), wanted.end());
  if (grew && f.cjk == Cjk::Loaded) f.dirty = true;
  if (!f.dirty) return;
  f.dirty = false;
  std::vector<ImWchar> kept;
  std::set_union(f.chars.begin(), f.chars.end(), wanted.begin(), wanted.end(), std::back_inserter(kept));
  f.chars = kept.size() <= kKeptChars ? std::move(kept) : std::move(wanted);
  build_atlas(f);
}

FontStatus font_status() {
  const FontState& f = font_state();
  const ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  FontStatus status;
  status.cjk = f.cjk == Cjk::Requested ? "requested"
               : f.cjk == Cjk::Loaded  ? "loaded"
               : f.cjk == Cjk::Failed  ? "failed"
                                       : "unused";
  status.atlas_w = atlas->TexWidth;
  status.atlas_h = atlas->TexHeight;
  status.glyphs = atlas->Fonts.empty() ? 0 : atlas->Fonts[0]->Glyphs.Size;
  status.cjk_chars = int(f.chars.size());
  status.builds = f.builds;
  status.build_ms = f.build_ms;
  status.scale = f.scale;
  return status;
}

}  // namespace attn::platform
