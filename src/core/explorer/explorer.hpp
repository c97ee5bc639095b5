// The explorer's set-up: everything a reader can choose, as one plain struct,
// and the one function that turns it into attention results.
//
//   input       a typed sentence (tokenised, embedded per token text), or one of
//               the chapter's experiments (Figure 4.1's synthetic sequence, the
//               causal-mask companion's random tokens)
//   projection  how Q, K, V come from X: random (seeded, Xavier), identity
//               (Q = K = V = X: pure similarity), chapter (the Figure 4.1 demo
//               projections), trained (the scaling lab's model: its weights
//               when the caller has them, otherwise retrained deterministically
//               from its recipe, so a config reproduces it)
//   mask        none | causal | padding (pads appended and masked) | custom
//
// The browser's compute(), attention_cli attend and the UI all go through
// run_explorer, so a view's numbers can always be reproduced from its config.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/attention.hpp"
#include "core/multihead.hpp"
#include "core/statistics.hpp"
#include "core/scaling/trainer.hpp"
#include "core/types.hpp"
#include "core/base/work_clock.hpp"

namespace attn {

enum class Input { Text, Figure41, Causal };
enum class Projection { Random, Identity, Chapter, Trained };

const char* input_name(Input input);            // "text", "fig41", "causal"
const char* projection_name(Projection projection);  // "random", "identity", ...

struct ExplorerLimits {
  static constexpr int kMaxTokens = 1024;
  // 1024 tokens of Chinese are 3 KB, of long English words ~16 KB: a text
  // beyond this is a mistake (a pasted file), and one 1 MB word would be one
  // 1 MB label drawn every frame.
  static constexpr std::size_t kMaxTextBytes = 64 * 1024;
  // d_model 1024 costs 4 x 4 MB of projections; the UI offers 8..512.
  static constexpr int kMinDModel = 1, kMaxDModel = 1024;
  // heads x tokens^2 attention weights: 16 heads x 512^2 tokens fits. Each
  // weight comes with a raw and a scaled score, so this bounds a result at
  // about 50 MB, and the lab's largest view stays interactive.
  static constexpr long long kMaxWeights = 1LL << 22;
  // A temperature or scale beyond these gives softmax rows that are already
  // uniform or one-hot; the bounds keep the sliders in a range that teaches.
  static constexpr float kMinTemperature = 1e-3f, kMaxTemperature = 1e3f;
  static constexpr float kMaxScale = 1e3f;
  // A trained projection: the scaling lab's model is used as it is, at any
  // step count. A config names at most kMaxTrainedSteps (the CLI's longest
  // training), and retraining one from its recipe (compute(), a config from a
  // URL) costs steps x d_model^2, bounded so it stays under about a second
  // natively (2000 steps at d_model 32, 500 at 64; 0.4 ms a step at d_model 32).
  static constexpr int kMaxTrainedSteps = int(TrainLimits::kMaxSteps);
  static constexpr long long kMaxTrainingWork = 2000LL * 32 * 32;
  static constexpr int kMaxHeads = 64;
  // One request's peak memory (explorer_peak_bytes): 16 heads x 512 tokens at
  // d_model 512 needs 71 MiB, 1024 tokens x 4 heads at d_model 512 (the UI's
  // largest d_model) 85 MiB; 1024 x 4 at d_model 1024 (121 MiB) does not fit.
  // The UI keeps the last result on screen while the next one is computed,
  // so the lab holds at most about twice this.
  static constexpr long long kMaxPeakBytes = 96LL << 20;
};

struct ExplorerConfig {
  Input input = Input::Text;
  std::string text = "The cat sat on the mat";
  int d_model = 32;  // text input only; experiments have their own sizes
  int heads = 4;
  uint64_t seed = 1;
  Projection projection = Projection::Random;
  bool positions = false;  // add sinusoidal position encodings to X
  uint64_t shuffle = 0;     // text input: 0, or the seed of a permutation of the text's tokens (order.hpp)
  float temperature = 1.0f;  // ExplorerLimits::kMinTemperature .. kMaxTemperature
  Scale scale;               // a Value scale is at most ExplorerLimits::kMaxScale
  Mask::Kind mask = Mask::Kind::None;
  int pads = 0;             // Padding: pad tokens appended to the text
  MaskMatrix custom_mask;   // Custom: n x n over the final tokens, true = allowed
  // Trained: the scaling lab's model with d_k = d_model, heads and seed as
  // above, trained this many steps (scaled or raw scores, at this rate).
  int trained_steps = 100;
  bool trained_scaled = true;
  float trained_learning_rate = TrainConfig{}.learning_rate;
};

// The training recipe a Trained config stands for.
TrainConfig trained_recipe(const ExplorerConfig& config);

struct HeadSummary {
  WeightStats stats;       // min, max, mean of the weights
  float mean_entropy = 0;  // mean over query rows of the row entropy (nats)
  Histogram histogram;     // of the weights: 25 bins over [min, max], as Figure 4.1; no
                           // counts when the job was asked not to bin (fill_histograms)
};

struct ExplorerResult {
  ExplorerConfig config;            // what this result was computed from
  std::vector<std::string> tokens;  // including appended pads
  std::vector<bool> key_valid;      // false for pad tokens
  Matrix X;                         // n x d_model token (+ position) embeddings
  MultiHeadWeights weights;
  MultiHeadResult attention;
  std::vector<HeadSummary> summaries;       // per head
  HeadSummary average_summary;              // of the head average
  std::vector<int> fully_masked_queries;    // rows whose mask hides every key
};

// The tokens a config produces (text tokenised plus pads, or the experiment's).
std::vector<std::string> explorer_tokens(const ExplorerConfig& config);

// Empty when the config can run, otherwise "<field>: <why>" naming the field
// to fix (d_model, heads, text, temperature, mask, projection).
// has_trained_weights: the caller passes a Trained projection's weights to
// run_explorer, so the retraining limits (kMaxTrainedSteps, kMaxTrainingWork)
// do not apply.
std::string check_explorer_config(const ExplorerConfig& config, bool has_trained_weights = false);
// Part of it: '' when the text can be a sentence at all, otherwise why not
// (its size, bytes that are not UTF-8, a NUL), without the field's name. The
// readers of configs, URLs and host messages refuse such a text at once.
std::string check_text(const std::string& text);

// The most memory one request (run_explorer, an ExplorerJob) holds at once,
// in bytes, for n tokens (with pads), H heads and d = d_model (d_head = d / H):
//   per head   Q, K, V slices and the output      4 n d_head floats
//              raw scores, scaled scores, weights  3 n^2 floats
//              the mask (allowed)                  n^2 bytes
//              row entropies                       n floats
//   shared     X, concat, output                   3 n d floats
//              Q, K, V of all heads (while the heads run) 3 n d floats
//              W_q, W_k, W_v, W_o                  4 d^2 floats
//              head average                        n^2 floats
//              the mask, built once for all heads  n^2 bytes
//              kernel scratch (kept between requests), tokens and summaries
// (a head split over frames writes its rows in place: no block copies), i.e.
// about 4 (3H + 1) n^2 + (H + 1) n^2 + 40 n d + 16 d^2 bytes: 71 MiB at
// 512 tokens x 16 heads x d_model 512. The experiments use their own sizes
// (8 tokens). While the UI computes a new result the last one stays on
// screen: the lab holds two results at most.
long long explorer_peak_bytes(int tokens, int heads, int d_model);
// The same for a config (its tokens, heads and d_model, or its experiment's).
long long explorer_peak_bytes(const ExplorerConfig& config);

// '' when `bytes` more memory can be had now, otherwise what the reader sees
// ("memory: ..."). Called after check_explorer_config with the request's peak
// (or, for compute(), the peak with its JSON), so that a refusal comes before
// the recompute, which would otherwise abort the whole lab halfway: a browser
// may refuse to grow wasm memory (a phone short of memory, a tab at its
// limit). It asks the memory probe: by default a trial allocation, which
// natively virtually always succeeds; the web platform installs one that
// grows wasm memory to make room (platform/web_memory.hpp; memory never
// shrinks, so the recompute finds it).
std::string check_memory_available(long long bytes);
// Whether `bytes` more can be had now. Null restores the trial allocation.
using MemoryProbe = bool (*)(long long bytes);
void set_memory_probe(MemoryProbe probe);

// Precondition: check_explorer_config(config, trained != nullptr) is empty.
// previous (optional): the last result. When only the temperature, scale or
// mask changed, its embeddings X, projection matrices and every head's Q, K, V
// are reused instead of computed again (at d_model 512 that is a million
// normal draws and three 512 x 512 x 512 products per slider step); when only
// the text or the heads changed, the projection matrices (random and identity
// ones at any heads) and the rows of X with the same token at the same place.
// The numbers are identical either way (explorer_fields.hpp: same_inputs).
// trained (optional): a Trained projection's weights that the caller already
// holds (the scaling lab's model, or a retraining the UI spread over frames):
// they must be what trained_recipe(config) gives after trained_steps steps.
// Without them run_explorer retrains the recipe itself.
// It is an ExplorerJob run to the end (the same pieces, so the same numbers).
ExplorerResult run_explorer(const ExplorerConfig& config, const ExplorerResult* previous = nullptr,
                            const MultiHeadWeights* trained = nullptr);

// How far an ExplorerJob has got.
struct ExplorerProgress {
  int pieces_done = 0, pieces = 0;  // pieces run / in all
  int heads_done = 0, heads = 0;    // heads whose attention is computed / in all
  int percent() const { return pieces ? pieces_done * 100 / pieces : 100; }
};

// run_explorer in pieces, so a caller can spread a recompute over frames (the
// UI: ui/explorer/update.cpp) and keep drawing the last result meanwhile:
//
//   ExplorerJob job(config, previous, trained);   // copies what it reuses (a few MB at most)
//   WorkClock clock;                               // the steady clock (tests: a counting one)
//   while (!job.step(ExplorerJob::kFrameBudgetMs, clock)) { ... draw a frame ... }
//   ExplorerResult result = job.take();
//
// The pieces, in order: the embeddings X (a block of tokens each; a repeated
// token's row is copied) and the position encodings, the projection matrices
// (random ones a block of rows each), Q = X W_q, K, V (a block of rows
// each), the mask (built once for all heads), every head's attention (a
// head, or a block of its query rows when one head is big), its summary
// (min/max/mean, mean row entropy from the kernel's row entropies, histogram;
// the head average summed in the same pass), the output (concat W_o, a block
// of rows each), the head average's summary. A piece's size follows from the
// shapes alone (about a millisecond of work in wasm), never from the budget
// or the clock, so a job gives the same numbers bit for bit however it is
// stepped, and run_explorer is a job run to the end. What a previous result
// lets it reuse (see run_explorer) is not computed: after a temperature,
// scale or mask change the job starts at the heads. A job that is not
// wanted any more (a newer config) is simply destroyed.
class ExplorerJob {
 public:
  // The UI's share of one frame for a recompute; the rest draws the frame.
  static constexpr double kFrameBudgetMs = 8.0;

