// The explorer config's fields, one entry each. Everything that walks the
// fields is derived from this list, so adding a field is a member in
// ExplorerConfig, one entry here and its use in ExplorerJob (explorer.cpp;
// run_explorer is that job run to the end):
//   - the JSON parser, printer and unknown-field check (api/explorer/explorer_json.cpp),
//   - which changes force new embeddings and projections (same_inputs),
//   - config equality (same_config: the UI recomputes when it changes),
//   - the documentation table (api::explorer_fields_markdown, in docs/reference.md).
// Range checks that involve several fields (heads divide d_model, the weight
// budget, ...) stay in check_explorer_config.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "explorer.hpp"

// A field's sentence for the documentation (`attention_cli fields`,
// `attention_app --url-fields`, docs/reference.md's tables): only the native
// programs print it, so the browser's build leaves the text out of the page's
// first download.
#ifdef __EMSCRIPTEN__
#define ATTN_DOC(text) ""
#else
#define ATTN_DOC(text) text
#endif

namespace attn {

// Which configs take a field.
enum class FieldScope {
  TextInput,        // the input of a text config: "text"
  ExperimentInput,  // the input of an experiment config: "experiment"
  Text,             // text configs only: an experiment fixes its own input and projections
  Trained,          // text configs with "projection": "trained" (the model's recipe)
  Any,              // text and experiment configs
};

// "mask" is one JSON value for three members: mask, pads and custom_mask.
struct MaskMembers {};

// The ExplorerConfig member a field reads and writes; its type says how the
// field is parsed and printed.
using FieldMember =
    std::variant<std::string ExplorerConfig::*, Input ExplorerConfig::*, int ExplorerConfig::*,
                 uint64_t ExplorerConfig::*, bool ExplorerConfig::*, float ExplorerConfig::*,
                 Scale ExplorerConfig::*, Projection ExplorerConfig::*, MaskMembers>;

struct ExplorerField {
  const char* name;    // the config key
  FieldMember member;
  FieldScope scope;
  bool shapes_inputs;  // a change needs new embeddings X or projections (otherwise they are reused)
  double lo = 0, hi = 0;  // number fields (whole or float): the accepted range (lo == hi: none); a URL
                         // value outside it is clamped to it (ui/state/lab_state.cpp)
  const char* values;  // what it takes, for the documentation (markdown: "`true` or `false`"); number
                       // fields with a range print "lo..hi" first, then this
  const char* doc;     // one sentence, for the documentation (ATTN_DOC)
};

// In reading order: the input first, then what shapes X and the projections,
// then how scores become weights. The printer keeps this order.
const std::vector<ExplorerField>& explorer_fields();

// Whether a config of this kind takes the field (experiment = an experiment config).
bool field_applies(const ExplorerField& field, bool experiment);

// Every field equal, the custom mask included.
bool same_config(const ExplorerConfig& a, const ExplorerConfig& b);

// a and b give the same embeddings X and projections: the same tokens (text
// and pads) and every shapes_inputs field equal. Temperature, scale and mask
// only change how the scores become weights.
bool same_inputs(const ExplorerConfig& a, const ExplorerConfig& b, const std::vector<std::string>& a_tokens,
                 const std::vector<std::string>& b_tokens);

}  // namespace attn
