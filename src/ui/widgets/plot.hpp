// A small plot layer shaped like ImPlot (which is not available here),
// drawn with ImDrawList:
//
//   if (plot::BeginPlot("Weights##hist", size)) {   // "##..." = hidden label
//     plot::SetupAxes("weight", "count");
//     plot::PlotBars("head 0", lefts, counts, n, width);
//     plot::EndPlot();                             // autofit, 1-2-5 ticks, legend, hover
//   }
//   plot::PlotHeatmap("##avg", spec, size, &cells); // one texture + labels + colorbar
//
// Items are recorded between Begin and End and drawn in EndPlot, so limits
// can be fitted to all of them. Like ImGui and ImPlot, the layer works on a
// current Context that its owner (AppState) holds and sets each frame.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include <imgui.h>

#include "gfx/colormap.hpp"
#include "gfx/heatmap.hpp"

namespace attn::plot {

struct PlotItem {
  std::string label;
  bool bars = false;          // bars: xs are left edges, `width` wide, from y = 0
  bool markers = false;       // scatter: a dot at each point, no line
  bool vlines = false;        // reference lines: a dashed vertical line at each x (ys unused)
  std::vector<double> xs, ys;
  double width = 0;
  ImU32 color = 0;
};

struct Context {
  // GL resources behind PlotHeatmap, keyed by the widget's ImGui id.
  gfx::HeatmapRenderer renderer;
  std::string renderer_error;
  std::unordered_map<ImGuiID, gfx::Heatmap> heatmaps;
  // Heatmap textures drawn anew so far: a frame that samples them shows new
  // pixels though its draw data is the same (the web app's frame cache).
  uint64_t textures_drawn = 0;
  gfx::GlState gl_state;    // the GL state heatmaps leave behind ...
  int gl_state_frame = -1;  // ... saved in this ImGui frame

