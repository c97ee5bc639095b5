// The scaling lab's panels as one table (id for ?panel= and --panel, tab
// label, draw function) and their tab bar inside the "Scaling lab" view.
#include <string>
#include <vector>

#include "ui/scaling/scaling.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/ids.hpp"
#include "ui/widgets/tabs.hpp"

namespace attn::ui {
namespace {

struct PanelSpec {
  ScalingPanel panel;
  const char* id;
  const char* label_key;
  void (*draw)(AppState& state);
};

const std::vector<PanelSpec>& panels() {
  static const std::vector<PanelSpec> table = {
      {ScalingPanel::Figure42, "fig42", "scaling.tab.fig42", figure42_panels},
      {ScalingPanel::Saturation, "saturation", "scaling.tab.saturation", saturation_panels},
      {ScalingPanel::Training, "training", "scaling.tab.training", training_panels},
  };
  return table;
}

}  // namespace

const char* scaling_panel_id(ScalingPanel panel) {
  for (const PanelSpec& spec : panels())
    if (spec.panel == panel) return spec.id;
  return panels().front().id;
}

bool scaling_panel_from_id(const std::string& id, ScalingPanel* panel) {
  for (const PanelSpec& spec : panels())
    if (id == spec.id) {
      *panel = spec.panel;
      return true;
    }
  return false;
}

std::string scaling_panel_ids() { return join_ids(panels()); }

const char* scaling_panel_label_key(ScalingPanel panel) {
  for (const PanelSpec& spec : panels())
    if (spec.panel == panel) return spec.label_key;
  return panels().front().label_key;
}

void scaling_view(AppState& state) {
  ScalingLab& lab = state.scaling;
  // Only the figure (?controls=none): the open panel, without the tabs.
  if (state.controls_mode == ControlsMode::None) {
    for (const PanelSpec& spec : panels())
      if (spec.panel == lab.panel) spec.draw(state);
    return;
  }
  std::vector<TabItem> tabs;
  int selected = 0;
  for (const PanelSpec& spec : panels()) {
    if (spec.panel == lab.panel) selected = int(tabs.size());
    tabs.push_back({spec.label_key, std::string("scaling_tab_") + spec.id});
  }
  tab_bar(
      state.controls, "##scaling_panels", tabs, &selected, &lab.select_panel_frames, "##scaling_panel",
      [&](int i) {
        lab.panel = panels()[std::size_t(i)].panel;
        panels()[std::size_t(i)].draw(state);
        record_scrollbar(state, "view_scrollbar");
      },
      nullptr, nullptr, "scaling_tab_combo");
  lab.panel = panels()[std::size_t(selected)].panel;
}

}  // namespace attn::ui
