// Figure 4.1 panels, one function each (imgui_demo style). Every number shown
// comes from attn::run_figure41 (src/core/chapter/experiments.hpp); this file only
// arranges and labels it.
#include "ui/chapter/fig41_panels.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "core/statistics.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// One attention matrix as a heatmap panel; records where its cells landed.
void heatmap_panel(AppState& state, const ImVec2& size, const char* name, int head, const Matrix& weights,
                   const WeightStats& range, gfx::Colormap colormap, const char* title, const char* help,
                   const char* formula) {
  const Figure41& fig = *state.fig41;
  HeatmapLayout entry;
  entry.name = name;
  entry.title = title;
  entry.source = head < 0 ? "average" : "weights";
  entry.head = head;
  // matplotlib's imshow default: the colours span the data's own min..max.
  plot::HeatmapSpec& spec = entry.spec = matrix_spec(weights, range.min, range.max, colormap);
  spec.row_labels = &fig.tokens;
  spec.col_labels = &fig.tokens;
  spec.row_axis = tr("axis.query");
  spec.col_axis = tr("axis.key");
  spec.value_name = tr("axis.weight");
  // The chapter's figure keeps its colour bars at every size, as printed.
  if (begin_panel(name, size, title, help, formula))
    draw_heatmap(state, std::move(entry), ImVec2(0, 0), /*compact_when_narrow=*/false);
  else
    a11y_record_heatmap(state, entry, {});  // scrolled out of sight: still part of the figure
  end_panel();
}

// The colour range of one panel: its own min..max (the book's), or with the
// shared scale the range of every head's weights (the average lies inside it).
WeightStats colour_range(const AppState& state, const WeightStats& own) {
  if (!state.fig41_shared_scale) return own;
  WeightStats all = own;
  for (const WeightStats& s : state.fig41->head_stats) {
    all.min = std::min(all.min, s.min);
    all.max = std::max(all.max, s.max);
  }
  return all;
}

// The head average keeps the chapter's YlOrRd (Figure 4.1 prints it so):
// a sequential ramp, light yellow to dark red, that ColorBrewer marks
// colour-blind safe: its order reads from lightness alone, whatever hues a
// reader tells apart. The single heads use viridis
// (gfx/colormap.hpp says which map draws what and why).
void average_panel(AppState& state, const ImVec2& size) {
  const Matrix& average = state.fig41->result.average_weights;
  heatmap_panel(state, size, "average", -1, average, colour_range(state, weight_stats(average)), state.average_colormap,
                tr("panel.average.title"), tr("panel.average.help"), tr("panel.average.formula"));
}

void head_panel(AppState& state, const ImVec2& size, int head) {
  const Figure41& fig = *state.fig41;
  if (head >= int(fig.result.heads.size())) return;
  char name[16], title[64], formula[128];
  std::snprintf(name, sizeof name, "head%d", head);
  std::snprintf(title, sizeof title, tr("panel.head.title.fmt"), head);
  std::snprintf(formula, sizeof formula, tr("panel.head.formula.fmt"), head, head);
  const char* help = head == 0 ? tr("panel.head0.help") : tr("panel.head1.help");
  heatmap_panel(state, size, name, head, fig.result.heads[head].weights, colour_range(state, fig.head_stats[head]),
                state.head_colormap, title, help, formula);
}

// One head's histogram as bars: left edges and counts straight from the core.
void plot_head_histogram(const Histogram& hist, int head) {
  std::vector<float> lefts;
  for (int i = 0; i < int(hist.counts.size()); ++i) lefts.push_back(hist.bin_left(i));
  char label[32];
  std::snprintf(label, sizeof label, tr("label.head.fmt"), head);
  plot::SetNextItemColor(plot::SeriesColor(head));  // a head keeps its colour in both views
  plot::PlotBars(label, lefts.data(), hist.counts.data(), int(hist.counts.size()), hist.bin_width());
}

void histogram_panel(AppState& state, const ImVec2& size) {
  const Figure41& fig = *state.fig41;
  char formula[128];
  std::snprintf(formula, sizeof formula, tr("panel.hist.formula.fmt"), fig.config.histogram_bins);
  if (begin_panel("histograms", size, tr("panel.hist.title"), tr("panel.hist.help"), formula)) {
    ImGui::Checkbox(tr("control.hist_per_head"), &state.histograms_per_head);
    const int heads = int(fig.head_histograms.size());
    if (!state.histograms_per_head) {
      // The chapter's view: all heads overlaid on one pair of axes.
      if (plot::BeginPlot("##histograms", ImVec2(0, 0))) {
        plot::SetupAxes(tr("axis.weight"), tr("axis.count"));
        for (int h = 0; h < heads; ++h) plot_head_histogram(fig.head_histograms[h], h);
        plot::EndPlot();
      }
    } else {
      // Small multiples, two per row: near-uniform heads get a readable x range.
      const ImVec2 avail = ImGui::GetContentRegionAvail();
      const float gap = ImGui::GetStyle().ItemSpacing.x;
      const int rows = (heads + 1) / 2;
      const ImVec2 cell(std::floor((avail.x - gap) * 0.5f),
                        std::floor((avail.y - float(rows - 1) * ImGui::GetStyle().ItemSpacing.y) / float(std::max(rows, 1))));
      for (int h = 0; h < heads; ++h) {
        if (h % 2) ImGui::SameLine();
        char title[32];
        std::snprintf(title, sizeof title, tr("label.head.fmt"), h);
        ImGui::PushID(h);
        if (plot::BeginPlot(title, cell, plot::PlotFlags_NoLegend)) {
          plot_head_histogram(fig.head_histograms[h], h);
          plot::EndPlot();
        }
        ImGui::PopID();
      }
    }
  }
  end_panel();
}

