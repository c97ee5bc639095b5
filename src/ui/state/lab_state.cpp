// The reader's state as one field table; see lab_state.hpp.
#include "ui/state/lab_state.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <variant>

#include "api/explorer/explorer_json.hpp"
#include "api/given/given_json.hpp"
#include "core/explorer/explorer_fields.hpp"
#include "core/poem/corpus.hpp"
#include "core/poem/gpt.hpp"
#include "core/base/tokenizer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/state/controls.hpp"
#include "ui/state/presets.hpp"
#include "ui/state/scaling_lab.hpp"
#include "ui/state/why_lab.hpp"
#include "ui/widgets/ids.hpp"
#include "ui/widgets/url_text.hpp"

namespace attn::ui {
namespace {

using Json = nlohmann::json;
// A checked value's change, applied only once every field of a request is checked.
using Commit = std::function<void(AppState&)>;

// One field that is not part of the explorer config (those come from
// explorer_fields(), see config_field_json / apply_config_field).
struct UiField {
  const char* name;
  bool text_valued;  // its URL value is always a string (ids), never JSON
  std::string values;  // what it takes, for the documentation
  const char* doc;
  std::function<StateJson(const AppState&)> get;
  // Checks value; on success sets *commit. With `clamp`, a number out of
  // range is clamped and *note says so.
  std::function<std::string(const Json& value, bool clamp, std::string* note, Commit* commit)> read;
};

// The shortest decimal that reads back as f (0.003 rather than 0.0030000000260770321).
StateJson float_json(float f) {
  char buffer[32];
  for (int precision = 6; precision <= 9; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, double(f));
    if (std::strtof(buffer, nullptr) == f) break;
  }
  return std::strtod(buffer, nullptr);
}

std::string number_text(double v) {
  return std::trunc(v) == v && std::fabs(v) < 1e15 ? std::to_string((long long)v) : StateJson(v).dump();
}

// A whole number in [lo, hi]; with clamp, out-of-range numbers are clamped.
std::string read_whole(const Json& value, const std::string& name, long long lo, long long hi, bool clamp,
                       std::string* note, long long* out) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (!value.is_number() || (value.is_number_float() && (!std::isfinite(value.get<double>()) ||
                                                        std::trunc(value.get<double>()) != value.get<double>())))
    return name + ": expected a whole number in " + range + ", got " + api::describe(value);
  const double v = value.get<double>();
  if (v >= double(lo) && v <= double(hi)) {
    *out = value.is_number_unsigned() ? (long long)value.get<unsigned long long>() : value.get<long long>();
    return {};
  }
  if (!clamp) return name + ": " + number_text(v) + " is outside " + range;
  *out = v < double(lo) ? lo : hi;
  *note = name + ": " + number_text(v) + " is outside " + range + "; using " + std::to_string(*out);
  return {};
}

// member: [](auto& s) -> auto& { return s.<the int>; } (one accessor for reading and writing).
template <typename Member>
UiField int_field(const char* name, long long lo, long long hi, Member member, const char* doc) {
  return {name, false, std::to_string(lo) + ".." + std::to_string(hi), doc,
          [member](const AppState& s) { return StateJson(member(s)); },
          [=](const Json& value, bool clamp, std::string* note, Commit* commit) -> std::string {
            long long v = 0;
            if (std::string e = read_whole(value, name, lo, hi, clamp, note, &v); !e.empty()) return e;
            *commit = [=](AppState& s) { member(s) = int(v); };
            return {};
          }};
}

// A value from a fixed list (ids, or numbers such as the sample counts).
template <typename Get, typename Set>
UiField choice_field(const char* name, bool text_valued, std::function<std::vector<StateJson>()> choices,
                     const char* doc, Get get, Set set) {
  std::string values;
  for (const StateJson& choice : choices())
    values += (values.empty() ? "" : ", ") + (choice.is_string() ? "`" + choice.get<std::string>() + "`" : choice.dump());
  return {name, text_valued, values, doc, [get](const AppState& s) { return StateJson(get(s)); },
          [=](const Json& value, bool, std::string*, Commit* commit) -> std::string {
            std::string listed;
            for (const StateJson& choice : choices()) {
              if (Json::parse(choice.dump()) == value) {
                *commit = [=](AppState& s) { set(s, value); };
                return {};
              }
              listed += (listed.empty() ? "" : ", ") + choice.dump();
            }
            const std::string given = value.is_string() ? value.dump() : api::describe(value);
            return std::string(name) + ": " + given + " is not one of " + listed;
          }};
}

