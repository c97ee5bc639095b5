// The "why attention" view's panels, for the shown experiment:
//
//   recurrence against attention:  accuracy by distance | gradient per input (log)
//   (and convolution)              the path from x_1 to the output | attention's heatmap
//                                  d2l's table with the forward passes timed here
//   why Q, K and V:                training loss | training accuracy
//                                  each variant's heatmap (none, tied, separate)
//
// Every number is the module's last report (WhyLab::runs) or its timings.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include <imgui.h>

#include "core/why/why_lab.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/records.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/plot.hpp"
#include "ui/why/why.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

using why::kReportDistances;  // the distances of a report's by_distance
constexpr int kDistances = int(std::size(kReportDistances));
const char* const kVariants[] = {"none", "tied", "separate"};

const char* recurrent_key(const WhyLab& lab) { return lab.gru ? "gru" : "rnn"; }
// The recurrence panel's models as its plots and tables show them.
std::vector<const char*> compared_keys(const WhyLab& lab) { return {recurrent_key(lab), "cnn", "attention"}; }
const char* model_label(const std::string& key) { return tr(("why.model." + key).c_str()); }

double first_over_last(const WhyModel& m) {
  return m.gradient.size() < 2 || m.gradient.back() == 0 ? 0.0 : double(m.gradient.front()) / m.gradient.back();
}

// The panel's result in a sentence with its numbers (the view's header and the accessible copy's summary).
std::string summary_text(const WhyLab& lab) {
  const WhyRunView& run = why_run_shown(lab);
  if (lab.panel == WhyPanel::Recurrence) {
    const WhyModel* r = why_model(run, recurrent_key(lab));
    const WhyModel* a = why_model(run, "attention");
    if (!r || !a) return "";
    const std::string k = lab.distance == 0 ? "1-64" : std::to_string(lab.distance);  // the mix: every distance
    std::string out = format(tr("why.summary.recurrence.fmt"), run.step, k.c_str(), a->accuracy * 100, model_label(r->key),
                             r->accuracy * 100, model_label(r->key), first_over_last(*r), first_over_last(*a));
    // The convolution's reach is the run's own (its settings), not the slider's while a new run starts.
    if (const WhyModel* c = why_model(run, "cnn")) {
      const int layers = run.settings.experiment.conv_layers;
      out += " " + format(tr("why.summary.cnn.fmt"), layers, 2 * layers, c->accuracy * 100);
    }
    return out;
  }
  const WhyModel* m[3] = {why_model(run, "none"), why_model(run, "tied"), why_model(run, "separate")};
  if (!m[0] || !m[1] || !m[2]) return "";
  std::string out = format(tr("why.summary.qkv.fmt"), run.step, tr(lab.lookup ? "why.task.lookup" : "why.task.previous"),
                           m[0]->accuracy * 100, m[1]->accuracy * 100, m[2]->accuracy * 100);
  return out + " " + format(tr("why.symmetry.fmt"), m[1]->asymmetry, m[2]->asymmetry, m[1]->self_strongest * 100,
                            m[2]->self_strongest * 100);
}

// ---- recurrence against attention ----------------------------------------------

// Trained on one distance, each model is measured there (a point); trained on
// the mix, at every distance (a line).
void accuracy_plot(const WhyLab& lab, const WhyRunView& run) {
  if (!plot::BeginPlot("##why_accuracy")) return;
  plot::SetupAxes(tr("why.axis.distance"), tr("scaling.axis.accuracy"));
  plot::SetupAxisLimits(plot::Axis_X, -0.3, kDistances - 0.7);  // x: log2 k
  plot::SetupAxisLimits(plot::Axis_Y, 0.0, 1.05);
  std::vector<double> ticks;
  std::vector<std::string> labels;
  std::vector<float> xs;
  for (int i = 0; i < kDistances; ++i) {
    ticks.push_back(i);
    labels.push_back(std::to_string(kReportDistances[i]));
    xs.push_back(float(i));
  }
  plot::SetupXTicks(ticks, labels);
  plot::SetupXHoverFormat([](double x) { return "k = " + std::to_string(1 << std::clamp(int(std::lround(x)), 0, kDistances - 1)); });
  const float trained = float(std::log2(double(std::max(lab.distance, 1))));
  for (const char* key : compared_keys(lab)) {
    const WhyModel* m = why_model(run, key);
    if (!m) continue;
    if (int(m->by_distance.size()) == kDistances) {
      plot::PlotLine(model_label(key), xs.data(), m->by_distance.data(), kDistances);
    } else {
      const float accuracy = float(m->accuracy);
      plot::PlotScatter(model_label(key), &trained, &accuracy, 1);
    }
  }
  if (lab.distance > 0) plot::PlotVLines(tr("why.legend.trained"), &trained, 1);
  plot::EndPlot();
}

