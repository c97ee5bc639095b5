// The views table and its tab bar; see views.hpp.
#include "ui/views.hpp"

#include <imgui.h>

#include "ui/app.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/export.hpp"
#include "ui/fig41_panels.hpp"
#include "ui/ids.hpp"
#include "ui/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/tabs.hpp"

namespace attn::ui {
namespace {

// The interface language, at the right end of the tab bar: its own name,
// and a popup of every language by its own name. Switching changes only the
// texts (tr()); the reader's state stays as it is.
void language_button(AppState& state) {
  if (ImGui::TabItemButton(current_language().name, ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip))
    ImGui::OpenPopup("##languages");
  record_control(state, "language");
  if (!ImGui::BeginPopup("##languages")) return;
  for (const Language& language : languages()) {
    if (ImGui::Selectable(language.name, &language == &current_language())) set_language(language.code);
    record_control(state, std::string("language_") + language.code);
  }
  ImGui::EndPopup();
}

// "Copy link": the platform copies the URL of this exact state (lab_state.hpp)
// and says so until the state changes.
void link_button(AppState& state) {
  if (ImGui::TabItemButton(tr(state.link_copied ? "link.copied" : "link.copy"), ImGuiTabItemFlags_Trailing))
    state.copy_link_request = true;
  record_control(state, "copy_link");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("link.copy.help"));
}

// The chapter's Figure 4.1 is fixed: computed the first time it is shown.
void chapter_view(AppState& state) {
  if (!state.fig41) state.fig41 = run_figure41();
  fig41_panels(state);
}

}  // namespace

const std::vector<ViewSpec>& views() {
  static const std::vector<ViewSpec> table = {
      {View::Heatmaps, "heatmaps", "tab.heatmaps", heatmaps_view, false},
      {View::Focus, "focus", "tab.focus", focus_view, false},
      {View::Steps, "steps", "tab.steps", steps_view, false},
      {View::Lines, "lines", "tab.lines", lines_view, false},
      {View::Stats, "stats", "tab.stats", stats_view, false},
      {View::Chapter, "chapter", "tab.chapter", chapter_view, false},
      {View::Scaling, "scaling", "tab.scaling", scaling_view, false},
      {View::Debug, "debug", "tab.debug", debug_view, true},
  };
  return table;
}

const ViewSpec& view_spec(View view) {
  for (const ViewSpec& spec : views())
    if (spec.view == view) return spec;
  return views().front();
}

const char* view_id(View view) { return view_spec(view).id; }

bool view_from_id(const std::string& id, View* view) {
  for (const ViewSpec& spec : views())
    if (id == spec.id) {
      *view = spec.view;
      return true;
    }
  return false;
}

std::string view_ids() { return join_ids(views()); }

void draw_views(AppState& state, const ViewsFrame& frame) {
  const auto draw_view = [&](const ViewSpec& spec) {
    const auto view = [&] {
      spec.draw(state);
      record_view_area(state);  // the export's PNG region
      record_scrollbar(state, "view_scrollbar");
    };
    if (frame.around) frame.around(view);
    else view();
  };
  if (!frame.tabs) {
    ImGui::BeginChild("##view", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    draw_view(view_spec(state.view));
    plot::ScrollWindowWithWheel();
    ImGui::EndChild();
    return;
  }
  std::vector<TabItem> tabs;
  int selected = 0;
  for (const ViewSpec& spec : views()) {
    if (spec.view == state.view) selected = int(tabs.size());
    tabs.push_back({spec.label_key, std::string("tab_") + spec.id, !spec.debug_only || state.debug});
  }
  tab_bar(
      state, "##views", tabs, &selected, &state.select_view_frames, "##view",
      [&](int i) {
        state.view = views()[std::size_t(i)].view;
        draw_view(views()[std::size_t(i)]);
      },
      [&] {
        export_button(state);  // ui/export.hpp
        link_button(state);
        language_button(state);
      },
      frame.leading, "tab_combo");
  state.view = views()[std::size_t(selected)].view;
}

}  // namespace attn::ui
