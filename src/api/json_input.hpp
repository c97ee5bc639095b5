// Reading an untrusted JSON config without ever throwing.
//
// The wasm build defines JSON_NOEXCEPTION, where every nlohmann exception
// becomes std::abort(). So nothing here calls get<>() / at() / value() on a
// value whose type has not been checked first, and parse errors come from
// the non-throwing parse() plus a SAX pass that only collects the message.
//
// Every reader returns an error string: empty on success, otherwise
// "<field>: <why>" so the reader of the message knows what to fix.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

#include "core/attention.hpp"
#include "core/types.hpp"

namespace attn::api {

using Json = nlohmann::json;

// The largest config text parse_config reads: explicit Q, K and V at their
// 1024 x 1024 limit, written out in full, stay below it.
inline constexpr std::size_t kMaxConfigBytes = 64u << 20;

// Parses text into out. On failure the message names the JSON path where the
// parser stopped, e.g. "Q[0][1]: not valid JSON: ... number overflow parsing '1e999'".
// A key given twice in one object is refused too ("text: given twice ..."),
// not silently overwritten, as is a text over kMaxConfigBytes (before parsing).
std::string parse_config(const std::string& text, Json& out);

// "a string", "an array", "the number 3.5", ... for error messages.
std::string describe(const Json& value);
// A field name or user string made safe for a one-line message (quoted, escaped, shortened).
std::string quoted(const std::string& text);
// A config key as it should appear before the colon: bare when it is a plain
// identifier (Q, d_model), quoted() otherwise.
std::string field_name(const std::string& key);

// Field lists: is key one of names; "a, b, c" for messages; the member
// called key, or nullptr.
bool contains(std::initializer_list<const char*> names, const std::string& key);
std::string joined(std::initializer_list<const char*> names);
const Json* find_field(const Json& config, const char* key);

// A non-empty, rectangular matrix of finite float32 numbers, at most
// max_rows x max_cols.
std::string read_matrix(const Json& value, const std::string& field, int max_rows, int max_cols,
                        Matrix& out);

// An integer in [lo, hi]; integral floats such as 32.0 are accepted.
std::string read_int(const Json& value, const std::string& field, int lo, int hi, int& out);

// A non-negative integer that fits in 64 bits (integral floats up to 2^53).
std::string read_seed(const Json& value, const std::string& field, uint64_t& out);

// true or false (not 0/1: a typo should not silently switch a feature).
std::string read_bool(const Json& value, const std::string& field, bool& out);

// A finite float32 number > 0 (a positive double that rounds to 0 or
// overflows in float32 is an error).
std::string read_positive_float(const Json& value, const std::string& field, float& out);

// "sqrt" | "none" | a finite number > 0.
std::string read_scale(const Json& value, const std::string& field, Scale& out);

// The mask as written in the config; turning it into an attn::Mask needs
// the tokens (padding) or the score shape (custom), so that happens later.
struct MaskSpec {
  enum class Kind { None, Causal, Padding, AppendPads, Custom };
  Kind kind = Kind::None;
  int pads = 0;         // AppendPads: how many pad tokens {"pad": k} appends
  MaskMatrix allowed;   // Custom: true = may attend
};
// "none" | "causal" | "padding" | {"pad": k} | [[0/1 or true/false, ...], ...]
std::string read_mask(const Json& value, const std::string& field, int max_size, MaskSpec& out);

}  // namespace attn::api
