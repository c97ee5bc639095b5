// The "why attention" view (为什么是注意力): the chapter's two "why" sections
// as experiments the reader trains in the page. Recurrence against attention
// (a tanh RNN or a GRU beside one attention layer, copying the symbol k
// positions back), and why Q, K and V are three (one attention layer without
// projections, with W_Q = W_K, and with all three separate). Every number
// comes from the experiments' module through WhyLab (state/why_lab.hpp);
// these files arrange, label and colour it.
#pragma once

#include "ui/state/app_state.hpp"

namespace attn::ui {

void why_setup_panel(AppState& state);  // setup.cpp: the experiment, its task, Start / Pause / Step / Reset
void why_view(AppState& state);         // view.cpp: the shown experiment's plots, heatmaps and tables
void describe_why(const AppState& state, A11yView& out);  // view.cpp: the accessible copy

}  // namespace attn::ui
