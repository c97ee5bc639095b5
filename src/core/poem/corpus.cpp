// fortunes-zh entries and the character vocabulary.
#include "corpus.hpp"

#include <algorithm>
#include <map>

#include "core/base/tokenizer.hpp"

namespace attn::poem {

namespace {

// Drops ESC [ ... <letter> (SGR colour codes and any other CSI sequence).
std::string strip_ansi(std::string_view line) {
  std::string out;
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
      i += 2;
      while (i < line.size() && !((line[i] >= 'A' && line[i] <= 'Z') || (line[i] >= 'a' && line[i] <= 'z'))) ++i;
      continue;
    }
    out += line[i];
  }
  return out;
}

std::string_view trim(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

std::string encode_utf8(char32_t c) {
  std::string out;
  append_utf8(out, c);
  return out;
}

// Lines that are not the entry's text: a title (tang300's "《...》",
// song100's "题目:《...》"), an author ("作者：" or "作者:"), an attribution
// ("-- ..."), or a part's number inside a poem ("其一", "其二", ...).
bool heading(std::string_view line) {
  if (starts_with(line, "《") || starts_with(line, "题目") || starts_with(line, "作者") || starts_with(line, "--"))
    return true;
  // 其 and one to three numerals: 其一 .. 其十二.
  const std::vector<std::string> chars = utf8_chars(line);
  if (chars.size() < 2 || chars.size() > 4 || chars[0] != "其") return false;
  static const std::string_view kNumerals = "一二三四五六七八九十";
  return std::all_of(chars.begin() + 1, chars.end(),
                     [](const std::string& c) { return kNumerals.find(c) != std::string_view::npos; });
}

// The text after a heading's label: 《感遇》 -> 感遇, 作者：张九龄 -> 张九龄.
std::string heading_value(std::string_view line, std::string_view label) {
  line.remove_prefix(label.size());
  for (std::string_view mark : {"：", ":"})
    if (starts_with(line, mark)) line.remove_prefix(mark.size());
  line = trim(line);
  if (starts_with(line, "《")) line.remove_prefix(std::string_view("《").size());
  const std::size_t close = line.rfind("》");
  if (close != std::string_view::npos) line = line.substr(0, close);
  return std::string(trim(line));
}

}  // namespace

std::vector<FortuneEntry> parse_fortune_entries(std::string_view file) {
  std::vector<FortuneEntry> entries;
  FortuneEntry entry;
  auto finish = [&] {
    if (!entry.text.empty()) entries.push_back(entry);
    entry = FortuneEntry{};
  };
  while (!file.empty()) {
    const std::size_t end = file.find('\n');
    const std::string clean = strip_ansi(file.substr(0, end));
    file.remove_prefix(end == std::string_view::npos ? file.size() : end + 1);
    const std::string_view line = trim(clean);
    if (line == "%") {
      finish();
      continue;
    }
    if (line.empty()) continue;
    if (heading(line)) {
      // The first title and author an entry names (a part's 其二 is not a title).
      if (entry.title.empty() && starts_with(line, "《")) entry.title = heading_value(line, "");
      else if (entry.title.empty() && starts_with(line, "题目")) entry.title = heading_value(line, "题目");
      else if (entry.author.empty() && starts_with(line, "作者")) entry.author = heading_value(line, "作者");
      continue;
    }
    if (!entry.text.empty()) entry.text += '\n';
    entry.text += line;
  }
  finish();
  return entries;
}

std::vector<std::string> parse_fortunes(std::string_view file) {
  std::vector<std::string> texts;
  for (FortuneEntry& e : parse_fortune_entries(file)) texts.push_back(std::move(e.text));
  return texts;
}

std::vector<std::string> utf8_chars(std::string_view text) {
  std::vector<std::string> chars;
  for (std::size_t i = 0; i < text.size();) chars.push_back(encode_utf8(decode_utf8(text, i)));
  return chars;
}

bool is_punctuation(std::string_view ch) {
  static const char* const kMarks[] = {"，", "。", "？", "！", "；", "：", "、", ",", ".", "?", "!", ";", ":"};
  return std::any_of(std::begin(kMarks), std::end(kMarks), [&](const char* m) { return ch == m; });
}

Vocab Vocab::from_texts(const std::vector<std::string>& texts, int min_count) {
  std::map<char32_t, long long> counts;
  for (const std::string& t : texts)
    for (std::size_t i = 0; i < t.size();) {
      const char32_t c = decode_utf8(t, i);
      if (c != U'\n') ++counts[c];
    }
  Vocab v;
  v.chars = {"<unk>", "<poem>", "\n", "<text>"};
  for (const auto& [c, n] : counts)
    if (n >= min_count) v.chars.push_back(encode_utf8(c));
  v.index();
  return v;
}

bool Vocab::index() {
  ids.clear();
  if (chars.size() < kSpecials || chars[0] != "<unk>" || chars[1] != "<poem>" || chars[2] != "\n" ||
      chars[3] != "<text>")
    return false;
  for (std::size_t i = 0; i < chars.size(); ++i)
    if (!ids.emplace(chars[i], static_cast<int>(i)).second) return false;
  return true;
}

int Vocab::id(const std::string& ch) const {
  const auto it = ids.find(ch);
  return it == ids.end() || it->second < kSpecials ? (ch == "\n" ? kLineBreak : kUnknown) : it->second;
}

std::vector<int> Vocab::encode(std::string_view text, int* unknown) const {
  std::vector<int> out;
  for (const std::string& ch : utf8_chars(text)) {
    out.push_back(id(ch));
    if (unknown && out.back() == kUnknown) ++*unknown;
  }
  return out;
}

std::vector<int> Vocab::encode_poem(std::string_view poem, int start) const {
  std::vector<int> out{start};
  for (int id : encode(poem)) out.push_back(id);
  if (out.back() != kLineBreak) out.push_back(kLineBreak);
  return out;
}

std::string Vocab::text(int i) const { return i >= 0 && i < size() ? chars[static_cast<std::size_t>(i)] : ""; }

bool Vocab::punctuation(int i) const { return i >= kSpecials && i < size() && is_punctuation(chars[static_cast<std::size_t>(i)]); }

}  // namespace attn::poem
