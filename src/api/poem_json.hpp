// The poem model read on a reader's text, as JSON (attention_cli poem attend
// --json, and the learned-heads view):
//
//   {"tokens": ["<poem>", "床", ...],   what the model read: <poem>, then the text
//    "unknown": [2, ...],               positions of characters it never learned
//                                       (read as <unk>)
//    "notices": ["..."],                e.g. the text was cut to the context
//    "layers": [{"heads": [T x T weights, ...]}, ...],
//    "next": [{"char": "，", "p": 0.41}, ... the 10 likeliest after the last token],
//    "loss": [T-1 values: loss[i] = -ln p(tokens[i+1] | tokens[0..i])]}
//
// Line breaks in the text are the model's line-break token (shown "\n").
// Builds the document only, never throws.
#pragma once

#include <string>

#include "api/json_output.hpp"
#include "core/poem/poem_model.hpp"

namespace attn::api {

// "" with the reading in out, or the one-line error (out untouched).
std::string poem_attend(const poem::PoemModel& model, const std::string& text, OutJson& out);

}  // namespace attn::api
