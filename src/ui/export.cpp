// Export of matrices (CSV, JSON) and the view's PNG; see export.hpp.
#include "ui/export.hpp"

#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "api/json_output.hpp"
#include "ui/app.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/strings.hpp"

namespace attn::ui {
namespace {

std::vector<std::string> feature_labels(Eigen::Index count) {
  std::vector<std::string> labels;
  for (Eigen::Index j = 0; j < count; ++j) labels.push_back("d" + std::to_string(j));
  return labels;
}

// Rows are tokens (queries); columns are features, or the key tokens.
ExportTable by_features(const ExplorerResult& r, const Matrix& m) {
  return {"token", r.tokens, feature_labels(m.cols()), m};
}
ExportTable query_by_key(const ExplorerResult& r, const Matrix& m) { return {"query\\key", r.tokens, r.tokens, m}; }

// One row of the table of exportable matrices: its id, the popup's label and
// how to build its table (head = -1 for the whole layer).
struct Kind {
  const char* id;
  const char* label_key;
  bool per_head;
  ExportTable (*table)(const ExplorerResult& r, int head);
};

const std::vector<Kind>& kinds() {
  using R = const ExplorerResult&;
  static const std::vector<Kind> table = {
      {"tokens", "export.tokens", false,
       [](R r, int) {
         Matrix valid(Eigen::Index(r.tokens.size()), 1);
         for (std::size_t i = 0; i < r.tokens.size(); ++i) valid(Eigen::Index(i), 0) = r.key_valid[i] ? 1.0f : 0.0f;
         return ExportTable{"token", r.tokens, {"key_valid"}, valid};
       }},
      {"x", "export.x", false, [](R r, int) { return by_features(r, r.X); }},
      // Every head has the same mask: head 0's is the layer's.
      {"mask", "export.mask", false,
       [](R r, int) { return query_by_key(r, r.attention.heads[0].allowed.cast<float>().matrix()); }},
      {"output", "export.output", false, [](R r, int) { return by_features(r, r.attention.output); }},
      {"average", "export.average", false, [](R r, int) { return query_by_key(r, r.attention.average_weights); }},
      {"w_o", "export.w_o", false,
       [](R r, int) {
         const Matrix& w = r.weights.W_o;
         return ExportTable{"concat\\output", feature_labels(w.rows()), feature_labels(w.cols()), w};
       }},
      {"q", "export.q", true, [](R r, int h) { return by_features(r, r.attention.heads[std::size_t(h)].Q); }},
      {"k", "export.k", true, [](R r, int h) { return by_features(r, r.attention.heads[std::size_t(h)].K); }},
      {"v", "export.v", true, [](R r, int h) { return by_features(r, r.attention.heads[std::size_t(h)].V); }},
      {"scores", "export.scores", true,
       [](R r, int h) { return query_by_key(r, r.attention.heads[std::size_t(h)].raw_scores); }},
      {"scaled_scores", "export.scaled_scores", true,
       [](R r, int h) { return query_by_key(r, r.attention.heads[std::size_t(h)].scaled_scores); }},
      {"weights", "export.weights", true,
       [](R r, int h) { return query_by_key(r, r.attention.heads[std::size_t(h)].weights); }},
  };
  return table;
}

std::string item_id(const Kind& kind, int head) {
  return kind.per_head ? std::string(kind.id) + "_head" + std::to_string(head) : std::string(kind.id);
}

// %.9g: nine significant digits are enough for any float32 to read back exactly.
void append_number(std::string& out, float value, const char* non_finite) {
  if (!std::isfinite(value)) {
    out += non_finite;
    return;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(value));
  out += text;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return quoted + "\"";
}

const char* extension(ExportFormat format) { return format == ExportFormat::Csv ? ".csv" : ".json"; }

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
    ImGui::TextUnformatted(tr(item.label_key));
    ImGui::TableNextColumn();
    export_buttons(state, item.id);
  }
  ImGui::EndTable();
}

// Per head: one row per matrix, one column per head. Many heads scroll
// sideways instead of making the popup wider than the window.
void head_table(AppState& state) {
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
  for (const Kind& kind : kinds()) {
    if (!kind.per_head) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(tr(kind.label_key));
    for (int h = 0; h < heads; ++h) {
      ImGui::TableNextColumn();
      export_buttons(state, item_id(kind, h));
    }
  }
  ImGui::EndTable();
}

}  // namespace

std::vector<ExportItem> export_items(const ExplorerResult& result) {
  std::vector<ExportItem> items;
  for (const Kind& kind : kinds())
    if (!kind.per_head) items.push_back({kind.id, kind.label_key, -1});
  for (int h = 0; h < int(result.attention.heads.size()); ++h)
    for (const Kind& kind : kinds())
      if (kind.per_head) items.push_back({item_id(kind, h), kind.label_key, h});
  return items;
}

