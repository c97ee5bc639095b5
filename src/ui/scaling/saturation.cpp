// Beyond the chapter: what unscaled scores do to softmax as d_k grows.
//   one attention row over n keys (raw vs scaled) | softmax entropy vs d_k
//   softmax Jacobian norm vs d_k (gradient size)  | float32 stability: naive vs stable softmax
// Numbers from attention_row, saturation, entropy, softmax_jacobian_norm,
// naive_softmax and stable_softmax (core/scaling/scaling.hpp).
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// "inf" and "NaN" spelled the same on every platform (printf may say "-nan").
std::string format_weight(float value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", double(value));
  return text;
}

void row_plot(const ScalingLab& lab) {
  const AttentionRow& row = *lab.row;
  const int n = int(row.raw_weights.size());
  if (!plot::BeginPlot("##attention_row", ImVec2(0, 0))) return;  // the legend sits above the bars
  plot::SetupAxes(tr("scaling.axis.key"), tr("axis.weight"));
  plot::SetupAxisLimits(plot::Axis_Y, 0.0, 1.05);
  std::vector<double> ticks;
  std::vector<std::string> labels;
  std::vector<float> raw_left, scaled_left;
  for (int j = 0; j < n; ++j) {
    ticks.push_back(j);
    labels.push_back("k" + std::to_string(j));
    raw_left.push_back(float(j) - 0.42f);  // two bars per key, side by side
    scaled_left.push_back(float(j));
  }
  plot::SetupXTicks(ticks, labels);
  plot::SetNextItemColor(raw_color());
  plot::PlotBars(tr("scaling.legend.raw_softmax"), raw_left.data(), row.raw_weights.data(), n, 0.42);
  plot::SetNextItemColor(scaled_color());
  plot::PlotBars(tr("scaling.legend.scaled_softmax"), scaled_left.data(), row.scaled_weights.data(), n, 0.42);
  plot::EndPlot();
}

// One saturation measure along the grid, raw and scaled; with a reference
// (uniform_label != nullptr) a line at its value for a uniform row.
void saturation_plot(const char* id, const ScalingLab& lab, const char* y_label, float uniform_value,
                     const char* uniform_label, float (*get)(const Saturation&, bool raw), int flags) {
  if (!plot::BeginPlot(id, ImVec2(0, 0), flags)) return;
  setup_log2_dk_axis(y_label);
  if (uniform_label) {
    plot::SetupAxisLimits(plot::Axis_Y, 0.0, double(uniform_value) * 1.12 + 1e-6);
    const float ref_x[2] = {-1.0f, 11.0f}, ref_y[2] = {uniform_value, uniform_value};
    plot::SetNextItemColor(theory_color());
    plot::PlotLine(uniform_label, ref_x, ref_y, 2);
  }
  std::vector<float> x, raw, scaled;
  for (const auto& [d_k, s] : lab.saturation_curve) {
    x.push_back(float(std::log2(double(d_k))));
    raw.push_back(get(s, true));
    scaled.push_back(get(s, false));
  }
  if (!uniform_label) {  // from 0, so "vanishing" reads as a fall towards the axis
    float top = 0;
    for (std::size_t i = 0; i < x.size(); ++i) top = std::max({top, raw[i], scaled[i]});
    plot::SetupAxisLimits(plot::Axis_Y, 0.0, top > 0 ? double(top) * 1.1 : 1.0);
  }
  plot::SetNextItemColor(raw_color());
  plot::PlotLine(tr("scaling.legend.raw"), x.data(), raw.data(), int(x.size()));
  plot::SetNextItemColor(scaled_color());
  plot::PlotLine(tr("scaling.legend.scaled"), x.data(), scaled.data(), int(x.size()));
  plot::SetNextItemColor(raw_color());
  plot::PlotScatter("##raw_points", x.data(), raw.data(), int(x.size()));
  plot::SetNextItemColor(scaled_color());
  plot::PlotScatter("##scaled_points", x.data(), scaled.data(), int(x.size()));
  // The d_k the current means belong to (while a slow drag waits, the last one computed).
  if (lab.saturation_d_k > 0) {
    plot_dk_marks(lab.saturation_d_k, false);
    const float cx = float(std::log2(double(lab.saturation_d_k)));
    const float cr = get(lab.current_saturation, true), cs = get(lab.current_saturation, false);
    plot::SetNextItemColor(raw_color());
    plot::PlotScatter("##current_raw", &cx, &cr, 1);
    plot::SetNextItemColor(scaled_color());
    plot::PlotScatter("##current_scaled", &cx, &cs, 1);
  }
  plot::EndPlot();
}

