// The current language and tr(); the tables are i18n/languages/*.cpp, and
// languages() is generated from them by the build (src/ui/CMakeLists.txt).
#include "ui/i18n/strings.hpp"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <deque>
#include <map>

namespace attn::ui {
namespace {

const Language* g_current = nullptr;  // null: English

// View strings added at run time, per language code: key -> text (the deque
// keeps the texts where they are, so tr()'s pointers stay valid).
struct AddedStrings {
  std::map<std::string, const char*, std::less<>> texts;
  std::deque<std::string> storage;
};
std::map<std::string, AddedStrings, std::less<>>& added() {
  static std::map<std::string, AddedStrings, std::less<>> tables;
  return tables;
}

const char* find(const Language& language, const char* key) {
  for (std::size_t i = 0; i < language.count; ++i)
    if (std::strcmp(language.entries[i].key, key) == 0) return language.entries[i].text;
  for (std::size_t i = 0; i < language.view_count; ++i)
    if (std::strcmp(language.view_entries[i].key, key) == 0) return language.view_entries[i].text;
  const auto table = added().find(language.code);
  if (table == added().end()) return nullptr;
  const auto text = table->second.texts.find(key);
  return text == table->second.texts.end() ? nullptr : text->second;
}

}  // namespace

const Language& english_strings() { return languages().front(); }

std::size_t& added_count() {
  static std::size_t count = 0;
  return count;
}

std::size_t view_strings_added() { return added_count(); }

bool add_view_strings(const std::string& code, const std::vector<StringEntry>& entries) {
  ++added_count();
  bool known = false;
  for (const Language& language : languages()) known = known || code == language.code;
  if (!known) return false;
  AddedStrings& table = added()[code];
  for (const StringEntry& entry : entries) {
    table.storage.emplace_back(entry.text);
    table.texts[entry.key] = table.storage.back().c_str();
  }
  return true;
}

std::vector<StringEntry> all_strings(const Language& language) {
  std::vector<StringEntry> out(language.entries, language.entries + language.count);
  for (const StringEntry& entry : view_strings(language)) out.push_back(entry);
  return out;
}

std::vector<StringEntry> view_strings(const Language& language) {
  std::vector<StringEntry> out(language.view_entries, language.view_entries + language.view_count);
  const auto table = added().find(language.code);
  if (table != added().end())
    for (const auto& [key, text] : table->second.texts) out.push_back({key.c_str(), text});
  return out;
}

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

std::string format(const char* fmt, ...) {
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  return text;
}

const char* tr(const char* key) {
  if (const char* text = find(current_language(), key)) return text;
  if (const char* text = find(english_strings(), key)) return text;
  return key;
}

}  // namespace attn::ui
