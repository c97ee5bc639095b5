// The poems the model learns from: Debian's fortunes-zh files (tang300,
// song100, chinese) as text, and the characters they are made of.
//
// A fortunes file is entries separated by lines holding only "%"; fortunes-zh
// colours its titles and authors with ANSI escapes. An entry here is its
// lines without the escapes, the title (《...》, song100's 题目:《...》), the
// author (作者：... or 作者:...), the attribution ("-- ...") and a part's
// number (其一, 其二, ...) lines, joined by "\n". The core only parses:
// reading the files is the caller's (the CLI's) business.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attn::poem {

std::vector<std::string> parse_fortunes(std::string_view file);
// The same entries with their headings: tang300's 《title》 and 作者：author
// lines (song100's 题目:《title》), "" where an entry has none.
struct FortuneEntry {
  std::string text, title, author;
};
std::vector<FortuneEntry> parse_fortune_entries(std::string_view file);

// The test set: every tang300 poem whose 0-based index in file order is a
// multiple of 10. These never train.
inline bool held_out(int tang300_index) { return tang300_index % 10 == 0; }

// text split into UTF-8 characters; a byte that starts no valid character
// becomes U+FFFD (so nothing a reader types is lost or crashes the split).
std::vector<std::string> utf8_chars(std::string_view text);

// The punctuation that ends a line of a poem (full-width and ASCII).
bool is_punctuation(std::string_view ch);

// Character ids. 0..3 are special: an unknown character, the start of a
// poem, a line break, the start of a modern passage (so that what follows
// <poem> is poetry, whatever else trained); then the training texts'
// characters (all, or those of at least a minimum count) in code point order.
struct Vocab {
  static constexpr int kUnknown = 0, kPoemStart = 1, kLineBreak = 2, kTextStart = 3, kSpecials = 4;
  std::vector<std::string> chars;  // id -> text: "<unk>", "<poem>", "\n", "<text>", ...
  std::unordered_map<std::string, int> ids;

  // The characters that occur at least min_count times in the texts; the
  // rarer ones are read as kUnknown, which then trains like any character.
  static Vocab from_texts(const std::vector<std::string>& texts, int min_count = 1);
  // Rebuilds ids from chars (after reading a model file); false if the list
  // does not start with the specials or repeats a character.
  bool index();
  int size() const { return static_cast<int>(chars.size()); }
  int id(const std::string& ch) const;  // kUnknown when absent
  // "\n" -> kLineBreak, anything else by id(); unknown (if given) counts kUnknown's.
  std::vector<int> encode(std::string_view text, int* unknown = nullptr) const;
  // A poem as the model reads it: kPoemStart, its lines each followed by
  // kLineBreak; a modern passage the same way after kTextStart.
  std::vector<int> encode_poem(std::string_view poem, int start = kPoemStart) const;
  std::string text(int id) const;  // "" outside the vocabulary
  bool punctuation(int id) const;
};

}  // namespace attn::poem
