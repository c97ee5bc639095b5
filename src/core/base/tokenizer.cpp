#include "tokenizer.hpp"

namespace attn {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool is_space(char32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' ||
         c == 0xA0 || c == 0x3000 || (c >= 0x2000 && c <= 0x200B);
}

// Ideographs, kana and CJK/fullwidth punctuation: written without spaces, so
// each character is its own token.
bool is_cjk(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2FA1F) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x3040 && c <= 0x30FF) ||  // hiragana, katakana
         (c >= 0x3000 && c <= 0x303F) ||  // CJK symbols and punctuation
         (c >= 0xFF00 && c <= 0xFFEF);    // fullwidth forms (，。！ ...)
}

bool is_punctuation(char32_t c) {
  if (c < 0x80) return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) ||
                       (c >= 0x5B && c <= 0x60) || (c >= 0x7B && c <= 0x7E);
  return (c >= 0x2010 && c <= 0x205E) ||  // general punctuation: dashes, quotes, ellipsis
         c == 0xA1 || c == 0xBF || c == 0xAB || c == 0xBB || c == kReplacement;
}

// An apostrophe or hyphen between two letters stays inside the word ("don't",
// "self-attention").
bool joins_word(char32_t c) { return c == '\'' || c == '-' || c == 0x2019; }

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

char32_t decode_utf8(std::string_view text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  int extra = 0;
  char32_t cp = 0;
  if (b0 < 0x80) { ++i; return b0; }
  if ((b0 & 0xE0) == 0xC0) { extra = 1; cp = b0 & 0x1F; }
  else if ((b0 & 0xF0) == 0xE0) { extra = 2; cp = b0 & 0x0F; }
  else if ((b0 & 0xF8) == 0xF0) { extra = 3; cp = b0 & 0x07; }
  else { ++i; return kReplacement; }
  if (i + extra >= text.size()) { ++i; return kReplacement; }  // truncated
  for (int k = 1; k <= extra; ++k) {
    const unsigned char b = byte(i + k);
    if ((b & 0xC0) != 0x80) { ++i; return kReplacement; }
    cp = (cp << 6) | (b & 0x3F);
  }
  // Overlong encodings and surrogates are malformed too.
  static constexpr char32_t kMin[] = {0, 0x80, 0x800, 0x10000};
  if (cp < kMin[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) { ++i; return kReplacement; }
  i += extra + 1;
  return cp;
}


std::size_t invalid_utf8_at(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t at = i;
    // A real U+FFFD in the text is three bytes; a malformed sequence yields it after one.
    if (decode_utf8(text, i) == kReplacement && i == at + 1) return at;
  }
  return std::string_view::npos;
}

std::string utf8_error(std::string_view text) {
  const std::size_t at = invalid_utf8_at(text);
  if (at == std::string_view::npos) return "";
  static const char* kHex = "0123456789ABCDEF";
  const auto b = static_cast<unsigned char>(text[at]);
  return "not valid UTF-8: byte " + std::to_string(at) + " (0x" + kHex[b >> 4] + kHex[b & 15] +
         ") does not start or continue a character";
}

std::vector<std::string> tokenize(std::string_view text) {
  std::vector<char32_t> cps;
  for (std::size_t i = 0; i < text.size();) cps.push_back(decode_utf8(text, i));

  std::vector<std::string> tokens;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
  };
  // ' and - between letters join a word instead of being punctuation.
  const auto inside_word = [&](std::size_t i) {
    return joins_word(cps[i]) && !word.empty() && i + 1 < cps.size() && !is_space(cps[i + 1]) &&
           !is_punctuation(cps[i + 1]) && !is_cjk(cps[i + 1]);
  };
  const std::u32string_view pad = U"[PAD]";
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const char32_t c = cps[i];
    if (std::u32string_view(cps.data() + i, cps.size() - i).substr(0, pad.size()) == pad) {
      flush();  // a typed pad token stays one token, so a padding mask can find it
      tokens.emplace_back(kPadToken);
      i += pad.size() - 1;
    } else if (is_space(c)) {
      flush();
    } else if ((is_cjk(c) || is_punctuation(c)) && !inside_word(i)) {
      flush();
      std::string single;
      append_utf8(single, c);
      tokens.push_back(std::move(single));
    } else {
      append_utf8(word, c);  // a letter, or ' and - inside a word ("don't", "self-attention")
    }
  }
  flush();
  return tokens;
}

std::vector<std::string> pad_to(std::vector<std::string> tokens, std::size_t length) {
  while (tokens.size() < length) tokens.emplace_back(kPadToken);
  return tokens;
}

bool is_pad(const std::string& token) { return token == kPadToken; }

}  // namespace attn
