// The current language and tr(); the tables are i18n/languages/*.cpp, and
// languages() is generated from them by the build (src/ui/CMakeLists.txt).
#include "ui/i18n/strings.hpp"

#include <cctype>
#include <cstring>

namespace attn::ui {
namespace {

const Language* g_current = nullptr;  // null: English

const char* find(const Language& language, const char* key) {
  for (std::size_t i = 0; i < language.count; ++i)
    if (std::strcmp(language.entries[i].key, key) == 0) return language.entries[i].text;
  return nullptr;
}

}  // namespace

const Language& english_strings() { return languages().front(); }

bool set_language(const std::string& code) {
  for (const Language& language : languages())
    if (code == language.code) {
      g_current = &language;
      return true;
    }
  return false;
}

const Language& current_language() { return g_current ? *g_current : languages().front(); }

const char* language_for_tag(const std::string& tag) {
  std::string primary = tag.substr(0, tag.find_first_of("-_"));
  for (char& ch : primary) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  for (const Language& language : languages())
    if (primary == language.code) return language.code;
  return english_strings().code;
}

const char* tr(const char* key) {
  if (const char* text = find(current_language(), key)) return text;
  if (const char* text = find(english_strings(), key)) return text;
  return key;
}

}  // namespace attn::ui
