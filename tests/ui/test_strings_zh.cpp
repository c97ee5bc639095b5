// The translated string tables against the English one: every printf format
// keeps the English conversions in the same order (a "%d" turned into "%s",
// dropped or swapped would read the wrong argument), and the Chinese table
// uses only glyphs the interface font covers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/state/text_in_use.hpp"

namespace attn::ui {
namespace {

// The conversions of a printf format in order, each as written ("%d", "%.4f",
// "%%", "%-5s" ...); an unfinished one ("%" at the end, "%q") as "%?".
std::vector<std::string> conversions(const char* format) {
  std::vector<std::string> found;
  for (const char* p = format; *p; ++p) {
    if (*p != '%') continue;
    const char* start = p++;
    while (*p && std::strchr("-+ #0", *p)) ++p;
    while (*p && (std::strchr("0123456789*.", *p))) ++p;
    while (*p && std::strchr("hlLqjzt", *p)) ++p;
    if (!*p || !std::strchr("diouxXfFeEgGaAcspn%", *p)) {
      found.push_back("%?");
      if (!*p) break;
      continue;
    }
    found.emplace_back(start, std::size_t(p - start + 1));
  }
  return found;
}

const char* english_text(const char* key) {
  static const std::vector<StringEntry> english = all_strings(english_strings());
  for (const StringEntry& entry : english)
    if (std::strcmp(entry.key, key) == 0) return entry.text;
  return nullptr;
}

// Decodes UTF-8; false on a malformed sequence.
bool code_points(const std::string& text, std::vector<char32_t>* out) {
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (extra < 0 || i + std::size_t(extra) >= text.size()) return false;
    char32_t cp = extra == 0 ? c : extra == 1 ? (c & 0x1F) : extra == 2 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k <= extra; ++k) {
      const unsigned char next = static_cast<unsigned char>(text[i + std::size_t(k)]);
      if ((next >> 6) != 0x2) return false;
      cp = (cp << 6) | (next & 0x3F);
    }
    out->push_back(cp);
    i += std::size_t(extra) + 1;
  }
  return true;
}

// ASCII, CJK ideographs, CJK punctuation, full-width forms and the quotes “”.
bool chinese_glyph(char32_t cp) {
  return (cp >= 0x20 && cp < 0x7F) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3000 && cp <= 0x303F) ||
         (cp >= 0xFF00 && cp <= 0xFFEF) || cp == 0x201C || cp == 0x201D;
}

TEST_CASE("conversions() reads printf formats") {
  CHECK(conversions("plain") == std::vector<std::string>{});
  CHECK(conversions("%d of %d, %.4f %% '%s' %-5.2f %lld %zu") ==
        std::vector<std::string>{"%d", "%d", "%.4f", "%%", "%s", "%-5.2f", "%lld", "%zu"});
  CHECK(conversions("100%") == std::vector<std::string>{"%?"});
  CHECK(conversions("头 %d") == std::vector<std::string>{"%d"});
}

TEST_CASE("string tables: every text keeps the English printf conversions in order") {
  for (const Language& language : languages()) {
    const std::string code = language.code;
    for (const StringEntry& entry : all_strings(language)) {
      const std::string key = entry.key;
      CAPTURE(code);
      CAPTURE(key);
      const char* english = english_text(key.c_str());
      REQUIRE(english != nullptr);
      // Keys without ".fmt" are never formats: they must have no "%" either (or
      // only the ones English has), since a stray one would be read if they were.
      CHECK(conversions(entry.text) == conversions(english));
      if (key.find(".fmt") != std::string::npos) CHECK(!conversions(english).empty());
    }
  }
}

TEST_CASE("the Chinese table: every English key, valid UTF-8, glyphs of the CJK font") {
  const Language* chinese = nullptr;
  for (const Language& language : languages())
    if (std::string(language.code) == "zh") chinese = &language;
  REQUIRE(chinese != nullptr);
  CHECK(std::string(chinese->name) == "中文");
  CHECK(chinese->count == english_strings().count);
  CHECK(chinese->view_count == english_strings().view_count);
  for (const StringEntry& entry : all_strings(*chinese)) {
    const std::string key = entry.key;
    const std::string text = entry.text;
    CAPTURE(key);
    std::vector<char32_t> points;
    REQUIRE(code_points(text, &points));
    CHECK(!points.empty());
    for (char32_t cp : points) {
      CAPTURE(unsigned(cp));
      CHECK(chinese_glyph(cp));
    }
  }
  REQUIRE(set_language("zh"));
  CHECK(std::string(tr("tab.heatmaps")) == "热力图");
  CHECK(std::string(tr("no.such.key")) == "no.such.key");
  REQUIRE(set_language("en"));  // the other cases expect English
  CHECK(std::string(tr("tab.heatmaps")) == "Heatmaps");
}

TEST_CASE("a browser's language tag reads the registered language of its first subtag") {
  CHECK(std::string(language_for_tag("zh")) == "zh");
  CHECK(std::string(language_for_tag("zh-CN")) == "zh");
  CHECK(std::string(language_for_tag("zh-TW")) == "zh");
  CHECK(std::string(language_for_tag("ZH_hant")) == "zh");
  CHECK(std::string(language_for_tag("en-GB")) == "en");
  CHECK(std::string(language_for_tag("tlh-Latn")) == "en");  // no Klingon table: English
  CHECK(std::string(language_for_tag("")) == "en");
  CHECK(std::string(language_for_tag("zhx")) == "en");    // a subtag, not a prefix
  for (const Language& language : languages()) CHECK(std::string(language_for_tag(language.code)) == language.code);
}

}  // namespace
}  // namespace attn::ui

namespace attn::ui {
namespace {

// The learned-heads view's strings reach the browser's main module at run
// time (add_view_strings): the font atlas must learn their characters then,
// or they are drawn as boxes (found in poem_e2e's screenshots: 续写 as "?写").
TEST_CASE("view strings added at run time join the characters in use") {
  AppState state;
  REQUIRE(set_language("zh"));
  const char32_t rare = U'\u946B';  // 鑫: in no table
  std::vector<uint32_t> before = characters_in_use(state);
  CHECK(!std::binary_search(before.begin(), before.end(), uint32_t(rare)));
  REQUIRE(add_view_strings("zh", {{"test.view_string", "\xE9\x91\xAB"}}));
  CHECK(std::string(tr("test.view_string")) == "\xE9\x91\xAB");
  const std::vector<uint32_t> after = characters_in_use(state);
  CHECK(std::binary_search(after.begin(), after.end(), uint32_t(rare)));
  REQUIRE(set_language("en"));
}

}  // namespace
}  // namespace attn::ui
