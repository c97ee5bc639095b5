// JSON in, JSON out: the one entry point shared by `attention_cli attend` and
// the browser's `compute(configJson)`, so a number on screen can always be
// reproduced from a config on the command line.
//
// Config (one of):
//   {"Q": [[...]], "K": [[...]], "V": [[...]], "mask": ..., "scale": ...}
//   {"text": "The cat sat on the mat", "d_model": 32, "heads": 4, "seed": 1,
//    "mask": ..., "scale": ...}
//   {"experiment": "fig41"}   the chapter's Figure 4.1 set-up (what the app shows)
//   mask:  "none" | "causal" | "padding" | {"pad": k} | [[0/1, ...], ...]
//          "padding" masks the [PAD] tokens already in the token list; {"pad": k}
//          appends k [PAD] tokens and masks them (text configs only).
//   scale: "sqrt" | "none" | number > 0 (the factor scores are multiplied by)
// Text defaults: d_model 32, heads 1, seed 0, mask "none", scale "sqrt".
// A text config runs tokenize(text) -> embed_tokens(..., positions=false) ->
// random_projections(d_model, heads, seed) -> multi_head_attention.
// Limits: 1..4096 for d_model (and explicit matrix columns), 1024 tokens (and
// explicit matrix rows), heads x tokens^2 <= 2^20 and tokens x d_model <= 2^20
// (keeps the answer within a few tens of MB).
// Result:
//   {"tokens", "scores", "scaled_scores", "weights", "output", "average"}
//   scores/scaled_scores/weights are [head][query][key] when the config has heads
//   (text or experiment), [query][key] for explicit Q/K/V (where "tokens" is []
//   and "average" equals "weights"). The experiment adds "stats" ([{"head",
//   "min", "max", "mean"}] per head) and "top_keys" (per query, the top-3 keys
//   of the head average). Numbers are float32, printed so they read back exactly.
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
