// The lab's whole UI state and its one frame function (sokol style):
//
//   AppState state;                    // zero/default = the chapter's Figure 4.1
//   apply_style(ui_scale);             // once, and again when the scale changes
//   per frame: backend NewFrame -> app_frame(state) -> ImGui::Render -> backend draw
//   app_shutdown(state);               // GL context still current
//
// The platform layer (src/platform) owns the window and the ImGui backends;
// it only sets the few platform facts below and reads the layout back.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/experiments.hpp"
#include "gfx/colormap.hpp"
#include "ui/plot.hpp"

namespace attn::ui {

// One heatmap as drawn in the last frame, for tests and the page to locate
// cells: x, y, w, h are the cell area only (no labels), in framebuffer pixels
// of the window, top-left origin; lo/hi are the exact normalisation floats.
struct HeatmapLayout {
  std::string name;    // "average", "head0", "head1"
  std::string source;  // compute() result field: "average" or "weights"
  int head = -1;       // index into result.weights[head]; -1 for "average"
  plot::HeatmapCells cells;
  int rows = 0, cols = 0;
  float lo = 0, hi = 0;
  gfx::Colormap colormap = gfx::Colormap::YlOrRd;
};

struct AppState {
  // ---- what the reader chose (serialisable: later the URL query) ----------
  std::string experiment = "fig41";  // the compute() config that reproduces the view
  gfx::Colormap average_colormap = gfx::Colormap::YlOrRd;  // the chapter's choice
  gfx::Colormap head_colormap = gfx::Colormap::Viridis;
  bool histograms_per_head = false;  // false: the chapter's overlay; true: one plot per head

  // ---- platform facts, set before each frame --------------------------------
  float css_pixel_ratio = 0;  // web: devicePixelRatio, adds css_* to the layout; 0 natively

  // ---- results from the core (computed on first use) -------------------------
  std::optional<Figure41> fig41;

  // ---- outputs of the last frame ---------------------------------------------
  int framebuffer_w = 0, framebuffer_h = 0;
  std::vector<HeatmapLayout> layout;

  // ---- the plot layer (owns the heatmap GL textures) --------------------------
  plot::Context plot;
};

// Colours and sizes; scale = framebuffer pixels per UI unit (devicePixelRatio
// on the web). Fonts are the platform's job (their texture lives in the backend).
void apply_style(float scale);

// Builds the whole UI for one frame (between ImGui::NewFrame and ImGui::Render).
void app_frame(AppState& state);

// Frees GL resources; the GL context must still be current.
void app_shutdown(AppState& state);

// {"experiment": "fig41"}: the compute() config behind what is shown.
std::string current_config_json(const AppState& state);

// {"config": ..., "heatmaps": [{"name", "source", "head", "x", "y", "w", "h",
//  "rows", "cols", "lo", "hi", "colormap" [, "css_x", "css_y", "css_w", "css_h"]}],
//  "framebuffer": {"w", "h"} [, "device_pixel_ratio"]}
std::string layout_json(const AppState& state);

}  // namespace attn::ui
