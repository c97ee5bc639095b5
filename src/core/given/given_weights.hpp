// Attention weights computed elsewhere and drawn by the lab as they are: a
// reader's numpy arrays in the chapter's notebook, a Hugging Face model's
// `output_attentions`, or a matrix typed into a URL. They come as d2l's
// show_heatmaps lays them out: a grid of rows x cols maps, each queries x
// keys (a language model's layers x heads). The lab computes none of them; it
// checks that they are attention weights (softmax rows) before drawing them.
#pragma once

#include <string>
#include <vector>

#include "core/types.hpp"

namespace attn {

struct GivenWeights {
  int rows = 0, cols = 0;             // the grid of maps
  std::vector<Matrix> maps;           // rows * cols, row by row; each queries x keys
  std::vector<std::string> query_tokens, key_tokens;  // axis labels; empty: numbered 0, 1, ...
  std::vector<std::string> titles;    // one per map; empty: none given
  int queries() const { return maps.empty() ? 0 : int(maps.front().rows()); }
  int keys() const { return maps.empty() ? 0 : int(maps.front().cols()); }
};

struct GivenLimits {
  // A heatmap of 256 tokens has cells of 2 px on a laptop: beyond that the
  // reader sees colour noise, and the accessible copy's tables are cut at 64.
  static constexpr int kMaxTokens = 256;
  // BERT-base's 12 layers x 12 heads is 144 maps; 256 leaves room for a
  // larger model's and keeps a frame's drawing in the milliseconds.
  static constexpr int kMaxMaps = 256;
  static constexpr long long kMaxWeights = 1LL << 22;  // as the explorer's
  static constexpr std::size_t kMaxLabelBytes = 256;   // one token or title
  // A softmax row computed in float32 sums to 1 within ~1e-6 x keys; float16
  // models (a notebook's GPU) within ~1e-3. Beyond this it is not a softmax row.
  static constexpr float kRowSumTolerance = 5e-3f;
};

// "" when the maps can be drawn as attention weights, otherwise what is wrong,
// naming the first offending map, row and key as "weights[r][c][q][k]" (a
// grid of one map: "weights[q][k]"). The checks, in order: the grid's shape
// and limits, labels and titles that fit it, then every weight: a number
// (not NaN or infinite), not negative, and every row summing to 1 (or all 0:
// a query that sees no key, as a fully masked row).
std::string check_given_weights(const GivenWeights& given);

// Part of it: the grid's size against the limits, before any map is made
// ("" when rows x cols maps of queries x keys fit).
std::string check_given_shape(long long rows, long long cols, long long queries, long long keys);

// "weights[1][0][2][3]" (or "weights[2][3]" for a single map): where
// map, query and key are in the reader's array.
std::string given_path(const GivenWeights& given, int map, int query = -1, int key = -1);

}  // namespace attn
