// The frame's records; see records.hpp.
#include "ui/state/records.hpp"

#include <algorithm>
#include <cstdio>

#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/records.hpp"

namespace attn::ui {

void record_control(AppState& state, const std::string& name) { record_control(state.controls, name); }
void record_text_box(AppState& state, const std::string& name) { record_text_box(state.controls, name); }
void record_region(AppState& state, const std::string& name) { record_region(state.controls, name); }
void record_region(AppState& state, const std::string& name, const ImVec2& min, const ImVec2& max) {
  record_region(state.controls, name, min, max);
}
void record_scrollbar(AppState& state, const std::string& name) { record_scrollbar(state.controls, name); }

plot::HeatmapSpec matrix_spec(const Matrix& values, float lo, float hi, gfx::Colormap colormap) {
  plot::HeatmapSpec spec;
  spec.values = values.data();
  spec.rows = int(values.rows());
  spec.cols = int(values.cols());
  spec.lo = lo;
  spec.hi = hi;
  spec.colormap = colormap;
  return spec;
}

plot::HeatmapCells draw_heatmap(AppState& state, HeatmapLayout entry, const ImVec2& size, bool compact_when_narrow) {
  plot::HeatmapCells cells;
  if (!entry.spec.values || entry.spec.rows <= 0 || entry.spec.cols <= 0) return cells;
  // Small panels (many heads, small windows) give the space to the cells:
  // no axis titles (the tooltip still names everything). The colorbar stays,
  // slimmer (plot.cpp): without it the colours would mean nothing.
  const float width = size.x > 0 ? size.x : ImGui::GetContentRegionAvail().x + size.x;
  const char* row_axis = entry.spec.row_axis;
  const char* col_axis = entry.spec.col_axis;
  if (compact_when_narrow && width < ImGui::GetFontSize() * 20) entry.spec.row_axis = entry.spec.col_axis = "";
  // A matrix of the explorer's result is named by the result and the entry, so
  // its texture is not rebuilt, nor its values compared, until the result changes.
  if (!entry.source.empty() && state.result_generation && !entry.spec.generation) {
    uint64_t generation = state.result_generation;
    for (const char ch : entry.name) generation = (generation ^ uint64_t(uint8_t(ch))) * 1099511628211ull;
    entry.spec.generation = ((generation ^ uint64_t(uint32_t(entry.head))) * 1099511628211ull) | 1;
  }
  // Stacked on a phone, a heatmap filling its panel is as tall as its cells
  // at the panel's width need (and the panel fits itself to it), within the screen.
  ImVec2 drawn_size = size;
  if (size.y <= 0 && stacked_layout())
    drawn_size.y = std::min(plot::HeatmapHeight(entry.spec, width), stacked_room_below());
  const bool drawn = plot::PlotHeatmap(("##" + entry.name).c_str(), entry.spec, drawn_size, &cells);
  // Scrolled out of sight or not, it is part of the view: the accessible copy
  // lists it (the whole matrix when nothing was drawn), axes named even where
  // the panel is too small to.
  entry.spec.row_axis = row_axis;
  entry.spec.col_axis = col_axis;
  a11y_record_heatmap(state, entry, cells);
  if (!drawn) return cells;
  // Only heatmaps wholly on screen are listed: a panel scrolled half out of
  // its view is clipped, and tests must not look for cells that are hidden.
  const float scale = framebuffer_scale();
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  // Upright on a phone, the colorbar under the cells must be on screen too.
  const float bottom = upright_phone() ? ImGui::GetItemRectMax().y * scale : float(cells.y + cells.h);
  if (float(cells.x) < clip_min.x * scale - 0.5f || float(cells.y) < clip_min.y * scale - 0.5f ||
      float(cells.x + cells.w) > clip_max.x * scale + 0.5f || bottom > clip_max.y * scale + 0.5f)
    return cells;
  entry.cells = cells;
  // The layout outlives this frame's matrices: keep only what it reports.
  entry.spec.values = nullptr;
  entry.spec.row_labels = entry.spec.col_labels = nullptr;
  entry.spec.row_label_valid = entry.spec.col_label_valid = nullptr;
  entry.zoomable = entry.spec.zoom != nullptr;
  entry.spec.zoom = nullptr;
  entry.spec.tooltip = nullptr;
  state.layout.push_back(std::move(entry));
  return cells;
}

void a11y_record_heatmap(AppState& state, const HeatmapLayout& entry, const plot::HeatmapCells& cells) {
  const plot::HeatmapSpec& spec = entry.spec;
  A11yTable table;
  table.caption = entry.title.empty() ? entry.name : entry.title;
  table.heatmap = entry.name;
  table.corner = std::string(spec.row_axis) + " \\ " + spec.col_axis;
  // The window shown (zoomed in, or as many cells as fit), cut to kMaxSide.
  const int row0 = cells.rows > 0 ? cells.row0 : 0, col0 = cells.cols > 0 ? cells.col0 : 0;
  const int shown_rows = cells.rows > 0 ? cells.rows : spec.rows, shown_cols = cells.cols > 0 ? cells.cols : spec.cols;
  const int rows = std::min(shown_rows, A11yTable::kMaxSide), cols = std::min(shown_cols, A11yTable::kMaxSide);
  const auto label = [](const std::vector<std::string>* labels, int i) {
    const std::string index = std::to_string(i);
    return labels && i < int(labels->size()) ? index + " " + (*labels)[std::size_t(i)] : index;
  };
  for (int r = 0; r < rows; ++r) table.rows.push_back(label(spec.row_labels, row0 + r));
  for (int c = 0; c < cols; ++c) table.columns.push_back(label(spec.col_labels, col0 + c));
  table.values.reserve(std::size_t(rows) * std::size_t(cols));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      table.values.push_back(spec.values[std::size_t(row0 + r) * std::size_t(spec.cols) + std::size_t(col0 + c)]);
  if (rows < spec.rows || cols < spec.cols) {
    char note[160];
    std::snprintf(note, sizeof note, tr("a11y.window.fmt"), row0, row0 + rows - 1, spec.rows, col0, col0 + cols - 1,
                  spec.cols);
    table.note = note;
  }
  state.a11y_tables.push_back(std::move(table));
}

}  // namespace attn::ui
