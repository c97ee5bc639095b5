// The accessible mirror's content for each view (a11y_views.cpp): title,
// summary sentences computed from the numbers shown, and the tables. The
// heatmap tables come from the frame (AppState::a11y_tables); plots and
// the per-head rows are built here from the same results the panels draw.
#pragma once

#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"
#include "core/masks.hpp"
#include "ui/a11y/a11y.hpp"
#include "ui/state/records.hpp"
#include "ui/state/scaling_lab.hpp"

namespace attn::ui {

struct AppState;

// The open view's copy: its title, its entry's describe() (state/views.hpp),
// and the explorer's error before the rest when the view shows its result.
A11yView a11y_view(const AppState& state);

// Each view's describe() in the views table.
void describe_heatmaps(const AppState& state, A11yView& out);  // every head's sentence, the selected heatmap
void describe_focus(const AppState& state, A11yView& out);     // the selected head; the query's and values' tables
void describe_steps(const AppState& state, A11yView& out);     // the head whose steps are shown
void describe_filters(const AppState& state, A11yView& out);   // the two filters for the selected query, both heatmaps
void describe_lines(const AppState& state, A11yView& out);     // every head's sentence, the query's table
void describe_stats(const AppState& state, A11yView& out);     // the statistics and histograms as tables
void describe_chapter(const AppState& state, A11yView& out);   // Figure 4.1's heads, tables and histograms
void describe_scaling(const AppState& state, A11yView& out);   // the open panel's curves and numbers
void describe_debug(const AppState& state, A11yView& out);     // the last timings

// "Head 2" in the current language.
std::string head_title(int head);

}  // namespace attn::ui