void stability_panel(AppState& state) {
  const ScalingLab& lab = state.scaling;
  const AttentionRow& row = *lab.row;
  const bool naive_ok = all_finite(lab.naive);
  const bool stable_ok = all_finite(lab.stable);
  const float largest = row.raw_scores.empty() ? 0.0f : *std::max_element(row.raw_scores.begin(), row.raw_scores.end());
  // ln(FLT_MAX): exp of anything larger is inf in float32.
  const double overflow_at = std::log(double(FLT_MAX));
  int bad = 0;
  for (float w : lab.naive) bad += std::isfinite(w) ? 0 : 1;

  ui::text_wrapped(tr("scaling.stability.largest.fmt"), row.d_k, double(largest), overflow_at);
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(naive_ok ? current_palette().success : current_palette().error));
  if (naive_ok) ui::text_wrapped("%s", tr("scaling.stability.ok"));
  else ui::text_wrapped(tr("scaling.stability.overflow.fmt"), bad, int(lab.naive.size()));
  ImGui::PopStyleColor();
  if (!stable_ok) ui::text_wrapped("%s", tr("scaling.stability.stable_bad"));

  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchSame |
                                ImGuiTableFlags_ScrollY;
  if (!ImGui::BeginTable("##stability", 4, flags, ImVec2(0, 0))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn(tr("scaling.axis.key"));
  ImGui::TableSetupColumn(tr("scaling.stability.score"));
  ImGui::TableSetupColumn(tr("scaling.stability.naive"));
  ImGui::TableSetupColumn(tr("scaling.stability.stable"));
  ImGui::TableHeadersRow();
  const ImVec4 red(0.75f, 0.1f, 0.1f, 1.0f);
  for (std::size_t j = 0; j < row.raw_scores.size(); ++j) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ui::textf("k%d", int(j));
    ImGui::TableNextColumn();
    ui::textf("%.2f", double(row.raw_scores[j]));
    ImGui::TableNextColumn();
    const float naive = j < lab.naive.size() ? lab.naive[j] : 0.0f;
    if (std::isfinite(naive)) ui::text(format_weight(naive).c_str());
    else ui::text_colored(red, "%s", format_weight(naive).c_str());
    ImGui::TableNextColumn();
    ui::text(format_weight(j < lab.stable.size() ? lab.stable[j] : 0.0f).c_str());
  }
  ImGui::EndTable();
}

float entropy_of(const Saturation& s, bool raw) { return raw ? s.raw_entropy : s.scaled_entropy; }
float jacobian_of(const Saturation& s, bool raw) { return raw ? s.raw_jacobian_norm : s.scaled_jacobian_norm; }

}  // namespace

void saturation_panels(AppState& state) {
  const ScalingLab& lab = state.scaling;
  if (!lab.row) return;
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  // 2 x 2, or one column with readable plots in a narrow window (the view scrolls).
  int columns = 2;
  const ImVec2 cell = panel_grid(4, 2, ImGui::GetFontSize() * 18, ImGui::GetFontSize() * 15, &columns);
  // The largest entropy, ln n: a uniform row over n keys.
  const std::vector<float> uniform(std::size_t(lab.n_keys), 1.0f / float(lab.n_keys));
  char title[128];

  std::snprintf(title, sizeof title, tr("scaling.row.title.fmt"), lab.n_keys, lab.row->d_k);
  if (begin_panel("##scaling_row", cell, title, tr("scaling.row.help"), tr("scaling.row.formula"))) row_plot(lab);
  end_panel();
  if (columns > 1) ImGui::SameLine(0, gap.x);
  std::snprintf(title, sizeof title, tr("scaling.entropy.title.fmt"), lab.n_keys);
  if (begin_panel("##scaling_entropy", cell, title, tr("scaling.entropy.help"), tr("scaling.entropy.formula")))
    saturation_plot("##entropy_plot", lab, tr("scaling.axis.entropy"), entropy(uniform),
                    tr("scaling.legend.uniform_entropy"), entropy_of, plot::PlotFlags_None);
  end_panel();

  if (begin_panel("##scaling_jacobian", cell, tr("scaling.jacobian.title"), tr("scaling.jacobian.help"),
                  tr("scaling.jacobian.formula")))
    // No reference line: ||J||_F is not largest for a uniform row (two keys at
    // 0.5 give 0.5, a uniform row over n keys about 1/sqrt(n)); it is 0 one-hot.
    saturation_plot("##jacobian_plot", lab, tr("scaling.axis.jacobian"), 0.0f, nullptr, jacobian_of, plot::PlotFlags_None);
  end_panel();
  if (columns > 1) ImGui::SameLine(0, gap.x);
  if (begin_panel("##scaling_stability", cell, tr("scaling.stability.title"), tr("scaling.stability.help"),
                  tr("scaling.stability.formula")))
    stability_panel(state);
  end_panel();
}

}  // namespace attn::ui