void stats_panel(AppState& state, const ImVec2& size) {
  const Figure41& fig = *state.fig41;
  if (begin_panel("stats", size, tr("panel.stats.title"), tr("panel.stats.help"), tr("panel.stats.formula"))) {
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame;
    if (ImGui::BeginTable("##head_stats", 4, flags)) {
      ImGui::TableSetupColumn(tr("table.head"));
      ImGui::TableSetupColumn(tr("table.min"));
      ImGui::TableSetupColumn(tr("table.max"));
      ImGui::TableSetupColumn(tr("table.mean"));
      ImGui::TableHeadersRow();
      for (std::size_t h = 0; h < fig.head_stats.size(); ++h) {
        const WeightStats& s = fig.head_stats[h];
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ui::textf("%d", int(h));  // the column header already says "head"
        ImGui::TableNextColumn();
        ui::textf("%.4f", double(s.min));
        ImGui::TableNextColumn();
        ui::textf("%.4f", double(s.max));
        ImGui::TableNextColumn();
        ui::textf("%.4f", double(s.mean));
      }
      ImGui::EndTable();
    }
  }
  end_panel();
}

void top_keys_panel(AppState& state, const ImVec2& size) {
  const Figure41& fig = *state.fig41;
  const Matrix& average = fig.result.average_weights;
  char title[64], formula[96];
  std::snprintf(title, sizeof title, tr("panel.topk.title.fmt"), fig.config.top_k);
  std::snprintf(formula, sizeof formula, tr("panel.topk.formula.fmt"), fig.config.top_k);
  if (begin_panel("top_keys", size, title, tr("panel.topk.help"), formula)) {
    const int k = fig.config.top_k;
    const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame;
    if (ImGui::BeginTable("##top_keys", 1 + k, flags)) {
      ImGui::TableSetupColumn(tr("table.query"));
      for (int j = 0; j < k; ++j) {
        char header[16];
        std::snprintf(header, sizeof header, tr("table.rank.fmt"), j + 1);
        ImGui::TableSetupColumn(header);
      }
      ImGui::TableHeadersRow();
      for (std::size_t q = 0; q < fig.top_keys.size(); ++q) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ui::text(fig.tokens[q].c_str());
        for (int key : fig.top_keys[q]) {
          ImGui::TableNextColumn();
          char cell[64];
          std::snprintf(cell, sizeof cell, "%s  %.3f", fig.tokens[std::size_t(key)].c_str(),
                        double(average(Eigen::Index(q), key)));
          // Narrow windows keep the key and drop its weight rather than clip both.
          const bool fits = ImGui::CalcTextSize(cell).x <= ImGui::GetContentRegionAvail().x;
          ui::text(fits ? cell : fig.tokens[std::size_t(key)].c_str());
        }
      }
      ImGui::EndTable();
    }
  }
  end_panel();
}

}  // namespace

std::vector<std::string> flat_head_notes(const Figure41& fig) {
  std::vector<std::string> notes;
  for (std::size_t h = 0; h < fig.head_stats.size(); ++h) {
    const WeightStats& s = fig.head_stats[h];
    if (!nearly_uniform(s)) continue;
    char note[256];
    std::snprintf(note, sizeof note, tr("fig41.flat_head.fmt"), int(h), double(s.min), double(s.max));
    notes.emplace_back(note);
  }
  return notes;
}

