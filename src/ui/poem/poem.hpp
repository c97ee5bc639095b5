// The learned-heads view (学到的注意力): the poem model the project trains
// itself (core/poem), read on a held-out poem or the reader's own text.
// Every number comes from the model through PoemLab (state/poem_lab.hpp);
// these files arrange, label and colour it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "ui/state/app_state.hpp"

namespace attn::ui {

void poem_setup_panel(AppState& state);  // setup.cpp: the text, the held-out poems, 续写, the model
void poem_view(AppState& state);         // view.cpp: every head, its pattern, the next characters
void describe_poem(const AppState& state, A11yView& out);  // view.cpp: the accessible copy

// state().poem: the load, the choices, the reading's tokens, losses and next characters, the heads' patterns.
nlohmann::json poem_state_json(const PoemLab& lab);  // reports.cpp

// A character in words where it has no glyph of its own: <poem> (the
// start), a line break, a space; any other as it is.
std::string poem_char_text(const std::string& ch);
// A token as a heatmap's label: <poem> as "*", a line break as "/".
std::string poem_token_label(const std::string& token);
// One head's pattern as a sentence with its numbers, in the interface's
// language: "Layer 1, head 3: line boundary: 61 % of the weight on
// punctuation, 4.4x its share" (layer and head counted from 1).
std::string poem_head_sentence(const api::PoemHead& head);
// The head that looks at the start (sink.cpp): the set-up panel's probe; the
// model's heads that put a share of their weight on <poem>; what the probe
// showed for the selected head, with its numbers ("" when it is off).
void poem_sink_controls(AppState& state);
// The probe's first tokens ("" as trained, "none", characters) and their labels.
const std::vector<std::string>& poem_starts();
std::string poem_start_label(const std::string& start);
std::string poem_sink_heads_text(const PoemLab& lab);
std::string poem_sink_text(const PoemLab& lab);
// The load's state in words ("Loading the model: 1.2 of 1.9 MB", the error).
std::string poem_load_text(const PoemLab& lab);

}  // namespace attn::ui
