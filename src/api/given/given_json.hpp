// Given attention weights (core/given/given_weights.hpp) as JSON: the lab's
// `given` field (URL, set(), a notebook's show_heatmaps) and compute({"given": ...}).
//
//   {"weights": [[0.5, 0.5], [1, 0]],        queries x keys, heads x queries x keys,
//                                            or rows x cols x queries x keys (d2l's show_heatmaps)
//    "tokens": ["我", "爱"],                  optional: the keys' labels (and the queries', when
//                                            there are as many and query_tokens is absent)
//    "query_tokens": [...],                  optional: the queries' labels
//    "titles": ["Head 0", ...]}              optional: one per map, or one per column of the grid
//
// A weight is a number; "NaN", "Infinity" and "-Infinity" (as strings: JSON
// has no such numbers, and Python's json writes them so) are read to be
// reported as what they are.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "core/given/given_weights.hpp"

namespace attn::api {

// "" and *out filled, or "given.<path>: <why>" (given.weights[0][1][2],
// given.tokens, ...) for anything the lab cannot draw as attention weights.
std::string read_given(const nlohmann::json& value, GivenWeights* out);

// The object read_given reads back: weights always rows x cols x queries x
// keys, the labels as given.
nlohmann::json given_json(const GivenWeights& given);

}  // namespace attn::api
