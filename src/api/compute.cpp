// compute(): validate a config, run the core, return JSON. See compute.hpp.
//
// The validation order matters for the messages: first "is it JSON", then
// "are all fields known", then each field's type and range, then how the
// fields fit together (shapes, mask size), and only then the maths. The
// core's entry points have preconditions (check_*_shapes / check_explorer_config
// must be empty); everything here exists so that they always hold.
//
// Two paths: explicit Q/K/V matrices go straight to scaled_dot_product_attention;
// text and experiment configs are explorer configs (explorer_json.hpp), the
// same set-up the UI runs, so a view's numbers can be reproduced from its config.
#include "compute.hpp"

#include <algorithm>
#include <initializer_list>

#include "core/explorer/explorer.hpp"
#include "api/explorer/explorer_json.hpp"
#include "api/given/given_json.hpp"
#include "json_input.hpp"
#include "json_output.hpp"

namespace attn::api {
namespace {

using L = ExplorerLimits;
// Bounds tokens x d_model (the output rows of the answer). heads x tokens^2
// is bounded by the core (ExplorerLimits::kMaxWeights): the UI's largest
// view, 16 heads x 512^2 tokens, can be reproduced (about 150 MB of JSON: big,
// but a debugging dump, not something drawn per frame).
constexpr long long kMaxOutputCells = 1LL << 20;

const std::initializer_list<const char*> kExplicitFields = {"Q", "K", "V", "mask", "scale", "temperature"};

ComputeResult fail(const std::string& message) { return {false, dump(OutJson{{"error", message}})}; }
ComputeResult succeed(const OutJson& result) { return {true, dump(result)}; }


// The inputs are finite, so a NaN/inf here means float32 overflowed.
// raw_field names what to fix when Q K^T itself overflows.
std::string check_finite(const AttentionResult& r, float temperature, const std::string& raw_field) {
  if (!r.raw_scores.allFinite()) return raw_field + ": values too large: Q K^T overflows float32";
  if (!r.scaled_scores.allFinite())
    return temperature < 1.f
               ? "temperature: too small: the scaled scores (Q K^T x scale / temperature) overflow float32"
               : "scale: too large: the scaled scores (Q K^T x scale / temperature) overflow float32";
  if (!r.output.allFinite()) return "V: values too large: weights V overflows float32";
  return {};
}

// ---- {"Q", "K", "V", "mask", "scale", "temperature"} ---------------------------
ComputeResult compute_explicit(const Json& config) {
  for (const auto& item : config.items())
    if (!contains(kExplicitFields, item.key()))
      return fail(field_name(item.key()) + ": unknown field (a Q/K/V config takes " +
                  joined(kExplicitFields) + ")");
  Matrix QKV[3];
  const char* names[3] = {"Q", "K", "V"};
  for (int i = 0; i < 3; ++i) {
    const Json* v = find_field(config, names[i]);
    if (!v) return fail(std::string(names[i]) + ": missing (a Q/K/V config needs all three)");
    if (std::string e = read_matrix(*v, names[i], L::kMaxTokens, L::kMaxDModel, QKV[i]); !e.empty())
      return fail(e);
  }
  const Matrix &Q = QKV[0], &K = QKV[1], &V = QKV[2];

  AttentionOptions options;
  if (const Json* v = find_field(config, "scale"))
    if (std::string e = read_scale(*v, "scale", options.scale); !e.empty()) return fail(e);
  if (const Json* v = find_field(config, "temperature"))
    if (std::string e = read_positive_float(*v, "temperature", options.temperature); !e.empty())
      return fail(e);
  if (const Json* m = find_field(config, "mask")) {
    MaskSpec spec;
    if (std::string e = read_mask(*m, "mask", L::kMaxTokens, spec); !e.empty()) return fail(e);
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
  if (std::string e = check_finite(r, options.temperature, "Q"); !e.empty()) return fail(e);
  // One head: "average" is that head's weights; there are no token names.
  return succeed({{"tokens", OutJson::array()},
                  {"scores", to_json(r.raw_scores)},
                  {"scaled_scores", to_json(r.scaled_scores)},
                  {"weights", to_json(r.weights)},
                  {"output", to_json(r.output)},
                  {"average", to_json(r.weights)}});
}

// ---- text and experiment configs: the explorer ---------------------------------
ComputeResult compute_explorer(const Json& json) {
  ExplorerConfig config;
  if (std::string e = read_explorer_config(json, config); !e.empty()) return fail(e);
  if (std::string e = check_explorer_config(config); !e.empty()) return fail(e);
  if (config.input == Input::Text) {  // the experiments are small and fixed
    const long long n = static_cast<long long>(explorer_tokens(config).size());
    const long long outputs = n * config.d_model;
    if (outputs > kMaxOutputCells)
      return fail("d_model: " + std::to_string(n) + " tokens x d_model " + std::to_string(config.d_model) +
                  " is " + std::to_string(outputs) + " outputs; the limit is " +
                  std::to_string(kMaxOutputCells) + " (use a smaller d_model or a shorter text)");
  }
  // The result and its JSON text: about 12 bytes a number where the result
  // holds 4 (measured: 501 tokens x 16 heads, 52 MiB peak, 139 MiB of JSON).
  if (std::string e = check_memory_available(4 * explorer_peak_bytes(config)); !e.empty()) return fail(e);
  const ExplorerResult r = run_explorer(config);
  for (const HeadResult& head : r.attention.heads)
    if (std::string e = check_finite(head, config.temperature, "text"); !e.empty()) return fail(e);
  if (!r.attention.output.allFinite()) return fail("text: values too large: the output overflows float32");
  return {true, print_explorer_result(r)};
}

// Weights computed elsewhere: read and checked as the lab's `given` field, and
// returned as the lab reads them ({given: rows x cols x queries x keys, shape}).
ComputeResult compute_given(const Json& config) {
  if (config.size() != 1) return fail("given: a given-weights config has no other fields");
  GivenWeights given;
  if (std::string e = read_given(config["given"], &given); !e.empty()) return fail(e);
  const Json out = {{"given", given_json(given)}, {"shape", {given.rows, given.cols, given.queries(), given.keys()}}};
  return {true, out.dump()};
}

}  // namespace

ComputeResult compute(const std::string& config_json) {
  Json config;
  if (std::string e = parse_config(config_json, config); !e.empty()) return fail(e);
  if (!config.is_object()) return fail("config: expected a JSON object, got " + describe(config));
  // An unknown key is reported as such, before "which kind of config is this".
  for (const auto& item : config.items())
    if (!contains(kExplicitFields, item.key()) && !is_explorer_field(item.key()) && item.key() != "given")
      return fail(field_name(item.key()) + ": unknown field (expected Q/K/V, text or experiment configs)");
  if (find_field(config, "given")) return compute_given(config);
  if (find_field(config, "experiment") || find_field(config, "text")) return compute_explorer(config);
  if (find_field(config, "Q") || find_field(config, "K") || find_field(config, "V")) return compute_explicit(config);
  return fail("config: needs \"Q\"/\"K\"/\"V\", \"text\", \"experiment\" or \"given\"");
}

}  // namespace attn::api
