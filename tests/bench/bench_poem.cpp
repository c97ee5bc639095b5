// Benchmark: the poem model (core/poem): a training step (forward, backward,
// AdamW on B x T tokens) on one thread, and PoemTrainer's steps on one thread
// and on every core, as tokens/s and as a share of the machine's measured
// multiply-add peak (one thread's, times the threads); one forward pass over a
// 64-character context (what the learned-heads view computes per edit); the
// matrix product (kernels::matmul) alone in the shapes that training and the
// output layer give it, against one thread's peak measured in the same run.
// Natively and in wasm (Node) from the same loop:
//
//   build/native/tests/bench/bench_poem [--vocab V] [--heads H] [--d-model C] [--min-seconds S]
//   node build/wasm/tests/bench/bench_poem.js [--vocab V] [--heads H] [--d-model C] [--min-seconds S]
//
// Random weights and tokens: the time does not depend on what was learned.
// The sizes default to the built model's (scripts/poem_model.sh: the Quan
// Tang Shi's characters seen 10 times, 5042 with the specials; 8 heads).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/base/parallel.hpp"
#include "core/poem/gpt_layers.hpp"
#include "core/poem/poem_model.hpp"
#include "core/base/rng.hpp"
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
  // 续写: a character at a time, each a forward pass over the last `context`
  // characters (sample_next, as the view's continuation draws them).
  PoemModel sampler;
  sampler.config = c;
  sampler.params = params;
  sampler.vocab.chars = {"<unk>", "<poem>", "\n", "<text>"};
  for (int v = 4; v < vocab; ++v) sampler.vocab.chars.push_back("c" + std::to_string(v));
  sampler.vocab.index();
  constexpr int kSampled = 200;
  const double sample_char = time_per_call([&] {
    std::vector<int> ids = {Vocab::kPoemStart, 10, 11, 12, 13, 14};
    Rng rng(1, 77);
    GptWorkspace<float> sample_ws;
    for (int i = 0; i < kSampled; ++i) ids.push_back(std::max(4, sample_next(sampler, ids, 0.8f, rng, sample_ws)));
  }, min_seconds) / kSampled;
  // kernels::matmul on one thread in the output layer's and the blocks' shapes:
  // a training shard's forward (4 x 64 rows), its two backward products, and
  // the view's read (64 rows), for the built model's vocabulary and the page's.
  const double peak1 = peak_gflops(1, min_seconds / 2);
  std::string matmul_json;
  struct Shape { const char* what; int m, k, n; bool a_t, b_t; };
  const int C = c.d_model, shard = PoemTrainer::kShardSequences * T;
  for (int v : {vocab, 1279}) {
    const Shape shapes[] = {{"logits: shard x C . (V x C)^T", shard, C, v, false, true},
                            {"dx: shard x V . V x C", shard, v, C, false, false},
                            {"dW: (shard x V)^T . shard x C", v, shard, C, true, false},
                            {"read: T x C . (V x C)^T", T, C, v, false, true},
                            {"mlp: shard x C . C x 4C", shard, C, 4 * C, false, false}};
    for (const Shape& sh : shapes) {
      if (v != vocab && sh.n != v && sh.m != v && sh.k != v) continue;  // the vocabulary-free shape once
      std::vector<float> a(std::size_t(sh.m) * std::size_t(sh.k), 0.25f), b(std::size_t(sh.k) * std::size_t(sh.n), 0.5f);
      std::vector<float> out(std::size_t(sh.m) * std::size_t(sh.n));
      kernels::MatmulArgs args;
      args.a = a.data(), args.lda = sh.a_t ? sh.m : sh.k, args.a_transposed = sh.a_t;
      args.b = b.data(), args.ldb = sh.b_t ? sh.k : sh.n, args.b_transposed = sh.b_t;
      args.c = out.data(), args.ldc = sh.n, args.m = sh.m, args.k = sh.k, args.n = sh.n;
      const double seconds = time_per_call([&] { kernels::matmul(args); }, min_seconds / 4);
      const double gflops = 2.0 * sh.m * sh.k * sh.n / seconds / 1e9;
      matmul_json += std::string(matmul_json.empty() ? "" : ", ") + "{\"shape\": \"" + sh.what + "\", \"m\": " +
                     std::to_string(sh.m) + ", \"k\": " + std::to_string(sh.k) + ", \"n\": " + std::to_string(sh.n) +
                     ", \"gflops\": " + std::to_string(gflops) + ", \"share_of_peak\": " + std::to_string(gflops / peak1) + "}";
    }
  }
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
              "\"forward_64_ms\": %.3f, \"output_layer_64_ms\": %.3f, \"softmax_64_ms\": %.3f, "
              "\"sample_char_ms\": %.3f, \"peak_1_thread_gflops\": %.2f, \"matmul\": [%s]}\n",
              kernels::active_isa(), peak_name(), vocab, c.layers, c.heads, c.d_model, T, B, params.size(),
              1e3 * step, B * T / step, trainer_json.c_str(), 1e3 * forward, 1e3 * output_layer, 1e3 * softmax,
              1e3 * sample_char, peak1, matmul_json.c_str());
  return 0;
}
