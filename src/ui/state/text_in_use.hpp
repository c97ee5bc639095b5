// The characters the UI draws beyond ASCII, for the platform's font atlas
// (src/platform/fonts.cpp): Dear ImGui 1.86 can only draw glyphs baked into
// its atlas, and baking every CJK character would make a 4096x4096 texture,
// so the atlas holds exactly the characters in use and grows when new ones
// appear (a typed sentence, a language switch).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::ui {

struct AppState;

// Sorted, unique code points >= 0x80 of every text of the current language's
// string table, the sentence (state.config.text), the explorer result's
// tokens, the scaling lab's example tokens and the error line. Cheap enough
// for every frame: the string table's characters are collected once per
// language, the rest is a few hundred bytes of UTF-8.
std::vector<uint32_t> characters_in_use(const AppState& state);

// Appends the code points >= 0x80 of UTF-8 `text` to `out` (unsorted);
// malformed bytes count as U+FFFD, as in the tokenizer.
void append_code_points(std::string_view text, std::vector<uint32_t>* out);

// " (U+1F600 U+20BB7)": the characters of `text` the current ImGui font has
// no glyph for, which are drawn as the missing-glyph box; "" when it has them
// all. For tooltips, so a reader can still tell which character a box is.
// Call inside a frame (it asks ImGui's current font).
std::string missing_glyphs_note(std::string_view text);

}  // namespace attn::ui
