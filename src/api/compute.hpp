// JSON in, JSON out: the one entry point shared by `attention_cli attend` and
// the browser's `compute(configJson)`, so a number on screen can always be
// reproduced from a config on the command line.
//
// Config (one of):
//   {"Q": [[...]], "K": [[...]], "V": [[...]], "mask": ..., "scale": ..., "temperature": T}
//   {"text": "The cat sat on the mat", "d_model": 32, "heads": 4, "seed": 1,
//    "projection": "random", "positions": false, "temperature": 1, "scale": "sqrt",
//    "mask": "none"}
//   {"experiment": "fig41" | "causal", "temperature": ..., "scale": ..., "mask": ...}
// Text and experiment configs are the explorer's set-up (core/explorer.hpp,
// parsed by api/explorer_json.hpp), every field but the input optional:
//   projection: how Q, K, V come from the token embeddings X
//               "random"   seeded Xavier-normal W_q, W_k, W_v, W_o (the default)
//               "identity" Q = K = V = X: attention by raw similarity
//               "chapter"  the Figure 4.1 demo projections (d_model / heads >= 2)
//               "trained"  reserved for the trained model (an error until it exists)
//   positions:  true adds sinusoidal position encodings to X
//   temperature: a number > 0 dividing the scaled scores (T > 1 flattens the
//               weights towards uniform, T < 1 sharpens them); default 1
//   scale:      "sqrt" (1/sqrt(d_head), the default) | "none" | a number > 0
//               (the factor scores are multiplied by)
//   mask:       "none" | "causal" | "padding" | {"pad": k} | [[0/1, ...], ...]
//               "padding" masks the [PAD] tokens already in the text; {"pad": k}
//               appends k [PAD] tokens and masks them (text only); a matrix is a
//               custom mask, one row and one column per token, 1 = may attend
//               (explicit Q/K/V take "none", "causal" or a matrix).
//   experiment: "fig41" is the chapter's Figure 4.1 set-up (8 tokens t0..t7,
//               4 heads, the demo projections: what the app shows); "causal" is
//               the causal-mask companion's 8 random tokens with its W_q, W_k, W_v
//               (1 head; add "mask": "causal" for its causal weights, without a
//               mask it gives the bidirectional ones). Experiments fix their own
//               input, so d_model, heads, seed, projection and positions are errors.
// Text defaults are ExplorerConfig's: d_model 32, heads 4, seed 1, projection
// "random", positions false, temperature 1, scale "sqrt", mask "none". A text
// config runs tokenize(text) (+ pads) -> embed_tokens(seed, positions) ->
// projections -> multi_head_attention, all in run_explorer.
// Limits: 1..1024 for d_model (and explicit matrix columns), 1..64 heads, 1024
// tokens including pads (and explicit matrix rows), heads x tokens^2 <= 2^22
// (16 heads x 512 tokens fits) and tokens x d_model <= 2^20: they keep the
// answer within about 150 MB of JSON.
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
