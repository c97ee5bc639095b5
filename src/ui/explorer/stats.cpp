// The chapter's weight histograms per head (25 bins, as Figure 4.1) and the
// per-head statistics table (min, max, mean, mean row entropy) + the average.
// Both come from result.summaries (computed once per result by the core; the
// histograms when this view first needs them, if the result was made without).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "core/statistics.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

void histogram_plot(const ExplorerResult& r) {
  // Sixteen legend rows would cover the bars: many heads get a note instead.
  const bool legend = r.attention.heads.size() <= 8;
  if (!legend) ui::text_disabled("%s", tr("stats.hist.no_legend"));
  if (!plot::BeginPlot("##explorer_histograms", ImVec2(0, 0), legend ? 0 : plot::PlotFlags_NoLegend)) return;
  plot::SetupAxes(tr("axis.weight"), tr("axis.count"));
  for (std::size_t h = 0; h < r.attention.heads.size(); ++h) {
    const Histogram& hist = r.summaries[h].histogram;
    if (hist.counts.empty()) continue;  // not binned yet (fill_result_histograms)
    std::vector<float> lefts;
    for (int i = 0; i < int(hist.counts.size()); ++i) lefts.push_back(hist.bin_left(i));
    char label[32];
    std::snprintf(label, sizeof label, tr("label.head.fmt"), int(h));
    plot::SetNextItemColor(plot::SeriesColor(int(h)));
    plot::PlotBars(label, lefts.data(), hist.counts.data(), int(hist.counts.size()), hist.bin_width());
  }
  plot::EndPlot();
}

void stats_table(AppState& state) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame |
                                ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##explorer_stats", 5, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr("table.head"));
  ImGui::TableSetupColumn(tr("table.min"));
  ImGui::TableSetupColumn(tr("table.max"));
  ImGui::TableSetupColumn(tr("table.mean"));
  ImGui::TableSetupColumn(tr("table.entropy"));
  ImGui::TableHeadersRow();
  for (const StatsRow& row : stats_table_text(*state.result)) {
    ImGui::TableNextRow();
    const std::string* cells[] = {&row.head, &row.min, &row.max, &row.mean, &row.mean_entropy};
    for (const std::string* cell : cells) {
      ImGui::TableNextColumn();
      ui::text(*cell == "avg" ? tr("table.avg") : cell->c_str());
    }
  }
  ImGui::EndTable();
}

}  // namespace

void stats_view(AppState& state) {
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  // Side by side when wide, stacked when narrow.
  // Stacked, each keeps a readable height (the view scrolls).
  const float font = ImGui::GetFontSize();
  const bool wide = avail.x > font * 50;
  const ImVec2 hist_size = wide ? ImVec2(std::floor(avail.x * 0.55f), avail.y)
                                : ImVec2(avail.x, std::max(std::floor(avail.y * 0.5f), std::min(font * 14, avail.y)));
  const ImVec2 table_size =
      wide ? ImVec2(0, 0)
           : ImVec2(avail.x, std::max(avail.y - hist_size.y - ImGui::GetStyle().ItemSpacing.y, std::min(font * 11, avail.y)));
  // A result computed while another view was open has no histograms yet:
  // binned here, usually all within this frame.
  const bool binned = fill_result_histograms(state);
  if (begin_panel("##stats_hist", hist_size, tr("stats.hist.title"), tr("panel.hist.help"), nullptr)) {
    if (!binned) ui::text_disabled("%s", tr("stats.hist.pending"));
    histogram_plot(*state.result);
  }
  end_panel();
  if (wide) ImGui::SameLine(0, gap);
  if (begin_panel("##stats_table", table_size, tr("stats.table.title"), tr("stats.table.help"),
                  tr("stats.table.formula")))
    stats_table(state);
  end_panel();
}

}  // namespace attn::ui