void gradient_plot(const WhyLab& lab, const WhyRunView& run) {
  if (!plot::BeginPlot("##why_gradient")) return;
  plot::SetupAxes(tr("why.axis.position"), tr("why.axis.log_gradient"));
  int T = 0;
  for (const char* key : compared_keys(lab)) {
    const WhyModel* m = why_model(run, key);
    if (!m) continue;
    std::vector<float> xs, ys;
    for (std::size_t t = 0; t < m->gradient.size(); ++t)
      if (m->gradient[t] > 0) xs.push_back(float(t)), ys.push_back(std::log(m->gradient[t]) / std::log(10.0f));
    T = int(m->gradient.size());
    plot::PlotLine(model_label(key), xs.data(), ys.data(), int(xs.size()));
  }
  const int k = lab.distance == 0 ? 32 : lab.distance;  // in the mix, the profile is the distance-32 set's
  if (T > k) {
    const float answer = float(T - 1 - k);
    plot::PlotVLines(tr("why.legend.answer"), &answer, 1);
  }
  plot::EndPlot();
}

// x_1 ... x_n and the output: the recurrence's chain of n steps, attention's one.
void path_drawing(const WhyLab& lab, const WhyRunView& run) {
  const WhyModel* m = why_model(run, "attention");
  const int n = m ? int(m->gradient.size()) : 0;
  if (n < 2) return;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const float left = origin.x + 6, right = origin.x + avail.x - 10;
  const float dx = (right - left) / float(n);
  const float r = std::clamp(dx * 0.3f, 1.5f, 4.0f);
  const ImU32 ink = ImGui::GetColorU32(ImGuiCol_Text), faint = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  // The plots' colours: the recurrence the first series, attention the third (compared_keys).
  const ImU32 colors[2] = {plot::SeriesColor(0), plot::SeriesColor(2)};
  const auto x_of = [&](int t) { return left + dx * (float(t) + 0.5f); };
  // The recurrence: h_1 -> h_2 -> ... -> h_n, every arrow a step the gradient passes.
  const float row1 = origin.y + line * 1.6f;
  draw->AddText(ImVec2(left, origin.y), ink,
                format(tr("why.path.recurrent.fmt"), model_label(recurrent_key(lab)), n).c_str());
  draw->AddLine(ImVec2(x_of(0), row1), ImVec2(x_of(n - 1), row1), colors[0], 2.0f);
  for (int t = 0; t < n; ++t) draw->AddCircleFilled(ImVec2(x_of(t), row1), r, t == 0 ? ink : colors[0]);
  // Attention: the output reads every input directly, the first one in one step.
  const float row2 = row1 + line * 2.2f, out_y = row2 + line * 2.4f;
  draw->AddText(ImVec2(left, row2 - line * 1.1f), ink, tr("why.path.attention"));
  const ImVec2 out(x_of(n - 1), out_y);
  for (int t = 0; t < n; ++t) {
    draw->AddLine(ImVec2(x_of(t), row2), out, t == 0 ? colors[1] : faint, t == 0 ? 2.5f : 1.0f);
    draw->AddCircleFilled(ImVec2(x_of(t), row2), r, t == 0 ? ink : colors[1]);
  }
  draw->AddCircleFilled(out, r + 1.5f, colors[1]);
  draw->AddText(ImVec2(left, out_y - line * 0.5f), faint, "x_1");
  draw->AddText(ImVec2(out.x - ImGui::CalcTextSize("y").x - r - 6, out_y - line * 0.5f), ink, "y");
  ImGui::Dummy(ImVec2(avail.x, out_y + line - origin.y));
}

