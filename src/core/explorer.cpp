#include "explorer.hpp"

#include <algorithm>
#include <cmath>

#include "experiments.hpp"
#include "explorer_fields.hpp"
#include "sentence.hpp"
#include "tokenizer.hpp"

namespace attn {

const char* input_name(Input input) {
  switch (input) {
    case Input::Text: return "text";
    case Input::Figure41: return "fig41";
    case Input::Causal: return "causal";
  }
  return "?";
}

const char* projection_name(Projection projection) {
  switch (projection) {
    case Projection::Random: return "random";
    case Projection::Identity: return "identity";
    case Projection::Chapter: return "chapter";
    case Projection::Trained: return "trained";
  }
  return "?";
}

static std::vector<std::string> position_names(int n) {
  std::vector<std::string> names;
  for (int t = 0; t < n; ++t) names.push_back("t" + std::to_string(t));
  return names;
}

std::vector<std::string> explorer_tokens(const ExplorerConfig& config) {
  switch (config.input) {
    case Input::Figure41: return position_names(Figure41Config{}.seq_len);
    case Input::Causal: return position_names(CausalConfig{}.seq_len);
    case Input::Text: break;
  }
  std::vector<std::string> tokens = tokenize(config.text);
  if (config.mask == Mask::Kind::Padding && config.pads > 0) {
    // The length first: pad_to takes tokens by value, and the order in which
    // arguments are evaluated is unspecified (clang moves tokens out before
    // a size() in the same call would run, so the pads went missing in wasm).
    const std::size_t padded = tokens.size() + static_cast<std::size_t>(config.pads);
    tokens = pad_to(std::move(tokens), padded);
  }
  return tokens;
}

void nearest_valid_heads(int d_model, int heads, int& below, int& above) {
  below = above = 0;
  for (int h = std::min(heads - 1, d_model); h >= 1 && !below; --h)
    if (d_model % h == 0) below = h;
  for (int h = heads + 1; h <= std::min(d_model, ExplorerLimits::kMaxHeads) && !above; ++h)
    if (d_model % h == 0) above = h;
}

std::string check_explorer_config(const ExplorerConfig& c, bool has_trained_weights) {
  using L = ExplorerLimits;
  if (c.input == Input::Text) {
    if (c.d_model < L::kMinDModel || c.d_model > L::kMaxDModel)
      return "d_model: must be between " + std::to_string(L::kMinDModel) + " and " +
             std::to_string(L::kMaxDModel);
    if (c.heads < 1 || c.heads > L::kMaxHeads)
      return "heads: must be between 1 and " + std::to_string(L::kMaxHeads);
    if (c.d_model % c.heads != 0) {
      int below, above;
      nearest_valid_heads(c.d_model, c.heads, below, above);
      std::string s = "heads: " + std::to_string(c.heads) + " does not divide d_model " +
                      std::to_string(c.d_model) + " (each head gets d_model / heads columns); try ";
      if (below) s += std::to_string(below);
      if (below && above) s += " or ";
      if (above) s += std::to_string(above);
      return s;
    }
    if (c.projection == Projection::Chapter && c.d_model / c.heads < 2)
      return "projection: the chapter projections read two features per head, so d_model / heads "
             "must be at least 2";
    if (c.pads < 0 || c.pads > L::kMaxTokens)
      return "mask: the number of pads must be between 0 and " + std::to_string(L::kMaxTokens);
  } else if (c.mask == Mask::Kind::Padding && c.pads > 0) {
    return "mask: pads can only be appended to a text";
  }
  if (c.input == Input::Text && c.projection == Projection::Trained) {
    if (std::string e = check_train_config(trained_recipe(c)); !e.empty()) return "projection: trained model: " + e;
    if (!has_trained_weights && (c.trained_steps < 1 || c.trained_steps > L::kMaxTrainedSteps))
      return "trained_steps: must be between 1 and " + std::to_string(L::kMaxTrainedSteps);
    if (!has_trained_weights && static_cast<long long>(c.trained_steps) * c.d_model * c.d_model > L::kMaxTrainingWork)
      return "trained_steps: retraining " + std::to_string(c.trained_steps) + " steps at d_model " +
             std::to_string(c.d_model) + " is too slow for the explorer (steps x d_model^2 <= " +
             std::to_string(L::kMaxTrainingWork) + ")";
  }
  if (!(c.temperature >= L::kMinTemperature && c.temperature <= L::kMaxTemperature))
    return "temperature: must be between 0.001 and 1000";
  if (c.scale.kind == Scale::Kind::Value && !(c.scale.value > 0.f && c.scale.value <= L::kMaxScale))
    return "scale: must be \"sqrt\", \"none\" or a number > 0 and at most 1000";

  const std::vector<std::string> tokens = explorer_tokens(c);
  if (tokens.empty()) return "text: has no tokens (it is empty or only spaces)";
  if (tokens.size() > static_cast<std::size_t>(L::kMaxTokens))
    return "text: has " + std::to_string(tokens.size()) + " tokens (with pads); the limit is " +
           std::to_string(L::kMaxTokens);
  const auto n = static_cast<Eigen::Index>(tokens.size());
  const long long heads = c.input == Input::Text ? c.heads : 1;  // experiments are small
  if (heads * n * n > L::kMaxWeights)
    return "heads: " + std::to_string(heads) + " heads x " + std::to_string(n) + "^2 tokens is " +
           std::to_string(heads * n * n) + " weights; the limit is " + std::to_string(L::kMaxWeights) +
           " (use fewer heads or a shorter text)";
  if (c.mask == Mask::Kind::Custom && (c.custom_mask.rows() != n || c.custom_mask.cols() != n))
    return "mask: the custom mask is " + std::to_string(c.custom_mask.rows()) + " x " +
           std::to_string(c.custom_mask.cols()) + " but there are " + std::to_string(n) +
           " tokens (one row and one column per token)";
  return {};
}

TrainConfig trained_recipe(const ExplorerConfig& c) {
  TrainConfig t;
  t.d_k = c.d_model;
  t.heads = c.heads;
  t.scaled = c.trained_scaled;
  t.learning_rate = c.trained_learning_rate;
  t.seed = c.seed;
  return t;
}

static HeadSummary summarise(const Matrix& weights) {
  HeadSummary s;
  s.stats = weight_stats(weights);
  s.mean_entropy = weights.rows() ? row_entropy(weights).mean() : 0.f;
  // Computed once per result, not per drawn frame (the stats view plots it).
  s.histogram = histogram(weights.data(), std::size_t(weights.size()), Figure41Config{}.histogram_bins,
                          s.stats.min, s.stats.max);
  return s;
}

// Token embeddings X and the projections, as the config's input and
// projection mode define them.
static void build_inputs(const ExplorerConfig& c, const MultiHeadWeights* trained, ExplorerResult& r) {
  switch (c.input) {
    case Input::Figure41: {
      const Figure41Config f;
      r.X = figure41_input(f);
      r.weights = figure41_projections(f.d_model, f.heads);
      break;
    }
    case Input::Causal: {
      const CausalCompanion companion = run_causal_companion();
      r.X = companion.X;
      r.weights.heads = 1;
      r.weights.W_q = companion.W_q;
      r.weights.W_k = companion.W_k;
      r.weights.W_v = companion.W_v;
      r.weights.W_o = Matrix::Identity(r.X.cols(), r.X.cols());
      break;
    }
    case Input::Text:
      r.X = embed_tokens(r.tokens, c.d_model, c.seed, c.positions);
      switch (c.projection) {
        case Projection::Identity:  // Q = K = V = X: attention by raw similarity
          r.weights.heads = c.heads;
          r.weights.W_q = Matrix::Identity(c.d_model, c.d_model);
          r.weights.W_k = r.weights.W_v = r.weights.W_o = r.weights.W_q;
          break;
        case Projection::Chapter: r.weights = figure41_projections(c.d_model, c.heads); break;
        case Projection::Random: r.weights = random_projections(c.d_model, c.heads, c.seed); break;
        case Projection::Trained: {
          if (trained) {
            r.weights = *trained;
            break;
          }
          // Retrained from the recipe (deterministic, bit-identical in every build),
          // so the config alone reproduces what the lab trained.
          Trainer trainer(trained_recipe(c));
          for (int s = 0; s < c.trained_steps; ++s) trainer.step();
          r.weights = trainer.projections();
          break;
        }
      }
      break;
  }
}

ExplorerResult run_explorer(const ExplorerConfig& c, const ExplorerResult* previous,
                            const MultiHeadWeights* trained) {
  ExplorerResult r;
  r.config = c;
  r.tokens = explorer_tokens(c);
  r.key_valid = key_valid_flags(r.tokens);
  const int n = static_cast<int>(r.tokens.size());

  if (previous && same_inputs(previous->config, c, previous->tokens, r.tokens)) {
    r.X = previous->X;
    r.weights = previous->weights;
  } else {
    build_inputs(c, trained, r);
  }

  AttentionOptions options;
  options.scale = c.scale;
  options.temperature = c.temperature;
  switch (c.mask) {
    case Mask::Kind::None: break;
    case Mask::Kind::Causal: options.mask = Mask::causal(); break;
    case Mask::Kind::Padding: options.mask = Mask::padding(r.key_valid); break;
    case Mask::Kind::Custom: options.mask = Mask::custom(c.custom_mask); break;
  }
  r.attention = multi_head_attention(r.X, r.weights, options);
  for (const HeadResult& head : r.attention.heads) r.summaries.push_back(summarise(head.weights));
  r.average_summary = summarise(r.attention.average_weights);
  const MaskMatrix& allowed = r.attention.heads.front().allowed;
  for (int q = 0; q < n; ++q)
    if (!allowed.row(q).any()) r.fully_masked_queries.push_back(q);
  return r;
}

}  // namespace attn
