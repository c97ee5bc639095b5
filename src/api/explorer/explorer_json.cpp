// ExplorerConfig <-> JSON and the explorer's result as JSON. See explorer_json.hpp.
//
// Like the rest of src/api this never throws: the wasm build has no
// exceptions and JSON_NOEXCEPTION turns every nlohmann throw into abort(),
// so values are only read after their type has been checked (json_input.hpp).
#include "explorer_json.hpp"

#include <algorithm>
#include <map>
#include <type_traits>
#include <variant>

#include "core/explorer/explorer_fields.hpp"
#include "api/json_output.hpp"

namespace attn::api {
namespace {

// Printed configs keep their fields in a reading order (input first), with
// float32 numbers so a temperature of 0.1 prints as 0.1 and reads back exactly.
using OrderedJson = nlohmann::basic_json<nlohmann::ordered_map, std::vector, std::string, bool,
                                         std::int64_t, std::uint64_t, float>;

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

namespace {

// "a, b, c": the keys a config of this kind takes, in the table's order.
std::string field_names(bool experiment) {
  std::string names;
  for (const ExplorerField& field : explorer_fields())
    if (field_applies(field, experiment)) names += (names.empty() ? "" : ", ") + std::string(field.name);
  return names;
}

const ExplorerField* find_explorer_field(const std::string& key) {
  for (const ExplorerField& field : explorer_fields())
    if (key == field.name) return &field;
  return nullptr;
}

// One field's value into its member; the member's type says how to read it.
std::string read_field(const ExplorerField& field, const Json& value, ExplorerConfig& out) {
  const std::string name = field.name;
  return std::visit(
      [&](auto member) -> std::string {
        using M = decltype(member);
        if constexpr (std::is_same_v<M, std::string ExplorerConfig::*>) {
          if (!value.is_string()) return name + ": expected a string, got " + describe(value);
          if (std::string why = check_text(value.get_ref<const std::string&>()); !why.empty())
            return name + ": " + why;
          out.*member = value.get_ref<const std::string&>();
          return {};
        } else if constexpr (std::is_same_v<M, Input ExplorerConfig::*>) {
          return read_experiment(value, out.*member);
        } else if constexpr (std::is_same_v<M, int ExplorerConfig::*>) {
          return read_int(value, name, int(field.lo), int(field.hi), out.*member);
        } else if constexpr (std::is_same_v<M, uint64_t ExplorerConfig::*>) {
          return read_seed(value, name, out.*member);
        } else if constexpr (std::is_same_v<M, bool ExplorerConfig::*>) {
          return read_bool(value, name, out.*member);
        } else if constexpr (std::is_same_v<M, float ExplorerConfig::*>) {
          return read_positive_float(value, name, out.*member);
        } else if constexpr (std::is_same_v<M, Scale ExplorerConfig::*>) {
          return read_scale(value, name, out.*member);
        } else if constexpr (std::is_same_v<M, Projection ExplorerConfig::*>) {
          return read_projection(value, out.*member);
        } else {
          static_assert(std::is_same_v<M, MaskMembers>, "read_field: a member type without a reader");
          MaskSpec spec;
          if (std::string e = read_mask(value, name, ExplorerLimits::kMaxTokens, spec); !e.empty()) return e;
          apply_mask(spec, out);
          return {};
        }
      },
      field.member);
}

// One field's value as printed.
OrderedJson field_json(const ExplorerField& field, const ExplorerConfig& c) {
  return std::visit(
      [&](auto member) -> OrderedJson {
        using M = decltype(member);
        if constexpr (std::is_same_v<M, Input ExplorerConfig::*>) return input_name(c.*member);
        else if constexpr (std::is_same_v<M, Scale ExplorerConfig::*>) return scale_json(c.*member);
        else if constexpr (std::is_same_v<M, Projection ExplorerConfig::*>) return projection_name(c.*member);
        else if constexpr (std::is_same_v<M, MaskMembers>) return mask_json(c);
        else {
          using T = std::decay_t<decltype(c.*member)>;
          static_assert(!std::is_enum_v<T>, "field_json: an enum member needs its name printed");
          return c.*member;
        }
      },
      field.member);
}

// Whether the canonical form of c prints the field.
bool printed(const ExplorerField& field, const ExplorerConfig& c) {
  return field_applies(field, c.input != Input::Text) &&
         (field.scope != FieldScope::Trained || c.projection == Projection::Trained);
}

// Every key of `config` is a field that a config of its kind (experiment or
// text) takes.
std::string check_field_names(const Json& config, bool experiment) {
  for (const auto& item : config.items()) {
    const ExplorerField* field = find_explorer_field(item.key());
    if (experiment && item.key() == "text")
      return "text: a config has either \"text\" or \"experiment\", not both";
    if (experiment && field && !field_applies(*field, true))
      return field_name(item.key()) + ": only text configs take it (an experiment config takes " +
             field_names(true) + ")";
    if (!field)
      return field_name(item.key()) + ": unknown field (" +
             (experiment ? "an experiment config takes " : "a text config takes ") + field_names(experiment) + ")";
  }
  return {};
}

}  // namespace

std::string read_explorer_config(const Json& config, ExplorerConfig& out) {
  out = ExplorerConfig{};
  if (!config.is_object()) return "config: expected a JSON object, got " + describe(config);
  const bool experiment = find_field(config, "experiment") != nullptr;
  // Field names first, then each field's type and range (in the table's order).
  if (std::string e = check_field_names(config, experiment); !e.empty()) return e;
  for (const ExplorerField& field : explorer_fields()) {
    if (!field_applies(field, experiment)) continue;
    const Json* value = find_field(config, field.name);
    if (!value) {
      if (field.scope == FieldScope::TextInput) return "text: missing (a config needs \"text\" or \"experiment\")";
      continue;
    }
    // The trained projection's recipe (see ExplorerConfig): only with "projection": "trained".
    if (field.scope == FieldScope::Trained && out.projection != Projection::Trained)
      return std::string(field.name) + ": only with \"projection\": \"trained\"";
    if (std::string e = read_field(field, *value, out); !e.empty()) return e;
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
  for (const ExplorerField& field : explorer_fields())
    if (printed(field, c)) j[field.name] = field_json(field, c);
  return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

namespace {

// A field's member(s) back to the defaults' value.
void reset_field(const ExplorerField& field, const ExplorerConfig& defaults, ExplorerConfig& c) {
  std::visit(
      [&](auto member) {
        if constexpr (std::is_same_v<decltype(member), MaskMembers>) {
          c.mask = defaults.mask;
          c.pads = defaults.pads;
          c.custom_mask = defaults.custom_mask;
        } else {
          c.*member = defaults.*member;
        }
      },
      field.member);
}

}  // namespace

// The config read_explorer_config would give for the printed config with
// `fields` merged into it, built without printing or parsing: the fields the
// canonical form leaves out and those the change drops go back to their
// defaults, and only the fields given are read (and so checked).
std::string update_explorer_config(const Json& fields, ExplorerConfig& config) {
  if (!fields.is_object()) return "config: expected a JSON object, got " + describe(fields);
  const bool to_text = find_field(fields, "text") != nullptr;
  const bool to_experiment = find_field(fields, "experiment") != nullptr;
  const bool to_untrained = find_field(fields, "projection") && !(fields["projection"] == "trained");
  const bool experiment = to_experiment || (config.input != Input::Text && !to_text);
  if (std::string e = check_field_names(fields, experiment); !e.empty()) return e;
  const ExplorerConfig defaults;
  ExplorerConfig updated = config;
  for (const ExplorerField& field : explorer_fields()) {
    const bool drop = !printed(field, config) || (to_text && field.scope == FieldScope::ExperimentInput) ||
                      (to_experiment && !field_applies(field, true)) ||
                      (to_untrained && field.scope == FieldScope::Trained);
    if (drop) reset_field(field, defaults, updated);
  }
  // In the table's order, as read_explorer_config: "projection" before the recipe it allows.
  for (const ExplorerField& field : explorer_fields()) {
    const Json* value = find_field(fields, field.name);
    if (!value) continue;
    if (field.scope == FieldScope::Trained && updated.projection != Projection::Trained)
      return std::string(field.name) + ": only with \"projection\": \"trained\"";
    if (std::string e = read_field(field, *value, updated); !e.empty()) return e;
  }
  config = std::move(updated);
  return {};
}

bool is_explorer_field(const std::string& key) { return find_explorer_field(key) != nullptr; }

namespace {

const char* scope_text(FieldScope scope) {
  switch (scope) {
    case FieldScope::TextInput: return "text (the input)";
    case FieldScope::ExperimentInput: return "experiment (the input)";
    case FieldScope::Text: return "text";
    case FieldScope::Trained: return "text, with projection \"trained\"";
    case FieldScope::Any: return "text, experiment";
  }
  return "";
}

// What the field takes: "lo..hi" for numbers with a range, then the field's own words.
std::string values_text(const ExplorerField& field) {
  std::string text;
  if (field.lo != field.hi) {
    char range[64];
    std::snprintf(range, sizeof range, "%g..%g", field.lo, field.hi);
    text = range;
  }
  if (*field.values) text += (text.empty() ? "" : ", ") + std::string(field.values);
  return text;
}

}  // namespace

std::string explorer_fields_markdown() {
  const ExplorerConfig defaults;
  std::string out = "| field | configs | values | default | meaning |\n|---|---|---|---|---|\n";
  for (const ExplorerField& field : explorer_fields()) {
    const bool input = field.scope == FieldScope::TextInput || field.scope == FieldScope::ExperimentInput;
    const std::string default_text = input ? "(required)" : "`" + field_json(field, defaults).dump() + "`";
    out += "| `" + std::string(field.name) + "` | " + scope_text(field.scope) + " | " + values_text(field) + " | " +
           default_text + " | " + field.doc + " |\n";
  }
  return out;
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
