// One description per ranged control: the set-up panels' ImGui widgets
// (explorer/setup.cpp, scaling/controls.cpp), the accessible copy's HTML
// controls (a11y/a11y.cpp) and the URL reader's clamping of the fields that
// have no range of their own (state/lab_state.cpp) are all made from these
// rows, so a label, a range or a help text is written once.
#pragma once

#include <string>

#include "core/explorer.hpp"
#include "core/masks.hpp"

namespace attn::ui {

struct RangedControl {
  const char* field;      // the state field it sets (lab_state.hpp)
  const char* label_key;  // tr() key of its label
  const char* help_key;   // tr() key of its help marker ("" = none beside it)
  double lo, hi;          // what the widget offers (a config or a URL may set more, up to the field's limits)
  bool typed;             // the accessible copy offers a number box (a wide or fine range), else a slider
};

// The row of `field`: d_model, heads, seed, temperature, pads (the explorer's
// set-up), keys, train_lr (the scaling lab's). An unknown field is a
// programming error: it returns the first row.
const RangedControl& ranged_control(const std::string& field);

// tr() keys of the names the set-up panel and the accessible copy give masks
// and projections (the scaling lab's panels: scaling_panel_label_key).
std::string mask_label_key(Mask::Kind kind);
std::string projection_label_key(Projection projection);

}  // namespace attn::ui