void fig41_panels(AppState& state) {
  const Figure41& fig = *state.fig41;
  // A narrow window wraps the title lines instead of cutting them; a low one
  // moves the subtitle into the help's tooltip, leaving the height to the figure.
  const int d_head = fig.result.heads.empty() ? 0 : int(fig.result.heads[0].Q.cols());
  char subtitle[256];
  std::snprintf(subtitle, sizeof subtitle, tr("fig41.subtitle.fmt"), fig.config.seq_len, fig.config.d_model,
                fig.config.heads, d_head);
  const bool low = ImGui::GetContentRegionAvail().y < ImGui::GetFontSize() * 24;
  // Flat heads are said in words, whichever scale is on: the colours alone
  // cannot tell a flat head from a patterned one.
  const std::vector<std::string> notes = flat_head_notes(fig);
  std::string help = tr("fig41.help");
  if (low) {  // the subtitle and the notes move into the help's tooltip
    help += std::string("\n\n") + subtitle;
    for (const std::string& note : notes) help += "\n" + note;
  }
  title_with_help(tr("fig41.title"), help.c_str());
  if (low) ImGui::SameLine();
  ImGui::Checkbox(tr("control.fig41_shared_scale"), &state.fig41_shared_scale);
  record_control(state, "fig41_shared_scale");
  ImGui::SameLine();
  help_marker(tr("control.fig41_shared_scale.help"));
  if (!low) {
    ImGui::PushTextWrapPos(0.0f);
    ui::text_disabled("%s", subtitle);
    for (const std::string& note : notes) ui::text_disabled("%s", note.c_str());
    ImGui::PopTextWrapPos();
  }
  // A 3-over-3 grid: the three heatmaps on top (they need the height), the
  // histograms and the two tables below. Sizes are whole UI units. Narrow
  // windows keep readable minimum sizes and stack the bottom row (the view scrolls).
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float font = ImGui::GetFontSize();
  const bool narrow = avail.x < font * 55;
  const float gap_x = style.ItemSpacing.x, gap_y = style.ItemSpacing.y;
  const float third = std::max(1.0f, std::floor((avail.x - 2 * gap_x) / 3.0f));
  // On a phone: one heatmap to a row upright, two on its side, each panel as tall as its content.
  const bool stacked = stacked_layout();
  const int heat_columns = stacked ? std::min(stacked_columns(3), 2) : avail.x >= font * 48 ? 3 : avail.x >= font * 30 ? 2 : 1;
  const int heat_rows = (3 + heat_columns - 1) / heat_columns;
  const float heat_w = heat_columns == 3 ? third
                                         : std::max(1.0f, std::floor((avail.x - gap_x * float(heat_columns - 1)) / float(heat_columns)));
  // Square heatmaps in wide windows are limited by the panel width, so the top
  // row never needs to be much taller than a third of the width. Two or one
  // to a row: square cells under title and formula, never taller than the view.
  float top_h = std::max(1.0f, std::floor(std::min((avail.y - gap_y) * 0.6f, third)));
  if (narrow) top_h = std::max(top_h, std::min(font * 17, avail.y));
  const float heat_h = stacked              ? stacked_max_height()
                       : heat_columns == 3 ? top_h
                                         : std::max(std::min(std::clamp(heat_w + font * 5, font * 17, font * 30), avail.y), font * 8);
  const bool tables_side_by_side = avail.x >= font * 40;
  const float tables = !narrow ? 0 : tables_side_by_side ? gap_y + font * 16 : 2 * (gap_y + font * 16);
  // The histograms take what the heatmaps (and, stacked, the tables) leave.
  const float heat_block = float(heat_rows) * (heat_h + gap_y);
  const float bottom_h = std::max(narrow ? font * 20 : 1.0f, std::floor(avail.y - heat_block - tables));
  // The grid's natural height (a host page's height: 'auto'): heatmaps as
  // tall as their width gives them, the histograms at their narrow minimum.
  const float natural_heat_h = heat_columns < 3 ? std::clamp(heat_w + font * 5, font * 17, font * 30)
                               : narrow         ? std::max(third, font * 17)
                                                : third;
  want_height(float(heat_rows) * (natural_heat_h + gap_y) + font * 20 + tables, avail.y);

  // Too narrow for three readable heatmaps in a row: two or one per row, as
  // wide as the window allows (equal widths: equal cell sizes).
  if (heat_columns == 3) {
    average_panel(state, ImVec2(third, top_h));
    ImGui::SameLine();
    head_panel(state, ImVec2(third, top_h), 0);
    ImGui::SameLine();
    head_panel(state, ImVec2(third, top_h), 1);  // equal thirds: equal cell sizes
  } else {
    const ImVec2 size(heat_w, heat_h);
    average_panel(state, size);
    if (heat_columns > 1) ImGui::SameLine();
    head_panel(state, size, 0);
    head_panel(state, size, 1);
  }

  if (narrow) {
    // The two tables side by side while each keeps its columns readable, else stacked.
    const float half = tables_side_by_side ? std::max(1.0f, std::floor((avail.x - gap_x) * 0.5f)) : avail.x;
    histogram_panel(state, ImVec2(avail.x, bottom_h));
    stats_panel(state, ImVec2(half, font * 16));
    if (tables_side_by_side) ImGui::SameLine();
    top_keys_panel(state, ImVec2(tables_side_by_side ? std::max(1.0f, avail.x - half - gap_x) : avail.x, font * 16));
    return;
  }
  const float hist_w = std::max(1.0f, std::floor((avail.x - 2 * gap_x) * 0.48f));
  const float stats_w = std::max(1.0f, std::floor((avail.x - 2 * gap_x) * 0.24f));
  histogram_panel(state, ImVec2(hist_w, bottom_h));
  ImGui::SameLine();
  stats_panel(state, ImVec2(stats_w, bottom_h));
  ImGui::SameLine();
  top_keys_panel(state, ImVec2(std::max(1.0f, avail.x - hist_w - stats_w - 2 * gap_x), bottom_h));
}

}  // namespace attn::ui
