// Training side by side: the same tiny attention model trained twice, with
// scores divided by sqrt(d_k) and without, on the same seeded batches.
//   summary table (steps, loss, accuracy, gradient norm, held-out accuracy)
//   loss | accuracy | gradient norm curves      | each model's attention on one example
// Every number comes from the Trainers (core/scaling/trainer.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "ui/i18n/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// At most this many points per curve: long runs are thinned evenly (the
// last step always kept), so a frame's drawing cost stays flat.
constexpr std::size_t kMaxCurvePoints = 1500;

struct Series {
  std::vector<float> step, value;
};
Series series(const Trainer* trainer, float TrainStepStats::*field) {
  Series s;
  if (!trainer) return s;
  const auto& h = trainer->history();
  const std::size_t stride = std::max<std::size_t>(1, (h.size() + kMaxCurvePoints - 1) / kMaxCurvePoints);
  for (std::size_t i = 0; i < h.size(); i += stride) {
    s.step.push_back(float(h[i].step));
    s.value.push_back(h[i].*field);
  }
  if (!h.empty() && (h.size() - 1) % stride != 0) {
    s.step.push_back(float(h.back().step));
    s.value.push_back(h.back().*field);
  }
  return s;
}

// The legend only on the loss plot (the plot layer puts it above the curves):
// the summary table above names the colours too.
void curve_plot(const char* id, const ScalingLab& lab, const char* y_label, float TrainStepStats::*field,
                bool unit_range, int flags) {
  if (!plot::BeginPlot(id, ImVec2(0, 0), flags)) return;
  plot::SetupAxes(tr("scaling.axis.step"), y_label);
  if (unit_range) plot::SetupAxisLimits(plot::Axis_Y, 0.0, 1.05);
  const Series scaled = series(lab.scaled_model.get(), field);
  const Series unscaled = series(lab.unscaled_model.get(), field);
  plot::SetNextItemColor(scaled_color());
  plot::PlotLine(tr("scaling.legend.model_scaled"), scaled.step.data(), scaled.value.data(), int(scaled.step.size()));
  plot::SetNextItemColor(raw_color());
  plot::PlotLine(tr("scaling.legend.model_unscaled"), unscaled.step.data(), unscaled.value.data(),
                 int(unscaled.step.size()));
  plot::EndPlot();
}

std::string eval_text(float accuracy) {
  if (accuracy < 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f %%", double(accuracy) * 100.0);
  return text;
}

void summary_table(const ScalingLab& lab) {
  const char* headers[] = {"scaling.table.model", "scaling.table.steps", "scaling.table.loss",
                           "scaling.table.accuracy", "scaling.table.grad", "scaling.table.eval"};
  // Columns as wide as their header or a value ("100.0 %"); when that is
  // wider than the window, the table scrolls sideways instead of cutting them.
  const float cell_pad = ImGui::GetStyle().CellPadding.x * 2 + 1;
  float natural = 0;
  for (const char* key : headers)
    natural += std::max(ImGui::CalcTextSize(tr(key)).x, ImGui::CalcTextSize("100.0 %").x) + cell_pad;
  const bool scroll = natural > ImGui::GetContentRegionAvail().x;
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg |
                                (scroll ? ImGuiTableFlags_ScrollX | ImGuiTableFlags_SizingFixedFit
                                        : ImGuiTableFlags_SizingStretchSame);
  // Header and two rows, plus the scrollbar when there is one.
  const float height = scroll ? ImGui::GetFrameHeight() * 3 + ImGui::GetStyle().ScrollbarSize + 2 : 0.0f;
  if (!ImGui::BeginTable("##training_summary", 6, flags, ImVec2(0, height))) return;
  for (const char* key : headers) ImGui::TableSetupColumn(tr(key));
  ImGui::TableHeadersRow();
  const struct {
    const char* name;
    const Trainer* trainer;
    float eval;
    ImU32 color;
  } rows[] = {{"scaling.table.scaled", lab.scaled_model.get(), lab.scaled_eval, scaled_color()},
              {"scaling.table.unscaled", lab.unscaled_model.get(), lab.unscaled_eval, raw_color()}};
  for (const auto& row : rows) {
    const TrainerSummary s = trainer_summary(row.trainer);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ui::text_colored(ImColor(row.color), "%s", tr(row.name));
    ImGui::TableNextColumn();
    ui::textf("%d", s.steps);
    ImGui::TableNextColumn();
    if (s.steps) ui::textf("%.4f", double(s.loss));
    else ui::text("-");
    ImGui::TableNextColumn();
    if (s.steps) ui::textf("%.1f %%", double(s.accuracy) * 100.0);
    else ui::text("-");
    ImGui::TableNextColumn();
    if (s.steps) ui::textf("%.4g", double(s.grad_norm));
    else ui::text("-");
    ImGui::TableNextColumn();
    ui::text(eval_text(row.eval).c_str());
  }
  ImGui::EndTable();
}

// `shown`: its panel is on screen; if not, the accessible copy still lists it.
void example_heatmap(AppState& state, const char* name, const char* title, const Matrix& weights, bool shown) {
  const ScalingLab& lab = state.scaling;
  HeatmapLayout entry;
  entry.name = name;
  entry.title = title;
  // Attention weights in viridis, as in the explorer (gfx/colormap.hpp): a
  // dark low end, so a mostly-zero matrix does not glare in the dark theme.
  plot::HeatmapSpec& spec = entry.spec = matrix_spec(weights, 0.0f, 1.0f, gfx::Colormap::Viridis);
  spec.row_labels = spec.col_labels = &lab.example_tokens;
  spec.row_axis = tr("axis.query");
  spec.col_axis = tr("axis.key");
  spec.value_name = tr("tip.weight");
  if (shown) draw_heatmap(state, std::move(entry), ImVec2(0, 0));
  else a11y_record_heatmap(state, entry, {});
}

}  // namespace

