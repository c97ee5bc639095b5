// The lab's views, one tab each, as one table: the id (state(), URLs,
// --view), the tab label's string key and the function that draws the view.
// The tab bar, view_id/view_from_id, the desktop's --help and the web page's
// URL parsing all read this table, so a new view is one enum value, one
// entry in views.cpp and its draw function.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace attn::ui {

struct AppState;

enum class View { Heatmaps, Focus, Steps, Lines, Stats, Chapter, Scaling, Debug };

struct ViewSpec {
  View view;
  const char* id;         // stable: state().view, ?view=, --view
  const char* label_key;  // tr() key of the tab label
  void (*draw)(AppState& state);
  bool debug_only;        // shown only with state.debug (always on the desktop, ?debug=1 on the web)
};

// In tab order.
const std::vector<ViewSpec>& views();
const ViewSpec& view_spec(View view);

const char* view_id(View view);
bool view_from_id(const std::string& id, View* view);
// "heatmaps|focus|...|debug", for usage texts and messages.
std::string view_ids();

// How app_frame frames the open view (app.cpp chooses it from the controls
// mode and the window's width).
struct ViewsFrame {
  bool tabs = true;               // false (?controls=none): no tab bar, only the open view
  std::function<void()> leading;  // buttons at the tab bar's left end (the set-up toggle)
  // Draws the open tab's content region around the view: calls view() where
  // the view goes (beside the set-up panel, or not while the set-up panel
  // takes its place). Null: the view fills the region.
  std::function<void(const std::function<void()>& view)> around;
};

// The tab bar over views(), drawing the open view below it.
void draw_views(AppState& state, const ViewsFrame& frame = {});

}  // namespace attn::ui
