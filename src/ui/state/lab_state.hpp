// The reader's whole state as one JSON object, described by one field table.
//
//   {"text": "我爱自然语言处理", "d_model": 16, "heads": 2, "mask": "causal", ...   the explorer
//        config's own fields (core/explorer/explorer_fields.hpp, printed as compute() takes them)
//    "head": -1, "query": 0, "zoom": [1, 0, 0],                                   what is selected
//    "view": "heatmaps", "panel": "fig42", "debug": 0,                             what is open
//    "dk": 64, "samples": 4000, "keys": 16, "train_dk": 32, "train_lr": 0.003, "train_seed": 1,
//                                                                                  the scaling lab
//    "lang": "zh", "theme": "light", "controls": "full"}                           the page
//
// Everything that reads or writes the state goes through this table:
//   - the URL: ?text=我爱自然语言处理&d_model=16&heads=2&mask=causal&seed=7
//     (apply_url_query at start; url_query after every change, which the page
//     puts in the address bar and "Copy link" copies);
//   - the page's postMessage set()/get() (apply_state_fields, state_fields_json);
//   - the documentation (state_fields_markdown, docs/reference.md's URL table).
// URL values are the JSON values written compactly (url_value): strings as
// they are, numbers and true/false as JSON, the zoom as "zoom,row,col", a
// custom mask as "custom.<n>.<base64url of its n*n cells, row by row, 1 bit
// each, first cell = highest bit>" and {"pad": k} as "pad.k" (a URL value
// may also be the field's JSON text itself). Fields equal to their value at
// start-up are left out of the URL.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/widgets/url_text.hpp"  // percent_encode, parse_query

namespace attn::ui {

struct AppState;

// Plain nlohmann::json, as the api's config parser uses: one instantiation of
// the library less in the wasm (an ordered_json here cost ~10 KB of the first
// download). Field order comes from the tables, not from the object.
using StateJson = nlohmann::json;

// Every field's current value, in the table's order (config fields as printed).
StateJson state_fields_json(const AppState& state);

// Sets the fields in `fields` (a JSON object, e.g. from a host page's set()).
// All or nothing: unknown fields, ill-typed or out-of-range values leave the
// state unchanged and return "<field>: <why>".
std::string apply_state_fields(AppState& state, const nlohmann::json& fields);

// A URL query ("a=1&b=x", with or without the leading '?'), percent-decoded.
// Each parameter is applied on its own, as far as it can be: a number out of
// range is clamped, anything else that cannot be used is left as it was, and
// each such case is one message naming the parameter and what was used
// instead. ?preset= and ?config= (a whole JSON config) apply first, then the
// fields; unknown parameters are reported too, except ?origin= (the page's
// message allowlist, web/messages.js).
std::vector<std::string> apply_url_query(AppState& state, const std::string& query);

// Whether name is a URL parameter: a field, "preset" or "config" (the
// desktop takes each as a flag, --name VALUE).
bool is_url_parameter(const std::string& name);
// "text, experiment, d_model, ...": every field's name, for usage texts.
std::string state_field_names();

// The query that reproduces the state (no leading '?'): the fields whose
// value differs from `start` (state_fields_json at start-up), percent-encoded.
std::string url_query(const AppState& state, const StateJson& start);

// The URL form of one field's JSON value, and back (see the top comment).
std::string url_value(const std::string& field, const StateJson& value);
nlohmann::json value_from_url(const std::string& field, const std::string& text);

// ?theme=auto and ?theme=host: the theme from the colour scheme they follow
// (AppState::theme_source), after the platform learned a new one.
void follow_color_scheme(AppState& state);

// The field table as markdown (parameter, values, meaning), for docs/reference.md.
std::string state_fields_markdown();

}  // namespace attn::ui