void training_panels(AppState& state) {
  const ScalingLab& lab = state.scaling;
  char title[160];
  std::snprintf(title, sizeof title, tr("scaling.train.header.fmt"), lab.train_d_k, double(lab.learning_rate));
  title_with_help(title, tr("scaling.train.help"));
  summary_table(lab);

  // The curves left, each model's attention right; in a narrow window one
  // column, every panel at a readable minimum height (the view scrolls).
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  const float font = ImGui::GetFontSize();
  const bool side_by_side = avail.x >= font * 40;
  const float left_w = side_by_side ? std::floor((avail.x - gap.x) * 0.55f) : avail.x;
  const float plot_h = std::max(std::floor((avail.y - 2 * gap.y) / 3.0f), std::min(font * 9, avail.y));

  ImGui::BeginGroup();
  if (begin_panel("##train_loss", ImVec2(left_w, plot_h), tr("scaling.loss.title"), tr("scaling.loss.help"),
                  tr("scaling.loss.formula")))
    curve_plot("##loss_plot", lab, tr("scaling.axis.loss"), &TrainStepStats::loss, false, plot::PlotFlags_None);
  end_panel();
  if (begin_panel("##train_accuracy", ImVec2(left_w, plot_h), tr("scaling.accuracy.title"),
                  tr("scaling.accuracy.help"), nullptr))
    curve_plot("##accuracy_plot", lab, tr("scaling.axis.accuracy"), &TrainStepStats::accuracy, true, plot::PlotFlags_NoLegend);
  end_panel();
  if (begin_panel("##train_grad", ImVec2(left_w, plot_h), tr("scaling.grad.title"), tr("scaling.grad.help"), nullptr))
    curve_plot("##grad_plot", lab, tr("scaling.axis.grad"), &TrainStepStats::grad_norm, false, plot::PlotFlags_NoLegend);
  end_panel();
  ImGui::EndGroup();

  if (side_by_side) ImGui::SameLine(0, gap.x);
  ImGui::BeginGroup();
  const float map_h = side_by_side ? std::max(std::floor((avail.y - gap.y) * 0.5f), std::min(font * 12, avail.y))
                                   : std::min(font * 16, std::max(avail.y, font * 8));
  bool shown = begin_panel("##train_map_scaled", ImVec2(0, map_h), tr("scaling.map.scaled.title"),
                           tr("scaling.map.help"), nullptr);
  if (lab.scaled_example.size() > 0)
    example_heatmap(state, "train_scaled", tr("scaling.map.scaled.title"), lab.scaled_example, shown);
  end_panel();
  shown = begin_panel("##train_map_unscaled", ImVec2(0, map_h), tr("scaling.map.unscaled.title"), tr("scaling.map.help"),
                      nullptr);
  if (lab.unscaled_example.size() > 0)
    example_heatmap(state, "train_unscaled", tr("scaling.map.unscaled.title"), lab.unscaled_example, shown);
  end_panel();
  ImGui::EndGroup();
}

}  // namespace attn::ui