template <typename Table, typename IdOf>
std::function<std::vector<StateJson>()> ids_of(Table table, IdOf id_of) {
  return [table, id_of] {
    std::vector<StateJson> ids;
    for (const auto& row : table) ids.push_back(id_of(row));
    return ids;
  };
}

std::vector<StateJson> ints(const std::vector<int>& values) { return {values.begin(), values.end()}; }

void reset_training(AppState& s) { training_reset(s.scaling); }

// "0.0001..0.1": the training panel's learning-rate range, as the URL table and messages print it.
std::string learning_rate_range() {
  const ControlRow& lr = control_row("train_lr");
  return number_text(lr.lo) + ".." + number_text(lr.hi);
}

// A whole number of a view's state (PoemLab, WhyLab): one function per view
// for all of its fields, not one per field (the first download has a budget).
template <typename Lab>
UiField lab_int_field(const char* name, long long lo, long long hi, Lab AppState::*lab, int Lab::*member,
                      const char* doc) {
  return {name, false, std::to_string(lo) + ".." + std::to_string(hi), doc,
          [lab, member](const AppState& s) { return StateJson(s.*lab.*member); },
          [=](const Json& value, bool clamp, std::string* note, Commit* commit) -> std::string {
            long long v = 0;
            if (std::string e = read_whole(value, name, lo, hi, clamp, note, &v); !e.empty()) return e;
            *commit = [lab, member, v](AppState& s) { s.*lab.*member = int(v); };
            return {};
          }};
}
UiField poem_int_field(const char* name, long long lo, long long hi, int PoemLab::*member, const char* doc) {
  return lab_int_field(name, lo, hi, &AppState::poem, member, doc);
}

// A choice of two in the why-attention view (WhyLab): the first id or the second.
UiField why_pair_field(const char* name, const char* first, const char* second, bool WhyLab::*member, const char* doc) {
  return choice_field(
      name, true, [=] { return std::vector<StateJson>{first, second}; }, doc,
      [=](const AppState& s) { return s.why.*member ? second : first; },
      [=](AppState& s, const Json& v) { s.why.*member = v.get<std::string>() == second; });
}

// A float in its control row's range (state/controls.hpp); out of range is clamped in a URL.
// member: [](auto& s) -> auto& { return s.<the float>; }.
template <typename Member>
UiField float_field(const char* name, const char* row_field, Member member, const char* doc) {
  const ControlRow& row = control_row(row_field);
  const float lo = float(row.lo), hi = float(row.hi);
  const std::string range = number_text(row.lo) + ".." + number_text(row.hi);
  return {name, false, range, doc, [member](const AppState& s) { return float_json(member(s)); },
          [=](const Json& value, bool clamp, std::string* note, Commit* commit) -> std::string {
            if (!value.is_number() || !std::isfinite(value.get<double>()))
              return std::string(name) + ": expected a number in " + range + ", got " + api::describe(value);
            float v = value.get<float>();
            if (v < lo || v > hi) {
              if (!clamp) return std::string(name) + ": " + value.dump() + " is outside " + range;
              v = std::clamp(v, lo, hi);
              *note = std::string(name) + ": " + value.dump() + " is outside " + range + "; using " + float_json(v).dump();
            }
            *commit = [=](AppState& s) { member(s) = v; };
            return {};
          }};
}

// An AppState enum member and its ids.
template <typename Enum>
UiField enum_field(const char* name, Enum AppState::*member, std::vector<std::pair<Enum, const char*>> ids,
                   const char* doc) {
  std::function<std::vector<StateJson>()> choices = [ids] {
    std::vector<StateJson> out;
    for (const auto& id : ids) out.push_back(id.second);
    return out;
  };
  return choice_field(
      name, true, choices, doc,
      [member, ids](const AppState& s) {
        for (const auto& id : ids)
          if (id.first == s.*member) return id.second;
        return ids.front().second;
      },
      [member, ids](AppState& s, const Json& v) {
        for (const auto& id : ids)
          if (v == id.second) s.*member = id.first;
      });
}

