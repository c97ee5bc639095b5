// Export (ui/shell/export.hpp) without a window: every matrix's CSV and JSON read
// back to exactly the float32 numbers of the result, with the tokens as
// labels; the file names say what they hold; and the exports are enough to
// redo the chapter's steps (Q_h K_h^T = raw scores, concat_h(weights_h V_h)
// W_o = output).
#include <cstdlib>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "ui/shell/app.hpp"
#include "ui/shell/export.hpp"

namespace attn::ui {
namespace {

// A view by its id: the views table names them, nothing else does.
View view_named(const char* id) {
  View view{};
  REQUIRE(view_from_id(id, &view));
  return view;
}

using Rows = std::vector<std::vector<std::string>>;

// RFC 4180: fields split by commas, quoted fields may hold commas, quotes ("") and line breaks.
Rows parse_csv(const std::string& text) {
  Rows rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    std::string& field = rows.back().back();
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (ch == '"') quoted = false;
      else field += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      rows.back().emplace_back();
    } else if (ch == '\n') {
      rows.emplace_back(1);
    } else {
      field += ch;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();  // the final line break
  return rows;
}

// What an export id holds, taken from the result directly (not through export.cpp).
Matrix expected(const ExplorerResult& r, const ExportItem& item) {
  const std::string kind = item.head < 0 ? item.id : item.id.substr(0, item.id.rfind("_head"));
  if (kind == "tokens") {
    Matrix valid(Eigen::Index(r.tokens.size()), 1);
    for (std::size_t i = 0; i < r.tokens.size(); ++i) valid(Eigen::Index(i), 0) = r.key_valid[i] ? 1.0f : 0.0f;
    return valid;
  }
  if (kind == "x") return r.X;
  if (kind == "mask") return r.attention.heads[0].allowed.cast<float>().matrix();
  if (kind == "output") return r.attention.output;
  if (kind == "average") return r.attention.average_weights;
  if (kind == "w_o") return r.weights.W_o;
  const HeadResult& head = r.attention.heads[std::size_t(item.head)];
  if (kind == "q") return head.Q;
  if (kind == "k") return head.K;
  if (kind == "v") return head.V;
  if (kind == "scores") return head.raw_scores;
  if (kind == "scaled_scores") return head.scaled_scores;
  REQUIRE(kind == "weights");
  return head.weights;
}

// The CSV's numbers (strtof: the nearest float32 to the printed text) and labels.
Matrix read_csv(const std::string& text, std::vector<std::string>* row_labels, std::vector<std::string>* col_labels) {
  const Rows rows = parse_csv(text);
  REQUIRE(!rows.empty());
  *col_labels = std::vector<std::string>(rows[0].begin() + 1, rows[0].end());
  Matrix m(Eigen::Index(rows.size() - 1), Eigen::Index(col_labels->size()));
  row_labels->clear();
  for (std::size_t i = 1; i < rows.size(); ++i) {
    REQUIRE(rows[i].size() == col_labels->size() + 1);
    row_labels->push_back(rows[i][0]);
    for (std::size_t j = 0; j < col_labels->size(); ++j)
      m(Eigen::Index(i - 1), Eigen::Index(j)) = std::strtof(rows[i][j + 1].c_str(), nullptr);
  }
  return m;
}

Matrix read_json(const std::string& text, nlohmann::json* doc) {
  *doc = nlohmann::json::parse(text);
  const auto& data = (*doc)["data"];
  Matrix m(Eigen::Index(data.size()), Eigen::Index(data.empty() ? 0 : data[0].size()));
  for (std::size_t i = 0; i < data.size(); ++i) {
    REQUIRE(data[i].size() == std::size_t(m.cols()));
    for (std::size_t j = 0; j < data[i].size(); ++j) m(Eigen::Index(i), Eigen::Index(j)) = data[i][j].get<float>();
  }
  return m;
}

std::vector<std::string> features(Eigen::Index n) {
  std::vector<std::string> labels;
  for (Eigen::Index j = 0; j < n; ++j) labels.push_back("d" + std::to_string(j));
  return labels;
}

ExplorerResult result_for(Mask::Kind mask, int pads = 0) {
  ExplorerConfig config;
  config.text = "The cat sat on the mat";
  config.mask = mask;
  config.pads = pads;
  config.temperature = 0.7f;  // scaled scores differ from raw / sqrt(d_k)
  return run_explorer(config);
}

void check_every_export(const ExplorerResult& r) {
  const std::vector<ExportItem> items = export_items(r);
  const int heads = int(r.attention.heads.size());
  CHECK(items.size() == 6 + 6 * std::size_t(heads));
  for (const ExportItem& item : items) {
    CAPTURE(item.id);
    const Matrix want = expected(r, item);
    const std::string kind = item.head < 0 ? item.id : item.id.substr(0, item.id.rfind("_head"));
    const bool square = kind == "mask" || kind == "average" || kind == "scores" || kind == "scaled_scores" ||
                        kind == "weights";  // query x key
    const std::vector<std::string> want_rows = item.id == "w_o" ? features(want.rows()) : r.tokens;
    const std::vector<std::string> want_cols = item.id == "tokens" ? std::vector<std::string>{"key_valid"}
                                               : square          ? r.tokens
                                                                 : features(want.cols());
    ExportFile csv, json;
    REQUIRE(export_file(r, item.id, ExportFormat::Csv, &csv));
    REQUIRE(export_file(r, item.id, ExportFormat::Json, &json));
    CHECK(csv.mime == "text/csv");
    CHECK(json.mime == "application/json");

    std::vector<std::string> rows, cols;
    const Matrix from_csv = read_csv(csv.bytes, &rows, &cols);
    CHECK(rows == want_rows);
    CHECK(cols == want_cols);
    CHECK(from_csv.rows() == want.rows());
    CHECK(from_csv.cols() == want.cols());
    CHECK(from_csv == want);  // exactly: %.9g reads back to the same float32

    nlohmann::json doc;
    const Matrix from_json = read_json(json.bytes, &doc);
    CHECK(doc["name"] == json.name.substr(0, json.name.size() - 5));
    CHECK(doc["rows"].get<std::vector<std::string>>() == want_rows);
    CHECK(doc["cols"].get<std::vector<std::string>>() == want_cols);
    CHECK(from_json == want);
  }
}

TEST_CASE("every export reads back exactly, in CSV and JSON, with the tokens as labels") {
  check_every_export(result_for(Mask::Kind::None));
  check_every_export(result_for(Mask::Kind::Causal));
  check_every_export(result_for(Mask::Kind::Padding, 2));  // [PAD] tokens: key_valid 0, masked keys
}

TEST_CASE("export file names say what they hold") {
  const ExplorerResult causal = result_for(Mask::Kind::Causal);
  CHECK(export_file_name(causal, "weights_head2", ExportFormat::Csv) == "weights_head2_causal.csv");
  CHECK(export_file_name(causal, "x", ExportFormat::Json) == "x_causal.json");
  CHECK(export_file_name(result_for(Mask::Kind::None), "average", ExportFormat::Json) == "average_none.json");
  CHECK(export_file_name(result_for(Mask::Kind::Padding, 1), "mask", ExportFormat::Csv) == "mask_padding.csv");
  CHECK(export_png_name(view_named("heatmaps"), &causal) == "view_heatmaps_causal.png");
  CHECK(export_png_name(view_named("steps"), &causal) == "view_steps_causal.png");
  CHECK(export_png_name(view_named("chapter"), &causal) == "view_chapter.png");  // Figure 4.1, not the explorer's config
  CHECK(export_png_name(view_named("scaling"), &causal) == "view_scaling.png");

  // Every item's name is <id>_<mask>.<ext>, and no two items share one.
  std::vector<std::string> names;
  for (const ExportItem& item : export_items(causal)) {
    ExportFile file;
    REQUIRE(export_file(causal, item.id, ExportFormat::Csv, &file));
    CHECK(file.name == item.id + "_causal.csv");
    for (const std::string& other : names) CHECK(other != file.name);
    names.push_back(file.name);
  }
  ExportFile file;
  for (const char* bad : {"weights_head4", "weights_head01", "weights_head", "weights", "q", "bogus", ""}) {
    CAPTURE(bad);
    CHECK_FALSE(export_file(causal, bad, ExportFormat::Csv, &file));
  }
}

TEST_CASE("the exports redo the chapter's steps: Q_h K_h^T and concat_h(weights_h V_h) W_o") {
  const ExplorerResult r = result_for(Mask::Kind::Causal);
  auto read = [&](const std::string& id) {
    ExportFile file;
    REQUIRE(export_file(r, id, ExportFormat::Csv, &file));
    std::vector<std::string> rows, cols;
    return read_csv(file.bytes, &rows, &cols);
  };
  const int heads = int(r.attention.heads.size());
  const Matrix output = read("output");
  Matrix concat(output.rows(), r.X.cols());
  Eigen::Index column = 0;
  for (int h = 0; h < heads; ++h) {
    const std::string head = "_head" + std::to_string(h);
    const Matrix Q = read("q" + head), K = read("k" + head), V = read("v" + head);
    const Matrix scores = read("scores" + head);
    const Matrix recomputed = Q * K.transpose();
    CHECK((recomputed - scores).norm() <= 1e-4 * scores.norm());
    const Matrix head_output = read("weights" + head) * V;
    concat.middleCols(column, V.cols()) = head_output;
    column += V.cols();
  }
  CHECK(column == r.X.cols());
  const Matrix recomputed = concat * read("w_o");
  CHECK((recomputed - output).norm() <= 1e-4 * output.norm());
}

TEST_CASE("CSV labels are quoted as RFC 4180 asks; JSON labels are escaped") {
  ExportTable table;
  table.corner = "query\\key";
  table.rows = {"a,b", "say \"hi\""};
  table.cols = {"line\nbreak", "plain"};
  table.values = Matrix::Zero(2, 2);
  table.values << 0.1f, -1e-30f, 3.4028235e38f, -0.0f;
  const std::string csv = export_csv(table);
  const Rows rows = parse_csv(csv);
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == std::vector<std::string>{"query\\key", "line\nbreak", "plain"});
  CHECK(rows[1][0] == "a,b");
  CHECK(rows[2][0] == "say \"hi\"");
  std::vector<std::string> row_labels, col_labels;
  CHECK(read_csv(csv, &row_labels, &col_labels) == table.values);

  nlohmann::json doc;
  CHECK(read_json(export_json(table, "t"), &doc) == table.values);
  CHECK(doc["rows"][1] == "say \"hi\"");
  CHECK(doc["cols"][0] == "line\nbreak");
}

TEST_CASE("request_export queues a file by name, or the PNG") {
  AppState state;
  state.config.mask = Mask::Kind::Causal;
  state.result = run_explorer(state.config);
  CHECK(request_export(state, "weights_head0.csv"));
  CHECK(request_export(state, "average.json"));
  REQUIRE(state.export_requests.size() == 2);
  CHECK(state.export_requests[0].name == "weights_head0_causal.csv");
  CHECK(state.export_requests[1].name == "average_causal.json");
  CHECK(request_export(state, "png"));
  CHECK(state.png_request == "view_heatmaps_causal.png");
  for (const char* bad : {"weights_head0.txt", "weights_head0", "nope.csv", "weights_head9.json"}) {
    CAPTURE(bad);
    CHECK_FALSE(request_export(state, bad));
  }
  CHECK(state.export_requests.size() == 2);
}

}  // namespace
}  // namespace attn::ui
