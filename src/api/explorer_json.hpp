// The explorer's state <-> JSON: one parser and one printer for
// attn::ExplorerConfig, used by compute() (config in), by the UI (its state
// out, e.g. window.attentionLab.currentConfig(), later the URL query) and by
// the CLI. print_explorer_config(parse(x)) is a fixed point.
//
// JSON form (every field optional except the input):
//   {"text": "The cat sat on the mat" | "experiment": "fig41" | "causal",
//    "d_model": 32, "heads": 4, "seed": 1,
//    "projection": "random" | "identity" | "chapter" | "trained",
//    "positions": false, "temperature": 1.0, "scale": "sqrt" | "none" | number,
//    "mask": "none" | "causal" | "padding" | {"pad": k} | [[0/1, ...], ...]}
#pragma once

#include <string>

#include "core/explorer.hpp"

namespace attn::api {

// Empty string on success; otherwise "<field>: <why>" (unknown or ill-typed
// fields are errors). Does not run check_explorer_config: the caller does.
std::string parse_explorer_config(const std::string& json_text, ExplorerConfig& out);

// The canonical JSON of a config (experiments omit the text-only fields).
std::string print_explorer_config(const ExplorerConfig& config);

// The compute() result of a checked config: {"tokens", "scores",
// "scaled_scores", "weights", "output", "average", "stats", "average_stats",
// "key_valid", "fully_masked", "top_keys"}.
std::string print_explorer_result(const ExplorerResult& result);

}  // namespace attn::api