const std::vector<UiField>& ui_fields() {
  using L = ExplorerLimits;
  using S = ScalingLimits;
  static const std::vector<UiField> fields = {
      int_field("head", -1, L::kMaxHeads - 1, [](auto& s) -> auto& { return s.selected_head; }, ATTN_DOC("The selected head (-1 = the head average); past the config's heads, the average.")),
      int_field("query", 0, L::kMaxTokens - 1, [](auto& s) -> auto& { return s.selected_query; }, ATTN_DOC("The selected query token (row); past the last token, the last.")),
      {"zoom", false, "`zoom,row,col`: zoom 1..1024, the first row and column shown",
       ATTN_DOC("The head heatmaps' zoom and the top-left cell they show."),
       [](const AppState& s) {
         return StateJson::array({float_json(s.zoom.zoom), float_json(s.zoom.row0), float_json(s.zoom.col0)});
       },
       [](const Json& value, bool clamp, std::string* note, Commit* commit) -> std::string {
         const std::string expected = "zoom: expected [zoom, row, col] (zoom 1..1024, row and col >= 0), got ";
         if (!value.is_array() || value.size() != 3) return expected + api::describe(value);
         float v[3];
         for (int i = 0; i < 3; ++i) {
           if (!value[std::size_t(i)].is_number()) return expected + api::describe(value);
           v[i] = value[std::size_t(i)].get<float>();
           if (!std::isfinite(v[i])) return expected + api::describe(value);
         }
         const float lo[3] = {1, 0, 0}, hi[3] = {1024, L::kMaxTokens, L::kMaxTokens};
         bool out_of_range = false;
         for (int i = 0; i < 3; ++i) out_of_range |= v[i] < lo[i] || v[i] > hi[i];
         if (out_of_range && !clamp) return expected + value.dump();
         for (int i = 0; i < 3; ++i) v[i] = std::clamp(v[i], lo[i], hi[i]);
         if (out_of_range) *note = "zoom: " + value.dump() + " is out of range; using " + StateJson(v).dump();
         *commit = [=](AppState& s) { s.zoom = {v[0], v[1], v[2]}; };
         return {};
       }},
      // Weights computed elsewhere (a notebook's, a URL's), drawn by the view
      // "given"; null: none. Read and checked by api::read_given, whose
      // message says what is wrong (a row that does not sum to 1, NaN, ...).
      {"given", false, "`{\"weights\": [...], \"tokens\": [...], \"titles\": [...]}` or `null`",
       ATTN_DOC("Attention weights computed elsewhere, for the view `given`: queries x keys, heads x queries x keys or rows x cols x queries x keys nested lists; optional `tokens` (the keys', and the queries' when as many), `query_tokens` and `titles` (one per map or per column)."),
       [](const AppState& s) { return s.given ? api::given_json(*s.given) : StateJson(); },
       [](const Json& value, bool, std::string*, Commit* commit) -> std::string {
         std::shared_ptr<const GivenWeights> given;
         if (!value.is_null()) {
           auto read = std::make_shared<GivenWeights>();
           if (std::string e = api::read_given(value, read.get()); !e.empty()) return e;
           given = std::move(read);
         }
         *commit = [given](AppState& s) { s.given = given; };
         return {};
       }},
      choice_field("view", true, ids_of(views(), [](const ViewSpec& v) { return v.id; }),
                   ATTN_DOC("The open view (tab)."), [](const AppState& s) { return view_id(s.view); },
                   [](AppState& s, const Json& v) {
                     view_from_id(v.get<std::string>(), &s.view);
                     s.select_view_frames = 2;
                   }),
      choice_field("panel", true,
                   ids_of(std::vector<ScalingPanel>{ScalingPanel::Figure42, ScalingPanel::Saturation,
                                                    ScalingPanel::Training},
                          [](ScalingPanel p) { return scaling_panel_id(p); }),
                   ATTN_DOC("The scaling lab's panel."), [](const AppState& s) { return scaling_panel_id(s.scaling.panel); },
                   [](AppState& s, const Json& v) {
                     scaling_panel_from_id(v.get<std::string>(), &s.scaling.panel);
                     s.scaling.select_panel_frames = 2;
                   }),
      choice_field("fig41_scale", false, [] { return std::vector<StateJson>{"panel", "shared"}; },
                   ATTN_DOC("Figure 4.1's colour bars: panel (each panel its own min..max, as the book) or shared (one "
                            "range for the average and every head)."),
                   [](const AppState& s) { return s.fig41_shared_scale ? "shared" : "panel"; },
                   [](AppState& s, const Json& v) { s.fig41_shared_scale = v == "shared"; }),
      choice_field("debug", false, [] { return std::vector<StateJson>{0, 1}; },
                   ATTN_DOC("1 shows the debug view (matrix dump, timings)."), [](const AppState& s) { return int(s.debug); },
                   [](AppState& s, const Json& v) { s.debug = v.get<int>() == 1; }),
      int_field("dk", S::kMinDk, S::kMaxDk, [](auto& s) -> auto& { return s.scaling.d_k; }, ATTN_DOC("The scaling lab's d_k (Figure 4.2, saturation).")),
      choice_field("samples", false, [] { return ints(scaling_sample_counts()); },
                   ATTN_DOC("Figure 4.2's samples per d_k."), [](const AppState& s) { return s.scaling.samples; },
                   [](AppState& s, const Json& v) { s.scaling.samples = v.get<int>(); }),
      int_field("keys", S::kMinKeys, S::kMaxKeys, [](auto& s) -> auto& { return s.scaling.n_keys; }, ATTN_DOC("Keys in the saturation panel's single attention row.")),
      choice_field("train_dk", false, [] { return ints(training_dims()); },
                   ATTN_DOC("Width (d_k) of the two models the training panel trains."),
                   [](const AppState& s) { return s.scaling.train_d_k; },
                   [](AppState& s, const Json& v) {
                     if (s.scaling.train_d_k == v.get<int>()) return;
                     s.scaling.train_d_k = v.get<int>();
                     reset_training(s);
                   }),
      {"train_lr", false, learning_rate_range(), ATTN_DOC("The training panel's Adam learning rate."),
       [](const AppState& s) { return float_json(s.scaling.learning_rate); },
       [](const Json& value, bool clamp, std::string* note, Commit* commit) -> std::string {
         // The training panel's slider range (state/controls.hpp).
         const float lo = float(control_row("train_lr").lo), hi = float(control_row("train_lr").hi);
         const std::string range = learning_rate_range();
         if (!value.is_number() || !std::isfinite(value.get<double>()))
           return "train_lr: expected a number in " + range + ", got " + api::describe(value);
         float v = value.get<float>();
         if (v < lo || v > hi) {
           if (!clamp) return "train_lr: " + value.dump() + " is outside " + range;
           v = std::clamp(v, lo, hi);
           *note = "train_lr: " + value.dump() + " is outside " + range + "; using " + float_json(v).dump();
         }
         *commit = [v](AppState& s) {
           if (s.scaling.learning_rate == v) return;
           s.scaling.learning_rate = v;
           reset_training(s);
         };
         return {};
       }},
      {"train_seed", false, "an integer >= 0", ATTN_DOC("Seeds the training panel's data and models."),
       [](const AppState& s) { return StateJson(s.scaling.train_seed); },
       [](const Json& value, bool, std::string*, Commit* commit) -> std::string {
         uint64_t seed = 0;
         if (std::string e = api::read_seed(value, "train_seed", seed); !e.empty()) return e;
         *commit = [seed](AppState& s) {
           if (s.scaling.train_seed == seed) return;
           s.scaling.train_seed = seed;
           reset_training(s);
         };
         return {};
       }},
      // The learned-heads view (state/poem_lab.hpp).
      poem_int_field("poem", PoemLab::kDefaultPoem, api::PoemLimits::kHeldOutPoems - 1, &PoemLab::poem,
                ATTN_DOC("The learned-heads view's held-out poem (0-based, of tang300's 313), -1 for the reader's own "
                         "text (poem_text), -2 for the poem the view opens on (chosen by the heads' numbers).")),
      poem_int_field("poem_probe", 0, 2147483647, &PoemLab::probe,
                ATTN_DOC("The induction probe's seed: the text is then random characters repeated once (0: no probe).")),
      {"poem_outline", false, "true or false",
       ATTN_DOC("Whether the selected head's heatmap outlines the cells its pattern counts."),
       [](const AppState& s) { return StateJson(s.poem.outline); },
       [](const Json& value, bool, std::string*, Commit* commit) -> std::string {
         if (!value.is_boolean()) return "poem_outline: expected true or false, got " + api::describe(value);
         const bool on = value.get<bool>();
         *commit = [on](AppState& s) { s.poem.outline = on; };
         return {};
       }},
      {"poem_start", false, "\"poem\", \"none\" or one character",
       ATTN_DOC("The attention-sink probe: the text read again with <poem> left out (none) or a character in its "
                "place, beside the reading as trained (poem: no probe)."),
       [](const AppState& s) { return StateJson(s.poem.sink_start.empty() ? "poem" : s.poem.sink_start); },
       [](const Json& value, bool, std::string*, Commit* commit) -> std::string {
         const std::string text = value.is_string() ? value.get<std::string>() : "";
         if (!value.is_string() || text.empty() || !utf8_error(text).empty() ||
             (text != "poem" && text != "none" && poem::utf8_chars(text).size() != 1))
           return "poem_start: expected \"poem\", \"none\" or one character, got " + api::describe(value);
         *commit = [text](AppState& s) { s.poem.sink_start = text == "poem" ? "" : text; };
         return {};
       }},
      {"poem_text", true, "a string (UTF-8)", ATTN_DOC("The learned-heads view's own text, read when poem is -1."),
       [](const AppState& s) { return StateJson(s.poem.text); },
       [](const Json& value, bool, std::string*, Commit* commit) -> std::string {
         if (!value.is_string()) return "poem_text: expected a string, got " + api::describe(value);
         std::string text = value.get<std::string>();
         if (text.size() > api::PoemLimits::kMaxTextBytes)
           return "poem_text: " + std::to_string(text.size()) + " bytes; at most " +
                  std::to_string(api::PoemLimits::kMaxTextBytes);
         if (std::string e = utf8_error(text); !e.empty()) return "poem_text: " + e;
         *commit = [text](AppState& s) { s.poem.text = text; };
         return {};
       }},
      poem_int_field("poem_layer", 0, poem::GptLimits::kMaxLayers - 1, &PoemLab::layer,
                ATTN_DOC("The selected layer; past the model's, its last.")),
      poem_int_field("poem_head", 0, poem::GptLimits::kMaxHeads - 1, &PoemLab::head,
                ATTN_DOC("The selected head of that layer; past the model's, its last.")),
      poem_int_field("poem_query", -1, poem::GptLimits::kMaxContext - 1, &PoemLab::query,
                ATTN_DOC("The selected position (-1 = the last), whose next characters are listed.")),
      poem_int_field("poem_length", 1, api::PoemLimits::kMaxSampleLength, &PoemLab::sample_length,
                ATTN_DOC("续写: how many characters to continue by (it stops early where the model ends the poem).")),
      float_field("poem_temperature", "poem_temperature", [](auto& s) -> auto& { return s.poem.sample_temperature; },
                  ATTN_DOC("续写's temperature T: the next character is drawn from softmax(logits / T), the explorer's T (0: "
                  "always the likeliest).")),
      poem_int_field("poem_seed", 0, 2147483647, &PoemLab::sample_seed,
                ATTN_DOC("续写's seed: the same text, length, temperature and seed give the same characters.")),
      // The why-attention view (state/why_lab.hpp).
      choice_field("why_panel", true, [] { return std::vector<StateJson>{"recurrence", "qkv"}; },
                   ATTN_DOC("The why-attention view's experiment: recurrence against attention, or why Q, K and V."),
                   [](const AppState& s) { return s.why.panel == WhyPanel::Qkv ? "qkv" : "recurrence"; },
                   [](AppState& s, const Json& v) {
                     s.why.panel = v.get<std::string>() == "qkv" ? WhyPanel::Qkv : WhyPanel::Recurrence;
                   }),
      lab_int_field("why_distance", 0, why::kMaxDistance, &AppState::why, &WhyLab::distance,
                    ATTN_DOC("Recurrence against attention: name the symbol k positions back; 0 trains on a mix of "
                             "distances.")),
      why_pair_field("why_recurrent", "rnn", "gru", &WhyLab::gru,
                     ATTN_DOC("The recurrent model shown beside attention: the tanh RNN or the GRU (both train).")),
      lab_int_field("why_layers", 1, why::kMaxConvLayers, &AppState::why, &WhyLab::conv_layers,
                    ATTN_DOC("Recurrence against attention: the convolution's layers (kernel 3 each); it reaches twice "
                             "that many positions back.")),
      why_pair_field("why_task", "previous", "lookup", &WhyLab::lookup,
                     ATTN_DOC("Why Q, K and V: the task, the previous symbol or key-value lookup.")),
      lab_int_field("why_steps", 1, api::WhyLimits::kPageMaxSteps, &AppState::why, &WhyLab::steps,
                    ATTN_DOC("The why-attention experiments' training steps (a run stops there; changing it starts "
                             "the runs again).")),
      lab_int_field("why_seed", 0, 2147483647, &AppState::why, &WhyLab::seed,
                    ATTN_DOC("The why-attention experiments' seed: the same seed and settings give the same numbers as "
                             "attention_cli why.")),
      choice_field("lang", true, ids_of(languages(), [](const Language& l) { return l.code; }),
                   ATTN_DOC("The interface language (default: the browser's)."),
                   [](const AppState&) { return current_language().code; },
                   [](AppState& s, const Json& v) {
                     set_language(v.get<std::string>());
                     // The tabs are named by their labels: the bars keep the open view and panel.
                     s.select_view_frames = s.scaling.select_panel_frames = 2;
                   }),
      choice_field("theme", true, [] { return std::vector<StateJson>{"light", "dark", "auto", "host"}; },
                   ATTN_DOC("Light or dark colours (default: the browser's prefers-color-scheme at load); auto: the "
                   "browser's prefers-color-scheme as it changes; host: the embedding page's dark mode as it changes, "
                   "when that page is of the same site (VitePress's html.dark), else as auto."),
                   [](const AppState& s) {
                     using Source = AppState::ThemeSource;
                     return s.theme_source == Source::Browser ? "auto"
                            : s.theme_source == Source::Host  ? "host"
                                                              : theme_id(s.theme);
                   },
                   [](AppState& s, const Json& v) {
                     using Source = AppState::ThemeSource;
                     s.theme_source = v == "auto" ? Source::Browser : v == "host" ? Source::Host : Source::Chosen;
                     if (s.theme_source == Source::Chosen) theme_from_id(v.get<std::string>(), &s.theme);
                     follow_color_scheme(s);
                   }),
      enum_field("controls", &AppState::controls_mode,
                 {{ControlsMode::Full, "full"}, {ControlsMode::Compact, "compact"}, {ControlsMode::None, "none"}},
                 ATTN_DOC("full: the set-up panel and the tabs; compact: the set-up panel behind a button; none: only the "
                 "figure.")),
  };
  return fields;
}

