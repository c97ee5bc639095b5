// Order; see order.hpp.
#include "order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/base/rng.hpp"

namespace attn {
namespace {

// max |shuffled(i, j) - original(order[i], order[j])| (square) or over rows only.
double moved_difference(const Matrix& shuffled, const Matrix& original, const std::vector<int>& order, bool square) {
  double worst = 0;
  for (Eigen::Index i = 0; i < shuffled.rows(); ++i)
    for (Eigen::Index j = 0; j < shuffled.cols(); ++j) {
      const Eigen::Index col = square ? order[std::size_t(j)] : j;
      worst = std::max(worst, double(std::fabs(shuffled(i, j) - original(order[std::size_t(i)], col))));
    }
  return worst;
}

// A result's worst weights and outputs against the original's, moved.
void compare(const ExplorerResult& shuffled, const ExplorerResult& original, const std::vector<int>& order,
             double& weights, double& outputs) {
  weights = 0;
  for (std::size_t h = 0; h < shuffled.attention.heads.size(); ++h)
    weights = std::max(weights, moved_difference(shuffled.attention.heads[h].weights,
                                                 original.attention.heads[h].weights, order, true));
  outputs = moved_difference(shuffled.attention.output, original.attention.output, order, false);
}

}  // namespace

std::vector<int> shuffled_order(int n, uint64_t shuffle) {
  std::vector<int> order(std::size_t(std::max(n, 0)));
  std::iota(order.begin(), order.end(), 0);
  Rng rng(shuffle, 77);
  for (int i = n - 1; i > 0; --i)  // Fisher-Yates
    std::swap(order[std::size_t(i)], order[std::size_t(rng.next_u32() % uint32_t(i + 1))]);
  if (n >= 2 && std::is_sorted(order.begin(), order.end())) std::swap(order[0], order[1]);
  return order;
}

std::string check_order(const ExplorerConfig& config, OrderCheck& out, const MultiHeadWeights* trained) {
  if (config.input != Input::Text || config.shuffle == 0) return "order: the tokens are not shuffled";
  if (std::string e = check_explorer_config(config, trained != nullptr); !e.empty()) return e;
  ExplorerConfig original = config;
  original.shuffle = 0;
  const int n = int(explorer_tokens(original).size());
  if (n > kMaxOrderCheckTokens)
    return "order: the check compares sentences of up to " + std::to_string(kMaxOrderCheckTokens) + " tokens, this has " +
           std::to_string(n);
  const int text_tokens = config.mask == Mask::Kind::Padding ? n - config.pads : n;
  out.order = shuffled_order(text_tokens, config.shuffle);
  for (int i = text_tokens; i < n; ++i) out.order.push_back(i);  // the pads stay last
  out.mask_orders = config.mask == Mask::Kind::Causal || config.mask == Mask::Kind::Custom;
  for (const bool positions : {false, true}) {
    ExplorerConfig a = original, b = config;
    a.positions = b.positions = positions;
    // The shuffled run reuses the original's projections (only the order differs).
    const ExplorerResult in_order = run_explorer(a, nullptr, trained);
    compare(run_explorer(b, &in_order, trained), in_order, out.order, positions ? out.weights_with : out.weights_without,
            positions ? out.outputs_with : out.outputs_without);
  }
  return "";
}

}  // namespace attn
