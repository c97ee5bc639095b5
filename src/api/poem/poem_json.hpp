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
#include <vector>

#include "api/json_output.hpp"
#include "core/poem/poem_model.hpp"

namespace attn::api {

// What the model reads of a text: <poem> and the text's characters as ids
// (unknown ones as <unk>), the last `context` of them when there are more.
struct PoemWindow {
  std::vector<int> ids;
  std::vector<std::string> shown;  // the characters ("<poem>", "\n" for a line break)
  int cut = 0;                     // how many were left out at the front
  std::string notice;              // says so ("" when nothing was cut)
};
// "" with the window in out, or the one-line error (empty text, bad UTF-8).
std::string poem_window(const poem::PoemModel& model, const std::string& text, PoemWindow& out);

// The k likeliest of V probabilities, likeliest first (ties: the lower id).
std::vector<int> top_ids(const float* p, std::size_t V, std::size_t k);

// "" with the reading in out, or the one-line error (out untouched).
std::string poem_attend(const poem::PoemModel& model, const std::string& text, OutJson& out);

}  // namespace attn::api
