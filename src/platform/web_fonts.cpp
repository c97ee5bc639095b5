// The web side of the CJK font (fonts.hpp): C++ asks the page for the file
// once a CJK character is in use, and the page hands the bytes back.
//
//   C++  request_cjk_font_from_page()  -> Module.attnRequestFont(Module, "fonts/cjk.ttf")
//        (web/main.js passes web/fonts.js's loader in as that option)
//   JS   fetches the file from the page's own host, copies it into the wasm
//        heap (_malloc) and calls _attn_font_loaded(pointer, size), then frees
//        it; size 0 says the fetch failed (characters stay boxes).
// Fetching only on demand keeps English pages from downloading ~0.6 MB.
#include <cstdio>
#include <string>
#include <vector>

#include <emscripten.h>

#include "platform/fonts.hpp"

namespace attn::platform {

void request_cjk_font_from_page() {
  // Relative URL: the font sits beside the page (cmake/fonts.cmake writes it
  // to the web build's fonts/), on the host that served the page.
  EM_ASM({
    if (typeof Module.attnRequestFont === "function") {
      Module.attnRequestFont(Module, UTF8ToString($0));
    } else {
      console.warn("attention lab: no font loader on this page (web/fonts.js): CJK text shows as boxes");
      Module._attn_font_loaded(0, 0);
    }
  }, "fonts/cjk.ttf");
}

}  // namespace attn::platform

extern "C" {

// The font file's bytes, copied out of the caller's buffer (JS frees it).
EMSCRIPTEN_KEEPALIVE void attn_font_loaded(const unsigned char* bytes, int size) {
  std::vector<unsigned char> data;
  if (bytes && size > 0) data.assign(bytes, bytes + size);
  attn::platform::set_cjk_font(std::move(data));
}

// {"cjk": "unused|requested|loaded|failed", "atlas": [w, h], "glyphs", "cjk_chars",
//  "builds", "build_ms", "scale"}: what the font atlas holds (for tests and the page).
EMSCRIPTEN_KEEPALIVE const char* attn_font_status() {
  static std::string json;
  const attn::platform::FontStatus s = attn::platform::font_status();
  char text[256];
  std::snprintf(text, sizeof text,
                "{\"cjk\": \"%s\", \"atlas\": [%d, %d], \"glyphs\": %d, \"cjk_chars\": %d, \"builds\": %d, \"build_ms\": %.1f, \"scale\": %g}",
                s.cjk, s.atlas_w, s.atlas_h, s.glyphs, s.cjk_chars, s.builds, s.build_ms, double(s.scale));
  json = text;
  return json.c_str();
}

}  // extern "C"
