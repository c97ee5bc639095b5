// A lazy view's strings, sent by its module to the lab's tables
// (ui/i18n/strings.hpp: the main module leaves them out of its first
// download): every language's as records "code US key US text" separated by
// RS (0x1F, 0x1E: no text has them), which attn_add_view_strings reads.
#pragma once

#include <string>

#include "ui/i18n/strings.hpp"

namespace attn::platform {

inline std::string view_string_records() {
  std::string records;
  for (const ui::Language& language : ui::languages())
    for (const ui::StringEntry& entry : ui::view_strings(language))
      records += std::string(language.code) + '\x1f' + entry.key + '\x1f' + entry.text + '\x1e';
  return records;
}

}  // namespace attn::platform
