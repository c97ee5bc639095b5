// Splits a sentence into tokens the way the lab shows them:
//   - Latin text: whitespace-separated words, punctuation split off as its own
//     token ("mat." -> "mat", ".")
//   - CJK text: one token per character (Chinese has no spaces between words)
//   - the pad token kPadToken fills a sequence to a fixed length; typed in the
//     text it stays one token
// Input is UTF-8; invalid bytes become U+FFFD tokens rather than errors.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace attn {

inline constexpr const char* kPadToken = "[PAD]";

std::vector<std::string> tokenize(std::string_view text);
// Append kPadToken until tokens.size() == length (never truncates).
std::vector<std::string> pad_to(std::vector<std::string> tokens, std::size_t length);
bool is_pad(const std::string& token);

// Decodes one UTF-8 code point starting at text[i] and advances i. Malformed
// or truncated sequences (overlong forms and surrogates included) yield
// U+FFFD and consume one byte: the rule tokenize() follows.
char32_t decode_utf8(std::string_view text, std::size_t& i);
// Appends code point cp to out as UTF-8 (decode_utf8's inverse).
void append_utf8(std::string& out, char32_t cp);

// The byte offset of the first malformed sequence in text (decode_utf8's
// rule), or std::string_view::npos when text is valid UTF-8. What a reader or
// a host page passes in is checked with it, so that nothing is silently
// changed into U+FFFD on the way to the tokenizer.
std::size_t invalid_utf8_at(std::string_view text);
// "" for valid UTF-8, otherwise "not valid UTF-8: byte <i> (0x..) does not
// start or continue a character".
std::string utf8_error(std::string_view text);

}  // namespace attn
