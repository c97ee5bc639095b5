// The head that looks at the start ("attention sink"): a head of the poem
// model reading a text as trained (<poem> first) against the same text read
// with <poem> left out or another character in its place (PoemSession::read's
// start). Softmax must put a query's weight somewhere; a head with nothing to
// look for puts it on the start, always there and always the same, where it
// changes nothing. The probe measures where that weight goes without it and
// what the change costs the model's predictions.
#pragma once

#include <string>

#include "api/poem/poem_wire.hpp"

namespace attn::api {

struct SinkProbe {
  bool removed = false;        // <poem> left out (else another character stands first)
  int queries = 0;             // the queries compared: every position after the first
  double first_before = 0;     // the head's mean weight on position 0 (<poem>) over those queries
  double first_after = 0;      // ... on what stands there instead (0 when removed)
  double self_before = 0, self_after = 0;  // its mean weight on each query's own position
  int gain_key = -1;           // the original position whose weight grew most (mean over the queries), -1: none grew
  std::string gain_token;      // ... its character
  double gain = 0;             // ... by how much
  double loss_before = 0, loss_after = 0;  // mean -ln p of the same characters (from the second on) in both readings
};

// with: the reading with <poem> first; probe: the same text read with start
// (removed: "none"). "" and the probe of head (layer, head), or why the two
// readings do not compare (different lengths, no such head).
std::string sink_probe(const PoemReadingData& with, const PoemReadingData& probe, bool removed, int layer, int head,
                       SinkProbe& out);

}  // namespace attn::api
