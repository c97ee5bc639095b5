// Helpers shared by the explorer's panels; see explorer.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui_internal.h>  // the window's scrollbar (record_scrollbar)

#include "core/statistics.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/strings.hpp"
#include "ui/text_in_use.hpp"
#include "ui/theme.hpp"

namespace attn::ui {

namespace {

// ImGui's rectangle (UI units) in framebuffer pixels, under `name`.
void record_rect(AppState& state, const std::string& name, const ImVec2& a, const ImVec2& b, bool region) {
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  state.controls[name] = WidgetRect{a.x * scale, a.y * scale, (b.x - a.x) * scale, (b.y - a.y) * scale, region};
}

}  // namespace

void record_control(AppState& state, const std::string& name) {
  record_rect(state, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), false);
}

void record_region(AppState& state, const std::string& name) {
  record_rect(state, name, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), true);
}

void record_region(AppState& state, const std::string& name, const ImVec2& min, const ImVec2& max) {
  record_rect(state, name, min, max, true);
}

void record_scrollbar(AppState& state, const std::string& name) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (!window->ScrollbarY) return;
  const ImRect r = ImGui::GetWindowScrollbarRect(window, ImGuiAxis_Y);
  record_rect(state, name, r.Min, r.Max, false);
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
  const bool drawn = plot::PlotHeatmap(("##" + entry.name).c_str(), entry.spec, size, &cells);
  // Scrolled out of sight or not, it is part of the view: the accessible copy
  // lists it (the whole matrix when nothing was drawn), axes named even where
  // the panel is too small to.
  entry.spec.row_axis = row_axis;
  entry.spec.col_axis = col_axis;
  a11y_record_heatmap(state, entry, cells);
  if (!drawn) return cells;
  // Only heatmaps wholly on screen are listed: a panel scrolled half out of
  // its view is clipped, and tests must not look for cells that are hidden.
  const float scale = ImGui::GetIO().DisplayFramebufferScale.x > 0 ? ImGui::GetIO().DisplayFramebufferScale.x : 1.0f;
  const ImVec2 clip_min = ImGui::GetWindowDrawList()->GetClipRectMin();
  const ImVec2 clip_max = ImGui::GetWindowDrawList()->GetClipRectMax();
  if (float(cells.x) < clip_min.x * scale - 0.5f || float(cells.y) < clip_min.y * scale - 0.5f ||
      float(cells.x + cells.w) > clip_max.x * scale + 0.5f || float(cells.y + cells.h) > clip_max.y * scale + 0.5f)
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

void fully_masked_note(const ExplorerResult& result) {
  if (result.fully_masked_queries.empty()) return;
  // softmax of a row of -inf is 0/0: the core returns all-zero weights instead
  // of NaN, and the reader is told why those rows are empty.
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().notice));
  ImGui::TextWrapped(tr("view.fully_masked.fmt"), int(result.fully_masked_queries.size()));
  ImGui::PopStyleColor();
}

std::string selected_query_text(const ExplorerResult& result, int query) {
  const bool known = query >= 0 && query < int(result.tokens.size());
  char text[256];
  std::snprintf(text, sizeof text, tr("view.selected.fmt"), query,
                known ? result.tokens[std::size_t(query)].c_str() : "");
  return text;
}

std::string token_label(const ExplorerResult& result, int index) {
  if (index < 0 || index >= int(result.tokens.size())) return std::to_string(index);
  // Characters the font lacks are drawn as boxes: name them by code point.
  const std::string& token = result.tokens[std::size_t(index)];
  return std::to_string(index) + " '" + token + "'" + missing_glyphs_note(token);
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

bool same_line_if_fits(float width) {
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width > right_edge) return false;
  ImGui::SameLine();
  return true;
}

ImVec2 panel_grid(int count, int max_columns, float min_width, float min_height, int* columns) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  count = std::max(count, 1);
  int c = std::clamp(std::min(max_columns, count), 1, count);
  while (c > 1 && (avail.x - gap.x * float(c - 1)) / float(c) < min_width) --c;
  const int rows = (count + c - 1) / c;
  const float w = std::floor((avail.x - gap.x * float(c - 1)) / float(c));
  const float h = std::floor((avail.y - gap.y * float(rows - 1)) / float(rows));
  if (columns) *columns = c;
  // Never taller than the region: a panel can always be seen whole.
  return ImVec2(std::max(w, 1.0f), std::max(h, std::min(min_height, std::max(avail.y, 1.0f))));
}

}  // namespace attn::ui
