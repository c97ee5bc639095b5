// Every string a reader sees goes through tr("key"); the texts live in one
// table per language, one file each: i18n/languages/<code>.cpp defines
// `const Language& strings_<code>()`, and the build registers every such file
// (src/ui/CMakeLists.txt generates languages() from them, English first).
// A key the current language lacks falls back to English, and a key no
// table has comes back unchanged, which makes a missing entry visible on
// screen instead of crashing. Some entries are printf formats (marked "fmt"
// in their key).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace attn::ui {

const char* tr(const char* key);

struct StringEntry {
  const char* key;
  const char* text;
};

struct Language {
  const char* code;  // "en"; the id ?lang= and --lang will take
  const char* name;  // in the language itself, for a language switch
  const StringEntry* entries;
  std::size_t count;
};

// The registered languages, English first.
const std::vector<Language>& languages();
// Switches tr() to the language with this code; false (and no change) if unknown.
bool set_language(const std::string& code);
const Language& current_language();
// The registered language a browser's language tag reads (navigator.language:
// "zh-TW" reads "zh", "en-GB" "en"; case does not matter): the one whose code
// is the tag or its first subtag, else English. A new language's table is
// all it takes.
const char* language_for_tag(const std::string& tag);

// The English table (i18n/languages/en.cpp), the fallback of every other.
const Language& english_strings();

}  // namespace attn::ui
