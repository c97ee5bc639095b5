// The explorer's state <-> JSON: one parser and one printer for
// attn::ExplorerConfig, used by compute() (config in), by the UI (its state
// out, e.g. window.attentionLab.currentConfig(), later the URL query) and by
// the CLI (`attention_cli config`). print_explorer_config(parse(x)) is a fixed point.
//
// JSON form (every field optional except the input):
//   {"text": "The cat sat on the mat" | "experiment": "fig41" | "causal",
//    "d_model": 32, "heads": 4, "seed": 1,
//    "projection": "random" | "identity" | "chapter" | "trained",
//    "positions": false, "temperature": 1.0, "scale": "sqrt" | "none" | number,
//    "trained_steps": 100, "trained_scaled": true, "trained_lr": 0.003 (only with
//      "projection": "trained": the scaling lab's model with d_k = d_model, retrained),
//    "mask": "none" | "causal" | "padding" | {"pad": k} | [[0/1, ...], ...]}
// d_model, heads, seed, projection and positions belong to text configs only
// (an experiment fixes its own input and projections); in an experiment config
// they are errors. Absent fields take the ExplorerConfig defaults.
// "padding" masks the [PAD] tokens the text already has; {"pad": k} appends k
// more first ({"pad": 0} is "padding"); a matrix is a custom mask over the
// final tokens, 1/true = may attend.
#pragma once

#include <string>

#include "api/json_input.hpp"
#include "core/explorer.hpp"

namespace attn::api {

// Empty string on success; otherwise "<field>: <why>" (unknown or ill-typed
// fields are errors). Does not run check_explorer_config: the caller does.
std::string parse_explorer_config(const std::string& json_text, ExplorerConfig& out);
// The same for an already parsed document (compute() has one).
std::string read_explorer_config(const Json& config, ExplorerConfig& out);

// The canonical JSON of a config (experiments omit the text-only fields).
std::string print_explorer_config(const ExplorerConfig& config);

// The compute() result of a checked config: {"tokens", "scores",
// "scaled_scores", "weights", "output", "average", "stats", "average_stats",
// "key_valid", "fully_masked", "top_keys"} (see compute.hpp). Written row by
// row, without a JSON tree of the whole answer (512 tokens x 16 heads is
// 3 x 4.2M numbers).
std::string print_explorer_result(const ExplorerResult& result);

}  // namespace attn::api
