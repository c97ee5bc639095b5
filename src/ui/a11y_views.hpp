// The accessible mirror's content for each view (a11y_views.cpp): title,
// summary sentences computed from the numbers shown, and the tables. The
// heatmap tables come from the frame (AppState::a11y_tables); plots and
// the per-head rows are built here from the same results the panels draw.
#pragma once

#include <string>
#include <vector>

#include "core/explorer.hpp"
#include "core/masks.hpp"
#include "ui/a11y.hpp"
#include "ui/scaling/lab.hpp"

namespace attn::ui {

struct AppState;

struct A11yView {
  std::string title;
  std::string summary;  // one paragraph
  // First the tables of the heatmaps the frame drew (AppState::a11y_tables):
  // all, or only the one named here; then these.
  std::string only_heatmap;
  std::vector<A11yTable> tables;
};

A11yView a11y_view(const AppState& state);

// "Head 2" in the current language.
std::string head_title(int head);
// tr() keys of the names the canvas gives masks and scaling panels.
const char* mask_label_key(Mask::Kind kind);
const char* projection_label_key(Projection projection);
const char* scaling_panel_label_key(ScalingPanel panel);

}  // namespace attn::ui
