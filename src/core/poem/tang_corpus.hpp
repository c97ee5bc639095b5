// The Quan Tang Shi as the poem model reads it: the chinese-poetry project's
// poems (scripts/tang_corpus.sh fetches them and turns them into simplified
// characters), cleaned of the editors' marks, and split so that no poem a
// reader is shown in the learned-heads view ever trained.
//
// The data carries an edition's apparatus inside the verse:
//   - variant readings and notes in full-width parentheses, 逻人（一作「叉」）横鸟道,
//     sometimes whole paragraphs of commentary over several lines;
//   - footnote marks, 〖1〗 and [一], and restored characters in square
//     brackets, 三冬季月景[龙]年;
//   - quoted titles and words, 《长恨曲》, 「...」, 『...』;
//   - lost or unreadable characters, □, 囗, ●, ○, and characters described
//     by their parts where no code point exists, {𥫗/戢}.
// The core only parses: reading the file is the caller's business.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attn::poem {

// Why a poem was left out, or kKept.
enum class TangDrop {
  kKept,
  kLost,          // □, 囗, ●, ○: a character the edition could not read
  kComposed,      // {...}: a character described by its parts
  kUnbalanced,    // a note's （ or a bracket without its close
  kOtherChars,    // after cleaning, a character that is neither an ideograph nor a poem's punctuation
  kEmpty,         // nothing left
  kDuplicate,     // the same text as an earlier poem (clean_tang_corpus only)
};
constexpr int kTangDrops = static_cast<int>(TangDrop::kDuplicate) + 1;
const char* tang_drop_name(TangDrop why);

// One poem (its lines joined by "\n") cleaned: notes （...） and footnote marks
// 〖...〗 and [一] go with what they hold; [X], 《X》, 「X」 and 『X』 keep X;
// lines are trimmed and a line left without an ideograph goes. The result, or
// "" with `why` set when the poem cannot be read as written.
std::string clean_tang_poem(std::string_view poem, TangDrop* why);

struct TangCleaning {
  int poems = 0;   // read
  int kept = 0;
  int dropped[kTangDrops] = {};  // by TangDrop
  int notes = 0;        // poems that had a note or a mark removed and were kept
};
// Every poem cleaned, exact duplicates after cleaning left out (the first kept).
std::vector<std::string> clean_tang_corpus(const std::vector<std::string>& poems, TangCleaning* stats = nullptr);

// A poem's clauses: the runs of characters between punctuation marks and line
// breaks (秦川雄帝宅，函谷壮皇居。 -> 秦川雄帝宅, 函谷壮皇居).
std::vector<std::string> clauses(std::string_view poem);

// Who trains. The test set is the poems a reader sees (tang300); a poem of the
// big corpus that holds a clause of at least `min_clause` characters of one of
// them anywhere in its text is excluded: it is that poem in another edition,
// or quotes it, and a training window must never hold a line the reader is
// shown as unseen. Of the
// rest, a fixed 1 % chosen by a hash of the text validates (reported while
// training, never trained on); the others train.
struct TangSplit {
  std::vector<int> train, validation, excluded;  // indices into the big corpus
};
TangSplit split_tang(const std::vector<std::string>& corpus, const std::vector<std::string>& test_poems,
                     int min_clause = 4);
// The validation rule: FNV-1a 64 of the poem's text, modulo 100, is 0.
bool tang_validation(std::string_view poem);

}  // namespace attn::poem
