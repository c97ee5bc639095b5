// What each head of the poem model learned, measured on held-out poems and
// named by stated rules: the chapter's "heads learn different patterns" as
// numbers a reader can check.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "head_detectors.hpp"
#include "poem_model.hpp"

namespace attn::poem {

inline constexpr int kMaxOffset = 16;

// Means over every query position t >= 1 of every poem's first window (up to
// the context), one head of one layer.
struct HeadStats {
  int layer = 0, head = 0;
  std::array<double, kMaxOffset + 1> by_offset{};  // weight on the key d = 0..16 positions back
  double punctuation_weight = 0;  // weight on punctuation keys
  double punctuation_share = 0;   // the share of the visible keys that are punctuation
  double first_weight = 0;        // weight on position 0 (<poem>)
  double previous_line_weight = 0;  // weight on the same place in the previous line (where there is one)
  double entropy = 0;             // nats
  std::string pattern;            // the rule that named it: "line boundary", ...
  std::string summary;            // the pattern with its numbers, e.g. "line boundary: 61 % ..., 4.4x their share"
  // The standard detectors against uniform attention (head_detectors.hpp), on
  // the same poems and, for induction, on repeated random sequences.
  DetectorScores detectors{};
  int strongest = -1;             // Detector, or -1: none shows
  double uniform_entropy = 0;     // uniform attention's mean entropy over the same queries (nats)
  std::string detected;           // e.g. "couplet: 31 % on the same place in the previous line, 9.0x uniform"
};

// The rules, first match wins (weights as fractions):
//   first position     first_weight >= 0.5
//   line boundary      punctuation_weight >= 0.25 and >= 3x punctuation_share
//   previous line      previous_line_weight >= 0.25
//   current character  by_offset[0] >= 0.5
//   previous character by_offset[1] >= 0.5
//   local              by_offset[0] + [1] + [2] >= 0.6
//   broad              entropy >= 2 nats
//   mixed              anything else
void name_pattern(HeadStats& stats);

// The heads over poems (each read in its first window). repeats random
// sequences of the model's characters, each repeated once, measure induction
// (0: none). by_poem, when given, gets each poem's own detector scores,
// [poem][layer * heads + head].
using PoemDetectorScores = std::vector<std::vector<DetectorScores>>;
std::vector<HeadStats> analyse_heads(const PoemModel& model, const std::vector<std::vector<int>>& poems,
                                     int repeats = 8, PoemDetectorScores* by_poem = nullptr);
// The sequences analyse_heads measures induction on: <poem>, then `period`
// random characters (not punctuation), then the same again, cut to the context.
std::vector<int> repeated_sequence(const PoemModel& model, int period, uint64_t seed);
// The detected line of a head from its scores.
std::string describe_detected(const HeadStats& stats);

}  // namespace attn::poem
