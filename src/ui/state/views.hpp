// The lab's views, one tab each, as one table (shell/views.cpp): for each
// view its id (state(), URLs, --view), its tab label, what it draws from,
// how it is drawn and described for the accessible copy, what it exports and
// which of the explorer's extras it uses. The tab bar, the set-up panel, the
// keys, export, the accessible copy, app_busy, the desktop's --help, the
// state fields and state().views all read the table: nothing else compares
// View values.
#pragma once

#include <string>
#include <vector>

namespace attn::ui {

struct AppState;
struct A11yView;  // state/records.hpp

// A view is its row of views(), by position (tab order): View{} is the first,
// the heatmaps. No value is named outside the table.
enum class View : int {};

// What a view draws from.
enum class ViewSource {
  Explorer,  // the explorer's result (AppState::result): the explorer's set-up panel beside it, its error
             // shown, Up/Down move the selected query
  Chapter,   // Figure 4.1 (AppState::fig41, computed on first use); the explorer's set-up panel beside it
  Scaling,   // the scaling lab (AppState::scaling): its own set-up panel; its statistics run while it is open
  Poem,      // the trained poem model (AppState::poem): its own set-up panel; loaded when first opened
  Why,       // the why-attention experiments (AppState::why): its own set-up panel; loaded when first opened
  Given,     // weights computed elsewhere (AppState::given), drawn as they are: no set-up panel
};

// When a view has a tab.
enum class ViewShown {
  Always,
  Debug,  // with state.debug (always on the desktop, ?debug=1 on the web)
  Given,  // once weights are given (AppState::given), or while it is open
};

// What the Export popup offers for the view besides its PNG.
enum class ViewExports {
  Png,       // only the PNG (view_<id>.png): the figure is not the explorer's result
  Matrices,  // the PNG (view_<id>_<mask>.png) and every matrix of the explorer's result as CSV and JSON
  Poem,      // the PNG and the poem model's reading: every layer's and head's weights and the predictions, CSV and JSON
};

struct ViewSpec {
  const char* id;         // stable: state().view, ?view=, --view
  const char* label_key;  // tr() key of the tab label (also the accessible copy's title)
  ViewSource source;
  void (*draw)(AppState& state);
  // The accessible copy's summary and tables (a11y/a11y_views.hpp); it may
  // refine the title. The heatmaps drawn are listed by themselves.
  void (*describe)(const AppState& state, A11yView& out);
  ViewExports exports;
  bool a11y_controls;  // its source's controls in the accessible copy (explorer: the set-up; scaling: the lab's)
  bool cell_cursor;    // Left/Right/Home/End and Page Up/Down move the heatmap's cell cursor, announced
  bool histograms;     // shows the weight histograms, which are binned while it is open (app_busy until then)
  ViewShown shown;
};

// In tab order.
const std::vector<ViewSpec>& views();
const ViewSpec& view_spec(View view);
View view_of(const ViewSpec& spec);  // spec: a row of views()
// The open view's entry.
const ViewSpec& open_view(const AppState& state);

const char* view_id(View view);
// Whether the view has a tab now (ViewSpec::shown).
bool view_shown(const AppState& state, const ViewSpec& spec);
bool view_from_id(const std::string& id, View* view);
// The view's code is there to draw and describe it: the first view's always,
// every other's once AppState::views_code is Ready (in the browser it is the
// main module's deferred part: src/platform/deferred_code.txt).
bool view_code_ready(const AppState& state, const ViewSpec& spec);
// The open view waits for its code, which is on its way (not failed): it is still to draw.
bool view_code_coming(const AppState& state);
// What a view says in place of itself while its code is not there: loading, or why not.
std::string view_code_message(const AppState& state);
// "heatmaps|focus|...|debug", for usage texts and messages.
std::string view_ids();
// "explorer", "chapter", "scaling", "poem", "why", "given" (state().views).
const char* view_source_id(ViewSource source);

}  // namespace attn::ui
