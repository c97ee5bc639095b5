// Notices: what the lab could not apply from the URL or a host page's
// message ("view: \"nonsense\" is not one of ...; using \"heatmaps\""), one
// line each above the view, each with a button that dismisses it.
#pragma once

namespace attn::ui {

struct AppState;

void draw_notices(AppState& state);

}  // namespace attn::ui
