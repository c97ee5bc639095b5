// The poem model as a whole: a vocabulary, a GPT over it and its weights;
// how it is trained on the corpus, read on a line, evaluated and sampled.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/rng.hpp"
#include "corpus.hpp"
#include "gpt.hpp"
#include "tang_corpus.hpp"

namespace attn::poem {

struct PoemModel {
  GptConfig config;
  Vocab vocab;
  std::vector<float> params;  // param_count(config)
};

// The training set: what the model and the baselines learn from. Poems are
// encoded with Vocab::encode_poem and concatenated.
struct PoemCorpus {
  std::vector<std::string> tang300, song100, modern;  // parse_fortunes of each file (modern may be empty)
  // The Quan Tang Shi (tang_corpus.hpp) as parse_fortunes reads it, not yet
  // cleaned; empty: the model learns from fortunes-zh alone.
  std::vector<std::string> tang;
};
// Who trains. From fortunes-zh alone: every tang300 poem but the held-out
// tenth (tang300 index % 10 == 0), then song100. With the Quan Tang Shi: its
// cleaned poems that share no clause with tang300 (split_tang), less the
// hashed 1 % that validates; all 313 tang300 poems are held out.
struct PoemSplit {
  std::vector<std::string> poems;       // the training poems
  std::vector<std::string> modern;      // the modern passages (empty unless asked for)
  std::vector<std::string> held_out;    // the test set: tang300 poems that never trained
  std::vector<std::string> validation;  // the Quan Tang Shi's hashed 1 % (empty without it)
  TangCleaning cleaning;                // how the Quan Tang Shi was cleaned
  int excluded = 0;                     // its poems that share a clause with tang300
  std::vector<std::string> train() const;  // poems, then modern: what the vocabulary is built from
};
PoemSplit split_corpus(const PoemCorpus& corpus, bool use_modern);
// Every text by Vocab::encode_poem, one after the other, each after `start`.
std::vector<int> encode_all(const Vocab& vocab, const std::vector<std::string>& texts, int start = Vocab::kPoemStart);

// The defaults are the built model's (scripts/poem_model.sh): what came
// closest to the goals in under 3 minutes on one core (docs/poem-model.md: the trained
// model, for the runs compared).
struct PoemTrainConfig {
  GptConfig model;  // vocab is set from the training set
  int steps = 1100;
  int batch = 16;                  // sequences of model.context tokens per step
  float learning_rate = 3e-3f;     // peak; linear warm-up, then cosine to a tenth
  int warmup = 100;
  uint64_t seed = 1;
  bool use_modern = true;          // also train on the modern passages,
  float modern_share = 0.6f;       // this share of a batch's sequences drawn from them
  float modern_until = 0.92f;      // for this share of the steps; then poems only
  // This share of the poem sequences starts at a line boundary (a poem's
  // <poem> or a line break), as a sample starts at <poem>: position t of the
  // window is then the same place in a couplet, and the position embeddings
  // can learn where a 5- or 7-character line ends. The rest start anywhere.
  float line_start_share = 1.0f;
  // Dropout on the embeddings and the blocks' outputs while training (see
  // GptWorkspace): 30k characters of poems are learnt by heart within a few
  // hundred steps without it.
  float dropout = 0.2f;
  // Threads a step's shards run on (0: one per core; the wasm build has one).
  // The weights are the same bits for any count (PoemTrainer::kShardSequences).
  int threads = 0;
};
std::string check_train_config(const PoemTrainConfig& config);

struct PoemStepStats {
  int step = 0;
  float loss = 0;          // this batch's mean loss (nats/char)
  float learning_rate = 0;
};

// Trains step by step; deterministic for a seed (the batches and the
// initial weights come from Rng).
class PoemTrainer {
 public:
  // A step's batch is cut into shards of this many sequences. Each shard's
  // forward and backward pass has its own workspace, gradient and dropout
  // seed, so threads may take the shards in any order; the gradients are then
  // summed in shard order. The weights are therefore the same bits with one
  // thread or many, and with step() or step_part().
  static constexpr int kShardSequences = 4;

  // Precondition: check_train_config(config) is empty, poem_tokens.size() > context + 1
  // (modern_tokens is used when config.use_modern and it is that long too).
  PoemTrainer(const PoemTrainConfig& config, Vocab vocab, std::vector<int> poem_tokens,
              std::vector<int> modern_tokens = {});
  PoemStepStats step();
  // The same step in parts, for a caller that must not be held up (the
  // learned-heads view trains in the page, a slice a frame): the next shards
  // covering at least `sequences` of the step's batch forward and backward,
  // and after the batch's last, the AdamW update: the same bits as step().
  // Returns the step's stats once it is complete, else {} (step 0).
  PoemStepStats step_part(int sequences);