// Each heatmap is the report's attention weights (compute({why}) gives the
// same: tests/web/pixels.mjs reads them by the entry's head).
void attention_heatmap(AppState& state, const WhyRunView& run, const WhyModel& m, int head, const char* title) {
  HeatmapLayout entry;
  entry.name = std::string("why_") + m.key;
  entry.title = title;
  entry.source = "why";
  entry.head = head;
  plot::HeatmapSpec& spec = entry.spec = matrix_spec(m.attention, 0.0f, 1.0f, state.head_colormap);
  spec.row_axis = tr("why.axis.output");
  spec.col_axis = tr("why.axis.input");
  spec.value_name = tr("axis.weight");
  spec.generation = ((run.generation * 1099511628211ull) ^ uint64_t(head + 1)) | 1;
  draw_heatmap(state, std::move(entry), ImVec2(0, 0));
}

// A layer's measured forward pass at n ("-" until measured): its ms, GFLOP/s or dependent steps.
using TimingValue = double (*)(const why::ForwardTiming&);
double timing_ms(const why::ForwardTiming& t) { return t.ms; }
double timing_gflops(const why::ForwardTiming& t) { return t.gflops(); }
double timing_dependent(const why::ForwardTiming& t) { return t.dependent_steps; }
std::string timing_text(const WhyLab& lab, const char* layer, int n, TimingValue value) {
  for (const why::ForwardTiming& t : lab.timing)
    if (t.layer == layer && t.n == n) return format("%.4g", value(t));
  return "-";
}
const char* const kTimedLayers[] = {"rnn", "gru", "cnn", "attention"};

// d2l's rows; k is the convolution's kernel (3 here).
const char* const kComplexity[4][4] = {{kTimedLayers[0], "O(n·d²)", "O(n)", "O(n)"},
                                       {kTimedLayers[1], "O(n·d²)", "O(n)", "O(n)"},
                                       {kTimedLayers[2], "O(k·n·d²)", "O(1)", "O(n/k)"},
                                       {kTimedLayers[3], "O(n²·d)", "O(1)", "O(1)"}};
const char* const kComplexityHeaders[] = {"why.timing.layer", "why.timing.complexity", "why.timing.sequential",
                                          "why.timing.path"};

// One measured quantity of the table: its header and how to read it at n.
struct TimingColumn {
  std::string header;
  int n;
  TimingValue value;
};
std::vector<TimingColumn> timing_columns() {
  const std::vector<int>& lengths = why_timing_lengths();
  std::vector<TimingColumn> columns;
  for (int n : lengths) columns.push_back({format(tr("why.timing.ms.fmt"), n), n, timing_ms});
  columns.push_back({format(tr("why.timing.gflops.fmt"), lengths.back()), lengths.back(), timing_gflops});
  columns.push_back({format(tr("why.timing.dependent.fmt"), lengths.back()), lengths.back(), timing_dependent});
  return columns;
}

void cell(const char* text) {
  ImGui::TableNextColumn();
  ui::text(text);
}

// d2l's table (complexity, sequential operations, maximum path length) with
// the forward passes timed in this browser beside it, scrolling sideways
// when the window is narrower than its columns.
void timing_table(const WhyLab& lab) {
  const std::vector<TimingColumn> timed = timing_columns();
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit;
  const float height = ImGui::GetTextLineHeightWithSpacing() * 6;
  if (!ImGui::BeginTable("##why_timing", 4 + int(timed.size()), flags, ImVec2(0, height))) return;
  for (const char* key : kComplexityHeaders) ImGui::TableSetupColumn(tr(key));
  for (const TimingColumn& column : timed) ImGui::TableSetupColumn(column.header.c_str());
  ImGui::TableHeadersRow();
  for (const auto& row : kComplexity) {
    ImGui::TableNextRow();
    cell(model_label(row[0]));
    for (int c = 1; c < 4; ++c) cell(row[c]);
    for (const TimingColumn& column : timed) cell(timing_text(lab, row[0], column.n, column.value).c_str());
  }
  ImGui::EndTable();
}

