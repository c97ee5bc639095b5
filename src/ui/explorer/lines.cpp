// Head lines (the BertViz "head view" idea): queries in the left column, keys
// in the right, a line from query i to key j whose opacity is the weight, one
// colour per head. Heads can be switched off; hovering a query shows only its
// lines. With many tokens only the selected query's lines are drawn.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/theme.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {

void lines_view(AppState& state) {
  const ExplorerResult& r = *state.result;
  const int n = int(r.tokens.size()), heads = int(r.attention.heads.size());
  state.lines_head_visible.resize(std::size_t(heads), true);
  title_with_help(tr("lines.title"), tr("lines.help"));
  // One checkbox per head, in the head's colour.
  const float right_edge = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (int h = 0; h < heads; ++h) {
    char label[32];
    std::snprintf(label, sizeof label, tr("view.head.fmt"), h);
    // Checkboxes flow left to right and wrap to a new line when the next one would not fit.
    const float needed = ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    if (h && ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + needed <= right_edge) ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_CheckMark, ImGui::ColorConvertU32ToFloat4(plot::SeriesColor(h)));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(plot::SeriesColor(h)));
    bool visible = state.lines_head_visible[std::size_t(h)];
    if (ImGui::Checkbox(label, &visible)) state.lines_head_visible[std::size_t(h)] = visible;
    ImGui::PopStyleColor(2);
    record_control(state, "lines_head" + std::to_string(h));
  }
  int visible_heads = 0;
  for (int h = 0; h < heads; ++h) visible_heads += state.lines_head_visible[std::size_t(h)] ? 1 : 0;
  const bool only_selected = double(n) * n * std::max(visible_heads, 1) > 40000.0;
  if (only_selected) ui::text_disabled("%s", tr("lines.only_selected"));

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::InvisibleButton("##lines", ImVec2(std::max(avail.x, 1.0f), std::max(avail.y, 1.0f)));
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float font = ImGui::GetFontSize();
  float label_w = 0;
  for (const std::string& t : r.tokens) label_w = std::max(label_w, ImGui::CalcTextSize(t.c_str()).x);
  label_w = std::min(label_w, (b.x - a.x) * 0.3f);
  // Columns sit a third of the width apart at most, so lines stay readable.
  const float middle = (a.x + b.x) * 0.5f, half_gap = std::min((b.x - a.x) * 0.5f - label_w - font, font * 14);
  const float left_x = middle - half_gap, right_x = middle + half_gap;
  const float row_h = (b.y - a.y - font) / float(std::max(n, 1));
  if (row_h <= 0.f) return;  // a view too short for even one row
  auto row_y = [&](int i) { return a.y + font * 0.5f + (float(i) + 0.5f) * row_h; };
  const int stride = std::max(1, int(std::ceil(font / std::max(row_h, 0.01f))));
  const ImU32 text = ImGui::GetColorU32(ImGuiCol_Text), dim = ImGui::GetColorU32(ImGuiCol_TextDisabled);

  // Hovering a query (left half) shows only its lines; clicking selects it.
  int focus = only_selected ? state.selected_query : -1;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (ImGui::IsItemHovered() && mouse.x < middle) {
    focus = std::clamp(int((mouse.y - a.y - font * 0.5f) / row_h), 0, n - 1);
    if (ImGui::IsItemClicked()) state.selected_query = focus;
  }
  for (int i = 0; i < n; i += stride) {
    const char* t = r.tokens[std::size_t(i)].c_str();
    const ImU32 color = r.key_valid[std::size_t(i)] ? text : dim;
    const float y = row_y(i) - font * 0.5f;
    draw->AddText(ImVec2(left_x - font * 0.5f - ImGui::CalcTextSize(t).x, y), i == state.selected_query ? current_palette().selection : color, t);
    draw->AddText(ImVec2(right_x + font * 0.5f, y), color, t);
  }
  for (int h = 0; h < heads; ++h) {
    if (!state.lines_head_visible[std::size_t(h)]) continue;
    const Matrix& w = r.attention.heads[std::size_t(h)].weights;
    const ImU32 rgb = plot::SeriesColor(h) & ~IM_COL32_A_MASK;
    for (int q = 0; q < n; ++q) {
      if (focus >= 0 && q != focus) continue;
      for (int k = 0; k < n; ++k) {
        const int alpha = int(w(q, k) * 255.0f);  // opacity = weight
        if (alpha < 3) continue;
        draw->AddLine(ImVec2(left_x, row_y(q)), ImVec2(right_x, row_y(k)), rgb | (ImU32(alpha) << IM_COL32_A_SHIFT),
                      std::max(1.0f, font / 8));
      }
    }
  }
}

}  // namespace attn::ui
