// Figure 4.2, live: the chapter's four panels at the reader's d_k.
//   raw scores q.k (histogram) | scaled scores q.k / sqrt(d_k) (histogram)
//   score std against d_k      | softmax peak against d_k
// The histograms and the current points come from run_figure42_dim at d_k;
// the curves from the same function along the grid 1, 2, 4, ..., 1024.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"

namespace attn::ui {

// Colours shared by the lab's plots: raw = orange, scaled = blue (tab10),
// theory grey, the chapter's d_k values as grey dashes and the reader's
// d_k as red ones, all from the theme's palette (ui/widgets/theme.hpp).
ImU32 raw_color() { return plot::SeriesColor(1); }
ImU32 scaled_color() { return plot::SeriesColor(0); }
ImU32 theory_color() { return current_palette().neutral; }
ImU32 chapter_color() { return current_palette().reference; }
ImU32 current_color() { return current_palette().current; }

// "1", "2", ..., "1024" ticks for plots whose x is log2(d_k).
void setup_log2_dk_axis(const char* y_label) {
  std::vector<double> values;
  std::vector<std::string> labels;
  for (int d_k : scaling_grid()) {
    values.push_back(std::log2(double(d_k)));
    labels.push_back(std::to_string(d_k));
  }
  plot::SetupAxes(tr("scaling.axis.dk_log"), y_label);
  plot::SetupXTicks(values, labels);
  plot::SetupAxisLimits(plot::Axis_X, -0.35, std::log2(double(ScalingLimits::kMaxDk)) + 0.35);
  plot::SetupXHoverFormat([](double x) {
    char text[48];
    std::snprintf(text, sizeof text, "d_k = %.1f", std::exp2(x));
    return std::string(text);
  });
}

// The chapter's dims and the current d_k as dashed lines on a log2(d_k) axis.
void plot_dk_marks(int d_k, bool legend) {
  std::vector<float> chapter;
  for (int dim : chapter_dims()) chapter.push_back(float(std::log2(double(dim))));
  plot::SetNextItemColor(chapter_color());
  plot::PlotVLines(legend ? tr("scaling.legend.chapter") : "##chapter", chapter.data(), int(chapter.size()));
  const float current = float(std::log2(double(d_k)));
  plot::SetNextItemColor(current_color());
  plot::PlotVLines(legend ? tr("scaling.legend.current") : "##current", &current, 1);
}

namespace {

void score_histogram(const char* id, const Histogram& hist, ImU32 color, const char* label) {
  if (!plot::BeginPlot(id, ImVec2(0, 0), plot::PlotFlags_NoLegend)) return;
  plot::SetupAxes(label, tr("axis.count"));
  std::vector<float> lefts;
  for (int i = 0; i < int(hist.counts.size()); ++i) lefts.push_back(hist.bin_left(i));
  plot::SetNextItemColor(color);
  plot::PlotBars(label, lefts.data(), hist.counts.data(), int(hist.counts.size()), hist.bin_width());
  plot::EndPlot();
}

struct Curve {
  std::vector<float> x, raw, scaled;
};
template <typename Get>
Curve curve_of(const std::map<int, Figure42Point>& points, Get get) {
  Curve c;
  for (const auto& [d_k, p] : points) {
    c.x.push_back(float(std::log2(double(d_k))));
    c.raw.push_back(get(p, true));
    c.scaled.push_back(get(p, false));
  }
  return c;
}

void current_points(const ScalingLab& lab, float raw, float scaled) {
  const float x = float(std::log2(double(lab.current->d_k)));
  // On the current d_k's dashed line, in the series' colours.
  plot::SetNextItemColor(raw_color());
  plot::PlotScatter("##current_raw", &x, &raw, 1);
  plot::SetNextItemColor(scaled_color());
  plot::PlotScatter("##current_scaled", &x, &scaled, 1);
}

void std_plot(const ScalingLab& lab) {
  if (!plot::BeginPlot("##fig42_std", ImVec2(0, 0))) return;
  setup_log2_dk_axis(tr("scaling.axis.std"));
  // Theory: std(q.k) = sqrt(d_k) raw, 1 scaled; drawn finely along log2(d_k).
  std::vector<float> tx, ty, one;
  for (int i = 0; i <= 100; ++i) {
    const double log2_dk = 10.0 * i / 100.0;
    tx.push_back(float(log2_dk));
    ty.push_back(float(std::sqrt(std::exp2(log2_dk))));
    one.push_back(1.0f);
  }
  plot::SetNextItemColor(theory_color());
  plot::PlotLine(tr("scaling.legend.theory_std"), tx.data(), ty.data(), int(tx.size()));
  plot::SetNextItemColor(theory_color());
  plot::PlotLine("##theory_one", tx.data(), one.data(), int(tx.size()));
  const Curve c = curve_of(lab.fig42_curve, [](const Figure42Point& p, bool raw) { return raw ? p.raw_std : p.scaled_std; });
  plot::SetNextItemColor(raw_color());
  plot::PlotScatter(tr("scaling.legend.raw"), c.x.data(), c.raw.data(), int(c.x.size()));
  plot::SetNextItemColor(scaled_color());
  plot::PlotScatter(tr("scaling.legend.scaled"), c.x.data(), c.scaled.data(), int(c.x.size()));
  plot_dk_marks(lab.current->d_k, true);
  current_points(lab, lab.current->raw_std, lab.current->scaled_std);
  plot::EndPlot();
}

void peak_plot(const ScalingLab& lab) {
  if (!plot::BeginPlot("##fig42_peak", ImVec2(0, 0))) return;
  setup_log2_dk_axis(tr("scaling.axis.peak"));
  plot::SetupAxisLimits(plot::Axis_Y, 0.45, 1.05);
  const Curve c = curve_of(lab.fig42_curve, [](const Figure42Point& p, bool raw) { return raw ? p.raw_peak : p.scaled_peak; });
  plot::SetNextItemColor(raw_color());
  plot::PlotLine(tr("scaling.legend.raw"), c.x.data(), c.raw.data(), int(c.x.size()));
  plot::SetNextItemColor(scaled_color());
  plot::PlotLine(tr("scaling.legend.scaled"), c.x.data(), c.scaled.data(), int(c.x.size()));
  plot::SetNextItemColor(raw_color());
  plot::PlotScatter("##raw_points", c.x.data(), c.raw.data(), int(c.x.size()));
  plot::SetNextItemColor(scaled_color());
  plot::PlotScatter("##scaled_points", c.x.data(), c.scaled.data(), int(c.x.size()));
  plot_dk_marks(lab.current->d_k, true);
  current_points(lab, lab.current->raw_peak, lab.current->scaled_peak);
  plot::EndPlot();
}

}  // namespace

void figure42_panels(AppState& state) {
  const ScalingLab& lab = state.scaling;
  if (!lab.current) return;
  const Figure42Dim& dim = *lab.current;
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  // 2 x 2, or one column with readable plots in a narrow window (the view scrolls).
  int columns = 2;
  const ImVec2 cell = panel_grid(4, 2, ImGui::GetFontSize() * 18, ImGui::GetFontSize() * 15, &columns);
  char title[128], formula[160];

  // Titles name the d_k the numbers belong to (while a slow drag waits, the last one computed).
  std::snprintf(title, sizeof title, tr("scaling.fig42.raw.title.fmt"), dim.d_k);
  std::snprintf(formula, sizeof formula, tr("scaling.fig42.raw.formula.fmt"), lab.current_samples,
                double(dim.raw_std), std::sqrt(double(dim.d_k)));
  if (begin_panel("##fig42_raw", cell, title, tr("scaling.fig42.raw.help"), formula))
    score_histogram("##raw_hist", dim.raw_hist, raw_color(), tr("scaling.axis.raw"));
  end_panel();
  if (columns > 1) ImGui::SameLine(0, gap.x);
  std::snprintf(title, sizeof title, tr("scaling.fig42.scaled.title.fmt"), dim.d_k);
  std::snprintf(formula, sizeof formula, tr("scaling.fig42.scaled.formula.fmt"), double(dim.scaled_std));
  if (begin_panel("##fig42_scaled", cell, title, tr("scaling.fig42.scaled.help"), formula))
    score_histogram("##scaled_hist", dim.scaled_hist, scaled_color(), tr("scaling.axis.scaled"));
  end_panel();

  if (begin_panel("##fig42_std_panel", cell, tr("scaling.fig42.std.title"), tr("scaling.fig42.std.help"),
                  tr("scaling.fig42.std.formula")))
    std_plot(lab);
  end_panel();
  if (columns > 1) ImGui::SameLine(0, gap.x);
  if (begin_panel("##fig42_peak_panel", ImVec2(cell.x, cell.y), tr("scaling.fig42.peak.title"),
                  tr("scaling.fig42.peak.help"), tr("scaling.fig42.peak.formula")))
    peak_plot(lab);
  end_panel();
}

}  // namespace attn::ui