const UiField* find_ui_field(const std::string& name) {
  for (const UiField& field : ui_fields())
    if (name == field.name) return &field;
  return nullptr;
}

const ExplorerField* find_config_field(const std::string& name) {
  for (const ExplorerField& field : explorer_fields())
    if (name == field.name) return &field;
  return nullptr;
}

StateJson printed_config(const AppState& state) {
  return StateJson::parse(api::print_explorer_config(state.config), nullptr, false);
}

// A config field's URL value is always a string when its member is text or an id.
bool config_text_valued(const ExplorerField& field) {
  return std::holds_alternative<std::string ExplorerConfig::*>(field.member) ||
         std::holds_alternative<Input ExplorerConfig::*>(field.member) ||
         std::holds_alternative<Projection ExplorerConfig::*>(field.member);
}

// One config field from the URL: applied on its own; a number out of the
// field's range (a whole number for whole-number fields) is clamped to it and
// reported.
std::string apply_config_field(AppState& state, const ExplorerField& field, const Json& value, std::string* note) {
  const Json one = {{field.name, value}};
  std::string error = api::update_explorer_config(one, state.config);
  if (field.lo == field.hi || !value.is_number()) return error;
  // (A float out of range reads without an error: check_explorer_config refuses it later.)
  const double v = value.get<double>();
  const bool whole = std::holds_alternative<int ExplorerConfig::*>(field.member);
  if (!std::isfinite(v) || (whole && std::trunc(v) != v) || (v >= field.lo && v <= field.hi)) return error;
  const double clamped = v < field.lo ? field.lo : field.hi;
  const Json clamped_json = whole ? Json(int(clamped)) : Json(float(clamped));
  if (!api::update_explorer_config({{field.name, clamped_json}}, state.config).empty()) return error;
  // A float field's bounds print as the float32 they are (0.001, not 0.0010000000474974513).
  const auto bound = [whole](double x) { return number_text(whole ? x : float_json(float(x)).get<double>()); };
  *note = std::string(field.name) + ": " + number_text(v) + " is outside " + bound(field.lo) + ".." + bound(field.hi) +
          "; using " + bound(clamped);
  return {};
}

