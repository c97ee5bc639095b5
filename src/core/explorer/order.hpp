// Order: self-attention itself does not see the order of its tokens. Shuffle
// the tokens (without position encodings) and every weight and output is the
// original's, moved with its token: the weights P A Pᵀ, the outputs P O. Only
// the position encodings (or a mask that depends on positions, such as the
// causal one) tell the model where a token stood; the chapter's next section,
// positional encoding, rests on this.
//
// The explorer's config names a shuffle by a seed (ExplorerConfig::shuffle,
// 0: the sentence's order); the text's tokens are permuted, pads stay last.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "explorer.hpp"

namespace attn {

// The permutation a shuffle seed draws for n tokens: shuffled token i is the
// original token order[i]. Never the identity for n >= 2 (a shuffle that
// moves nothing would show nothing).
std::vector<int> shuffled_order(int n, uint64_t shuffle);

// The largest differences between a shuffled sentence's weights and outputs
// and the original's moved by the same permutation, without and with the
// position encodings: 0 up to float rounding without them.
struct OrderCheck {
  std::vector<int> order;  // the whole sequence's (pads included: they stay)
  double weights_without = 0, outputs_without = 0;  // max |A_s - P A Pᵀ| over heads, max |O_s - P O|
  double weights_with = 0, outputs_with = 0;        // the same with the position encodings added
  bool mask_orders = false;  // a causal or custom mask: it depends on positions, so even without them
                             // the shuffle changes the result
};

// The order check runs the explorer four times (each order, without and with
// positions), in the frame that shows a shuffle: for sentences up to this
// many tokens.
inline constexpr int kMaxOrderCheckTokens = 64;

// For a text config with config.shuffle != 0: "" and the check, or why it
// cannot run (the config's own error, no shuffle, too many tokens). trained:
// a Trained projection's weights (run_explorer's), which do not depend on
// the tokens' order: without them each of the four runs retrains the recipe.
std::string check_order(const ExplorerConfig& config, OrderCheck& out, const MultiHeadWeights* trained = nullptr);

}  // namespace attn