  // Data parallel, as the page's two workers train: replica r of n runs only
  // its shards of each batch, shards [r S / n, (r + 1) S / n) of the S, while
  // every replica draws the same batches (the same seed). Once replica_part
  // has run them, part_gradient() holds each of its shards' gradients, one
  // after another, and part_loss() their losses; the replicas exchange these,
  // and each calls finish_replicas with all of them in replica order. It sums
  // the shards as step() does, in the same order: the weights are the bits of
  // one trainer, whatever the count of replicas, and so is the step at which
  // a head forms.
  void set_replica(int replica, int replicas);
  // This replica's next shards, covering at least `sequences`; true once all
  // of its shards of the step are done.
  bool replica_part(int sequences);
  std::vector<float> part_gradient() const;   // its shards' gradients, param_count each
  std::vector<float> part_losses() const;     // its shards' mean losses
  // The shards replica r of n holds (its part_gradient's length / param_count).
  int replica_shards(int replica) const { return shard_end(replica) - shard_begin(replica); }
  // parts[r], losses[r]: replica r's; precondition: replica_part returned true.
  PoemStepStats finish_replicas(const std::vector<const float*>& parts, const std::vector<const float*>& losses);
  int replica() const { return replica_; }
  int replicas() const { return replicas_; }

  int steps_done() const { return step_; }
  int sequences_done() const { return part_done_; }  // of the step in parts under way
  const PoemTrainConfig& config() const { return config_; }
  const PoemModel& model() const { return model_; }

 private:
  PoemTrainConfig config_;
  PoemModel model_;
  std::vector<int> poem_tokens_, modern_tokens_;
  std::vector<std::size_t> line_starts_;  // <poem> and line breaks where a window of context + 1 ids fits
  std::vector<ParamTensor> tensors_;
  std::vector<float> grads_;
  AdamW adam_;
  struct Shard {
    GptWorkspace<float> ws;
    std::vector<float> grads;
    float loss = 0;
  };
  std::vector<Shard> shards_;
  Rng rng_;
  int step_ = 0;
  std::vector<int> inputs_, targets_;  // this step's batch (B x T each)
  int part_done_ = 0;                  // sequences of the batch done by step_part
  double part_loss_ = 0;               // their losses, summed by sequence
  int replica_ = 0, replicas_ = 1;
  int next_shard_ = -1;                // the step in parts: its next shard (-1: none under way)
  void begin_part();                   // a step in parts starts: its batch, its sums at zero
  int shard_begin(int replica) const { return replica * shards() / replicas_; }
  int shard_end(int replica) const { return (replica + 1) * shards() / replicas_; }
  void draw_batch();
  float learning_rate() const;
  int shards() const { return (config_.batch + kShardSequences - 1) / kShardSequences; }
  void run_shard(int shard);           // forward and backward of one shard of the batch
  int shard_sequences(int shard) const;
  // Shard `shard`'s gradient g (its own or a replica's) into the step's
  // elements [begin, end), and its loss: one code for every path, so every
  // path sums the same bits.
  void add_gradient(int shard, const float* g, std::size_t begin, std::size_t end);
  void add_loss(int shard, float loss);
  PoemStepStats finish_step();         // the AdamW update
};

// The model read on one sequence of ids (at most config.context): every
// layer's and head's attention weights, each position's next-character
// probabilities.
struct PoemReading {
  std::vector<int> tokens;
  // att[layer][head]: T x T, row-major, row t = what position t attends to.
  std::vector<std::vector<std::vector<float>>> att;
  std::vector<float> probs;   // T x V
  std::vector<float> losses;  // T - 1: losses[t] = -ln p(tokens[t+1] | tokens[0..t]), from the logits
};
PoemReading read_tokens(const PoemModel& model, const std::vector<int>& tokens, Path path = Path::Fast);
// Only the attention weights of it (att; no probs, no losses): a quarter of the work.
PoemReading read_attention(const PoemModel& model, const std::vector<int>& tokens);

// Mean loss and next-character statistics over whole held-out poems. Each
// poem is read in windows of the context; every character after <poem> is
// predicted once, with the longest context the window gives (a window moves
// on by half the context).
struct PoemScore {
  double loss = 0;          // nats per predicted character
  long long predicted = 0;  // characters predicted
  long long punctuation = 0, punctuation_hits = 0;  // next is punctuation / top-1 is punctuation too
};
PoemScore score_poems(const PoemModel& model, const std::vector<std::vector<int>>& poems);

// Continues prompt (ids) by `length` characters, sampling at temperature
// (0: the most likely), deterministic for the Rng. Stops early at <poem>.
std::vector<int> sample(const PoemModel& model, std::vector<int> prompt, int length, float temperature, Rng& rng);
// One step of it: the character after ids (their last `context`), drawn from
// rng (never kUnknown; <poem> means the poem ends). Precondition: ids not empty.
int sample_next(const PoemModel& model, const std::vector<int>& ids, float temperature, Rng& rng,
                GptWorkspace<float>& ws);

// The baselines, from the same training ids and vocabulary, weighted as the
// model's batches draw them (modern_share of the counts from modern_tokens,
// when there are any): a unigram model (add-one) and a bigram model
// interpolated with it, P = lambda P2 + (1 - lambda) P1. lambda (0.05 .. 0.95
// by 0.05) is the one that predicts the training ids best with each one's own
// count left out (deleted interpolation), so the held-out poems choose nothing.
struct Baselines {
  double unigram = 0, bigram = 0;  // nats per character on the held-out poems
  double lambda = 0;
};
Baselines baselines(const std::vector<int>& poem_tokens, const std::vector<int>& modern_tokens, float modern_share,
                    const std::vector<std::vector<int>>& held_out, int vocab);

}  // namespace attn::poem
