// What each head of the poem model learned, measured on held-out poems and
// named by stated rules: the chapter's "heads learn different patterns" as
// numbers a reader can check.
#pragma once

#include <array>
#include <string>
#include <vector>

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

std::vector<HeadStats> analyse_heads(const PoemModel& model, const std::vector<std::vector<int>>& poems);

}  // namespace attn::poem