bool export_table(const ExplorerResult& result, const std::string& id, ExportTable* table) {
  for (const Kind& kind : kinds()) {
    if (!kind.per_head) {
      if (id != kind.id) continue;
      *table = kind.table(result, -1);
      return true;
    }
    const std::string prefix = std::string(kind.id) + "_head";
    if (id.rfind(prefix, 0) != 0) continue;
    const std::string digits = id.substr(prefix.size());
    if (digits.empty() || digits.size() > 3 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const int head = std::stoi(digits);
    if (head >= int(result.attention.heads.size()) || item_id(kind, head) != id) continue;  // no "head01"
    *table = kind.table(result, head);
    return true;
  }
  return false;
}

std::string export_csv(const ExportTable& table) {
  std::string out;
  out.reserve(std::size_t(table.values.size()) * 12 + 64);
  out += csv_field(table.corner);
  for (const std::string& col : table.cols) out += "," + csv_field(col);
  out += "\n";
  for (Eigen::Index i = 0; i < table.values.rows(); ++i) {
    out += csv_field(table.rows[std::size_t(i)]);
    for (Eigen::Index j = 0; j < table.values.cols(); ++j) {
      out += ',';
      append_number(out, table.values(i, j), "nan");
    }
    out += '\n';
  }
  return out;
}

std::string export_json(const ExportTable& table, const std::string& name) {
  // The labels go through the JSON library (escapes, invalid UTF-8); the
  // numbers, the bulk of the file, are printed here.
  std::string out;
  out.reserve(std::size_t(table.values.size()) * 12 + 64);
  out += "{\"name\": " + api::dump(api::OutJson(name)) + ",\n \"rows\": " + api::dump(api::to_json(table.rows)) +
         ",\n \"cols\": " + api::dump(api::to_json(table.cols)) + ",\n \"data\": [";
  for (Eigen::Index i = 0; i < table.values.rows(); ++i) {
    out += i ? ",\n  [" : "\n  [";
    for (Eigen::Index j = 0; j < table.values.cols(); ++j) {
      if (j) out += ", ";
      append_number(out, table.values(i, j), "null");
    }
    out += ']';
  }
  out += "]}\n";
  return out;
}

std::string export_file_name(const ExplorerResult& result, const std::string& id, ExportFormat format) {
  return id + "_" + mask_name(result.config.mask) + extension(format);
}

bool export_file(const ExplorerResult& result, const std::string& id, ExportFormat format, ExportFile* file) {
  ExportTable table;
  if (!export_table(result, id, &table)) return false;
  file->name = export_file_name(result, id, format);
  if (format == ExportFormat::Csv) {
    file->mime = "text/csv";
    file->bytes = export_csv(table);
  } else {
    file->mime = "application/json";
    file->bytes = export_json(table, file->name.substr(0, file->name.size() - 5));
  }
  return true;
}

std::string export_png_name(View view, const ExplorerResult* result) {
  const std::string name = std::string("view_") + view_id(view);
  if (view == View::Chapter || view == View::Scaling || !result) return name + ".png";
  return name + "_" + mask_name(result->config.mask) + ".png";
}

bool request_export(AppState& state, const std::string& what) {
  if (what == "png") {
    state.png_request = export_png_name(state.view, state.result ? &*state.result : nullptr);
    return true;
  }
  const std::size_t dot = what.rfind('.');
  if (!state.result || dot == std::string::npos) return false;
  const std::string ext = what.substr(dot);
  if (ext != ".csv" && ext != ".json") return false;
  ExportFile file;
  if (!export_file(*state.result, what.substr(0, dot), ext == ".csv" ? ExportFormat::Csv : ExportFormat::Json, &file))
    return false;
  state.export_requests.push_back(std::move(file));
  return true;
}

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
  // The chapter and the scaling lab draw their own experiments: the explorer's
  // matrices are offered where the explorer's result is what is shown.
  if (!state.result || state.view == View::Chapter || state.view == View::Scaling) {
    ImGui::TextDisabled("%s", tr("export.explorer_only"));
    ImGui::EndPopup();
    return;
  }
  const std::vector<ExportItem> items = export_items(*state.result);
  ImGui::Separator();
  ImGui::TextUnformatted(tr("export.layer"));
  layer_table(state, items);
  ImGui::Separator();
  ImGui::TextUnformatted(tr("export.per_head"));
  head_table(state);
  // Wrapped, so this note does not make the popup wider than its tables.
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + ImGui::GetFontSize() * 30);
  ImGui::TextDisabled("%s", tr("export.where"));
  ImGui::PopTextWrapPos();
  ImGui::EndPopup();
}

void record_view_area(AppState& state) {
  const ImVec2 pos = ImGui::GetWindowPos();
  record_region(state, "view_area", pos, ImVec2(pos.x + ImGui::GetWindowWidth(), pos.y + ImGui::GetWindowHeight()));
}

}  // namespace attn::ui
