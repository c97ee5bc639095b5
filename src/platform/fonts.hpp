// The ImGui font atlas of both mains, built from the characters in use.
//
// Dear ImGui 1.86 draws only glyphs baked into its atlas, and the whole CJK
// range would make a 4096x4096 texture, so the atlas holds:
//   - ProggyClean (ImGui's built-in font) for Latin-1 at round(13 px * scale),
//     the default font. While nothing beyond Latin-1 is in use the atlas is
//     exactly what it always was (English screenshots stay pixel-identical);
//   - merged into it, the CJK font (cmake/fonts.cmake's subset of WenQuanYi
//     Micro Hei) for exactly the characters in use (ui::characters_in_use),
//     at 14 CSS px per em * scale, moved down so its ideographs sit centred
//     on the Latin line;
//   - a drawn box glyph (U+25A1) as the fallback: a character the font lacks,
//     or any CJK character while the web page is still fetching the font,
//     shows as a box, never as "?".
// update_fonts rebuilds it between frames (before the backends' NewFrame)
// when characters it lacks appear, the scale changes or the font arrives,
// and recreates the GL font texture.
//
// Where the CJK font comes from: the desktop reads the subset from the build
// tree (falling back to the system's font file); the web page fetches
// fonts/cjk.ttf only once a CJK character is in use (web/fonts.js, handed
// over through web_fonts.cpp), so English pages never download it.
#pragma once

#include <vector>

namespace attn::ui {
struct AppState;
}

namespace attn::platform {

// Framebuffer pixels per UI unit (devicePixelRatio on the web): the fonts
// are rasterised at their final pixel size, never stretched. Takes effect at
// the next update_fonts.
void set_font_scale(float scale);

// Once per frame, before ImGui_ImplOpenGL3_NewFrame (the first call builds
// the atlas the backend then uploads). Cheap when nothing changed.
void update_fonts(const ui::AppState& state);

// The CJK font file's bytes (web: from web/fonts.js); empty when it could not
// be loaded, and the characters stay boxes. The next update_fonts uses them.
void set_cjk_font(std::vector<unsigned char> bytes);

// What the atlas holds, for tests and the page (web_fonts.cpp prints it).
struct FontStatus {
  const char* cjk = "unused";  // "unused" | "requested" | "loaded" | "failed"
  int atlas_w = 0, atlas_h = 0;  // texture size of the last build
  int glyphs = 0;                // glyphs of the default font (Latin + CJK + box)
  int cjk_chars = 0;             // characters beyond Latin-1 the atlas was built for
  int builds = 0;                // atlas builds so far
  double build_ms = 0;           // how long the last one took (rasterising + texture upload)
  float scale = 1;
};
FontStatus font_status();

#ifdef __EMSCRIPTEN__
// Asks the page for the CJK font (web_fonts.cpp); it answers through set_cjk_font.
void request_cjk_font_from_page();
#endif

}  // namespace attn::platform
