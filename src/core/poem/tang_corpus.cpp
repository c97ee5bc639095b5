// Cleaning the Quan Tang Shi and the held-out protocol.
#include "tang_corpus.hpp"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/base/rng.hpp"
#include "core/base/tokenizer.hpp"

namespace attn::poem {

namespace {

std::u32string decode(std::string_view text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size();) out += decode_utf8(text, i);
  return out;
}

std::string encode(std::u32string_view text) {
  std::string out;
  for (char32_t c : text) append_utf8(out, c);
  return out;
}

bool ideograph(char32_t c) {
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x20000 && c <= 0x3134F);
}

// The punctuation a poem's lines are made with (full-width, as the corpus writes it).
bool poem_mark(char32_t c) { return std::u32string_view(U"，。？！；：、").find(c) != std::u32string_view::npos; }

bool numeral(char32_t c) { return std::u32string_view(U"一二三四五六七八九十").find(c) != std::u32string_view::npos; }

// Removes open..close with what it holds (nested); false if they do not pair up.
bool remove_spans(std::u32string& text, char32_t open, char32_t close) {
  std::u32string out;
  int depth = 0;
  for (char32_t c : text) {
    if (c == open) {
      ++depth;
    } else if (c == close) {
      if (--depth < 0) return false;
    } else if (depth == 0) {
      out += c;
    }
  }
  text = out;
  return depth == 0;
}

// [一] (a footnote's number) goes whole; [X] (a character the editors
// restored) keeps X. False if a bracket does not close on its line.
bool square_brackets(std::u32string& text) {
  std::u32string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == U']') return false;
    if (text[i] != U'[') {
      out += text[i];
      continue;
    }
    const std::size_t end = text.find(U']', i + 1);
    if (end == std::u32string::npos) return false;
    const std::u32string_view inside(text.data() + i + 1, end - i - 1);
    if (inside.find(U'[') != std::u32string_view::npos || inside.find(U'\n') != std::u32string_view::npos) return false;
    if (inside.empty() || !std::all_of(inside.begin(), inside.end(), numeral)) out += inside;
    i = end;
  }
  text = out;
  return true;
}

std::u32string_view trim(std::u32string_view s) {
  const auto space = [](char32_t c) { return c == U' ' || c == U'\t' || c == U'\r' || c == U'\u3000'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

const char* tang_drop_name(TangDrop why) {
  switch (why) {
    case TangDrop::kKept: return "kept";
    case TangDrop::kLost: return "a lost character (□ 囗 ● ○)";
    case TangDrop::kComposed: return "a character described by its parts ({...})";
    case TangDrop::kUnbalanced: return "a note or bracket that does not close";
    case TangDrop::kOtherChars: return "a character that is neither an ideograph nor a poem's punctuation";
    case TangDrop::kEmpty: return "nothing left";
    case TangDrop::kDuplicate: return "a duplicate";
  }
  return "?";
}

std::string clean_tang_poem(std::string_view poem, TangDrop* why) {
  TangDrop dummy;
  if (!why) why = &dummy;
  std::u32string text = decode(poem);
  // Notes first: they quote titles, numbers and lost characters of their own.
  if (!remove_spans(text, U'（', U'）') || !remove_spans(text, U'〖', U'〗') || !square_brackets(text)) {
    *why = TangDrop::kUnbalanced;
    return "";
  }
  if (text.find(U'{') != std::u32string::npos || text.find(U'}') != std::u32string::npos) {
    *why = TangDrop::kComposed;
    return "";
  }
  if (text.find_first_of(U"□囗●○") != std::u32string::npos) {
    *why = TangDrop::kLost;
    return "";
  }
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](char32_t c) { return std::u32string_view(U"《》「」『』").find(c) != std::u32string_view::npos; }),
             text.end());
  std::u32string out;
  std::u32string_view rest(text);
  for (;;) {
    const std::size_t end = rest.find(U'\n');
    const std::u32string_view line = trim(rest.substr(0, end));
    if (std::any_of(line.begin(), line.end(), ideograph)) {
      if (!std::all_of(line.begin(), line.end(), [](char32_t c) { return ideograph(c) || poem_mark(c); })) {
        *why = TangDrop::kOtherChars;
        return "";
      }
      if (!out.empty()) out += U'\n';
      out += line;
    }
    if (end == std::u32string_view::npos) break;
    rest.remove_prefix(end + 1);
  }
  if (out.empty()) {
    *why = TangDrop::kEmpty;
    return "";
  }
  *why = TangDrop::kKept;
  return encode(out);
}

std::vector<std::string> clean_tang_corpus(const std::vector<std::string>& poems, TangCleaning* stats) {
  TangCleaning local;
  if (!stats) stats = &local;
  *stats = {};
  std::vector<std::string> kept;
  std::unordered_set<std::string> seen;
  for (const std::string& poem : poems) {
    ++stats->poems;
    TangDrop why;
    std::string clean = clean_tang_poem(poem, &why);
    if (why == TangDrop::kKept && !seen.insert(clean).second) why = TangDrop::kDuplicate;
    ++stats->dropped[static_cast<int>(why)];
    if (why != TangDrop::kKept) continue;
    if (clean != poem) ++stats->notes;
    kept.push_back(std::move(clean));
  }
  stats->kept = static_cast<int>(kept.size());
  return kept;
}

std::vector<std::string> clauses(std::string_view poem) {
  std::vector<std::string> out;
  std::u32string clause;
  auto finish = [&] {
    if (!clause.empty()) out.push_back(encode(clause));
    clause.clear();
  };
  for (char32_t c : decode(poem)) {
    if (c == U'\n' || poem_mark(c) || std::u32string_view(U",.?!;:").find(c) != std::u32string_view::npos)
      finish();
    else
      clause += c;
  }
  finish();
  return out;
}

bool tang_validation(std::string_view poem) { return stable_hash(poem.data(), poem.size()) % 100 == 0; }

TangSplit split_tang(const std::vector<std::string>& corpus, const std::vector<std::string>& test_poems,
                     int min_clause) {
  // The test poems' clauses of min_clause characters or more, by their first
  // min_clause characters: a poem holds one where it holds that beginning.
  const std::size_t n = static_cast<std::size_t>(std::max(min_clause, 1));
  std::unordered_map<std::u32string, std::vector<std::u32string>> by_start;
  for (const std::string& poem : test_poems)
    for (const std::string& c : clauses(poem)) {
      std::u32string clause = decode(c);
      if (clause.size() >= n) by_start[clause.substr(0, n)].push_back(std::move(clause));
    }
  const auto holds_test_clause = [&](const std::string& poem) {
    const std::u32string text = decode(poem);
    for (std::size_t i = 0; i + n <= text.size(); ++i) {
      const auto it = by_start.find(text.substr(i, n));
      if (it == by_start.end()) continue;
      for (const std::u32string& clause : it->second)
        if (text.compare(i, clause.size(), clause) == 0) return true;
    }
    return false;
  };
  TangSplit split;
  for (int i = 0; i < static_cast<int>(corpus.size()); ++i) {
    const std::string& poem = corpus[static_cast<std::size_t>(i)];
    if (holds_test_clause(poem))
      split.excluded.push_back(i);
    else if (tang_validation(poem))
      split.validation.push_back(i);
    else
      split.train.push_back(i);
  }
  return split;
}

}  // namespace attn::poem
