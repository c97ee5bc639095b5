// compute(): validate a config, run the core, return JSON. See compute.hpp.
//
// The validation order matters for the messages: first "is it JSON", then
// "are all fields known", then each field's type and range, then how the
// fields fit together (shapes, mask size), and only then the maths. The
// core's entry points have preconditions (check_*_shapes must be empty);
// everything here exists so that they always hold.
#include "compute.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "core/experiments.hpp"
#include "core/multihead.hpp"
#include "core/sentence.hpp"
#include "core/tokenizer.hpp"
#include "json_input.hpp"
#include "json_output.hpp"

namespace attn::api {
namespace {

constexpr int kMaxTokens = 1024;   // also the row limit of explicit Q, K, V
constexpr int kMaxDModel = 4096;   // also the column limit of explicit Q, K, V
// Bounds heads x tokens^2 (three such tensors in the answer) and tokens x
// d_model (the output): the JSON answer stays within a few tens of MB, which
// matters most in the browser.
constexpr long long kMaxScoreCells = 1LL << 20;

constexpr int kDefaultDModel = 32;
constexpr int kDefaultHeads = 1;
constexpr uint64_t kDefaultSeed = 0;

const std::initializer_list<const char*> kExplicitFields = {"Q", "K", "V", "mask", "scale"};
const std::initializer_list<const char*> kTextFields = {"text", "d_model", "heads", "seed", "mask", "scale"};
const std::initializer_list<const char*> kExperimentFields = {"experiment"};

ComputeResult fail(const std::string& message) { return {false, dump(OutJson{{"error", message}})}; }
ComputeResult succeed(const OutJson& result) { return {true, dump(result)}; }

bool contains(std::initializer_list<const char*> names, const std::string& key) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return key == n; });
}