// The same numbers on a phone, in two tables that fit its width: d2l's
// columns, then the measurements turned on their side (a row each, a column
// per layer), so nothing needs a sideways scroll.
void timing_tables_stacked(const WhyLab& lab) {
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;
  if (ImGui::BeginTable("##why_complexity", 4, flags)) {
    for (const char* key : kComplexityHeaders) ImGui::TableSetupColumn(tr(key));
    ImGui::TableHeadersRow();
    for (const auto& row : kComplexity) {
      ImGui::TableNextRow();
      cell(model_label(row[0]));
      for (int c = 1; c < 4; ++c) cell(row[c]);
    }
    ImGui::EndTable();
  }
  if (!ImGui::BeginTable("##why_measured", 5, flags)) return;
  // The layers' columns as wide as their names and numbers; the row names wrap in what is left.
  ImGui::TableSetupColumn("", ImGuiTableColumnFlags_WidthStretch);
  for (const char* layer : kTimedLayers) ImGui::TableSetupColumn(model_label(layer), ImGuiTableColumnFlags_WidthFixed);
  ImGui::TableHeadersRow();
  for (const TimingColumn& column : timing_columns()) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ui::text_wrapped("%s", column.header.c_str());
    for (const char* layer : kTimedLayers) cell(timing_text(lab, layer, column.n, column.value).c_str());
  }
  ImGui::EndTable();
}

// `count` panels in rows of `columns` (panel_grid's sizes), each drawn by draw(i).
template <class Draw>
void panels(int count, int max_columns, const char* const* titles, const char* const* helps, Draw draw) {
  const float font = ImGui::GetFontSize();
  int columns = 1;
  const ImVec2 size = panel_grid(count, max_columns, font * 16, font * 13, &columns);
  for (int i = 0; i < count; ++i) {
    if (i % columns) ImGui::SameLine();
    if (begin_panel(("##why_panel" + std::to_string(i)).c_str(), size, tr(titles[i]), tr(helps[i]), nullptr)) draw(i);
    end_panel();
  }
}

void recurrence_panels(AppState& state) {
  const WhyLab& lab = state.why;
  const WhyRunView& run = why_run_shown(lab);
  static const char* const titles[] = {"why.accuracy.title", "why.gradient.title", "why.path.title", "why.heatmap.title"};
  static const char* const helps[] = {"why.accuracy.help", "why.gradient.help", "why.path.help", "why.heatmap.help"};
  // The plots scroll above the table; on a phone the whole view scrolls instead (one scroll, not two).
  const float table_h = ImGui::GetTextLineHeightWithSpacing() * 10;
  const bool stacked = stacked_layout();
  if (!stacked) ImGui::BeginChild("##why_plots", ImVec2(0, -table_h));
  panels(4, 2, titles, helps, [&](int i) {
    if (i == 0) accuracy_plot(lab, run);
    else if (i == 1) gradient_plot(lab, run);
    else if (i == 2) path_drawing(lab, run);
    else if (const WhyModel* m = why_model(run, "attention"); m && m->attention.size() > 0)
      attention_heatmap(state, run, *m, 0, tr(titles[3]));
  });
  if (!stacked) ImGui::EndChild();
  title_with_help(tr("why.timing.title"), tr("why.timing.help"));
  if (stacked) timing_tables_stacked(lab);
  else timing_table(lab);
  ui::text_wrapped("%s", tr("why.timing.gpu"));
}

// ---- why Q, K and V ---------------------------------------------------------------

void curve_plot(const WhyRunView& run, const char* id, const char* y_label, bool accuracy) {
  if (!plot::BeginPlot(id)) return;
  plot::SetupAxes(tr("scaling.axis.step"), y_label);
  if (accuracy) plot::SetupAxisLimits(plot::Axis_Y, 0.0, 1.05);
  for (const char* key : kVariants)
    if (const WhyModel* m = why_model(run, key)) {
      const std::vector<float>& ys = accuracy ? m->curve_accuracy : m->curve_loss;
      std::vector<float> xs(ys.size());
      for (std::size_t i = 0; i < xs.size(); ++i) xs[i] = float(i + 1);
      plot::PlotLine(model_label(key), xs.data(), ys.data(), int(ys.size()));
    }
  plot::EndPlot();
}

void qkv_panels(AppState& state) {
  const WhyRunView& run = why_run_shown(state.why);
  static const char* const titles[] = {"why.loss.title", "why.curve_accuracy.title", "why.model.none", "why.model.tied",
                                       "why.model.separate"};
  static const char* const helps[] = {"why.loss.help", "why.curve_accuracy.help", "why.variant.none.help",
                                      "why.variant.tied.help", "why.variant.separate.help"};
  panels(5, 3, titles, helps, [&](int i) {
    if (i == 0) curve_plot(run, "##why_loss", tr("scaling.axis.loss"), false);
    else if (i == 1) curve_plot(run, "##why_curve_accuracy", tr("scaling.axis.accuracy"), true);
    else if (const WhyModel* m = why_model(run, kVariants[i - 2]); m && m->attention.size() > 0)
      attention_heatmap(state, run, *m, i - 2, tr(titles[i]));
  });
}

