// What the learned-heads view asks of the poem model and gets back, as plain
// data and as bytes. The browser keeps the model in a second wasm module,
// loaded only when the view is first opened (platform/poem_module.cpp), so
// the lab's first download stays small: the view's requests and the
// session's answers cross between the two modules as these bytes. The desktop
// and the tests hand the same bytes to api::PoemSession directly, so both
// builds run one code path.
//
// Bytes: api/wire.hpp's. A request is its op (u32) and its fields; an answer
// is "" or an error message, then the op's data.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "api/wire.hpp"

namespace attn::api {

// Limits on what a reader may ask (the view's controls and the URL use them).
struct PoemLimits {
  static constexpr int kHeldOutPoems = 313;  // tang300's poems: all held out from the Tang model's training
  static constexpr int kProbePeriod = 31;    // the induction probe: 31 random characters twice fill the context
  static constexpr int kMaxSampleLength = 200;
  static constexpr std::size_t kMaxTextBytes = 64 * 1024;  // more is refused: the model reads 63 characters anyway
};

inline constexpr int kPoemTop = 10;         // next characters listed per position
inline constexpr int kPoemMaxOffset = 16;   // the offset profile: weight 0..16 positions back

// The head detectors of core/poem/head_detectors.hpp, in its order: previous
// character, same character, first position, punctuation, couplet,
// duplicate character, induction, couplet one ahead.
inline constexpr int kPoemDetectors = 8;
inline constexpr int kPoemInduction = 6;

// One head's pattern, measured on the held-out poems (core/poem/head_patterns.hpp).
struct PoemHead {
  int layer = 0, head = 0;
  std::array<float, kPoemMaxOffset + 1> by_offset{};
  // Each detector: the head's mean weight on the keys it counts, and that
  // over uniform attention's weight on the same keys.
  std::array<float, kPoemDetectors> weight{}, ratio{};
  int strongest = -1;  // the detector that names the head (-1: none shows)
  float entropy = 0, uniform_entropy = 0;  // nats, mean over the queries
};

// The loaded model: its sizes, how it was trained, the held-out poems and
// what each head learned on them.
struct PoemSummary {
  int vocab = 0, context = 0, layers = 0, heads = 0, d_model = 0;
  long long parameters = 0;
  std::string info;                   // the file's info (JSON text: how it was trained)
  std::vector<std::string> held_out;  // tang300's poems, none trained on (lines joined by "\n")
  std::vector<std::string> titles, authors;  // ... their titles and authors, as fortunes-zh names them
  std::vector<PoemHead> heads_found;  // layer by layer, head by head, over every held-out poem
  // The poem the view opens on: of those that fit the context whole, the one
  // on which the named heads put the most weight on their patterns (the mean
  // of their detectors' weights on it: default_weight).
  int default_poem = 0;
  int whole_poems = 0;                // held-out poems that fit the context whole
  float default_weight = 0;
  float eval_loss = 0;                // nats per character on the poems the page's training evaluates on
};
// The page's training evaluates on every tenth held-out poem (32 of 313), so
// an evaluation costs a frame's worth of work, not ten.
inline bool poem_eval_poem(int held_out_index) { return held_out_index % 10 == 0; }

// The model read on a text: what the view draws.
struct PoemReadingData {
  std::vector<std::string> tokens;  // "<poem>", then the characters read ("\n" for a line break)
  std::vector<uint8_t> unknown;     // 1 where the character is not in the vocabulary (read as <unk>)
  int cut = 0;                      // tokens left out at the front (<poem> first): the text was longer than the context
  int layers = 0, heads = 0;
  std::vector<float> att;           // [layer][head][query][key], T x T each, row = query
  std::vector<float> losses;        // T - 1: -ln p(tokens[t+1] | tokens[0..t])
  std::vector<std::string> top_chars;  // T x kPoemTop: after position t, the likeliest next characters
  std::vector<float> top_p;            // ... and their probabilities
  // The cells each detector counts on this text, kPoemDetectors x T x T (1:
  // query row, key column counted): what the view outlines. On a sequence
  // repeated twice (period: its length, else 0) only induction counts.
  std::vector<uint8_t> counted;
  int period = 0;
  int size() const { return int(tokens.size()); }
  bool counts(int detector, int query, int key) const {
    const std::size_t T = tokens.size();
    return counted[(std::size_t(detector) * T + std::size_t(query)) * T + std::size_t(key)] != 0;
  }
  const float* weights(int layer, int head) const {
    const std::size_t T = tokens.size();
    return att.data() + (std::size_t(layer) * std::size_t(heads) + std::size_t(head)) * T * T;
  }
};

// Training a fresh model in the page (the view's Start / Pause / Step / Reset),
// by one trainer or by replicas that each take a part of every batch
// (core/poem/poem_model.hpp: PoemTrainer::set_replica).
struct PoemTraining {
  int steps = 0, target = 0;       // steps done, and where it stops (the page's recipe)
  int sequences = 0, batch = 0;    // of the step under way
  int replica = 0, replicas = 1;
  bool waiting = false;            // this replica's part of the step is done: TrainGradient, then TrainJoin
  int vocab = 0;                   // the trained model's vocabulary (the slice's characters, page_training.hpp's kPageMinCount)
  // Its characters, one after another (UTF-8): all it can ever predict. The
  // font atlas takes them when training starts, so no character the model
  // comes to predict rebuilds the atlas while it trains.
  std::string characters;
  int slice_poems = 0;             // the slice of the training poems it learns from
  int evaluated = 0, held_out = 0; // held-out poems scored so far in an evaluation under way (0: none)
  bool finished = false;           // target reached, evaluated and analysed
  std::vector<float> train_steps, train_loss;  // each step's batch loss
  std::vector<float> eval_steps, eval_loss;    // the held-out loss at step 0 and every kPoemEvalEvery steps
  float shipped_loss = 0;          // the shipped model's loss on the same poems
  // What each head of the model being trained does: on the fixed poem while
  // it trains, on all held-out poems once finished.
  std::vector<PoemHead> heads;
};
inline constexpr int kPoemEvalEvery = 50;

enum class PoemOp : uint32_t {
  Summary = 1,      // -> PoemSummary
  Read = 2,         // text -> PoemReadingData
  SampleBegin = 3,  // prompt text, length, temperature, seed -> nothing
  SampleStep = 4,   // at most n characters -> the continuation so far (text), done (u32)
  TrainCorpus = 5,  // the page's slice of the training poems (a fortunes file) -> nothing
  TrainReset = 6,   // seed, the fixed poem (held-out index), replica, replicas -> PoemTraining (a fresh model)
  TrainRun = 7,     // units (a sequence of the batch or a held-out poem each) -> PoemTraining
  TrainRead = 8,    // text -> PoemReadingData, read by the model being trained
  Export = 9,       // file name, text, its PoemReadingData -> name, mime, bytes (api/poem/poem_export.hpp)
  TrainGradient = 10,  // -> step (u32), this replica's part: its shards' gradients (floats), their losses (floats)
  TrainJoin = 11,      // step, every replica's part in replica order (u32 count, then floats, floats each) -> PoemTraining
  ReadStart = 12,      // text, start ("none" or one character in <poem>'s place; PoemSession::read) -> PoemReadingData
};

void write_summary(WireWriter& w, const PoemSummary& s);
PoemSummary read_summary(WireReader& r);
void write_training(WireWriter& w, const PoemTraining& t);
PoemTraining read_training(WireReader& r);
void write_reading(WireWriter& w, const PoemReadingData& d);
PoemReadingData read_reading(WireReader& r);

}  // namespace attn::api
