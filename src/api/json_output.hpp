// Core results as JSON, shared by compute() and the CLI's --json modes.
//
// Output documents use float32 as their number type: nlohmann prints the
// shortest text that reads back to the same float (0.1, not
// 0.10000000149011612), so numbers round-trip and stay short.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/chapter/experiments.hpp"
#include "core/multihead.hpp"
#include "core/statistics.hpp"
#include "core/types.hpp"

namespace attn::api {

using OutJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                     std::uint64_t, float>;

OutJson to_json(const Matrix& m);        // [row][col]
OutJson to_json(const MaskMatrix& m);    // [row][col] of 0/1
OutJson to_json(const Vector& v);        // [i]
OutJson to_json(const Histogram& h);     // {"lo", "hi", "counts"}
OutJson to_json(const std::vector<std::string>& tokens);

// Per head [head][query][key]: raw scores, scaled scores or weights.
enum class HeadField { RawScores, ScaledScores, Weights };
OutJson heads_json(const MultiHeadResult& result, HeadField field);

// [{"head", "min", "max", "mean"}] and [[key, ...] per query].
OutJson stats_json(const std::vector<WeightStats>& stats);
OutJson top_keys_json(const std::vector<std::vector<int>>& top_keys);

// Never throws, even on invalid UTF-8 in strings (replaced by U+FFFD).
std::string dump(const OutJson& j);

}  // namespace attn::api
