// The views table (state/views.hpp) and its tab bar (shell/views.hpp).
#include "ui/shell/views.hpp"

#include <imgui.h>

#include "ui/a11y/a11y_views.hpp"
#include "ui/chapter/fig41_panels.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/given/given.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/shell/export.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/ids.hpp"
#include "ui/widgets/tabs.hpp"
#include "ui/why/why.hpp"
#include "ui/widgets/text.hpp"

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
    if (ImGui::Selectable(language.name, &language == &current_language())) {
      set_language(language.code);
      // The tabs are named by their labels: the bars follow the open view and panel through the change.
      state.select_view_frames = state.scaling.select_panel_frames = 2;
    }
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

// In place of a view whose code has not arrived: asks for it (once), says it
// is on its way, or why it could not come, with a button to ask again.
void view_code_waiting(AppState& state) {
  if (state.views_code == ModuleLoad::Idle) state.views_code = ModuleLoad::Requested;
  ui::text_wrapped("%s", view_code_message(state).c_str());
  if (state.views_code != ModuleLoad::Failed) return;
  if (ImGui::Button(tr("poem.load.retry"))) state.views_code = ModuleLoad::Requested;
  record_control(state, "view_code_retry");
}

}  // namespace

// A view's draw and describe functions: the existing views declare theirs in
// their folder's header (explorer.hpp, scaling.hpp, fig41_panels.hpp) and the
// accessible copy's (a11y_views.hpp); a new view may declare its two here,
// beside its row, and define both in its own file.

const std::vector<ViewSpec>& views() {
  using S = ViewSource;
  using E = ViewExports;
  using V = ViewShown;
  // id, label, source, draw, describe, exports, a11y controls, cell cursor, histograms, shown
  static const std::vector<ViewSpec> table = {
      {"heatmaps", "tab.heatmaps", S::Explorer, heatmaps_view, describe_heatmaps, E::Matrices, true, true, false, V::Always},
      {"focus", "tab.focus", S::Explorer, focus_view, describe_focus, E::Matrices, true, false, false, V::Always},
      {"steps", "tab.steps", S::Explorer, steps_view, describe_steps, E::Matrices, true, false, false, V::Always},
      {"lines", "tab.lines", S::Explorer, lines_view, describe_lines, E::Matrices, true, false, false, V::Always},
      {"filter", "tab.filter", S::Explorer, filters_view, describe_filters, E::Matrices, true, false, false, V::Always},
      {"stats", "tab.stats", S::Explorer, stats_view, describe_stats, E::Matrices, true, false, true, V::Always},
      {"chapter", "tab.chapter", S::Chapter, chapter_view, describe_chapter, E::Png, false, false, false, V::Always},
      {"scaling", "tab.scaling", S::Scaling, scaling_view, describe_scaling, E::Png, true, false, false, V::Always},
      {"poem", "tab.poem", S::Poem, poem_view, describe_poem, E::Poem, true, false, false, V::Always},
      {"why", "tab.why", S::Why, why_view, describe_why, E::Png, false, false, false, V::Always},
      {"given", "tab.given", S::Given, given_view, describe_given, E::Png, false, false, false, V::Given},
      {"debug", "tab.debug", S::Explorer, debug_view, describe_debug, E::Matrices, false, false, false, V::Debug},
  };
  return table;
}

const ViewSpec& view_spec(View view) {
  const std::size_t row = std::size_t(view);
  return row < views().size() ? views()[row] : views().front();
}

View view_of(const ViewSpec& spec) { return View(&spec - views().data()); }

bool view_code_ready(const AppState& state, const ViewSpec& spec) {
  return &spec == &views().front() || state.views_code == ModuleLoad::Ready;
}

bool view_code_coming(const AppState& state) {
  return !view_code_ready(state, open_view(state)) && state.views_code != ModuleLoad::Failed;
}

std::string view_code_message(const AppState& state) {
  return state.views_code == ModuleLoad::Failed ? format(tr("view.code.failed.fmt"), state.views_code_error.c_str())
                                                : tr("view.code.loading");
}

const ViewSpec& open_view(const AppState& state) { return view_spec(state.view); }

const char* view_id(View view) { return view_spec(view).id; }

bool view_shown(const AppState& state, const ViewSpec& spec) {
  switch (spec.shown) {
    case ViewShown::Always: return true;
    case ViewShown::Debug: return state.debug;
    case ViewShown::Given: return state.given || view_of(spec) == state.view;
  }
  return true;
}

const char* view_source_id(ViewSource source) {
  switch (source) {
    case ViewSource::Explorer: return "explorer";
    case ViewSource::Chapter: return "chapter";
    case ViewSource::Scaling: return "scaling";
    case ViewSource::Poem: return "poem";
    case ViewSource::Why: return "why";
    case ViewSource::Given: return "given";
  }
  return "explorer";
}

bool view_from_id(const std::string& id, View* view) {
  for (const ViewSpec& spec : views())
    if (id == spec.id) {
      *view = view_of(spec);
      return true;
    }
  return false;
}

std::string view_ids() { return join_ids(views()); }

void draw_views(AppState& state, const ViewsFrame& frame) {
  const auto draw_view = [&](const ViewSpec& spec) {
    const auto view = [&] {
      if (view_code_ready(state, spec)) spec.draw(state);
      else view_code_waiting(state);
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
    if (view_of(spec) == state.view) selected = int(tabs.size());
    tabs.push_back({spec.label_key, std::string("tab_") + spec.id, view_shown(state, spec)});
  }
  tab_bar(
      state.controls, "##views", tabs, &selected, &state.select_view_frames, "##view",
      [&](int i) {
        state.view = View(i);
        draw_view(views()[std::size_t(i)]);
      },
      [&] {
        export_button(state);  // ui/shell/export.hpp
        link_button(state);
        language_button(state);
      },
      frame.leading, "tab_combo");
  state.view = View(selected);
}

}  // namespace attn::ui
