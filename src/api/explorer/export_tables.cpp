// The explorer's matrices as CSV and JSON files; see export_tables.hpp.
#include "api/explorer/export_tables.hpp"

#include <cmath>
#include <cstdio>

#include "api/json_output.hpp"

namespace attn::api {
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
  out += "{\"name\": " + dump(OutJson(name)) + ",\n \"rows\": " + dump(to_json(table.rows)) +
         ",\n \"cols\": " + dump(to_json(table.cols)) + ",\n \"data\": [";
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

}  // namespace attn::api
