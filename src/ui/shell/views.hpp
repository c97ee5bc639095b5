// The tab bar over the views table (state/views.hpp), drawing the open view
// below it, with the buttons at its ends (export, copy link, language).
#pragma once

#include <functional>

#include "ui/state/views.hpp"

namespace attn::ui {

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
