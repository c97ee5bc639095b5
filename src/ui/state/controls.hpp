// One description per control: the set-up panels' ImGui widgets
// (explorer/setup.cpp, scaling/controls.cpp), the accessible copy's HTML
// controls (a11y/a11y.cpp) and the URL reader's clamping of the fields that
// have no range of their own (state/lab_state.cpp) are all made from these
// rows, so a label, a range, a step or a help text is written once.
//
// A row with a value (get and set) is drawn and listed by itself: the panel
// draws every such row of a place (draw_placed_controls) where that place's
// widgets go, and the accessible copy lists it at the same point
// (placed_controls). A new control on an existing field is one such row. The
// other rows describe widgets their panel draws in its own way (the heads'
// -/+ buttons, the mask and projection lists, the sentence box).
#pragma once

#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"
#include "core/masks.hpp"

namespace attn::ui {

struct AppState;

// What the accessible copy offers for it; the ImGui widget follows from the
// row (a whole-number or float slider, or a number box with -/+ when the row
// has a step).
enum class ControlKind { Text, Choice, Checkbox, Slider, Number };

// Where a control with a value is drawn: a section of a set-up panel.
enum class ControlPlace { Own, ExplorerScoring, ExplorerMask, ScalingTraining, PoemContinue };

struct ControlRow {
  const char* field;      // the state field it sets (lab_state.hpp)
  ControlKind kind;
  const char* label_key;  // tr() key of its label
  const char* help_key;   // tr() key of its help marker ("" = none beside it)
  double lo = 0, hi = 0;  // what the widget offers (a config or a URL may set more, up to the field's limits)
  double step = 0;        // a number box's -/+ step (0: a slider, or any value)
  const char* format = "%d";  // the slider's number ("%d": whole numbers)
  bool logarithmic = false;   // the slider's scale
  // Rows drawn by themselves: the place, whether it is there now, the value.
  ControlPlace place = ControlPlace::Own;
  bool (*shown)(const AppState&) = nullptr;  // nullptr: always
  double (*get)(const AppState&) = nullptr;
  void (*set)(AppState&, double) = nullptr;  // called when the reader changed it
  const char* widget_id = nullptr;           // its name in layout().controls (nullptr: the field)
};

// The row of `field`. An unknown field is a programming error: it returns the first row.
const ControlRow& control_row(const std::string& field);
// Every row, in the panels' order.
const std::vector<ControlRow>& control_rows();

// The rows drawn by themselves at `place` that are there now.
std::vector<const ControlRow*> placed_controls(const AppState& state, ControlPlace place);

// Draws them (ImGui): sliders or number boxes with their labels and help
// markers, in the place's style (the explorer: label right of the widget; the
// scaling lab: label in a column left of it).
void draw_placed_controls(AppState& state, ControlPlace place);

// tr() keys of the names the set-up panel and the accessible copy give masks
// and projections (the scaling lab's panels: scaling_panel_label_key).
std::string mask_label_key(Mask::Kind kind);
std::string projection_label_key(Projection projection);

}  // namespace attn::ui
