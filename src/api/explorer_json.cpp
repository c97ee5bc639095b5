// ExplorerConfig <-> JSON and the explorer's result as JSON. See explorer_json.hpp.
//
// Like the rest of src/api this never throws: the wasm build has no
// exceptions and JSON_NOEXCEPTION turns every nlohmann throw into abort(),
// so values are only read after their type has been checked (json_input.hpp).
#include "explorer_json.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>

#include "json_output.hpp"

namespace attn::api {
namespace {

// Printed configs keep their fields in a reading order (input first), with
// float32 numbers so a temperature of 0.1 prints as 0.1 and reads back exactly.
using OrderedJson = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool,
                                         std::int64_t, std::uint64_t, float>;

const std::initializer_list<const char*> kTextFields = {
    "text",          "d_model",        "heads",      "seed",        "projection", "positions",
    "trained_steps", "trained_scaled", "trained_lr", "temperature", "scale",      "mask"};
const std::initializer_list<const char*> kExperimentFields = {"experiment", "temperature", "scale",
                                                              "mask"};


std::string read_experiment(const Json& value, Input& out) {
  const std::string expected = "expected \"fig41\" or \"causal\"";
  if (!value.is_string()) return "experiment: " + expected + ", got " + describe(value);
  const std::string& name = value.get_ref<const std::string&>();
  if (name == input_name(Input::Figure41)) { out = Input::Figure41; return {}; }
  if (name == input_name(Input::Causal)) { out = Input::Causal; return {}; }
  return "experiment: unknown experiment " + quoted(name) + "; " + expected;
}

std::string read_projection(const Json& value, Projection& out) {
  const std::string expected = "expected \"random\", \"identity\", \"chapter\" or \"trained\"";
  if (!value.is_string()) return "projection: " + expected + ", got " + describe(value);
  const std::string& name = value.get_ref<const std::string&>();
  for (Projection p : {Projection::Random, Projection::Identity, Projection::Chapter, Projection::Trained})
    if (name == projection_name(p)) {
      out = p;
      return {};
    }
  return "projection: unknown projection " + quoted(name) + "; " + expected;
}

// "padding" and {"pad": k} are one mask kind: pads = how many [PAD] tokens to append.
void apply_mask(MaskSpec& spec, ExplorerConfig& out) {
  out.pads = 0;
  switch (spec.kind) {
    case MaskSpec::Kind::None: out.mask = Mask::Kind::None; break;
    case MaskSpec::Kind::Causal: out.mask = Mask::Kind::Causal; break;
    case MaskSpec::Kind::Padding: out.mask = Mask::Kind::Padding; break;
    case MaskSpec::Kind::AppendPads:
      out.mask = Mask::Kind::Padding;
      out.pads = spec.pads;
      break;
    case MaskSpec::Kind::Custom:
      out.mask = Mask::Kind::Custom;
      out.custom_mask = std::move(spec.allowed);
      break;
  }
}

OrderedJson scale_json(const Scale& scale) {
  switch (scale.kind) {
    case Scale::Kind::Sqrt: return "sqrt";
    case Scale::Kind::None: return "none";
    case Scale::Kind::Value: return scale.value;
  }
  return "sqrt";
}

OrderedJson mask_json(const ExplorerConfig& c) {
  switch (c.mask) {
    case Mask::Kind::None: return "none";
    case Mask::Kind::Causal: return "causal";
    case Mask::Kind::Padding: return c.pads > 0 ? OrderedJson{{"pad", c.pads}} : OrderedJson("padding");
    case Mask::Kind::Custom: {
      OrderedJson rows = OrderedJson::array();
      for (Eigen::Index r = 0; r < c.custom_mask.rows(); ++r) {
        OrderedJson row = OrderedJson::array();
        for (Eigen::Index k = 0; k < c.custom_mask.cols(); ++k) row.push_back(c.custom_mask(r, k) ? 1 : 0);
        rows.push_back(std::move(row));
      }
      return rows;
    }
  }
  return "none";
}

// ---- the result, written piece by piece ---------------------------------------
// A 512-token, 16-head answer holds three 16 x 512 x 512 tensors: building one
// JSON tree for it would cost several times the text itself, so only one row
// at a time becomes a JSON value.
class ResultWriter {
 public:
  explicit ResultWriter(std::size_t reserve) { out_.reserve(reserve); out_ += '{'; }

