// Order (core/explorer/order.hpp): a shuffle is a permutation of the text's
// tokens, the same result as typing the words in that order, and without
// position encodings every weight and output is the original's moved with
// its token (checked here cell by cell, apart from check_order's own loop);
// with the encodings, or under the causal mask, the numbers change.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"
#include "core/explorer/order.hpp"

namespace attn {
namespace {

const char* const kWords[] = {"The", "cat", "sat", "on", "the", "mat", "and", "purred"};

ExplorerConfig sentence(uint64_t shuffle) {
  ExplorerConfig c;
  c.text = "The cat sat on the mat and purred";
  c.shuffle = shuffle;
  return c;
}

// max |shuffled(i, j) - original(order[i], order[j])|, and the outputs' rows.
double worst_moved(const ExplorerResult& s, const ExplorerResult& o, const std::vector<int>& order, double* outputs) {
  double worst = 0;
  const int n = int(order.size());
  for (std::size_t h = 0; h < s.attention.heads.size(); ++h)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        worst = std::max(worst, double(std::fabs(s.attention.heads[h].weights(i, j) -
                                                 o.attention.heads[h].weights(order[std::size_t(i)], order[std::size_t(j)]))));
  *outputs = 0;
  for (int i = 0; i < n; ++i)
    for (Eigen::Index c = 0; c < s.attention.output.cols(); ++c)
      *outputs = std::max(*outputs, double(std::fabs(s.attention.output(i, c) - o.attention.output(order[std::size_t(i)], c))));
  return worst;
}

}  // namespace

TEST_CASE("order: a shuffle seed draws a permutation, never the identity, the same every time") {
  for (const int n : {2, 3, 8, 64})
    for (const uint64_t seed : {1ull, 2ull, 99ull}) {
      const std::vector<int> order = shuffled_order(n, seed);
      std::vector<int> sorted = order;
      std::sort(sorted.begin(), sorted.end());
      std::vector<int> identity(std::size_t(n), 0);
      std::iota(identity.begin(), identity.end(), 0);
      CHECK(sorted == identity);
      CHECK(order != identity);
      CHECK(order == shuffled_order(n, seed));
    }
  CHECK(shuffled_order(1, 5) == std::vector<int>{0});
  CHECK(shuffled_order(8, 1) != shuffled_order(8, 2));
}

TEST_CASE("order: a shuffled config is the sentence typed in the shuffled order, bit for bit") {
  const ExplorerConfig shuffled = sentence(3);
  const std::vector<int> order = shuffled_order(8, 3);
  ExplorerConfig typed = sentence(0);
  typed.text.clear();
  for (std::size_t i = 0; i < order.size(); ++i) typed.text += (i ? " " : "") + std::string(kWords[order[i]]);
  CHECK(explorer_tokens(shuffled) == explorer_tokens(typed));
  const ExplorerResult a = run_explorer(shuffled), b = run_explorer(typed);
  CHECK(a.attention.output == b.attention.output);
  CHECK(a.attention.heads[0].weights == b.attention.heads[0].weights);
}

TEST_CASE("order: without positions the outputs are the original's permuted (<= 1e-6); with them they are not") {
  OrderCheck check;
  REQUIRE(check_order(sentence(3), check) == "");
  CHECK(check.order == shuffled_order(8, 3));
  CHECK_FALSE(check.mask_orders);
  CHECK(check.weights_without <= 1e-6);
  CHECK(check.outputs_without <= 1e-6);
  CHECK(check.weights_with > 1e-2);
  CHECK(check.outputs_with > 1e-2);
  // The same by hand, from two runs of the explorer.
  for (const bool positions : {false, true}) {
    ExplorerConfig original = sentence(0), shuffled = sentence(3);
    original.positions = shuffled.positions = positions;
    double outputs = 0;
    const double weights = worst_moved(run_explorer(shuffled), run_explorer(original), check.order, &outputs);
    CHECK(weights == doctest::Approx(positions ? check.weights_with : check.weights_without).epsilon(1e-12));
    CHECK(outputs == doctest::Approx(positions ? check.outputs_with : check.outputs_without).epsilon(1e-12));
  }
  // The causal mask depends on positions: even without encodings the orders differ.
  ExplorerConfig causal = sentence(3);
  causal.mask = Mask::Kind::Causal;
  REQUIRE(check_order(causal, check) == "");
  CHECK(check.mask_orders);
  CHECK(check.weights_without > 1e-2);
  // Pads stay last; the padding mask moves with its tokens.
  ExplorerConfig padded = sentence(3);
  padded.mask = Mask::Kind::Padding;
  padded.pads = 2;
  REQUIRE(check_order(padded, check) == "");
  CHECK(check.order.size() == 10);
  CHECK(check.order[8] == 8);
  CHECK(check.order[9] == 9);
  CHECK(check.weights_without <= 1e-6);
}

TEST_CASE("order: what the check cannot run says why") {
  OrderCheck check;
  CHECK(check_order(sentence(0), check).find("not shuffled") != std::string::npos);
  ExplorerConfig bad = sentence(2);
  bad.heads = 5;
  CHECK(check_order(bad, check).rfind("heads:", 0) == 0);
  ExplorerConfig long_text = sentence(2);
  for (int i = 0; i <= kMaxOrderCheckTokens; ++i) long_text.text += "w" + std::to_string(i) + " ";
  CHECK(check_order(long_text, check).find("up to 64 tokens") != std::string::npos);
}

}  // namespace attn
