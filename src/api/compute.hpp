// JSON in, JSON out: the one entry point shared by `attention_cli attend` and
// the browser's `compute(configJson)`, so a number on screen can always be
// reproduced from a config on the command line.
//
// Config (one of):
//   {"Q": [[...]], "K": [[...]], "V": [[...]], "mask": ..., "scale": ..., "temperature": T}
//   {"text": "The cat sat on the mat", "d_model": 32, "heads": 4, ...}
//   {"experiment": "fig41" | "causal", "temperature": ..., "scale": ..., "mask": ...}
// Text and experiment configs are the explorer's set-up (core/explorer/explorer.hpp),
// every field but the input optional. Their fields, what each takes and its
// default are one table (core/explorer/explorer_fields.hpp), printed as markdown by
// explorer_fields_markdown() and kept in docs/reference.md ("Config fields").
// A text config runs tokenize(text) (+ pads) -> embed_tokens(seed, positions)
// -> projections -> multi_head_attention, all in run_explorer.
// Explicit Q/K/V take "mask" "none", "causal" or a 0/1 matrix (one row per
// query, one column per key), "scale" and "temperature" as text configs do.
// Limits: 1..1024 for d_model (and explicit matrix columns), 1..64 heads, 1024
// tokens including pads (and explicit matrix rows), heads x tokens^2 <= 2^22
// (16 heads x 512 tokens fits) and tokens x d_model <= 2^20: they keep the
// answer within about 150 MB of JSON. A trained projection is retrained here,
// so trained_steps x d_model^2 <= 2000 x 32^2.
// Result:
//   {"tokens", "scores", "scaled_scores", "weights", "output", "average"}
//   scores/scaled_scores/weights are [head][query][key] for text and experiment
//   configs, [query][key] for explicit Q/K/V (where "tokens" is [] and "average"
//   equals "weights"); scaled_scores = scores x scale / temperature (masked cells
//   keep their value; their weight is exactly 0). "output" is [query][d_model]
//   (after W_o), "average" the head average of the weights [query][key].
//   Text and experiment configs add:
//   "stats"         per head {"head", "min", "max", "mean", "mean_entropy"}: the
//                   weights' min/max/mean and the mean over query rows of the row
//                   entropy in nats (a fully masked row counts as entropy 0)
//   "average_stats" {"min", "max", "mean", "mean_entropy"} of the head average
//   "key_valid"     per token, false for [PAD] tokens
//   "fully_masked"  the query indices whose mask hides every key (their weights
//                   and outputs are all 0, never NaN)
//   "top_keys"      per query, up to 3 keys with the largest head-average weight,
//                   largest first, masked keys left out
//   Numbers are float32, printed so they read back exactly.
// Errors never throw or abort: the result is {"error": "<field>: <why>"}, one
// line, where <field> is the config key (or JSON path, e.g. Q[1][0]) to fix.
#pragma once

#include <string>

namespace attn::api {

struct ComputeResult {
  bool ok = false;
  std::string json;  // the result object, or {"error": "..."} when !ok
};

ComputeResult compute(const std::string& config_json);

}  // namespace attn::api
