// The learned-heads view's training in the page: the web page's policy (what
// it downloads, how big a model it trains, with which recipe), not the
// model's. attention_cli poem corpus --page-out writes the slice; the poem
// session trains on it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/poem/poem_model.hpp"

namespace attn::api {

// Training in the page (the learned-heads view's "watch it learn"): a slice
// of the training poems small enough to download (every fourth: some 1.4 MB
// gzipped), a vocabulary of its characters seen at least kPageMinCount times
// (rarer ones are <unk>: the output layer, most of a step's work, shrinks to
// a quarter of the shipped model's), and a recipe that names heads within a
// minute: a short warm-up to a high peak, no dropout.
inline constexpr int kPageSliceEvery = 4, kPageMinCount = 100;
std::vector<std::string> page_slice(const std::vector<std::string>& train_poems);
// The recipe for a model of the given shape (its vocab is set from the slice).
poem::PoemTrainConfig page_train_config(const poem::GptConfig& shape, uint64_t seed);

}  // namespace attn::api
