// The lab's whole UI state (AppState; default = the explorer on "The cat
// sat on the mat"); shell/app.hpp draws a frame of it.
//
// The reader's choices are one attn::ExplorerConfig (serialisable through
// api::print_explorer_config; its fields are core/explorer/explorer_fields.hpp's table)
// plus the scaling lab's; everything else here is UI-only state (which view,
// which query and head are selected, zoom), results derived from the config
// (explorer/update.cpp) or the last frame's outputs. The views are listed in
// shell/views.cpp (their ids: views.hpp); the state as fields (URL, flags, a
// host page's set/get) in lab_state.hpp.
// The platform layer (src/platform) owns the window and the ImGui backends;
// it only sets the few platform facts below and reads the outputs back.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/explorer/export_tables.hpp"
#include "core/chapter/experiments.hpp"
#include "core/explorer/explorer.hpp"
#include "core/explorer/order.hpp"
#include "core/given/given_weights.hpp"
#include "gfx/colormap.hpp"
#include "ui/state/module_load.hpp"
#include "ui/state/poem_lab.hpp"
#include "ui/state/why_lab.hpp"
#include "ui/state/records.hpp"
#include "ui/state/scaling_lab.hpp"
#include "ui/state/views.hpp"
#include "ui/widgets/plot.hpp"
#include "ui/widgets/records.hpp"
#include "ui/widgets/theme.hpp"

namespace attn::ui {

// How much of the lab an embedding page shows (?controls=): full = the set-up
// panel and the tabs; compact = the set-up panel behind a button; none = only
// the open view's figure, as in a book.
enum class ControlsMode { Full, Compact, None };

struct AppState {
  // ---- what the reader chose (serialisable: api::print_explorer_config) ------
  ExplorerConfig config;
  Theme theme = Theme::Light;
  // ?theme=auto and ?theme=host: `theme` follows the browser's colour scheme,
  // or the embedding page's, as they change (follow_color_scheme, lab_state.hpp).
  enum class ThemeSource { Chosen, Browser, Host } theme_source = ThemeSource::Chosen;
  bool browser_dark = false;  // web: prefers-color-scheme: dark (the platform keeps it current)
  int host_dark = -1;         // web: the embedding page of this site has html.dark (1) or not (0); -1: no such page
  ControlsMode controls_mode = ControlsMode::Full;
  // Moves (mark_state_changed) whenever the reader, a host page or the app
  // itself may have changed anything the URL or the accessible copy shows: a
  // frame with input, set(), a URL, a result, a notice, and the frame after
  // any of these (where a pressed button's work lands). Frames without any
  // (hovering, training, a pending recompute) leave it, and the URL is not
  // rebuilt; the accessible copy also follows the frames that begin busy.
  uint64_t state_generation = 0;
  uint64_t frame_end_generation = 0;  // state_generation as the last frame ended (shell/app.cpp)
  bool changed_last_frame = false;    // the last frame had input or a change: this one moves it too
  long long busy_frame = 0;           // the last frame that began with work of its own (app_busy)

  // ---- UI-only state ----------------------------------------------------------
  View view{};  // the first of views(): the heatmaps
  int select_view_frames = 2;  // > 0: the tab bar follows `view` (presets, URL) for this many frames
  // The code of every view but the first: in the browser the main module's
  // second part (attention_web.deferred.wasm), fetched once the first view is
  // ready or as soon as another view is opened (view_code_ready,
  // state/views.hpp); linked in everywhere else, so Ready from the start.
  ModuleLoad views_code = ModuleLoad::Ready;
  std::string views_code_error;  // why it could not be fetched (Failed)
  int selected_query = 0;
  int selected_head = -1;      // -1: the head average
  plot::HeatmapZoom zoom;      // shared by the head heatmaps, so they move together
  plot::HeatmapCells zoom_window;  // the window the head heatmaps showed last frame
  CellCursor cursor;           // the keyboard's cell in the selected head's heatmap (records.hpp, a11y.hpp)
  std::vector<bool> lines_head_visible;  // head lines view: which heads are drawn
  bool release_text_box = false;  // set() changed a text: the box being typed in lets go (shell/app.cpp)
  bool debug = false;          // shows the debug tab (always on desktop, ?debug=1 on the web)
  gfx::Colormap average_colormap = gfx::Colormap::YlOrRd;  // the chapter's choice
  gfx::Colormap head_colormap = gfx::Colormap::Viridis;
  bool histograms_per_head = false;  // false: the chapter's overlay; true: one plot per head
  bool fig41_shared_scale = false;   // false: one colour bar per panel, as the book; true: one range for all

