// Focus on one query: its row of attention weights as bars over the keys, and
// its output as the weighted sum of the value rows (weight and V row side by
// side, then the output row o_i, all straight from the core).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

void query_picker(AppState& state, int n) {
  const float slider_w = ImGui::GetFontSize() * 10;
  same_line_if_fits(slider_w + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(tr("tip.query")).x);
  ImGui::SetNextItemWidth(slider_w);
  ImGui::SliderInt(tr("tip.query"), &state.selected_query, 0, std::max(0, n - 1), "%d", ImGuiSliderFlags_AlwaysClamp);
  record_control(state, "focus_query");
}

void values_table(const ExplorerResult& r, int head, int q) {
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  const int d = int(h.V.cols());
  const int shown = std::min(d, 6);  // a few dimensions keep the table readable
  ui::text_disabled(tr("focus.dims.fmt"), shown, d);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                                ImGuiTableFlags_SizingStretchProp;
  if (!ImGui::BeginTable("##values", 2 + shown, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr("tip.key"));
  ImGui::TableSetupColumn(tr("tip.weight"));
  for (int j = 0; j < shown; ++j) ImGui::TableSetupColumn(("v[" + std::to_string(j) + "]").c_str());
  ImGui::TableHeadersRow();
  const int n = int(h.weights.cols());
  for (int k = 0; k < n; ++k) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    const bool masked = !h.allowed(q, k);
    if (masked) ui::text_disabled("%s", token_label(r, k).c_str());
    else ui::text(token_label(r, k).c_str());
    ImGui::TableNextColumn();
    ui::textf("%.4f", double(h.weights(q, k)));
    for (int j = 0; j < shown; ++j) {
      ImGui::TableNextColumn();
      ui::textf("%.3f", double(h.V(k, j)));
    }
  }
  // The sum the rows above make: this query's output row.
  ImGui::TableNextRow();
  ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, current_palette().highlight_row_bg);
  ImGui::TableNextColumn();
  ui::text(tr("focus.output"));
  ImGui::TableNextColumn();
  ui::text("");
  for (int j = 0; j < shown; ++j) {
    ImGui::TableNextColumn();
    ui::textf("%.3f", double(h.output(q, j)));
  }
  ImGui::EndTable();
}

}  // namespace

void focus_view(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int n = int(r.tokens.size()), heads = int(r.attention.heads.size());
  const int q = std::clamp(state.selected_query, 0, n - 1);
  head_picker(state, heads, "focus_head");
  query_picker(state, n);
  fully_masked_note(r);
  const int head = state.selected_head;
  const Matrix& weights = head < 0 ? r.attention.average_weights : r.attention.heads[std::size_t(head)].weights;

  // The bars above the values; both keep a readable height in a small window (the view scrolls).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize(), gap = ImGui::GetStyle().ItemSpacing.y;
  const float bars_h = std::max(std::floor(avail.y * 0.45f), std::min(font * 12, avail.y));
  const float values_h = std::max(avail.y - bars_h - gap, std::min(font * 10, avail.y));
  char title[160];
  std::snprintf(title, sizeof title, tr("focus.title.fmt"), q, r.tokens[std::size_t(q)].c_str());
  if (begin_panel("##focus_bars", ImVec2(avail.x, bars_h), title, tr("focus.help"), nullptr)) {
    std::vector<float> lefts(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) lefts[std::size_t(k)] = float(k) - 0.4f;  // bar k centred on key index k
    if (plot::BeginPlot("##weights", ImVec2(0, 0), plot::PlotFlags_NoLegend)) {
      plot::SetupAxes(tr("axis.key"), tr("axis.weight"));
      std::vector<double> centres(static_cast<std::size_t>(n));
      for (int k = 0; k < n; ++k) centres[std::size_t(k)] = k;
      plot::SetupXTicks(centres, r.tokens);
      plot::SetNextItemColor(head < 0 ? current_palette().neutral : plot::SeriesColor(head));  // grey: the average
      plot::PlotBars(tr("axis.weight"), lefts.data(), weights.data() + std::size_t(q) * std::size_t(n), n, 0.8);
      plot::EndPlot();
    }
  }
  end_panel();
  if (begin_panel("##focus_values", ImVec2(avail.x, values_h), tr("focus.values.title"), tr("focus.help"),
                  tr("focus.values.formula"))) {
    if (head < 0) ui::text_wrapped("%s", tr("focus.values.average"));
    else values_table(r, head, q);
  }
  end_panel();
}

}  // namespace attn::ui