  void key(const char* name) {
    if (out_.size() > 1) out_ += ',';
    out_ += '"';
    out_ += name;
    out_ += "\":";
  }
  void value(const OutJson& j) { out_ += dump(j); }
  void matrix(const Matrix& m) {
    out_ += '[';
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
      if (r) out_ += ',';
      OutJson row = OutJson::array();
      for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
      out_ += dump(row);
    }
    out_ += ']';
  }
  void heads(const MultiHeadResult& result, HeadField field) {
    out_ += '[';
    for (std::size_t h = 0; h < result.heads.size(); ++h) {
      if (h) out_ += ',';
      const HeadResult& head = result.heads[h];
      matrix(field == HeadField::RawScores      ? head.raw_scores
             : field == HeadField::ScaledScores ? head.scaled_scores
                                                : head.weights);
    }
    out_ += ']';
  }
  std::string finish() {
    out_ += '}';
    return std::move(out_);
  }

 private:
  std::string out_;
};

OutJson summary_json(const HeadSummary& s) {
  return {{"min", s.stats.min}, {"max", s.stats.max}, {"mean", s.stats.mean},
          {"mean_entropy", s.mean_entropy}};
}

// Per query, up to three keys with the largest head-average weight. Masked
// keys (weight exactly 0 in every head) are left out, so a fully masked query
// has none: listing them would suggest the query looks at them.
OutJson top_keys_of(const ExplorerResult& r) {
  constexpr int kTopK = 3;  // the chapter's console report (Figure41Config::top_k)
  const Matrix& average = r.attention.average_weights;
  const MaskMatrix& allowed = r.attention.heads.front().allowed;
  std::vector<std::vector<int>> top;
  for (Eigen::Index q = 0; q < average.rows(); ++q) {
    std::vector<int> keys;
    for (int k : top_k(average.row(q).data(), static_cast<int>(average.cols()),
                       static_cast<int>(average.cols())))
      if (allowed(q, k) && static_cast<int>(keys.size()) < kTopK) keys.push_back(k);
    top.push_back(std::move(keys));
  }
  return top_keys_json(top);
}

}  // namespace

std::string read_explorer_config(const Json& config, ExplorerConfig& out) {
  out = ExplorerConfig{};
  if (!config.is_object()) return "config: expected a JSON object, got " + describe(config);
  const bool experiment = find_field(config, "experiment") != nullptr;
  // Field names first, then each field's type and range (in reading order).
  for (const auto& item : config.items()) {
    if (experiment && item.key() == "text")
      return "text: a config has either \"text\" or \"experiment\", not both";
    if (experiment && !contains(kExperimentFields, item.key()) && contains(kTextFields, item.key()))
      return field_name(item.key()) + ": only text configs take it (an experiment config takes " +
             joined(kExperimentFields) + ")";
    if (!contains(experiment ? kExperimentFields : kTextFields, item.key()))
      return field_name(item.key()) + ": unknown field (" +
             (experiment ? "an experiment config takes " + joined(kExperimentFields)
                         : "a text config takes " + joined(kTextFields)) + ")";
  }
  using L = ExplorerLimits;
  if (experiment) {
    if (std::string e = read_experiment(*find_field(config, "experiment"), out.input); !e.empty()) return e;
  } else {
    const Json* text = find_field(config, "text");
    if (!text) return "text: missing (a config needs \"text\" or \"experiment\")";
    if (!text->is_string()) return "text: expected a string, got " + describe(*text);
    out.text = text->get_ref<const std::string&>();
    if (const Json* v = find_field(config, "d_model"))
      if (std::string e = read_int(*v, "d_model", L::kMinDModel, L::kMaxDModel, out.d_model); !e.empty())
        return e;
    if (const Json* v = find_field(config, "heads"))
      if (std::string e = read_int(*v, "heads", 1, L::kMaxHeads, out.heads); !e.empty()) return e;
    if (const Json* v = find_field(config, "seed"))
      if (std::string e = read_seed(*v, "seed", out.seed); !e.empty()) return e;
    if (const Json* v = find_field(config, "projection"))
      if (std::string e = read_projection(*v, out.projection); !e.empty()) return e;
    if (const Json* v = find_field(config, "positions"))
      if (std::string e = read_bool(*v, "positions", out.positions); !e.empty()) return e;
    // The trained projection's recipe (see ExplorerConfig): only with "projection": "trained".
    const char* trained_fields[] = {"trained_steps", "trained_scaled", "trained_lr"};
    for (const char* f : trained_fields)
      if (find_field(config, f) && out.projection != Projection::Trained)
        return std::string(f) + ": only with \"projection\": \"trained\"";
    if (const Json* v = find_field(config, "trained_steps"))
      if (std::string e = read_int(*v, "trained_steps", 1, L::kMaxTrainedSteps, out.trained_steps); !e.empty())
        return e;
    if (const Json* v = find_field(config, "trained_scaled"))
      if (std::string e = read_bool(*v, "trained_scaled", out.trained_scaled); !e.empty()) return e;
    if (const Json* v = find_field(config, "trained_lr"))
      if (std::string e = read_positive_float(*v, "trained_lr", out.trained_learning_rate); !e.empty()) return e;
  }
  if (const Json* v = find_field(config, "temperature"))
    if (std::string e = read_positive_float(*v, "temperature", out.temperature); !e.empty()) return e;
  if (const Json* v = find_field(config, "scale"))
    if (std::string e = read_scale(*v, "scale", out.scale); !e.empty()) return e;
  if (const Json* v = find_field(config, "mask")) {
    MaskSpec spec;
    if (std::string e = read_mask(*v, "mask", L::kMaxTokens, spec); !e.empty()) return e;
    apply_mask(spec, out);
  }
  return {};
}

