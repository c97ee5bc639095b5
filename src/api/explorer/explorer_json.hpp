// The explorer's state <-> JSON: one parser and one printer for
// attn::ExplorerConfig, used by compute() (config in), by the UI (its state
// out, e.g. window.attentionLab.currentConfig()) and by the CLI
// (`attention_cli config`). print_explorer_config(parse(x)) is a fixed point.
//
// Both walk the field table (core/explorer/explorer_fields.hpp): the keys, which
// configs take them, their types and ranges, the printed order and the
// documentation (explorer_fields_markdown(), docs/reference.md's config table) all
// come from there. In short:
//   {"text": "The cat sat on the mat" | "experiment": "fig41" | "causal",
//    "d_model", "heads", "seed", "projection", "positions",     (text configs)
//    "trained_steps", "trained_scaled", "trained_lr",           (projection "trained")
//    "temperature", "scale", "mask"}                            (both)
// Absent fields take the ExplorerConfig defaults. "padding" masks the [PAD]
// tokens the text already has; {"pad": k} appends k more first ({"pad": 0}
// is "padding"); a matrix is a custom mask over the final tokens, 1/true =
// may attend.
#pragma once

#include <string>
#include <vector>

#include "api/json_input.hpp"
#include "core/explorer/explorer.hpp"

namespace attn::api {

// Empty string on success; otherwise "<field>: <why>" (unknown or ill-typed
// fields are errors). Does not run check_explorer_config: the caller does.
std::string parse_explorer_config(const std::string& json_text, ExplorerConfig& out);
// The same for an already parsed document (compute() has one).
std::string read_explorer_config(const Json& config, ExplorerConfig& out);

// Changes the fields named in `fields` (a JSON object of config fields, e.g.
// {"mask": "causal"}) and keeps the others: "text" replaces an experiment
// input and "experiment" a text (with its text-only fields), a projection
// other than "trained" drops the trained_* recipe. All or nothing: on an
// error config is unchanged and the message names the field.
std::string update_explorer_config(const Json& fields, ExplorerConfig& config);

// The canonical JSON of a config (experiments omit the text-only fields).
std::string print_explorer_config(const ExplorerConfig& config);

// Whether key is a field of an explorer config (text or experiment).
bool is_explorer_field(const std::string& key);

// The field table as a markdown table (field, configs, values, default,
// meaning): docs/reference.md's config reference, checked against this by a test.
std::string explorer_fields_markdown();

// The compute() result of a checked config: {"tokens", "scores",
// "scaled_scores", "weights", "output", "average", "stats", "average_stats",
// "key_valid", "fully_masked", "top_keys"} (see compute.hpp). Written row by
// row, without a JSON tree of the whole answer (512 tokens x 16 heads is
// 3 x 4.2M numbers).
std::string print_explorer_result(const ExplorerResult& result);

}  // namespace attn::api