std::string joined(std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

// Every key must belong to the config's kind; the message lists what would fit.
std::string check_fields(const Json& config, std::initializer_list<const char*> allowed,
                         const std::string& kind) {
  for (const auto& item : config.items())
    if (!contains(allowed, item.key()))
      return field_name(item.key()) + ": unknown field (" + kind + " takes " + joined(allowed) + ")";
  return {};
}

const Json* find(const Json& config, const char* key) {
  const auto it = config.find(key);
  return it == config.end() ? nullptr : &*it;
}

// Nearest divisors of d_model below and above heads, for the error message.
std::string heads_suggestion(int d_model, int heads) {
  int below = 0, above = 0;
  for (int h = std::min(heads, d_model); h >= 1 && !below; --h)
    if (d_model % h == 0 && h != heads) below = h;
  for (int h = heads + 1; h <= d_model && !above; ++h)
    if (d_model % h == 0) above = h;
  std::string s = "nearest valid values: " + std::to_string(below);
  if (above) s += " or " + std::to_string(above);
  return s;
}

std::string check_finite(const AttentionResult& r) {
  // The inputs are finite, so a NaN/inf here means float32 overflowed.
  if (!r.raw_scores.allFinite()) return "Q: values too large: Q K^T overflows float32";
  if (!r.scaled_scores.allFinite()) return "scale: too large: the scaled scores overflow float32";
  if (!r.output.allFinite()) return "V: values too large: weights V overflows float32";
  return {};
}

std::string read_scale_field(const Json& config, Scale& scale) {
  const Json* v = find(config, "scale");
  return v ? read_scale(*v, "scale", scale) : std::string();
}

// ---- {"Q", "K", "V", "mask", "scale"} -----------------------------------------
ComputeResult compute_explicit(const Json& config) {
  if (std::string e = check_fields(config, kExplicitFields, "a Q/K/V config"); !e.empty()) return fail(e);
  Matrix QKV[3];
  const char* names[3] = {"Q", "K", "V"};
  for (int i = 0; i < 3; ++i) {
    const Json* v = find(config, names[i]);
    if (!v) return fail(std::string(names[i]) + ": missing (a Q/K/V config needs all three)");
    if (std::string e = read_matrix(*v, names[i], kMaxTokens, kMaxDModel, QKV[i]); !e.empty())
      return fail(e);
  }
  const Matrix &Q = QKV[0], &K = QKV[1], &V = QKV[2];

  AttentionOptions options;
  if (std::string e = read_scale_field(config, options.scale); !e.empty()) return fail(e);
  if (const Json* m = find(config, "mask")) {
    MaskSpec spec;
    if (std::string e = read_mask(*m, "mask", kMaxTokens, spec); !e.empty()) return fail(e);
    switch (spec.kind) {
      case MaskSpec::Kind::None: break;
      case MaskSpec::Kind::Causal: options.mask = Mask::causal(); break;
      case MaskSpec::Kind::Custom: options.mask = Mask::custom(spec.allowed); break;
      case MaskSpec::Kind::Padding:
      case MaskSpec::Kind::AppendPads:
        return fail("mask: padding masks need a text config (explicit Q/K/V has no pad tokens)");
    }
  }
  if (std::string e = check_attention_shapes(Q, K, V, options); !e.empty()) {
    // Name the field to fix: the core's message says what does not fit.
    const char* field = Q.cols() != K.cols() ? "K" : K.rows() != V.rows() ? "V" : "mask";
    return fail(std::string(field) + ": " + e);
  }

  const AttentionResult r = scaled_dot_product_attention(Q, K, V, options);
  if (std::string e = check_finite(r); !e.empty()) return fail(e);
  // One head: "average" is that head's weights; there are no token names.
  return succeed({{"tokens", OutJson::array()},
                  {"scores", to_json(r.raw_scores)},
                  {"scaled_scores", to_json(r.scaled_scores)},
                  {"weights", to_json(r.weights)},
                  {"output", to_json(r.output)},
                  {"average", to_json(r.weights)}});
}

// ---- {"text", "d_model", "heads", "seed", "mask", "scale"} --------------------
ComputeResult compute_text(const Json& config) {
  if (std::string e = check_fields(config, kTextFields, "a text config"); !e.empty()) return fail(e);
  const Json& text = *find(config, "text");
  if (!text.is_string()) return fail("text: expected a string, got " + describe(text));
  std::vector<std::string> tokens = tokenize(text.get_ref<const std::string&>());
  if (tokens.empty()) return fail("text: has no tokens (it is empty or only spaces)");
  if (tokens.size() > static_cast<std::size_t>(kMaxTokens))
    return fail("text: has " + std::to_string(tokens.size()) + " tokens; the limit is " +
                std::to_string(kMaxTokens));

  int d_model = kDefaultDModel, heads = kDefaultHeads;
  uint64_t seed = kDefaultSeed;
  if (const Json* v = find(config, "d_model"))
    if (std::string e = read_int(*v, "d_model", 1, kMaxDModel, d_model); !e.empty()) return fail(e);
  if (const Json* v = find(config, "heads"))
    if (std::string e = read_int(*v, "heads", 1, kMaxDModel, heads); !e.empty()) return fail(e);
  if (d_model % heads != 0)
    return fail("heads: " + std::to_string(heads) + " does not divide d_model " +
                std::to_string(d_model) + " (each head gets d_model / heads columns); " +
                heads_suggestion(d_model, heads));
  if (const Json* v = find(config, "seed"))
    if (std::string e = read_seed(*v, "seed", seed); !e.empty()) return fail(e);

  AttentionOptions options;
  if (std::string e = read_scale_field(config, options.scale); !e.empty()) return fail(e);
  MaskSpec spec;
  if (const Json* m = find(config, "mask"))
    if (std::string e = read_mask(*m, "mask", kMaxTokens, spec); !e.empty()) return fail(e);
  if (spec.kind == MaskSpec::Kind::AppendPads) {
    if (tokens.size() + static_cast<std::size_t>(spec.pads) > static_cast<std::size_t>(kMaxTokens))
      return fail("mask.pad: " + std::to_string(tokens.size()) + " tokens + " +
                  std::to_string(spec.pads) + " pads exceeds the limit of " +
                  std::to_string(kMaxTokens) + " tokens");
    const std::size_t padded = tokens.size() + static_cast<std::size_t>(spec.pads);
    tokens = pad_to(std::move(tokens), padded);
  }
  const int n = static_cast<int>(tokens.size());
  if (static_cast<long long>(heads) * n * n > kMaxScoreCells)
    return fail("heads: " + std::to_string(heads) + " heads x " + std::to_string(n) + "^2 tokens is " +
                std::to_string(static_cast<long long>(heads) * n * n) + " weights; the limit is " +
                std::to_string(kMaxScoreCells) + " (use fewer heads or a shorter text)");
  if (static_cast<long long>(n) * d_model > kMaxScoreCells)
    return fail("d_model: " + std::to_string(n) + " tokens x d_model " + std::to_string(d_model) +
                " is " + std::to_string(static_cast<long long>(n) * d_model) + " outputs; the limit is " +
                std::to_string(kMaxScoreCells) + " (use a smaller d_model or a shorter text)");
  switch (spec.kind) {
    case MaskSpec::Kind::None: break;
    case MaskSpec::Kind::Causal: options.mask = Mask::causal(); break;
    case MaskSpec::Kind::Padding:
    case MaskSpec::Kind::AppendPads: options.mask = Mask::padding(key_valid_flags(tokens)); break;
    case MaskSpec::Kind::Custom: options.mask = Mask::custom(spec.allowed); break;
  }
  MaskMatrix allowed;
  if (std::string e = build_mask(options.mask, n, n, allowed); !e.empty())
    return fail("mask: " + e + " (one row and column per token)");

  const Matrix X = embed_tokens(tokens, d_model, seed, /*positions=*/false);
  const MultiHeadWeights weights = random_projections(d_model, heads, seed);
  if (std::string e = check_multi_head_shapes(X, weights); !e.empty()) return fail("config: " + e);
  const MultiHeadResult r = multi_head_attention(X, weights, options);
  for (const HeadResult& head : r.heads)
    if (std::string e = check_finite(head); !e.empty()) return fail(e);

  return succeed({{"tokens", to_json(tokens)},
                  {"scores", heads_json(r, HeadField::RawScores)},
                  {"scaled_scores", heads_json(r, HeadField::ScaledScores)},
                  {"weights", heads_json(r, HeadField::Weights)},
                  {"output", to_json(r.output)},
                  {"average", to_json(r.average_weights)}});
}

// ---- {"experiment": "fig41"} ---------------------------------------------------
ComputeResult compute_experiment(const Json& config) {
  if (std::string e = check_fields(config, kExperimentFields, "an experiment config"); !e.empty())
    return fail(e);
  const Json& name = *find(config, "experiment");
  if (!name.is_string() || name.get_ref<const std::string&>() != "fig41")
    return fail("experiment: unknown experiment " + describe(name) + "; expected \"fig41\"");
  const Figure41 f = run_figure41();
  return succeed({{"tokens", to_json(f.tokens)},
                  {"scores", heads_json(f.result, HeadField::RawScores)},
                  {"scaled_scores", heads_json(f.result, HeadField::ScaledScores)},
                  {"weights", heads_json(f.result, HeadField::Weights)},
                  {"output", to_json(f.result.output)},
                  {"average", to_json(f.result.average_weights)},
                  {"stats", stats_json(f.head_stats)},
                  {"top_keys", top_keys_json(f.top_keys)}});
}

}  // namespace

ComputeResult compute(const std::string& config_json) {
  Json config;
  if (std::string e = parse_config(config_json, config); !e.empty()) return fail(e);
  if (!config.is_object()) return fail("config: expected a JSON object, got " + describe(config));
  // An unknown key is reported as such, before "which kind of config is this".
  for (const auto& item : config.items())
    if (!contains(kExplicitFields, item.key()) && !contains(kTextFields, item.key()) &&
        !contains(kExperimentFields, item.key()))
      return fail(field_name(item.key()) + ": unknown field (expected Q/K/V, text or experiment configs)");
  if (find(config, "experiment")) return compute_experiment(config);
  if (find(config, "text")) return compute_text(config);
  if (find(config, "Q") || find(config, "K") || find(config, "V")) return compute_explicit(config);
  return fail("config: needs \"Q\"/\"K\"/\"V\", \"text\" or \"experiment\"");
}

}  // namespace attn::api
