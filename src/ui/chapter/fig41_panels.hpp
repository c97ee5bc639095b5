// The live Figure 4.1: head-average heatmap, heads 0 and 1, per-head weight
// histograms, per-head statistics and the top keys of each query.
#pragma once

#include <string>
#include <vector>

#include "ui/state/app_state.hpp"

namespace attn::ui {

// Fills the rest of the current window with the figure's panels and records
// each heatmap into state.layout. Needs state.fig41.
void fig41_panels(AppState& state);

// One sentence per head whose weights are nearly uniform (core's
// nearly_uniform), for the figure and its accessible copy.
std::vector<std::string> flat_head_notes(const Figure41& fig);

}  // namespace attn::ui
