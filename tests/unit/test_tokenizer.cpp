// The tokenizer: Latin words, punctuation, CJK characters, mixed, empty, pads.
#include "core/tokenizer.hpp"
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
