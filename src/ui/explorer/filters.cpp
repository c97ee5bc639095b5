// A fixed filter against a dynamic one (core/explorer/fixed_filter.hpp): the
// convolution's mixing matrix, the same band for every sentence of any
// length, beside attention's weights, which the sentence itself decides. The
// reader edits the sentence and sees the left stay and the right change.
#include <algorithm>
#include <string>

#include "core/explorer/fixed_filter.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// The shown head's weights: one head, or their average (-1).
const Matrix& head_weights(const ExplorerResult& r, int head) {
  return head < 0 ? r.attention.average_weights : r.attention.heads[std::size_t(head)].weights;
}

void filter_heatmap(AppState& state, const char* name, const char* source, int head, const Matrix& values,
                    float lo, float hi, const char* title, const char* help, const ImVec2& size) {
  if (begin_panel((std::string("##filter_") + name).c_str(), size, title, help, nullptr)) {
    HeatmapLayout entry;
    entry.name = name;
    entry.title = title;
    entry.source = source;
    entry.head = head;
    plot::HeatmapSpec& spec = entry.spec = matrix_spec(values, lo, hi, state.head_colormap);
    weights_axes(state, spec);
    const plot::HeatmapCells cells = draw_heatmap(state, std::move(entry), ImVec2(0, 0));
    if (cells.clicked) state.selected_query = cells.hovered_row;
  }
  end_panel();
}

}  // namespace

void filters_view(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int heads = int(r.attention.heads.size());
  const int head = std::clamp(state.selected_head, -1, heads - 1);
  head_picker(state, heads, "filter_head");
  ImGui::PushTextWrapPos(0.0f);
  ui::text(tr("filter.intro"));
  ImGui::PopTextWrapPos();
  fully_masked_note(r);
  // Side by side where there is room, else one above the other (the view scrolls).
  const float font = ImGui::GetFontSize();
  int columns = 1;
  const ImVec2 size = panel_grid(2, 2, font * 16, font * 14, &columns);
  // Each in its own range (matplotlib's default): the band 0..1/2, attention its weights' min..max.
  const std::string attention_title =
      format(tr("filter.attention.fmt"), head < 0 ? tr("control.head.average") : format(tr("view.head.fmt"), head).c_str());
  filter_heatmap(state, "filter_fixed", "filter", -1, convolution_matrix(int(r.tokens.size())), 0.0f,
                 kFixedFilterTaps[1], tr("filter.fixed.title"), tr("filter.fixed.help"), size);
  if (columns > 1) ImGui::SameLine();
  const WeightStats& stats = head < 0 ? r.average_summary.stats : r.summaries[std::size_t(head)].stats;
  filter_heatmap(state, "filter_attention", head < 0 ? "average" : "weights", std::max(head, 0), head_weights(r, head),
                 stats.min, stats.max, attention_title.c_str(), tr("filter.attention.help"), size);
}

}  // namespace attn::ui
