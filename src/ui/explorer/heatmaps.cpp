// The heatmaps view: the head average and one heatmap per head, all sharing
// one zoom/pan so a cell is at the same place in every head. Clicking a cell
// selects its query (and head); in custom-mask mode it toggles the cell.
#include <algorithm>
#include <cstdio>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// Tooltip of cell (q, k) of head h (-1: the average).
void cell_tooltip(const ExplorerResult& r, int head, int q, int k) {
  ui::textf("%s: %s", tr("tip.query"), token_label(r, q).c_str());
  ui::textf("%s: %s", tr("tip.key"), token_label(r, k).c_str());
  if (head < 0) {
    ui::textf("%s: %.4f", tr("tip.weight"), double(r.attention.average_weights(q, k)));
    ui::text_disabled("%s", tr("tip.average_note"));
    return;
  }
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  ui::textf("%s: %.4f", tr("tip.raw"), double(h.raw_scores(q, k)));
  ui::textf("%s: %.4f", tr("tip.scaled"), double(h.scaled_scores(q, k)));
  ui::textf("%s: %.4f", tr("tip.weight"), double(h.weights(q, k)));
  if (!h.allowed(q, k)) ui::text_disabled("%s", tr("tip.masked"));
}

void head_heatmap(AppState& state, int head, const ImVec2& size) {
  const ExplorerResult& r = *state.result;
  char title[48];
  if (head < 0) std::snprintf(title, sizeof title, "%s", tr("view.average"));
  else std::snprintf(title, sizeof title, tr("view.head.fmt"), head);
  ImGui::PushID(head);
  begin_fitted_child("##panel", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ui::text(title);
  HeatmapLayout entry;
  entry.name = head < 0 ? "average" : "head" + std::to_string(head);
  entry.title = title;
  entry.source = head < 0 ? "average" : "weights";
  entry.head = head;
  const HeadSummary& summary = head < 0 ? r.average_summary : r.summaries[std::size_t(head)];
  const Matrix& weights = head < 0 ? r.attention.average_weights : r.attention.heads[std::size_t(head)].weights;
  // matplotlib's imshow default: the colours span the data's own min..max.
  plot::HeatmapSpec& spec = entry.spec = matrix_spec(weights, summary.stats.min, summary.stats.max,
                                                     head < 0 ? state.average_colormap : state.head_colormap);
  weights_axes(state, spec);
  if (state.cursor.shown && head == state.selected_head) {
    spec.cursor_row = state.selected_query;
    spec.cursor_col = state.cursor.key;
  }
  spec.zoom = &state.zoom;
  spec.tooltip = [&r, head](int q, int k) { cell_tooltip(r, head, q, k); };
  const plot::HeatmapCells cells = draw_heatmap(state, std::move(entry), ImVec2(0, 0));
  if (head < 0) state.zoom_window = cells;
  if (cells.clicked) {
    if (state.config.mask == Mask::Kind::Custom) {
      MaskMatrix& m = state.config.custom_mask;
      // While an error shows, the heatmap is the last good result and the mask
      // may already be sized for other tokens: a click would toggle another pair.
      const bool mask_matches = state.error.empty() && m.rows() == Eigen::Index(r.tokens.size()) && m.cols() == m.rows();
      if (mask_matches && cells.hovered_row < m.rows() && cells.hovered_col < m.cols()) {
        m(cells.hovered_row, cells.hovered_col) = !m(cells.hovered_row, cells.hovered_col);
      }
    }
    state.selected_query = cells.hovered_row;
    state.cursor.key = cells.hovered_col;  // the keyboard carries on from the clicked cell
    state.selected_head = head;
  }
  end_fitted_child();
  ImGui::PopID();
}

}  // namespace

void heatmaps_view(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int heads = int(r.attention.heads.size());
  title_with_help(selected_query_text(r, state.selected_query).c_str(), tr("view.heatmaps.help"));
  // Too many tokens for the pixels, or zoomed in: say which window is shown.
  const plot::HeatmapCells& w = state.zoom_window;
  const int n = int(r.tokens.size());
  // (Each goes on the line if it fits, else on the next: nothing runs past the edge.)
  if (w.rows > 0 && (w.rows < n || w.cols < n)) {
    char window[160];
    std::snprintf(window, sizeof window, tr("view.window.fmt"), w.row0, w.row0 + w.rows - 1, w.col0,
                  w.col0 + w.cols - 1, n);
    same_line_if_fits(ImGui::CalcTextSize(window).x);
    ui::text_disabled("%s", window);
  }
  if (state.zoom.zoom > 1.0f) {
    same_line_if_fits(ImGui::CalcTextSize(tr("view.zoom.reset")).x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton(tr("view.zoom.reset"))) state.zoom = plot::HeatmapZoom{};
    record_control(state, "zoom_reset");
  }
  fully_masked_note(r);
  int columns = 1;
  const ImVec2 cell = grid_cell(heads + 1, &columns, ImGui::GetFontSize() * 13, ImGui::GetFontSize() * 2);
  for (int i = 0; i <= heads; ++i) {
    if (i % columns) ImGui::SameLine();
    head_heatmap(state, i - 1, cell);
  }
}

}  // namespace attn::ui
