// The scaling lab's panels, one function each (imgui_demo style), and the
// few helpers they share. Every number they show comes from the core
// (experiments.hpp, scaling.hpp, trainer.hpp) through ScalingLab (lab.hpp);
// these files only arrange, label and colour it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ui/state/app_state.hpp"

namespace attn::ui {

// ---- per frame (schedule.cpp) ---------------------------------------------------
// Runs the core for what changed since it last ran: the current d_k's
// statistics (at once) and, with fill_curves, missing grid points of the
// curves within a time budget. Does nothing while the lab is not visible.
void scaling_update(AppState& state, bool visible, bool fill_curves);
// Advances both models by as many steps as fit in ~8 ms while training runs,
// and refreshes the example heatmaps and held-out accuracies.
void scaling_train(AppState& state, bool visible);
// Whether the lab has work left for coming frames: training, or (when
// visible) statistics and curve points not computed yet (scaling_pending).
bool scaling_busy(const ScalingLab& lab, bool visible);
bool scaling_pending(const ScalingLab& lab, bool visible);

// ---- reports (lab.cpp) ------------------------------------------------------------
TrainerSummary trainer_summary(const Trainer* trainer);
// The "scaling" object of state_json.
nlohmann::json scaling_state_json(const ScalingLab& lab);
ScalingNumbersText scaling_numbers_text(const Figure42Dim& dim);

// ---- plot helpers (figure42.cpp) -------------------------------------------------
// "1", "2", ..., "1024" ticks for plots whose x is log2(d_k).
void setup_log2_dk_axis(const char* y_label);
// The chapter's dims and the current d_k as dashed lines (figure42.cpp);
// legend: false keeps them out of the legend (Figure 4.2's panels explain them).
void plot_dk_marks(int d_k, bool legend);
// Colours shared by the lab's plots (figure42.cpp): raw orange, scaled blue.
ImU32 raw_color();
ImU32 scaled_color();
ImU32 theory_color();
ImU32 chapter_color();
ImU32 current_color();

// ---- panels ------------------------------------------------------------------------
void scaling_setup_panel(AppState& state);  // controls.cpp: d_k, samples, keys, training controls
void scaling_view(AppState& state);         // view.cpp: the panels table and their sub-tabs
void figure42_panels(AppState& state);      // figure42.cpp: histograms, std and peak vs d_k
void saturation_panels(AppState& state);    // saturation.cpp: one row, entropy, Jacobian, stability
void training_panels(AppState& state);      // training.cpp: loss, accuracy, grad norm, heatmaps

}  // namespace attn::ui
