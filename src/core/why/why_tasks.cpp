#include "why_tasks.hpp"

#include <algorithm>
#include <cstddef>

namespace attn::why {
namespace {

int draw(Rng& rng, int n) { return int(rng.next_u32() % uint32_t(n)); }

Batch empty(Task task, int B) {
  Batch batch;
  batch.task = task;
  batch.B = B;
  batch.T = task_length(task);
  batch.tokens.assign(std::size_t(B) * std::size_t(batch.T), 0);
  batch.targets.assign(batch.tokens.size(), -1);
  return batch;
}

}  // namespace

const char* task_name(Task task) {
  switch (task) {
    case Task::Copy: return "copy";
    case Task::Previous: return "previous";
    case Task::Lookup: return "lookup";
  }
  return "";
}

int task_vocab(Task task) {
  switch (task) {
    case Task::Copy: return kAlphabet + kMaxDistance;
    case Task::Previous: return kAlphabet;
    case Task::Lookup: return kLookupKeys * kAlphabet + kLookupKeys;
  }
  return 0;
}

int task_length(Task task) {
  switch (task) {
    case Task::Copy: return kCopyLength;
    case Task::Previous: return kPreviousLength;
    case Task::Lookup: return kLookupPairs + 1;
  }
  return 0;
}

std::string check_distance(int distance) {
  if (distance < 1 || distance > kMaxDistance)
    return "distance " + std::to_string(distance) + ": the sequences hold " + std::to_string(kMaxDistance) +
           " symbols before the query, so k is 1.." + std::to_string(kMaxDistance);
  return "";
}

Batch copy_batch(Rng& rng, int B, int distance) {
  Batch batch = empty(Task::Copy, B);
  const int T = batch.T;
  for (int b = 0; b < B; ++b) {
    int* tokens = batch.tokens.data() + std::size_t(b) * std::size_t(T);
    for (int t = 0; t + 1 < T; ++t) tokens[t] = draw(rng, kAlphabet);
    const int k = distance > 0 ? std::min(distance, kMaxDistance) : 1 + draw(rng, kMaxDistance);
    tokens[T - 1] = copy_query_token(k);
    batch.targets[std::size_t(b) * std::size_t(T) + std::size_t(T - 1)] = tokens[T - 1 - k];
    batch.distance.push_back(k);
  }
  return batch;
}

Batch previous_batch(Rng& rng, int B) {
  Batch batch = empty(Task::Previous, B);
  const int T = batch.T;
  for (int b = 0; b < B; ++b) {
    int* tokens = batch.tokens.data() + std::size_t(b) * std::size_t(T);
    int* targets = batch.targets.data() + std::size_t(b) * std::size_t(T);
    for (int t = 0; t < T; ++t) {
      tokens[t] = draw(rng, kAlphabet);
      if (t > 0) targets[t] = tokens[t - 1];
    }
  }
  return batch;
}

Batch lookup_batch(Rng& rng, int B) {
  Batch batch = empty(Task::Lookup, B);
  const int T = batch.T;
  for (int b = 0; b < B; ++b) {
    int* tokens = batch.tokens.data() + std::size_t(b) * std::size_t(T);
    int keys[kLookupKeys];
    for (int i = 0; i < kLookupKeys; ++i) keys[i] = i;
    for (int i = 0; i < kLookupPairs; ++i) std::swap(keys[i], keys[i + draw(rng, kLookupKeys - i)]);  // distinct keys
    int values[kLookupPairs];
    for (int i = 0; i < kLookupPairs; ++i) {
      values[i] = draw(rng, kAlphabet);
      tokens[i] = keys[i] * kAlphabet + values[i];
    }
    const int asked = draw(rng, kLookupPairs);
    tokens[T - 1] = kLookupKeys * kAlphabet + keys[asked];
    batch.targets[std::size_t(b) * std::size_t(T) + std::size_t(T - 1)] = values[asked];
  }
  return batch;
}

Batch task_batch(Task task, Rng& rng, int B, int distance) {
  switch (task) {
    case Task::Copy: return copy_batch(rng, B, distance);
    case Task::Previous: return previous_batch(rng, B);
    case Task::Lookup: return lookup_batch(rng, B);
  }
  return Batch{};
}

}  // namespace attn::why