// ---- a custom mask in a URL: its cells as bits, base64url --------------------------

std::string mask_to_url(const StateJson& rows) {
  const std::size_t n = rows.size();
  std::string bytes((n * n + 7) / 8, '\0');
  for (std::size_t r = 0; r < n; ++r)
    for (std::size_t c = 0; c < n && c < rows[r].size(); ++c)
      if (rows[r][c] == 1 || rows[r][c] == true) bytes[(r * n + c) / 8] |= char(0x80 >> ((r * n + c) % 8));
  return "custom." + std::to_string(n) + "." + base64url_encode(bytes);
}

// "custom.<n>.<base64url>" -> [[0/1, ...], ...]; a discarded value when malformed.
Json mask_from_url(const std::string& text) {
  const Json malformed(Json::value_t::discarded);
  const std::size_t dot = text.find('.', 7);
  if (dot == std::string::npos) return malformed;
  int n = 0;
  const auto [end, ec] = std::from_chars(text.data() + 7, text.data() + dot, n);
  std::string bits;
  if (ec != std::errc() || end != text.data() + dot || n < 1 || n > ExplorerLimits::kMaxTokens ||
      !base64url_decode(text.substr(dot + 1), &bits))
    return malformed;
  const std::size_t cells = std::size_t(n) * std::size_t(n);
  if (bits.size() != (cells + 7) / 8) return malformed;
  Json rows = Json::array();
  for (int r = 0; r < n; ++r) {
    Json row = Json::array();
    for (int c = 0; c < n; ++c) {
      const std::size_t i = std::size_t(r) * std::size_t(n) + std::size_t(c);
      row.push_back((uint8_t(bits[i / 8]) >> (7 - i % 8)) & 1);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace

void follow_color_scheme(AppState& state) {
  using Source = AppState::ThemeSource;
  if (state.theme_source == Source::Chosen) return;
  const bool dark = state.theme_source == Source::Host && state.host_dark >= 0 ? state.host_dark == 1 : state.browser_dark;
  state.theme = dark ? Theme::Dark : Theme::Light;
}

// ---- the JSON object ------------------------------------------------------------

StateJson state_fields_json(const AppState& state) {
  StateJson out = printed_config(state);
  for (const UiField& field : ui_fields()) out[field.name] = field.get(state);
  return out;
}

std::string apply_state_fields(AppState& state, const Json& fields) {
  mark_state_changed(state);
  if (!fields.is_object()) return "state: expected a JSON object of fields, got " + api::describe(fields);
  Json config_fields = Json::object();
  std::vector<Commit> commits;
  for (const auto& item : fields.items()) {
    if (find_config_field(item.key())) {
      config_fields[item.key()] = item.value();
    } else if (const UiField* field = find_ui_field(item.key())) {
      Commit commit;
      std::string note;
      if (std::string e = field->read(item.value(), false, &note, &commit); !e.empty()) return e;
      commits.push_back(std::move(commit));
    } else {
      return api::field_name(item.key()) + ": unknown field";
    }
  }
  ExplorerConfig config = state.config;
  if (!config_fields.empty())
    if (std::string e = api::update_explorer_config(config_fields, config); !e.empty()) return e;
  // Every field is valid: now change the state.
  if (!config_fields.empty()) state.config = std::move(config);
  for (const Commit& commit : commits) commit(state);
  // A text box the reader is typing in keeps its own copy of the text and
  // would write it back: it lets go, and shows the new text.
  if (fields.contains("text") || fields.contains("poem_text")) state.release_text_box = true;
  return {};
}

// ---- the URL -------------------------------------------------------------------------

std::string url_value(const std::string& field, const StateJson& value) {
  if (value.is_string()) return value.get<std::string>();
  if (field == "mask" && value.is_object() && value.contains("pad")) return "pad." + value["pad"].dump();
  if (field == "mask" && value.is_array()) return mask_to_url(value);
  if (field == "zoom" && value.is_array() && value.size() == 3)
    return value[0].dump() + "," + value[1].dump() + "," + value[2].dump();
  return value.dump();
}

Json value_from_url(const std::string& field, const std::string& text) {
  const ExplorerField* config_field = find_config_field(field);
  const UiField* ui_field = find_ui_field(field);
  if ((config_field && config_text_valued(*config_field)) || (ui_field && ui_field->text_valued)) return text;
  if (field == "mask" && text.rfind("custom.", 0) == 0) {
    Json rows = mask_from_url(text);
    return rows.is_discarded() ? Json(text) : rows;  // the mask reader names what is wrong
  }
  if (field == "mask" && text.rfind("pad.", 0) == 0) {
    Json pads = Json::parse(text.substr(4), nullptr, false);
    return pads.is_discarded() ? Json(text) : Json{{"pad", pads}};
  }
  if (field == "zoom" && std::count(text.begin(), text.end(), ',') == 2) {
    Json parts = Json::parse("[" + text + "]", nullptr, false);
    if (!parts.is_discarded()) return parts;
  }
  Json parsed = Json::parse(text, nullptr, false);
  return parsed.is_discarded() ? Json(text) : parsed;
}

std::vector<std::string> apply_url_query(AppState& state, const std::string& query) {
  mark_state_changed(state);
  std::vector<std::string> notes;
  // Percent-escapes can spell any bytes: a value that is not UTF-8 is refused
  // here, not turned into U+FFFD by the tokenizer without a word.
  std::vector<std::pair<std::string, std::string>> params;
  for (auto& [name, text] : parse_query(query)) {
    if (std::string why = utf8_error(name); !why.empty())
      notes.push_back("a URL parameter's name is " + why + "; ignored");
    else if (std::string why = utf8_error(text); !why.empty())
      notes.push_back(api::field_name(name) + ": the URL's value is " + why + "; ignored");
    else
      params.emplace_back(std::move(name), std::move(text));
  }
  // A preset or a whole config first: the single fields refine it.
  for (const auto& [name, text] : params) {
    if (name == "preset" && !apply_preset(state, text))
      notes.push_back("preset: '" + text + "' is not a preset (" + preset_ids() + "); kept the current config");
    if (name == "config") {
      ExplorerConfig config;
      if (std::string why = api::parse_explorer_config(text, config); why.empty()) state.config = config;
      else notes.push_back("config: " + why + "; kept the current config");
    }
  }
  for (const auto& [name, text] : params) {
    if (name == "preset" || name == "config") continue;
    if (name == "origin") continue;  // not state: who may message the lab (web/messages.js)
    const Json value = value_from_url(name, text);
    std::string note, error;
    if (const ExplorerField* field = find_config_field(name)) {
      error = apply_config_field(state, *field, value, &note);
    } else if (const UiField* field = find_ui_field(name)) {
      Commit commit;
      error = field->read(value, true, &note, &commit);
      if (error.empty()) commit(state);
    } else {
      error = api::field_name(name) + ": unknown parameter";
    }
    if (!error.empty()) {
      const StateJson now = state_fields_json(state);
      notes.push_back(error + (now.contains(name) ? "; using " + now[name].dump() : "; ignored"));
    } else if (!note.empty()) {
      notes.push_back(note);
    }
  }
  return notes;
}

bool is_url_parameter(const std::string& name) {
  return name == "preset" || name == "config" || find_config_field(name) || find_ui_field(name);
}

std::string state_field_names() {
  std::string names;
  for (const ExplorerField& field : explorer_fields()) names += (names.empty() ? "" : ", ") + std::string(field.name);
  for (const UiField& field : ui_fields()) names += ", " + std::string(field.name);
  return names;
}

std::string url_query(const AppState& state, const StateJson& start) {
  std::string query;
  const StateJson now = state_fields_json(state);
  // In the tables' order: the config's fields, then the others.
  const auto add = [&](const std::string& name) {
    const auto value = now.find(name);
    if (value == now.end()) return;
    const auto known = start.find(name);
    if (known != start.end() && *known == *value) return;
    query += (query.empty() ? "" : "&") + name + "=" + percent_encode(url_value(name, *value));
  };
  for (const ExplorerField& field : explorer_fields()) add(field.name);
  for (const UiField& field : ui_fields()) add(field.name);
  return query;
}

// ---- documentation ---------------------------------------------------------------------

std::string state_fields_markdown() {
  std::string out = "| parameter | values | meaning |\n|---|---|---|\n";
  for (const ExplorerField& field : explorer_fields())
    out += "| `" + std::string(field.name) + "` | " +
           (std::string(field.name) == "mask" ? "as in a config, or `pad.k`, `custom.<n>.<base64url>`"
                                              : "as in a config") +
           " | " + field.doc + " |\n";
  for (const UiField& field : ui_fields())
    out += "| `" + std::string(field.name) + "` | " + field.values + " | " + field.doc + " |\n";
  return out;
}

}  // namespace attn::ui
