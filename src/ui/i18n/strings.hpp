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
// A printf format's text (e.g. tr("...fmt") with its numbers), up to 1023 bytes.
std::string format(const char* fmt, ...);

struct StringEntry {
  const char* key;
  const char* text;
};

struct Language {
  const char* code;  // "en"; the id ?lang= and --lang will take
  const char* name;  // in the language itself, for a language switch
  const StringEntry* entries;
  std::size_t count;
  // The strings only code the browser loads on demand draws (the
  // learned-heads view, the main module's deferred part): compiled in
  // natively; in the browser they come with that code (add_view_strings: a
  // view's module, or attention_web.strings beside the deferred part), so the
  // first download does not carry them. tr() looks in both.
  const StringEntry* view_entries = nullptr;
  std::size_t view_count = 0;
};

// A language file's view strings (ATTN_LAZY_VIEW_STRINGS: the browser's main
// module, which gets them at run time).
#ifdef ATTN_LAZY_VIEW_STRINGS
#define ATTN_VIEW_STRINGS(table) nullptr, 0
#else
#define ATTN_VIEW_STRINGS(table) table, sizeof table / sizeof table[0]
#endif

// Adds view strings to the language with this code (copied; a key already
// there is replaced). False if the code is not registered.
bool add_view_strings(const std::string& code, const std::vector<StringEntry>& entries);
// Moves with every add_view_strings call (what depends on the tables, such as
// the font atlas's characters, is built again when it moves).
std::size_t view_strings_added();
// Every view string of a language: its own table's and those added.
std::vector<StringEntry> view_strings(const Language& language);
// Every string of a language: its table, then its view strings.
std::vector<StringEntry> all_strings(const Language& language);

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