  // ---- platform facts, set before each frame --------------------------------
  float css_pixel_ratio = 0;  // web: devicePixelRatio, adds css_* to the layout; 0 natively
  // The height the lab's content wants at this width (framebuffer pixels; for a
  // host page's height: 'auto', web/embed.js): the open view's, measured as it is drawn.
  float wanted_height = 0;
  bool reduced_motion = false;  // web: prefers-reduced-motion: reduce (no blinking text cursor)

  // ---- results from the core (explorer/update.cpp) ----------------------------
  // What every time-sliced job here (the explorer's recompute, retraining,
  // the scaling lab, the poem model's training on this thread) takes its
  // budget from: the steady clock in the app, a counting one in the UI tests.
  WorkClock clock;
  // The core runs when `config` differs from `checked_config`, the config the
  // last update looked at: controls only edit `config`.
  std::optional<ExplorerConfig> checked_config;
  std::string error;                    // check_explorer_config's message, "" when fine
  std::optional<ExplorerResult> result;  // the last good result (kept while error is set)
  // New (process-wide, never 0) each time `result` is replaced: what is
  // derived from the result (the heatmap textures, the steps view's numbers)
  // is rebuilt only when it changes.
  uint64_t result_generation = 0;
  // A shuffled sentence's order check (core/explorer/order.hpp), made when its
  // result is shown, or why it could not run; the tokens labelled with their
  // original places ("cat_2"), for the heatmaps' axes.
  std::optional<OrderCheck> order_check;
  std::string order_error;
  std::vector<std::string> order_labels;
  std::optional<TrainedWeights> trained;  // the last trained projection's weights
  std::unique_ptr<Trainer> retraining;   // a trained config's model, retrained a slice per frame
  // The recompute of checked_config, a slice per frame (explorer/update.cpp);
  // result keeps the last one on screen meanwhile.
  std::unique_ptr<ExplorerJob> explorer_job;
  double explorer_job_ms = 0;      // its compute time so far
  long long explorer_frame = -1;   // the frame explorer_frame_ms belongs to
  double explorer_frame_ms = 0;    // compute time spent in that frame
  // Frames still to draw after a result arrived with no input (a pending job
  // completed): Dear ImGui lays new windows and tables out over two frames.
  int settle_frames = 0;
  std::optional<Figure41> fig41;        // the chapter view (computed on first use)
  // Weights computed elsewhere (the `given` field: a notebook's show_heatmaps,
  // a URL), drawn as they are by the view "given"; null: none given.
  std::shared_ptr<const GivenWeights> given;
  ScalingLab scaling;                   // the scaling lab: its choices, results and trainers
  PoemLab poem;                         // the learned-heads view: the poem model, the reader's choices, its answers
  WhyLab why;                           // the why-attention view: its experiments' runs and the reader's choices

  // ---- messages for the reader ----------------------------------------------
  // Bad URL parameters or host-page messages: what was asked and what was used
  // instead, shown as a dismissable notice above the view until closed.
  std::vector<std::string> notices;
  bool copy_link_request = false;  // "Copy link" was pressed: the platform copies the state's URL
  bool link_copied = false;        // ... and did; the button says so until the state changes

  // ---- outputs of the last frame ---------------------------------------------
  long long frames = 0;  // frames drawn since the start (state().frames): an idle page draws none
  int framebuffer_w = 0, framebuffer_h = 0;
  std::vector<HeatmapLayout> layout;
  std::vector<A11yTable> a11y_tables;  // every heatmap drawn, as a table (records.hpp)
  Controls controls;  // where the widgets landed (widgets/records.hpp)
  double compute_ms = 0, frame_ms = 0;  // the last result's compute time (all its slices); last whole app_frame
  std::vector<float> recent_frame_ms;  // the last kRecentFrames app_frame times, oldest first (state().timings_ms.recent)
  // The explorer recompute's pieces each of those frames ran (state().frame_pieces):
  // work, not time, so a test can tell a spread recompute on a busy machine,
  // where a frame's wall time holds whatever else ran meanwhile.
  std::vector<int> recent_frame_pieces;
  int frame_pieces = 0;  // this frame's so far
  int compute_pieces = 0;  // the last result's recompute, in all (state().compute_pieces)
  static constexpr std::size_t kRecentFrames = 120;
  std::string dump_request;  // every matrix as JSON, set by the debug button; the platform saves it
  std::vector<api::ExportFile> export_requests;  // files asked for in the export popup (api/explorer/export_tables.hpp); the platform saves them
  std::string png_request;  // the view's PNG at 2x was asked for: its file name ("" = none); the platform renders and saves it

  // ---- the plot layer (owns the heatmap GL textures) --------------------------
  plot::Context plot;
};

inline void mark_state_changed(AppState& state) { ++state.state_generation; }

}  // namespace attn::ui