  // Preconditions as run_explorer's. previous and trained are read here
  // (what is reused is copied), never later: they need not outlive the job.
  // histograms = false leaves the summaries' histograms without counts (a
  // quarter of a big recompute's statistics; only the stats view shows
  // them): fill_histograms adds them when they are wanted.
  explicit ExplorerJob(const ExplorerConfig& config, const ExplorerResult* previous = nullptr,
                       const MultiHeadWeights* trained = nullptr, bool histograms = true);
  ~ExplorerJob();
  ExplorerJob(ExplorerJob&&) noexcept;
  ExplorerJob& operator=(ExplorerJob&&) noexcept;

  // Runs pieces until budget_ms have passed on `clock` since the call, at
  // least one (a budget <= 0 runs exactly one). True when the result is complete.
  bool step(double budget_ms, WorkClock& clock);
  bool done() const;
  ExplorerProgress progress() const;
  const ExplorerConfig& config() const;
  // Precondition: done(). Moves the result out (once).
  ExplorerResult take();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether every summary of r has its histogram's counts.
bool has_histograms(const ExplorerResult& r);
// Bins the weights of the summaries that have no counts yet (a result of an
// ExplorerJob without histograms), a matrix at a time until budget_ms have
// passed on `clock` (at least one). The counts are the ones the job would
// have binned. True when every summary has them.
bool fill_histograms(ExplorerResult& r, double budget_ms, WorkClock& clock);

// The nearest head counts below and above heads that divide d_model (0 = none).
void nearest_valid_heads(int d_model, int heads, int& below, int& above);

}  // namespace attn
