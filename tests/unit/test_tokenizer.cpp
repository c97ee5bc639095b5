// The tokenizer: Latin words, punctuation, CJK characters, mixed, empty, pads.
#include <algorithm>

#include "core/base/tokenizer.hpp"
#include "helpers.hpp"

using namespace attn;
using Tokens = std::vector<std::string>;

TEST_CASE("Latin text splits on whitespace and splits punctuation off") {
  CHECK(tokenize("The cat sat on the mat") == Tokens{"The", "cat", "sat", "on", "the", "mat"});
  CHECK(tokenize("  Hello,   world!\n") == Tokens{"Hello", ",", "world", "!"});
  CHECK(tokenize("don't stop self-attention.") == Tokens{"don't", "stop", "self-attention", "."});
  CHECK(tokenize("(a)") == Tokens{"(", "a", ")"});
}

TEST_CASE("CJK text gives one token per character") {
  CHECK(tokenize("猫坐在垫子上") == Tokens{"猫", "坐", "在", "垫", "子", "上"});
  CHECK(tokenize("我爱你。") == Tokens{"我", "爱", "你", "。"});
  CHECK(tokenize("注意力 attention 机制") == Tokens{"注", "意", "力", "attention", "机", "制"});
  CHECK(tokenize("GPT模型") == Tokens{"GPT", "模", "型"});
}

TEST_CASE("empty, blank and malformed input") {
  CHECK(tokenize("").empty());
  CHECK(tokenize(" \t\n ").empty());
  const Tokens bad = tokenize("a\xff" "b");  // invalid byte -> U+FFFD as its own token
  REQUIRE(bad.size() == 3u);
  CHECK(bad[1] == "\xEF\xBF\xBD");
  CHECK(tokenize("\xE4\xBD").size() == 2u);  // truncated sequence, no crash
}

TEST_CASE("invalid_utf8_at names the first malformed byte; valid text (NUL, U+FFFD, emoji) passes") {
  using namespace std::string_view_literals;
  const auto npos = std::string_view::npos;
  CHECK(invalid_utf8_at("") == npos);
  CHECK(invalid_utf8_at("the cat 猫 😀 \xEF\xBF\xBD") == npos);  // a real U+FFFD is text, not an error
  CHECK(invalid_utf8_at("a\0b"sv) == npos);                  // NUL is a character
  CHECK(invalid_utf8_at("\xF4\x8F\xBF\xBF") == npos);          // U+10FFFF, the last code point
  CHECK(invalid_utf8_at("ab\xFF" "cd") == 2);                 // not a lead byte
  CHECK(invalid_utf8_at("\x80") == 0);                       // a continuation byte alone
  CHECK(invalid_utf8_at("\xC0\x80") == 0);                   // overlong NUL
  CHECK(invalid_utf8_at("\xE0\x80\xAF") == 0);               // overlong '/'
  CHECK(invalid_utf8_at("x\xED\xA0\x80") == 1);              // U+D800 (a surrogate) in UTF-8
  CHECK(invalid_utf8_at("\xF4\x90\x80\x80") == 0);           // above U+10FFFF
  CHECK(invalid_utf8_at("猫\xE4\xBD") == 3);                  // truncated at the end
  CHECK(invalid_utf8_at("\xE4\xBDx") == 0);                   // truncated before ASCII
  CHECK(utf8_error("ok 猫").empty());
  CHECK(utf8_error("ab\xFF") == "not valid UTF-8: byte 2 (0xFF) does not start or continue a character");
  // The tokenizer's rule is the same: what invalid_utf8_at refuses, tokenize() would turn into U+FFFD.
  for (std::string_view bad : {"\xFF"sv, "\xC0\x80"sv, "\xED\xA0\x80"sv, "\xF4\x90\x80\x80"sv}) {
    const Tokens t = tokenize(bad);
    CHECK(std::find(t.begin(), t.end(), "\xEF\xBF\xBD") != t.end());
  }
}

TEST_CASE("pad tokens") {
  const Tokens padded = pad_to({"a", "b"}, 4);
  CHECK(padded == Tokens{"a", "b", kPadToken, kPadToken});
  CHECK(is_pad(padded[3]));
  CHECK(!is_pad("a"));
  CHECK(pad_to({"a", "b", "c"}, 2).size() == 3u);  // never truncates
  CHECK(tokenize("the cat [PAD] [PAD]") == Tokens{"the", "cat", kPadToken, kPadToken});
  CHECK(tokenize("x[PAD]y") == Tokens{"x", kPadToken, "y"});
  CHECK(tokenize("[PA") == Tokens{"[", "PA"});
}