// A plot's numbers as the accessible copy's table: one row per x, a column per model.
A11yTable model_table(const char* caption, const char* corner, const std::vector<std::string>& rows,
                      const std::vector<const WhyModel*>& models, const std::vector<float> WhyModel::*values,
                      const char* number_format) {
  A11yTable table;
  table.caption = caption;
  table.corner = corner;
  table.rows = rows;
  for (const WhyModel* m : models) table.columns.push_back(model_label(m->key));
  for (std::size_t r = 0; r < rows.size(); ++r) {
    table.text.emplace_back();
    for (const WhyModel* m : models)
      table.text.back().push_back(r < (m->*values).size() ? format(number_format, double((m->*values)[r])) : "-");
  }
  return table;
}

}  // namespace

void why_view(AppState& state) {
  WhyLab& lab = state.why;
  if (lab.load != ModuleLoad::Ready) {
    ui::text_wrapped("%s", lab.load == ModuleLoad::Failed ? format(tr("why.load.failed.fmt"), lab.load_error.c_str()).c_str()
                                                         : tr("why.load.starting"));
    return;
  }
  const WhyRunView& run = why_run_shown(lab);
  ImGui::PushTextWrapPos(0.0f);
  ui::text(tr(lab.panel == WhyPanel::Recurrence ? "why.panel.recurrence.intro" : "why.panel.qkv.intro"));
  ui::text(run.error.empty() ? summary_text(lab).c_str() : run.error.c_str());
  ImGui::PopTextWrapPos();
  if (lab.panel == WhyPanel::Recurrence) recurrence_panels(state);
  else qkv_panels(state);
}

void describe_why(const AppState& state, A11yView& out) {
  const WhyLab& lab = state.why;
  out.title = std::string(tr("tab.why")) + ": " +
              tr(lab.panel == WhyPanel::Recurrence ? "why.panel.recurrence" : "why.panel.qkv");
  if (lab.load != ModuleLoad::Ready) {
    out.summary = lab.load == ModuleLoad::Failed ? format(tr("why.load.failed.fmt"), lab.load_error.c_str())
                                              : tr("why.load.starting");
    return;
  }
  const WhyRunView& run = why_run_shown(lab);
  out.summary = run.error.empty() ? summary_text(lab) : run.error;
  if (lab.panel == WhyPanel::Qkv) return;  // the curves' last values are in the summary; the heatmaps list themselves
  std::vector<const WhyModel*> models;
  for (const char* key : compared_keys(lab))
    if (const WhyModel* m = why_model(run, key)) models.push_back(m);
  if (models.size() < 3) return;
  std::vector<std::string> distances, positions;
  for (int k : kReportDistances) distances.push_back("k = " + std::to_string(k));
  for (std::size_t t = 0; t < models[0]->gradient.size(); ++t) positions.push_back("t = " + std::to_string(t));
  out.tables.push_back(model_table(tr("why.accuracy.title"), tr("why.axis.distance"), distances, models,
                                   &WhyModel::by_distance, "%.3f"));
  out.tables.push_back(model_table(tr("why.gradient.title"), tr("why.axis.position"), positions, models,
                                   &WhyModel::gradient, "%.3g"));
  if (lab.timing.empty()) return;
  A11yTable timing;  // the forward passes timed here, as the view's table has them
  timing.caption = tr("why.timing.title");
  timing.corner = tr("why.timing.layer");
  for (int n : why_timing_lengths()) timing.columns.push_back(format(tr("why.timing.ms.fmt"), n));
  const int longest = why_timing_lengths().back();
  timing.columns.push_back(format(tr("why.timing.gflops.fmt"), longest));
  timing.columns.push_back(format(tr("why.timing.dependent.fmt"), longest));
  for (const char* layer : kTimedLayers) {
    timing.rows.push_back(model_label(layer));
    timing.text.emplace_back();
    for (int n : why_timing_lengths()) timing.text.back().push_back(timing_text(lab, layer, n, timing_ms));
    for (const TimingValue value : {timing_gflops, timing_dependent})
      timing.text.back().push_back(timing_text(lab, layer, longest, value));
  }
  out.tables.push_back(std::move(timing));
}

}  // namespace attn::ui
