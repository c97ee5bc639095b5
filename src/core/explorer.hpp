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
#include <string>
#include <vector>

#include "attention.hpp"
#include "multihead.hpp"
#include "statistics.hpp"
#include "trainer.hpp"
#include "types.hpp"

namespace attn {

enum class Input { Text, Figure41, Causal };
enum class Projection { Random, Identity, Chapter, Trained };

const char* input_name(Input input);            // "text", "fig41", "causal"
const char* projection_name(Projection projection);  // "random", "identity", ...

struct ExplorerLimits {
  static constexpr int kMaxTokens = 1024;
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
};

struct ExplorerConfig {
  Input input = Input::Text;
  std::string text = "The cat sat on the mat";
  int d_model = 32;  // text input only; experiments have their own sizes
  int heads = 4;
  uint64_t seed = 1;
  Projection projection = Projection::Random;
  bool positions = false;  // add sinusoidal position encodings to X
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
  Histogram histogram;     // of the weights: 25 bins over [min, max], as Figure 4.1
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

// Precondition: check_explorer_config(config, trained != nullptr) is empty.
// previous (optional): the last result. When only the temperature, scale or
// mask changed, its embeddings X and projections are reused instead of drawn
// again (at d_model 512 that is a million normal draws per slider step); the
// numbers are identical either way (explorer_fields.hpp: same_inputs).
// trained (optional): a Trained projection's weights that the caller already
// holds (the scaling lab's model, or a retraining the UI spread over frames):
// they must be what trained_recipe(config) gives after trained_steps steps.
// Without them run_explorer retrains the recipe itself.
ExplorerResult run_explorer(const ExplorerConfig& config, const ExplorerResult* previous = nullptr,
                            const MultiHeadWeights* trained = nullptr);

// The nearest head counts below and above heads that divide d_model (0 = none).
void nearest_valid_heads(int d_model, int heads, int& below, int& above);

}  // namespace attn
