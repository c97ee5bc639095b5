// The view "given": one heatmap a map, in the grid the reader gave (d2l's
// show_heatmaps: rows x cols, a model's layers x heads), all sharing one
// zoom so a cell is at the same place in every map.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ui/given/given.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// The axis labels: the tokens given, else the positions 0, 1, ... (made in
// `numbers`; the tokens are not copied each frame).
const std::vector<std::string>& labels(const std::vector<std::string>& given, int count,
                                       std::vector<std::string>* numbers) {
  if (!given.empty()) return given;
  for (int i = 0; i < count; ++i) numbers->push_back(std::to_string(i));
  return *numbers;
}

std::string map_title(const GivenWeights& given, int map) {
  if (!given.titles.empty()) return given.titles[std::size_t(map)];
  if (given.maps.size() == 1) return tr("tip.weight");
  return format(tr("given.map.fmt"), map / given.cols, map % given.cols);
}

void map_heatmap(AppState& state, const GivenWeights& given, int map, const std::vector<std::string>& queries,
                 const std::vector<std::string>& keys, const ImVec2& size) {
  ImGui::PushID(map);
  begin_fitted_child("##panel", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  const std::string title = map_title(given, map);
  ui::text(title.c_str());
  HeatmapLayout entry;
  entry.name = "given" + std::to_string(map);
  entry.title = title;
  entry.source = "given";  // compute({given})'s field: weights[map / cols][map % cols]
  entry.head = map;
  entry.zoomable = true;
  const Matrix& weights = given.maps[std::size_t(map)];
  // matplotlib's imshow default, as the heatmaps view: the colours span the map's own min..max.
  plot::HeatmapSpec& spec = entry.spec =
      matrix_spec(weights, weights.minCoeff(), weights.maxCoeff(), state.head_colormap);
  spec.row_labels = &queries;
  spec.col_labels = &keys;
  spec.row_axis = tr("axis.query");
  spec.col_axis = tr("axis.key");
  spec.value_name = tr("axis.weight");
  spec.zoom = &state.zoom;
  spec.tooltip = [&](int q, int k) {
    ui::textf("%s: %s", tr("tip.query"), queries[std::size_t(q)].c_str());
    ui::textf("%s: %s", tr("tip.key"), keys[std::size_t(k)].c_str());
    ui::textf("%s: %.4f", tr("tip.weight"), double(weights(q, k)));
  };
  draw_heatmap(state, std::move(entry), ImVec2(0, 0));
  end_fitted_child();
  ImGui::PopID();
}

}  // namespace

void given_view(AppState& state) {
  if (!state.given) {
    ui::text_wrapped("%s", tr("given.none"));
    return;
  }
  const GivenWeights& given = *state.given;
  const int maps = int(given.maps.size());
  const std::string title = format(tr("given.title.fmt"), maps, given.queries(), given.keys());
  title_with_help(title.c_str(), tr("given.help"));
  if (state.zoom.zoom > 1.0f) {
    same_line_if_fits(ImGui::CalcTextSize(tr("view.zoom.reset")).x + ImGui::GetStyle().FramePadding.x * 2);
    if (ImGui::SmallButton(tr("view.zoom.reset"))) state.zoom = plot::HeatmapZoom{};
    record_control(state, "zoom_reset");
  }
  std::vector<std::string> query_numbers, key_numbers;
  const std::vector<std::string>& queries = labels(given.query_tokens, given.queries(), &query_numbers);
  const std::vector<std::string>& keys = labels(given.key_tokens, given.keys(), &key_numbers);
  // The reader's grid (a model's layers stay rows, its heads columns), as
  // many columns of it as fit at min_side, square maps about two characters a
  // cell: its height follows from the width alone, so a figure whose height
  // is its content's (a notebook's, height 'auto') settles at once.
  const float font = ImGui::GetFontSize();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  const float avail_x = ImGui::GetContentRegionAvail().x, min_side = font * 13, title_h = font * 2;
  const int columns = std::clamp(int((avail_x + gap.x) / (min_side + gap.x)), 1, std::max(1, std::min(given.cols, maps)));
  const float side = std::min(std::floor((avail_x - gap.x * float(columns - 1)) / float(columns)),
                              std::max(min_side, font * (2.2f * float(std::max(given.queries(), given.keys())) + 8)));
  const ImVec2 cell(side, side + title_h);
  const int rows = (maps + columns - 1) / columns;
  want_height(float(rows) * cell.y + float(rows - 1) * gap.y, ImGui::GetContentRegionAvail().y);
  for (int map = 0; map < maps; ++map) {
    if (map % columns) ImGui::SameLine();
    map_heatmap(state, given, map, queries, keys, cell);
  }
}

void describe_given(const AppState& state, A11yView& out) {
  if (!state.given) {
    out.summary = tr("given.none");
    return;
  }
  const GivenWeights& given = *state.given;
  out.summary = format(tr("given.title.fmt"), int(given.maps.size()), given.queries(), given.keys()) + ". " +
                tr("given.help");
}

}  // namespace attn::ui
