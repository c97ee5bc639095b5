// Writes the view strings (platform/view_strings.hpp) to a file, at build
// time under Node: attention_web.strings, which web/main.js hands to the lab
// with the deferred part of its code (the main module's own tables leave
// them out: ui/i18n/strings.hpp).
//
//   node attention_view_strings.js OUT
#include <cstdio>

#include "platform/view_strings.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: attention_view_strings OUT\n");
    return 2;
  }
  const std::string records = attn::platform::view_string_records();
  std::FILE* out = std::fopen(argv[1], "wb");
  if (!out || std::fwrite(records.data(), 1, records.size(), out) != records.size() || std::fclose(out) != 0) {
    std::perror(argv[1]);
    return 1;
  }
  return 0;
}
