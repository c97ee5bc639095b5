// The export popup and requests; see export.hpp.
#include "ui/shell/export.hpp"

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

// Files go out as soon as they are asked for; a reader clicking through the
// popup should see each one arrive, so the popup stays open.
void export_cell(AppState& state, const std::string& id, ExportFormat format) {
  const bool csv = format == ExportFormat::Csv;
  const std::string button = std::string(tr(csv ? "export.csv" : "export.json")) + "##" + id;
  if (ImGui::SmallButton(button.c_str())) {
    ExportFile file;
    if (export_file(*state.result, id, format, &file)) state.export_requests.push_back(std::move(file));
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", export_file_name(*state.result, id, format).c_str());
  record_control(state, "export_" + id + (csv ? "_csv" : "_json"));
}

void export_buttons(AppState& state, const std::string& id) {
  export_cell(state, id, ExportFormat::Csv);
  ImGui::SameLine();
  export_cell(state, id, ExportFormat::Json);
}

// The whole layer: one row per matrix.
void layer_table(AppState& state, const std::vector<ExportItem>& items) {
  if (!ImGui::BeginTable("##export_layer", 2, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) return;
  for (const ExportItem& item : items) {
    if (item.head >= 0) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ui::text(tr(item.label_key));
    ImGui::TableNextColumn();
    export_buttons(state, item.id);
  }
  ImGui::EndTable();
}

// Per head: one row per matrix, one column per head. Many heads scroll
// sideways instead of making the popup wider than the window. The items
// come head by head, each head's matrices in the same order.
void head_table(AppState& state, const std::vector<ExportItem>& items) {
  std::vector<const ExportItem*> head0;  // one row each
  for (const ExportItem& item : items)
    if (item.head == 0) head0.push_back(&item);
  const std::size_t first = std::size_t(std::find_if(items.begin(), items.end(),
                                                     [](const ExportItem& item) { return item.head >= 0; }) -
                                        items.begin());
  const int heads = int(state.result->attention.heads.size());
  ImGuiTableFlags flags = ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
  ImVec2 outer(0, 0);
  const float cell_w = ImGui::CalcTextSize("CSV JSON  ").x + ImGui::GetStyle().FramePadding.x * 4;
  const float max_w = ImGui::GetIO().DisplaySize.x * 0.8f;
  if (cell_w * float(heads + 2) > max_w) {
    flags |= ImGuiTableFlags_ScrollX;
    // A header and six rows of small buttons, then the scrollbar.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float row = ImGui::GetTextLineHeight() + style.CellPadding.y * 2;
    outer = ImVec2(max_w, row * 7 + style.ScrollbarSize + style.CellPadding.y * 2);
  }
  if (!ImGui::BeginTable("##export_heads", heads + 1, flags, outer)) return;
  ImGui::TableSetupScrollFreeze(1, 1);
  ImGui::TableSetupColumn("");
  char header[64];
  for (int h = 0; h < heads; ++h) {
    std::snprintf(header, sizeof header, tr("export.head.fmt"), h);
    ImGui::TableSetupColumn(header);
  }
  ImGui::TableHeadersRow();
  for (std::size_t row = 0; row < head0.size(); ++row) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ui::text(tr(head0[row]->label_key));
    for (int h = 0; h < heads; ++h) {
      ImGui::TableNextColumn();
      export_buttons(state, items[first + std::size_t(h) * head0.size() + row].id);
    }
  }
  ImGui::EndTable();
}

}  // namespace

void export_button(AppState& state) {
  if (ImGui::TabItemButton(tr("export.button"), ImGuiTabItemFlags_Trailing | ImGuiTabItemFlags_NoTooltip))
    ImGui::OpenPopup("##export");
  record_control(state, "export");
  if (!ImGui::BeginPopup("##export")) return;
  // The popup closes first, so the PNG (drawn on a later frame) shows the view, not the popup.
  if (ImGui::Button(tr("export.png"))) {
    request_export(state, "png");
    ImGui::CloseCurrentPopup();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("%s", export_png_name(state.view, state.result ? &*state.result : nullptr).c_str());
  record_control(state, "export_png");
  if (open_view(state).exports == ViewExports::Poem && state.poem.reading) {
    ImGui::Separator();
    for (const char* id : kPoemExports)
      for (const char* ext : {".csv", ".json"}) {
        const std::string file = std::string(id) + ext;
        if (ImGui::Button((std::string(tr((std::string("export.") + id).c_str())) + " (" + file + ")").c_str())) {
          request_export(state, file);
          ImGui::CloseCurrentPopup();
        }
        record_control(state, "export_" + std::string(id) + (ext[1] == 'c' ? "_csv" : "_json"));
      }
    ImGui::EndPopup();
    return;
  }
  // The chapter and the scaling lab draw their own experiments: the explorer's
  // matrices are offered where the explorer's result is what is shown.
  if (!state.result || open_view(state).exports != ViewExports::Matrices) {
    ui::text_disabled("%s", tr("export.explorer_only"));
    ImGui::EndPopup();
    return;
  }
  const std::vector<ExportItem> items = export_items(*state.result);
  ImGui::Separator();
  ui::text(tr("export.layer"));
  layer_table(state, items);
  ImGui::Separator();
  ui::text(tr("export.per_head"));
  head_table(state, items);
  // Wrapped, so this note does not make the popup wider than its tables.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetFontSize() * 30);
  ui::text_disabled("%s", tr("export.where"));
  ImGui::PopTextWrapPos();
  ImGui::EndPopup();
}

void record_view_area(AppState& state) {
  const ImVec2 pos = ImGui::GetWindowPos();
  record_region(state, "view_area", pos, ImVec2(pos.x + ImGui::GetWindowWidth(), pos.y + ImGui::GetWindowHeight()));
}

}  // namespace attn::ui
