// The standard head detectors, each measured against uniform attention: for
// every query, the weight a head puts on the keys a pattern names, and the
// weight uniform attention over the same visible keys would put there
// (TransformerLens's detect_head patterns, and the poem's own: punctuation,
// the same place in the previous line). A head's strongest pattern is the one
// whose weight is the largest multiple of uniform's.
//
// Pure functions over attention matrices, so a test can hand them any
// weights: analyse_heads (head_patterns.hpp) feeds them the model's.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

namespace attn::poem {

enum class Detector {
  kPrevious,     // the character one back
  kSelf,         // the character itself
  kFirst,        // the first position (<poem>: the sink)
  kPunctuation,  // punctuation and line breaks
  kCouplet,      // the same place in the previous line, across "。\n" too
  kDuplicate,    // earlier occurrences of the same character
  kInduction,    // on a repeated random sequence: the key after the first occurrence
  // The place in the previous line of the character the query predicts (its
  // column + 1): the key that stands parallel to the next character, which is
  // what the query's output is for, shifted by one as induction is.
  kCoupletAhead,
};
inline constexpr int kDetectors = 8;
const char* detector_name(Detector d);  // "previous character", ...

// What each position of a sequence is, for the detectors. marks[t]: token t is
// punctuation or a line break. couplet[t]: the same place in the previous
// line (lines end at punctuation and line breaks), or -1; couplet_ahead[t]:
// the place after it in that line, or -1. induction[t]: in a
// repeated sequence, the key right after the first occurrence of token t, or -1.
struct SequenceRoles {
  bool repeated = false;  // a repeated random sequence: only induction is measured on it
  std::vector<int> tokens;
  std::vector<bool> marks;
  std::vector<int> couplet, couplet_ahead, induction;
};
// Roles of a poem's tokens (no induction); is_mark(id): punctuation or a line
// break. The first line starts at position 1: position 0 is <poem>.
SequenceRoles poem_roles(const std::vector<int>& tokens, const std::function<bool(int)>& is_mark);
// Roles of a repeated sequence [first, copy of tokens 1.. of it] (induction only).
SequenceRoles repeat_roles(const std::vector<int>& tokens, int period);

// Sums over the queries t >= 1 that have keys of the detector's (the couplet
// needs a previous line, the duplicate an earlier copy, punctuation a mark):
// the weight on those keys, and uniform attention's (their count / (t + 1)).
struct DetectorScore {
  double weight = 0, uniform = 0;
  long long queries = 0;
  double mean_weight() const { return queries ? weight / double(queries) : 0.0; }
  double ratio() const { return uniform > 0 ? weight / uniform : 0.0; }
};
using DetectorScores = std::array<DetectorScore, kDetectors>;

// The keys detector d counts for query t (none: the query is not counted
// for it). add_detectors sums these; the view outlines the same cells.
void detector_keys(Detector d, const SequenceRoles& roles, int t, std::vector<int>& keys);

// Adds one head's attention on one sequence (att: T x T, row t = query t's
// weights on keys 0..t) into scores.
void add_detectors(const float* att, int T, const SequenceRoles& roles, DetectorScores& scores);

// A detector a head shows: its weight at least kMinRatio times uniform's and
// at least kMinWeight of the head's attention.
inline constexpr double kMinRatio = 3.0, kMinWeight = 0.2;
// The strongest detector the head shows (-1 if none).
int strongest_detector(const DetectorScores& scores);

}  // namespace attn::poem