std::string parse_explorer_config(const std::string& json_text, ExplorerConfig& out) {
  Json config;
  if (std::string e = parse_config(json_text, config); !e.empty()) {
    out = ExplorerConfig{};
    return e;
  }
  return read_explorer_config(config, out);
}

std::string print_explorer_config(const ExplorerConfig& c) {
  OrderedJson j = OrderedJson::object();
  if (c.input == Input::Text) {
    j["text"] = c.text;
    j["d_model"] = c.d_model;
    j["heads"] = c.heads;
    j["seed"] = c.seed;
    j["projection"] = projection_name(c.projection);
    j["positions"] = c.positions;
    if (c.projection == Projection::Trained) {
      j["trained_steps"] = c.trained_steps;
      j["trained_scaled"] = c.trained_scaled;
      j["trained_lr"] = c.trained_learning_rate;
    }
  } else {
    j["experiment"] = input_name(c.input);
  }
  j["temperature"] = c.temperature;
  j["scale"] = scale_json(c.scale);
  j["mask"] = mask_json(c);
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

std::string print_explorer_result(const ExplorerResult& r) {
  const std::size_t n = r.tokens.size(), heads = r.attention.heads.size();
  // ~12 characters per number: three [head][n][n] tensors, the average, the output.
  ResultWriter w(12 * (3 * heads * n * n + n * n + static_cast<std::size_t>(r.attention.output.size())));
  // Keys in alphabetical order, as the JSON objects of the explicit Q/K/V answer.
  w.key("average");
  w.matrix(r.attention.average_weights);
  w.key("average_stats");
  w.value(summary_json(r.average_summary));
  w.key("fully_masked");
  w.value(r.fully_masked_queries);
  w.key("key_valid");
  OutJson valid = OutJson::array();
  for (bool v : r.key_valid) valid.push_back(v);
  w.value(valid);
  w.key("output");
  w.matrix(r.attention.output);
  w.key("scaled_scores");
  w.heads(r.attention, HeadField::ScaledScores);
  w.key("scores");
  w.heads(r.attention, HeadField::RawScores);
  w.key("stats");
  OutJson stats = OutJson::array();
  for (std::size_t h = 0; h < r.summaries.size(); ++h) {
    const HeadSummary& s = r.summaries[h];
    stats.push_back({{"head", h}, {"min", s.stats.min}, {"max", s.stats.max}, {"mean", s.stats.mean},
                     {"mean_entropy", s.mean_entropy}});
  }
  w.value(stats);
  w.key("tokens");
  w.value(to_json(r.tokens));
  w.key("top_keys");
  w.value(top_keys_of(r));
  w.key("weights");
  w.heads(r.attention, HeadField::Weights);
  return w.finish();
}

}  // namespace attn::api
