// Export in the lab: the popup (export_button, at the right end of the tab
// bar) asks for the files and the PNG through request_export
// (state/export_requests.hpp).
#pragma once

#include "ui/state/export_requests.hpp"

namespace attn::ui {

// The tab bar's "Export" button and its popup (views.cpp puts it beside the
// language button): the PNG first, then every item with CSV / JSON.
void export_button(AppState& state);

// Records the open view's content area as control "view_area" (call inside
// the view's child window): the PNG's region, at 2x.
void record_view_area(AppState& state);

}  // namespace attn::ui
