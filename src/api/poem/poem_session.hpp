// The poem model as the learned-heads view uses it: loaded once, then read,
// continued and analysed many times. serve() answers poem_wire.hpp's requests
// (the browser's second wasm module, platform/poem_module.cpp, calls it; the
// desktop calls it directly). Never throws.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/poem/poem_wire.hpp"
#include "core/poem/poem_model.hpp"
#include "core/base/rng.hpp"

namespace attn::api {

class PoemSession {
 public:
  // The weights file's bytes (core/poem/model_file.hpp) and the text of
  // fortunes-zh's tang300: its 313 poems, none of which trained, are the
  // poems the view offers and the heads are measured on. "" or what is
  // wrong, naming the file.
  std::string load(const uint8_t* model_file, std::size_t size, std::string_view tang300);
  bool loaded() const { return model_.has_value(); }
  const poem::PoemModel* model() const { return model_ ? &*model_ : nullptr; }
  const PoemSummary& summary() const { return summary_; }

  // The model read on text: <poem>, then the text's characters; when there
  // are more than the context, the last `context` of them (<poem> is then
  // left out too, as in poem_json.hpp's poem_window). "" or why not (empty
  // text, bad UTF-8). start, the attention-sink probe: "" reads <poem>
  // first as the model was trained; "none" leaves it out (the text's first
  // character stands first); one character stands in its place. A text cut
  // to the context has no <poem> to probe: an error says so.
  std::string read(const std::string& text, PoemReadingData& out, const std::string& start = "") const;

  // A continuation of prompt, `length` characters at most, at the temperature
  // from the seed (core/poem/poem_model.hpp: sample): begun once, then drawn a
  // few characters per call, so a frame is never held up for long. The same
  // prompt, length, temperature and seed give the same characters as
  // `attention_cli poem sample`.
  std::string sample_begin(const std::string& prompt, int length, float temperature, uint64_t seed);
  // Draws at most n more; true when the continuation is complete.
  bool sample_step(int n);
  std::string sample_text() const;  // what has been drawn so far (without the prompt)

  // Training a fresh model from scratch in the page (core/poem/poem_model.hpp:
  // page_train_config, on page_slice: page_training.hpp), in small units so a frame is never held
  // up for long: a unit is one sequence of a step's batch, or one held-out
  // poem of the evaluation that follows every kPoemEvalEvery steps (on the
  // poems poem_eval_poem picks, as the shipped model's eval_loss). It stops at
  // the recipe's step count, then measures its heads on those poems.
  // train_corpus: the slice (a fortunes file, `attention_cli poem corpus --page-out`).
  std::string train_corpus(std::string_view slice);
  // A fresh trainer from the seed; fixed_poem: the held-out poem whose heads
  // are measured while it trains. replica of replicas: data parallel (the
  // page's workers), each replica a session with the same seed; only the
  // first evaluates and measures heads.
  std::string train_reset(uint64_t seed, int fixed_poem, int replica = 0, int replicas = 1);
  // With replicas, train_run stops when this replica's part of the step is
  // done (training().waiting); its part is its shards' gradients and losses
  // (PoemTrainer::part_gradient, part_losses), and train_join takes every
  // replica's part (in replica order) and finishes the step.
  const PoemTraining& train_run(int units);
  std::string train_join(int step, const std::vector<std::vector<float>>& parts,
                         const std::vector<std::vector<float>>& losses);
  const PoemTraining& training() const { return training_; }
  std::string train_read(const std::string& text, PoemReadingData& out) const;
  // The model being trained (compute()'s {"poem": {"model": "training"}}); null before a TrainReset.
  const poem::PoemModel* trained_model() const;
  const poem::PoemTrainer* trainer() const { return trainer_.get(); }

  // One request's answer (poem_wire.hpp); an unknown op or a short request
  // is an answer with an error.
  std::vector<uint8_t> serve(const uint8_t* request, std::size_t size);

 private:
  std::optional<poem::PoemModel> model_;
  PoemSummary summary_;
  std::vector<std::string> tang300_, slice_;  // the held-out poems' texts; the training slice (train_corpus)
  std::unique_ptr<poem::PoemTrainer> trainer_;
  std::vector<std::vector<int>> train_held_out_;  // the evaluation's poems in the trainer's vocabulary
  int fixed_poem_ = 0;
  std::vector<int> fixed_ids_;  // ... and the fixed poem
  PoemTraining training_;
  double eval_loss_ = 0;  // the evaluation under way: loss summed over its characters
  long long eval_predicted_ = 0;
  int heads_step_ = -1;   // the step training_.heads were measured at
  void finish_training();
  void step_done(const poem::PoemStepStats& stats);
  struct SampleJob {
    std::vector<int> ids;  // the prompt's ids, then what was drawn
    std::size_t prompt = 0;
    int length = 0;
    float temperature = 0;
    Rng rng;
    bool done = false;
  };
  std::optional<SampleJob> sample_;
  std::unique_ptr<poem::GptWorkspace<float>> ws_ = std::make_unique<poem::GptWorkspace<float>>();
};

}  // namespace attn::api
