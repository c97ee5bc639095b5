// Step by step for one head: Q, K, V, then Q K^T, then the scaling, then the
// mask (masked cells drawn grey: they are -inf before softmax), then softmax,
// then x V. Each step is a heatmap with its formula and one sentence; the
// selected query's row is outlined in every step.
// Colours: the weights (in [0, 1]) in viridis, as the heatmaps view draws
// them; every signed matrix (Q, K, V, raw and scaled scores, the output) in
// the diverging RdBu_r over a range symmetric around 0, so the sign reads at
// a glance: blue below 0, near white at 0, red above (gfx/colormap.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/statistics.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

struct Step {
  const char* title_key;
  const char* help_key;
  const char* name;
  const char* source;  // compute() field ("" when compute() has no such field)
  const Matrix* values;
  WeightStats range;
  bool token_columns;  // columns are keys (n x n) rather than dimensions
  bool masked;
  bool diverging;      // signed values: RdBu_r on [-m, m] rather than viridis on [min, max]
};

void step_panel(AppState& state, const Step& step, int head, const ImVec2& size) {
  const ExplorerResult& r = *state.result;
  ImGui::PushID(step.name);
  begin_fitted_child("##step", size, true, ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  // Formula in the chapter's blue, wrapped so narrow panels never clip it.
  ImGui::PushTextWrapPos(0.0f);
  ImGui::PushStyleColor(ImGuiCol_Text, to_vec4(current_palette().formula));
  ui::text(tr(step.title_key));
  ImGui::PopStyleColor();
  ui::text_disabled("%s", tr(step.help_key));
  ImGui::PopTextWrapPos();
  HeatmapLayout entry;
  entry.name = std::string("steps_") + step.name;
  entry.title = tr(step.title_key);
  entry.source = step.source;
  entry.head = head;
  entry.masked = step.masked;
  const gfx::ValueRange symmetric = gfx::symmetric_range(step.range.min, step.range.max);
  plot::HeatmapSpec& spec = entry.spec =
      step.diverging ? matrix_spec(*step.values, symmetric.lo, symmetric.hi, gfx::Colormap::RdBu_r)
                     : matrix_spec(*step.values, step.range.min, step.range.max, gfx::Colormap::Viridis);
  spec.row_labels = &r.tokens;
  spec.row_label_valid = &r.key_valid;
  spec.col_labels = step.token_columns ? &r.tokens : nullptr;
  spec.col_label_valid = step.token_columns ? &r.key_valid : nullptr;
  spec.row_axis = tr("axis.query");
  spec.col_axis = step.token_columns ? tr("axis.key") : tr("axis.dim");
  spec.value_name = tr("axis.value");
  spec.highlight_row = state.selected_query;
  const plot::HeatmapCells cells = draw_heatmap(state, std::move(entry), ImVec2(0, 0));
  if (cells.clicked) state.selected_query = cells.hovered_row;
  end_fitted_child();
  ImGui::PopID();
}

// What the view derives from one head of the result: the scores with masked
// cells marked, and each step's colour range. Kept until the result or the
// head changes (state.result_generation), not recomputed every frame.
struct StepsDerived {
  uint64_t generation = 0;
  int head = -1;
  Matrix masked;
  WeightStats q, k, v, raw, scaled, output;
};

const StepsDerived& steps_derived(const AppState& state, int head) {
  static StepsDerived cached;  // the generation is process-wide: no two states share one
  if (state.result_generation && cached.generation == state.result_generation && cached.head == head) return cached;
  const HeadResult& h = state.result->attention.heads[std::size_t(head)];
  cached.generation = state.result_generation;
  cached.head = head;
  // "+ mask": the scaled scores with masked cells replaced by the marker the
  // heatmap shader draws grey (the -inf that softmax turns into 0).
  cached.masked = h.scaled_scores;
  for (Eigen::Index i = 0; i < cached.masked.rows(); ++i)
    for (Eigen::Index j = 0; j < cached.masked.cols(); ++j)
      if (!h.allowed(i, j)) cached.masked(i, j) = gfx::kMaskedValue;
  cached.q = weight_stats(h.Q);
  cached.k = weight_stats(h.K);
  cached.v = weight_stats(h.V);
  cached.raw = weight_stats(h.raw_scores);
  cached.scaled = weight_stats(h.scaled_scores);
  cached.output = weight_stats(h.output);
  return cached;
}

}  // namespace

void steps_view(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int heads = int(r.attention.heads.size());
  const int head = std::clamp(state.selected_head, 0, heads - 1);
  // Head picker (the head average has no Q, K, V of its own).
  char preview[32];
  std::snprintf(preview, sizeof preview, tr("view.head.fmt"), head);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo(tr("control.head"), preview)) {
    for (int h = 0; h < heads; ++h) {
      char label[32];
      std::snprintf(label, sizeof label, tr("view.head.fmt"), h);
      if (ImGui::Selectable(label, h == head)) state.selected_head = h;
    }
    ImGui::EndCombo();
  }
  record_control(state, "steps_head");
  const std::string selected = selected_query_text(r, state.selected_query);
  same_line_if_fits(ImGui::CalcTextSize(selected.c_str()).x);
  ui::text(selected.c_str());

  fully_masked_note(r);
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  const StepsDerived& d = steps_derived(state, head);
  const Step steps[] = {
      {"steps.q", "steps.q.help", "Q", "Q", &h.Q, d.q, false, false, true},
      {"steps.k", "steps.k.help", "K", "K", &h.K, d.k, false, false, true},
      {"steps.v", "steps.v.help", "V", "V", &h.V, d.v, false, false, true},
      {"steps.scores", "steps.scores.help", "scores", "scores", &h.raw_scores, d.raw, true, false, true},
      {"steps.scaled", "steps.scaled.help", "scaled", "scaled_scores", &h.scaled_scores, d.scaled, true, false, true},
      {"steps.masked", "steps.masked.help", "masked", "scaled_scores", &d.masked, d.scaled, true, true, true},
      {"steps.weights", "steps.weights.help", "weights", "weights", &h.weights, r.summaries[std::size_t(head)].stats,
       true, false, false},
      {"steps.output", "steps.output.help", "output", "head_output", &h.output, d.output, false, false, true},
  };
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 gap = ImGui::GetStyle().ItemSpacing;
  // 4 x 2 when there is room, else 2 x 4 or 8 x 1 with a minimum height (the view scrolls).
  const float font = ImGui::GetFontSize();
  // On a phone: one to a row upright, two on its side, each as tall as its content.
  const bool stacked = stacked_layout();
  const int columns = stacked ? std::min(stacked_columns(8), 2) : avail.x > font * 60 ? 4 : avail.x > font * 30 ? 2 : 1;
  const int rows = 8 / columns;
  // (The minimum never exceeds the region: each step can be seen whole.)
  const float height = stacked ? stacked_max_height()
                               : std::max(std::floor((avail.y - gap.y * float(rows - 1)) / float(rows)), std::min(font * 18, avail.y));
  const ImVec2 size(std::floor((avail.x - gap.x * float(columns - 1)) / float(columns)), height);
  for (int i = 0; i < 8; ++i) {
    if (i % columns) ImGui::SameLine();
    step_panel(state, steps[i], head, size);
  }
}

}  // namespace attn::ui
