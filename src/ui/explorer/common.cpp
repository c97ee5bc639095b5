// Helpers shared by the explorer's panels; see explorer.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/statistics.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/strings.hpp"

namespace attn::ui {

void record_control(AppState& state, const std::string& name) {
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  state.controls[name] = WidgetRect{a.x * scale, a.y * scale, (b.x - a.x) * scale, (b.y - a.y) * scale};
}

std::vector<StatsRow> stats_table_text(const ExplorerResult& result) {
  auto format = [](float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", double(value));
    return std::string(text);
  };
  auto row = [&](std::string head, const HeadSummary& s) {
    return StatsRow{std::move(head), format(s.stats.min), format(s.stats.max), format(s.stats.mean),
                    format(s.mean_entropy)};
  };
  std::vector<StatsRow> rows;
  for (std::size_t h = 0; h < result.summaries.size(); ++h) rows.push_back(row(std::to_string(h), result.summaries[h]));
  rows.push_back(row("avg", result.average_summary));
  return rows;
}

plot::HeatmapCells draw_matrix(AppState& state, const MatrixPlot& mp, const ImVec2& size) {
  plot::HeatmapCells cells;
  if (!mp.values || mp.values->size() == 0) return cells;
  plot::HeatmapSpec spec;
  spec.values = mp.values->data();  // row-major: row q = query q
  spec.rows = int(mp.values->rows());
  spec.cols = int(mp.values->cols());
  spec.lo = mp.lo;
  spec.hi = mp.hi;
  spec.colormap = mp.colormap;
  spec.row_labels = mp.row_labels;
  spec.col_labels = mp.col_labels;
  spec.row_label_valid = mp.row_valid;
  spec.col_label_valid = mp.col_valid;
  spec.row_axis = mp.row_axis;
  spec.col_axis = mp.col_axis;
  // Small panels (many heads, small windows) give the space to the cells:
  // no colorbar and no axis titles (the tooltip still names everything).
  const float width = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x + size.x;
  if (width < ImGui::GetFontSize() * 20) {
    spec.colorbar = false;
    spec.row_axis = spec.col_axis = "";
  }
  spec.value_name = mp.value_name;
  spec.highlight_row = mp.highlight_row;
  spec.zoom = mp.zoom;
  spec.tooltip = mp.tooltip;
  if (!plot::PlotHeatmap(("##" + mp.name).c_str(), spec, size, &cells)) return cells;
  // Only heatmaps wholly on screen are listed: a panel scrolled half out of
  // its view is clipped, and tests must not look for cells that are hidden.
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  if (float(cells.x) < clip_min.x * scale - 0.5f || float(cells.y) < clip_min.y * scale - 0.5f ||
      float(cells.x + cells.w) > clip_max.x * scale + 0.5f || float(cells.y + cells.h) > clip_max.y * scale + 0.5f)
    return cells;
  HeatmapLayout entry;
  entry.name = mp.name;
  entry.source = mp.source;
  entry.head = mp.head;
  entry.cells = cells;
  entry.rows = cells.rows;
  entry.cols = cells.cols;
  entry.lo = mp.lo;
  entry.hi = mp.hi;
  entry.colormap = mp.colormap;
  entry.masked = mp.masked;
  state.layout.push_back(entry);
  return cells;
}

void fully_masked_note(const ExplorerResult& result) {
  if (result.fully_masked_queries.empty()) return;
  // softmax of a row of -inf is 0/0: the core returns all-zero weights instead
  // of NaN, and the reader is told why those rows are empty.
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.7f, 0.3f, 0.0f, 1.0f));
  ImGui::TextWrapped(tr("view.fully_masked.fmt"), int(result.fully_masked_queries.size()));
  ImGui::PopStyleColor();
}

std::string token_label(const ExplorerResult& result, int index) {
  if (index < 0 || index >= int(result.tokens.size())) return std::to_string(index);
  return std::to_string(index) + " '" + result.tokens[std::size_t(index)] + "'";
}

ImVec2 grid_cell(int count, int* columns, float min_side) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  count = std::max(count, 1);
  ImVec2 best(1, 1);
  int best_columns = 1;
  float best_side = -1;
  // The column count whose panels have the largest square side wins.
  for (int c = 1; c <= count; ++c) {
    const int r = (count + c - 1) / c;
    const float w = std::floor((avail.x - gap.x * float(c - 1)) / float(c));
    const float h = std::floor((avail.y - gap.y * float(r - 1)) / float(r));
    const float side = std::min(w, h);
    if (side > best_side) {
      best_side = side;
      best = ImVec2(std::max(w, 1.0f), std::max(h, 1.0f));
      best_columns = c;
    }
  }
  // Too small: keep panels at min_side and let the view scroll instead.
  if (best_side < min_side) {
    best_columns = std::max(1, int((avail.x + gap.x) / (min_side + gap.x)));
    best = ImVec2(std::max(min_side, std::floor((avail.x - gap.x * float(best_columns - 1)) / float(best_columns))),
                  min_side);
  }
  if (columns) *columns = best_columns;
  return best;
}

}  // namespace attn::ui
