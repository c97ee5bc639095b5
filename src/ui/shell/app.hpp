// The lab's one frame function (sokol style):
//
//   AppState state;                    // state/app_state.hpp
//   apply_style(ui_scale);             // once, and again when the scale changes
//   per frame: backend NewFrame -> app_frame(state) -> ImGui::Render -> backend draw
//   app_shutdown(state);               // GL context still current
//
// and what a frame leaves for the platform and the tests: the state, the
// layout and the config as JSON.
#pragma once

#include <string>

#include "ui/state/app_state.hpp"

namespace attn::ui {


// Builds the whole UI for one frame (between ImGui::NewFrame and ImGui::Render).
void app_frame(AppState& state);

// Whether the lab has work for the next frame without any input: training,
// or anything app_pending names. The platform draws a frame only on input or
// while this is true (an idle page draws nothing).
bool app_busy(const AppState& state);
// Whether what the reader (or a host page, a URL) asked for is still being
// worked on: a retraining, a recompute spread over frames, curves still being
// filled, a model being loaded, a tab switch settling. Training, which runs
// until paused, is not. When this turns false the frame shows everything
// asked for: a test or a batch screenshot waits for that, not for a number
// of frames.
bool app_pending(const AppState& state);

// Frees GL resources; the GL context must still be current.
void app_shutdown(AppState& state);


// api::print_explorer_config(state.config).
std::string current_config_json(const AppState& state);

// {"config": <the compute() config behind the heatmaps drawn>, "heatmaps": [{"name",
//  "source", "head", "x", "y", "w", "h", "rows", "cols", "row0", "col0", "lo", "hi",
//  "colormap" [, "masked_color"] [, "css_x", "css_y", "css_w", "css_h"]}],
//  "controls": {"sentence": {"x", "y", "w", "h" [, css_*]}, ...},
//  "framebuffer": {"w", "h"} [, "device_pixel_ratio"]}
std::string layout_json(const AppState& state);

// {"config", "tokens", "selected_query", "selected_head", "view",
//  "views": [{"id", "source": "explorer"|"chapter"|"scaling", "debug_only"}] (the views table, in tab order),
//  "heads",
//  "stats_table": [{"head": h | "avg", "min", "max", "mean", "mean_entropy"}] (as displayed),
//  "error", "retraining": {"steps", "target"} | null (a trained config being retrained),
//  "pending": {"pieces_done", "pieces", "heads_done", "heads", "percent", "config"} | null (a
//             recompute spread over frames; "config" is the one being computed),
//  "scaling": {"d_k", "samples", "n_keys", "panel", "raw_std", "scaled_std", "raw_peak",
//              "scaled_peak" (as displayed; null until the lab was opened), "curve_points",
//              "training": {"running", "steps", "error", "steps_last_frame", "train_ms_last_frame",
//                           "scaled": <model> | null, "unscaled": <model> | null}},
//  "timings_ms": {"compute", "frame", "recent": [the last 120 frames' ms, oldest first]},
//  "frame_pieces": [the explorer recompute's pieces each of those frames ran],
//  "compute_pieces": the last result's recompute's pieces in all}
// where <model> is api::trained_model_json without history (api/scaling/train_json.hpp).
std::string state_json(const AppState& state);

// [{"id", "source": "explorer"|"chapter"|"scaling", "debug_only"}]: the views
// table in tab order (state().views, attention_app --views).
std::string views_json();

}  // namespace attn::ui
