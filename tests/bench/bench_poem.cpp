// Benchmark: the poem model (core/poem) at its default size, one thread:
// a training step (forward, backward, AdamW on B x T tokens) and one forward
// pass over a 64-character context (what the learned-heads view computes per
// edit). Natively and in wasm (Node) from the same loop:
//
//   build/native/tests/bench/bench_poem [--vocab V] [--min-seconds S]
//   node build/wasm/tests/bench/bench_poem.js [--vocab V] [--min-seconds S]
//
// Random weights and tokens: the time does not depend on what was learned.
// The vocabulary defaults to the built model's (the training poems and the
// modern passages: 6049 with the specials).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/poem/gpt_layers.hpp"
#include "core/poem/poem_model.hpp"

using namespace attn;
using namespace attn::poem;
using Clock = std::chrono::steady_clock;

namespace {

// Median-free and simple: repeats fn until min_seconds have passed, returns seconds per call.
template <class Fn>
double time_per_call(Fn fn, double min_seconds) {
  fn();  // warm-up: first-touch allocations
  int calls = 0;
  const auto start = Clock::now();
  double elapsed = 0;
  do {
    fn();
    ++calls;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  } while (elapsed < min_seconds);
  return elapsed / calls;
}

}  // namespace

int main(int argc, char** argv) {
  int vocab = 6049;
  double min_seconds = 2.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--vocab")) vocab = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--min-seconds")) min_seconds = std::atof(argv[i + 1]);
  }
  PoemTrainConfig train;
  train.model.vocab = vocab;
  const GptConfig& c = train.model;
  const int B = train.batch, T = c.context;
  std::vector<float> params = init_params(c, 1), grads(params.size());
  const std::vector<ParamTensor> tensors = param_tensors(c);
  std::vector<int> tokens(std::size_t(B) * std::size_t(T)), targets(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i] = int((i * 7919) % std::size_t(vocab)), targets[i] = int((i * 104729) % std::size_t(vocab));
  GptWorkspace<float> ws;
  AdamW adam;
  const double step = time_per_call([&] {
    gpt_forward(ws, c, params.data(), tokens.data(), targets.data(), B, T, Path::Fast);
    std::fill(grads.begin(), grads.end(), 0.0f);
    gpt_backward(ws, c, params.data(), grads.data(), Path::Fast);
    adam.step(params, grads, tensors, 1e-4f);
  }, min_seconds);
  const double forward = time_per_call([&] {
    gpt_forward(ws, c, params.data(), tokens.data(), nullptr, 1, T, Path::Fast);
  }, min_seconds);
  // Of which: the tied output layer (T x C times C x V) and the softmax over
  // the vocabulary at every position, the two parts that grow with V.
  std::vector<float> x(std::size_t(T) * std::size_t(c.d_model), 0.5f), logits(std::size_t(T) * std::size_t(vocab));
  std::vector<float> probs(logits.size()), losses(static_cast<std::size_t>(T));
  std::vector<int> no_targets(static_cast<std::size_t>(T), -1);
  const double output_layer = time_per_call([&] {
    fast::logits_forward(logits.data(), x.data(), params.data(), T, c.d_model, vocab);
  }, min_seconds);
  const double softmax = time_per_call([&] {
    fast::crossentropy_softmax_forward(probs.data(), losses.data(), logits.data(), no_targets.data(), T, vocab);
  }, min_seconds);
  std::printf("{\"isa\": \"%s\", \"vocab\": %d, \"layers\": %d, \"heads\": %d, \"d_model\": %d, \"context\": %d, "
              "\"batch\": %d, \"parameters\": %zu, \"train_step_ms\": %.3f, \"train_tokens_per_s\": %.0f, "
              "\"forward_64_ms\": %.3f, \"output_layer_64_ms\": %.3f, \"softmax_64_ms\": %.3f}\n",
              kernels::active_isa(), vocab, c.layers, c.heads, c.d_model, T, B, params.size(), 1e3 * step,
              B * T / step, 1e3 * forward, 1e3 * output_layer, 1e3 * softmax);
  return 0;
}
