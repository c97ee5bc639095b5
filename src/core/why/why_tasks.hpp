// The tasks of the "why attention" experiments: batches of token sequences
// and, per position, the symbol the model must name there (-1: nothing).
//
//  - Copy k back (recurrence against attention): random symbols, then at the
//    last position a query token that names the distance k; the answer is the
//    symbol k positions before that query. Trained on one k, or on a mix of
//    distances (each sequence its own k, named by its query token).
//  - Previous symbol (why Q/K/V): random symbols; at every position after the
//    first, the symbol one position back.
//  - Key-value lookup (why Q/K/V): each position holds a pair, a key and a
//    value in one token; after the pairs, a query holds a key and no value;
//    the answer is the value paired with that key. Matching must use the key
//    while the content returned is the value.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/rng.hpp"

namespace attn::why {

inline constexpr int kAlphabet = 16;       // the symbols 0..15 (and the values of the lookup)
inline constexpr int kMaxDistance = 64;    // copy k back: k in 1..64
inline constexpr int kCopyLength = kMaxDistance + 1;  // every copy sequence: 64 symbols and the query
inline constexpr int kPreviousLength = 16;
inline constexpr int kLookupPairs = 8;     // distinct keys, each with a random value
inline constexpr int kLookupKeys = 16;

enum class Task { Copy, Previous, Lookup };
const char* task_name(Task task);  // "copy", "previous", "lookup"

// The tokens a task's sequences use (the models' embedding rows):
//   copy:     symbols 0..15, then the query tokens "k?" for k = 1..64;
//   previous: symbols 0..15;
//   lookup:   pairs key * 16 + value (0..255), then the query tokens "key?" (256..271).
int task_vocab(Task task);
int task_length(Task task);
inline int copy_query_token(int k) { return kAlphabet + k - 1; }

struct Batch {
  Task task = Task::Copy;
  int B = 0, T = 0;
  std::vector<int> tokens;    // B x T
  std::vector<int> targets;   // B x T: the symbol to name there, or -1
  std::vector<int> distance;  // copy: each sequence's k (B); empty otherwise
};

// `distance` 1..64 is every sequence's k; 0 draws each sequence's k from
// 1..64 (the mix). Deterministic for the Rng's state.
Batch copy_batch(Rng& rng, int B, int distance);
Batch previous_batch(Rng& rng, int B);
Batch lookup_batch(Rng& rng, int B);
Batch task_batch(Task task, Rng& rng, int B, int distance = 0);

// "" or why a distance cannot be asked (beyond 1..64).
std::string check_distance(int distance);

}  // namespace attn::why
