// libFuzzer target: the tokenizer and the UTF-8 check on arbitrary bytes
// (invalid UTF-8, overlong forms, surrogates encoded in UTF-8, NUL, [PAD]).
// Every token is non-empty valid UTF-8 without spaces; invalid_utf8_at finds
// a malformed byte exactly when utf8_error has a message, and the text before
// it is valid.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/base/tokenizer.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const std::string& token : attn::tokenize(text)) {
    FUZZ_CHECK(!token.empty(), "an empty token");
    FUZZ_CHECK(attn::invalid_utf8_at(token) == std::string_view::npos, "a token that is not valid UTF-8");
    FUZZ_CHECK(token.find_first_of(" \t\n\r") == std::string::npos, "a token with a space");
  }
  const std::size_t bad = attn::invalid_utf8_at(text);
  FUZZ_CHECK((bad == std::string_view::npos) == attn::utf8_error(text).empty(), "invalid_utf8_at and utf8_error disagree");
  if (bad != std::string_view::npos) {
    FUZZ_CHECK(bad < text.size(), "a malformed byte past the end");
    FUZZ_CHECK(attn::invalid_utf8_at(text.substr(0, bad)) == std::string_view::npos, "the text before it is not valid");
  }
  return 0;
}
