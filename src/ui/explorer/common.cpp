// Helpers shared by the explorer's panels; see explorer.hpp.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/statistics.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/text_in_use.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {

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

void fully_masked_note(const ExplorerResult& result) {
  if (result.fully_masked_queries.empty()) return;
  // softmax of a row of -inf is 0/0: the core returns all-zero weights instead
  // of NaN, and the reader is told why those rows are empty.
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().notice));
  ui::text_wrapped(tr("view.fully_masked.fmt"), int(result.fully_masked_queries.size()));
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

void weights_axes(const AppState& state, plot::HeatmapSpec& spec) {
  const ExplorerResult& r = *state.result;
  // Shuffled: each token with its original place, so the permutation can be followed.
  spec.row_labels = spec.col_labels = state.order_labels.size() == r.tokens.size() ? &state.order_labels : &r.tokens;
  spec.row_label_valid = spec.col_label_valid = &r.key_valid;
  spec.row_axis = tr("axis.query");
  spec.col_axis = tr("axis.key");
  spec.value_name = tr("axis.weight");
  spec.highlight_row = state.selected_query;
}

void head_picker(AppState& state, int heads, const char* control_id) {
  char preview[32];
  if (state.selected_head < 0) std::snprintf(preview, sizeof preview, "%s", tr("control.head.average"));
  else std::snprintf(preview, sizeof preview, tr("view.head.fmt"), state.selected_head);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo(tr("control.head"), preview)) {
    if (ImGui::Selectable(tr("control.head.average"), state.selected_head < 0)) state.selected_head = -1;
    for (int h = 0; h < heads; ++h) {
      char label[32];
      std::snprintf(label, sizeof label, tr("view.head.fmt"), h);
      if (ImGui::Selectable(label, state.selected_head == h)) state.selected_head = h;
    }
    ImGui::EndCombo();
  }
  record_control(state, control_id);
}

}  // namespace attn::ui