  // The plot between BeginPlot and EndPlot.
  bool in_plot = false, hovered = false;
  ImVec2 frame_min, frame_max;
  std::string title, x_label, y_label;
  int flags = 0;
  bool fixed_limits[2] = {false, false};
  double limits[2][2] = {{0, 1}, {0, 1}};
  std::vector<PlotItem> items;
  ImU32 next_item_color = 0;  // 0: next colour in turn
  std::vector<double> x_tick_values;      // SetupXTicks: labelled ticks instead of 1-2-5
  std::vector<std::string> x_tick_labels;
  std::function<std::string(double)> x_hover_format;  // SetupXHoverFormat: the hover readout's x
  int wheel_zoom_frame = -1;  // the ImGui frame in which a heatmap last zoomed with the wheel
};

// The view windows take ImGuiWindowFlags_NoScrollWithMouse, so that a wheel
// over a zoomable heatmap zooms it without also scrolling the view (ImGui
// scrolls before the heatmap sees the wheel). Called just before EndChild of
// such a window: any other wheel over it scrolls it, as ImGui would have,
// unless ImGui already scrolled a scrollable child under the mouse.
void ScrollWindowWithWheel();

void SetCurrentContext(Context* context);
Context* GetCurrentContext();
// Frees the context's GL objects (a GL context must be current).
void ShutdownContext(Context& context);

// ---- 2-D plots ---------------------------------------------------------------
// The legend is a row (or rows) of swatches above the data area, never over
// the curves; a plot too low for it and its curves drops it. Items labelled
// "##..." stay out of it. Titles and axis labels are shortened with "..."
// when the plot is narrower than they are.
enum PlotFlags_ {
  PlotFlags_None = 0,
  PlotFlags_NoLegend = 1 << 0,
};
enum Axis { Axis_X = 0, Axis_Y = 1 };

// size.x <= 0 / size.y <= 0: fill the available width / height (minus |size|).
bool BeginPlot(const char* title_id, const ImVec2& size = ImVec2(0, 0), int flags = 0);
void SetupAxes(const char* x_label, const char* y_label);
void SetupAxisLimits(Axis axis, double lo, double hi);  // otherwise autofit
// Categorical x ticks (e.g. one token per bar); labels are thinned to fit.
void SetupXTicks(const std::vector<double>& values, const std::vector<std::string>& labels);
// The hover readout's x text, for axes that plot a transform of x (e.g. log2 d_k -> "d_k = 38").
void SetupXHoverFormat(std::function<std::string(double)> format);
void PlotBars(const char* label_id, const float* lefts, const float* heights, int count, double width);
void PlotBars(const char* label_id, const float* lefts, const int* heights, int count, double width);
void PlotLine(const char* label_id, const float* xs, const float* ys, int count);
// Measured points as dots (e.g. over a theory line drawn with PlotLine).
void PlotScatter(const char* label_id, const float* xs, const float* ys, int count);
// Dashed vertical reference lines across the whole plot (e.g. marked values of x).
void PlotVLines(const char* label_id, const float* xs, int count);
void EndPlot();

// Series colours (matplotlib's tab10 order); items get them in turn unless
// SetNextItemColor picks one for the next item (e.g. to keep a head's colour).
ImU32 SeriesColor(int index);
void SetNextItemColor(ImU32 color);

// Tick positions at a "nice" step (1, 2 or 5 times a power of ten) covering
// [lo, hi] with at most about max_ticks ticks; *decimals gets the number of
// decimals that shows the step exactly.
std::vector<double> NiceTicks(double lo, double hi, int max_ticks, int* decimals = nullptr);

// ---- heatmaps ----------------------------------------------------------------
// Zoom and pan of a heatmap (may be shared by several heatmaps so they move
// together): zoom 1 shows every cell; zoom z shows about 1/z of the rows and
// columns starting at (row0, col0). Wheel zooms around the mouse, drag pans.
struct HeatmapZoom {
  float zoom = 1.0f;
  float row0 = 0, col0 = 0;  // fractional while dragging; cells start at floor()
};

struct HeatmapSpec {
  const float* values = nullptr;  // rows x cols, row-major, row 0 at the top
  int rows = 0, cols = 0;
  float lo = 0, hi = 1;           // colour range: (v - lo) / (hi - lo)
  gfx::Colormap colormap = gfx::Colormap::YlOrRd;
  const std::vector<std::string>* row_labels = nullptr;  // e.g. query tokens
  const std::vector<std::string>* col_labels = nullptr;  // e.g. key tokens
  const std::vector<bool>* row_label_valid = nullptr;    // false: label greyed (a pad)
  const std::vector<bool>* col_label_valid = nullptr;
  const char* row_axis = "";      // axis titles ("query", "key")
  const char* col_axis = "";
  const char* value_name = "";    // hover readout ("weight")
  bool colorbar = true;
  int highlight_row = -1;         // outlined row (the selected query)
  // rows x cols, non-zero: the cell is outlined (e.g. the keys a head
  // detector counts); null: none.
  const uint8_t* outlined = nullptr;
  int cursor_row = -1, cursor_col = -1;  // the keyboard's cell cursor (ui/a11y/a11y.hpp), -1: none
  HeatmapZoom* zoom = nullptr;    // null: no zoom/pan (cells shrink to fit, min 1 px)
  // Non-zero: names these exact values (a result's generation and which of its
  // matrices), so a frame that shows the same ones again skips copying and
  // comparing them for the texture. 0: they are compared.
  uint64_t generation = 0;
  // Replaces the default hover readout; called inside a tooltip with the cell.
  std::function<void(int row, int col)> tooltip;
};

// Where the cells landed, in framebuffer pixels of the window, top-left origin.
// Only the visible window of cells is drawn: rows x cols cells starting at
// (row0, col0) of the matrix. Cell (r, c) of the window covers
// [x + c*w/cols, x + (c+1)*w/cols) x [y + r*h/rows, ...).
struct HeatmapCells {
  int x = 0, y = 0, w = 0, h = 0;
  int row0 = 0, col0 = 0, rows = 0, cols = 0;
  int hovered_row = -1, hovered_col = -1;  // matrix indices under the mouse
  bool clicked = false;                    // released on hovered cell without dragging
};

// Fills `size` (as BeginPlot), returns false if nothing could be drawn.
bool PlotHeatmap(const char* label_id, const HeatmapSpec& spec, const ImVec2& size,
                 HeatmapCells* cells = nullptr);

// The height PlotHeatmap needs at `width` to show every cell as big as the
// width allows (cells, labels and axis title), for a layout that sizes the
// heatmap to its content (a phone's stacked panels).
float HeatmapHeight(const HeatmapSpec& spec, float width);

// A vertical colorbar from lo (bottom) to hi (top) with nice ticks.
void DrawColorbar(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max,
                  gfx::Colormap colormap, float lo, float hi);
// The same lying down, lo at the left, its ticks and labels under it (a
// heatmap's on an upright phone).
void DrawColorbarBelow(ImDrawList* draw_list, const ImVec2& min, const ImVec2& max,
                       gfx::Colormap colormap, float lo, float hi);

}  // namespace attn::plot
