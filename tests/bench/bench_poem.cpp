// Benchmark: the poem model (core/poem): a training step (forward, backward,
// AdamW on B x T tokens) on one thread, and PoemTrainer's steps on one thread
// and on every core, as tokens/s and as a share of the machine's measured
// multiply-add peak (one thread's, times the threads); one forward pass over a
// 64-character context (what the learned-heads view computes per edit).
// Natively and in wasm (Node) from the same loop:
//
//   build/native/tests/bench/bench_poem [--vocab V] [--heads H] [--d-model C] [--min-seconds S]
//   node build/wasm/tests/bench/bench_poem.js [--vocab V] [--heads H] [--d-model C] [--min-seconds S]
//
// Random weights and tokens: the time does not depend on what was learned.
// The sizes default to the built model's (scripts/poem_model.sh: the Quan
// Tang Shi's characters seen 10 times, 5042 with the specials; 8 heads).
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/parallel.hpp"
#include "core/poem/gpt_layers.hpp"
#include "core/poem/poem_model.hpp"
#include "fma_peak.hpp"

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

// Multiply-adds a training token costs, counted as FLOPs (2 a multiply-add):
// forward, and backward at twice forward, through every matrix product
// (12 C^2 per layer and the C x V output layer) and the causal attention's
// two T x T products (the kernels compute all T keys of a row).
double training_flop_per_token(const GptConfig& c) {
  const double C = c.d_model, V = c.vocab, T = c.context, L = c.layers;
  return 3.0 * (2.0 * (12.0 * L * C * C + C * V) + 4.0 * L * T * C);
}

// The peak with `threads` threads at once: each runs the FMA chains.
double peak_gflops(int threads, double min_seconds) {
  const long iterations = 1 << 22;
  std::atomic<double> sink{0};
  const double seconds = time_per_call([&] {
    parallel_for(threads, threads, [&](int) { sink = sink + double(peak_kernel(iterations)); });
  }, min_seconds);
  return peak_flop_per_iteration() * double(iterations) * threads / seconds / 1e9;
}

}  // namespace

int main(int argc, char** argv) {
  int vocab = 5042, heads = 8, d_model = 64;
  double min_seconds = 2.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--vocab")) vocab = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--heads")) heads = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--d-model")) d_model = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--min-seconds")) min_seconds = std::atof(argv[i + 1]);
  }
  PoemTrainConfig train;
  train.model.vocab = vocab;
  train.model.heads = heads;
  train.model.d_model = d_model;
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
  // PoemTrainer's steps (the batch in shards, on 1 thread and on every core),
  // against the peak measured now with as many threads.
  const int cores = hardware_threads();
  std::vector<int> stream(200000);
  for (std::size_t i = 0; i < stream.size(); ++i) stream[i] = 4 + int((i * 7919) % std::size_t(vocab - 4));
  Vocab synthetic;
  synthetic.chars = {"<unk>", "<poem>", "\n", "<text>"};
  for (int v = 4; v < vocab; ++v) synthetic.chars.push_back("c" + std::to_string(v));
  synthetic.index();
  train.use_modern = false;
  train.steps = 1000000;
  const double flop = training_flop_per_token(c) * B * T;
  std::string trainer_json;
  for (int threads : {1, cores}) {
    train.threads = threads;
    PoemTrainer trainer(train, synthetic, stream);
    const double seconds = time_per_call([&] { trainer.step(); }, min_seconds);
    const double peak = peak_gflops(threads, min_seconds / 2);
    trainer_json += (trainer_json.empty() ? "" : ", ") + std::string("{\"threads\": ") + std::to_string(threads) +
                    ", \"step_ms\": " + std::to_string(1e3 * seconds) +
                    ", \"tokens_per_s\": " + std::to_string(int(B * T / seconds)) +
                    ", \"gflops\": " + std::to_string(flop / seconds / 1e9) +
                    ", \"peak_gflops\": " + std::to_string(peak) +
                    ", \"share_of_peak\": " + std::to_string(flop / seconds / 1e9 / peak) + "}";
    if (cores == 1) break;
  }
  std::printf("{\"isa\": \"%s\", \"peak_kernel\": \"%s\", \"vocab\": %d, \"layers\": %d, \"heads\": %d, "
              "\"d_model\": %d, \"context\": %d, \"batch\": %d, \"parameters\": %zu, "
              "\"train_step_ms\": %.3f, \"train_tokens_per_s\": %.0f, \"trainer\": [%s], "
              "\"forward_64_ms\": %.3f, \"output_layer_64_ms\": %.3f, \"softmax_64_ms\": %.3f}\n",
              kernels::active_isa(), peak_name(), vocab, c.layers, c.heads, c.d_model, T, B, params.size(),
              1e3 * step, B * T / step, trainer_json.c_str(), 1e3 * forward, 1e3 * output_layer, 1e3 * softmax);
  return 0;
}
