// The scaling lab's sub-tabs: Figure 4.2, saturation, training.
#include "ui/scaling/scaling.hpp"
#include "ui/tabs.hpp"

namespace attn::ui {

void scaling_view(AppState& state) {
  ScalingLab& lab = state.scaling;
  static const ScalingPanel panels[] = {ScalingPanel::Figure42, ScalingPanel::Saturation, ScalingPanel::Training};
  static const char* const labels[] = {"scaling.tab.fig42", "scaling.tab.saturation", "scaling.tab.training"};
  std::vector<TabItem> tabs;
  int selected = 0;
  for (int i = 0; i < 3; ++i) {
    if (panels[i] == lab.panel) selected = i;
    tabs.push_back({labels[i], std::string("scaling_tab_") + scaling_panel_id(panels[i])});
  }
  tab_bar(state, "##scaling_panels", tabs, &selected, &lab.select_panel_frames, "##scaling_panel", [&](int i) {
    lab.panel = panels[i];
    switch (lab.panel) {
      case ScalingPanel::Figure42: figure42_panels(state); break;
      case ScalingPanel::Saturation: saturation_panels(state); break;
      case ScalingPanel::Training: training_panels(state); break;
    }
  });
  lab.panel = panels[selected];
}

}  // namespace attn::ui
