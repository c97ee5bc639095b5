// Export: the matrices behind the explorer's views as CSV and JSON files, a
// pure function of an ExplorerResult (ui/shell/export.hpp has the popup that
// asks for them, and the PNG of the open view at 2x).
//
// What can be exported (export_items, in the popup's order), heads counted
// from 0 as in the panels' titles:
//   tokens                 rows = tokens, one column "key_valid" (0 for [PAD])  n x 1
//   x                      X, the token (+ position) embeddings              n x d_model
//   mask                   1 = the query may attend to the key              n x n
//   output                 concat_h(weights_h V_h) W_o                      n x d_model
//   average                the head average of the attention weights        n x n
//   w_o                    the output projection, so the output above can be
//                          recomputed from the per-head exports              d_model x d_model
//   q_head<h> k_head<h> v_head<h>  head h's columns of X W_q, X W_k, X W_v  n x d_head
//   scores_head<h>         raw scores Q_h K_h^T                             n x n
//   scaled_scores_head<h>  scores x scale / temperature (masked cells keep their value)
//   weights_head<h>        softmax rows, exactly 0 where masked             n x n
//
// File names: <id>_<mask kind>.<csv|json>, e.g. weights_head2_causal.csv,
// average_none.json, x_padding.csv. The mask kind (none, causal, padding,
// custom) is in every name so exports of one sentence under two masks do not
// overwrite each other. The PNG is view_<view id>_<mask kind>.png
// (view_heatmaps_causal.png), or view_<view id>.png for the chapter and the
// scaling lab, whose figures do not show the explorer's result.
//
// Both formats hold one labelled table:
//   CSV   first row: a corner cell ("query\key", "token" or "concat\output"),
//         then the column labels; every other row: its label, then the
//         numbers. Labels are quoted as RFC 4180 asks (comma, quote, line
//         break); UTF-8 without a byte-order mark.
//   JSON  {"name": "<file name without extension>", "rows": [labels],
//          "cols": [labels], "data": [[row 0], [row 1], ...]}
// Row labels are the (query) tokens, "d0".."d<k-1>" for w_o; column labels the
// key tokens for n x n matrices, "d0".."d<k-1>" for feature columns. Numbers
// are printed with %.9g, which reads back to the same float32.
#pragma once

#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"

namespace attn::api {

enum class ExportFormat { Csv, Json };

// One file the platform is asked to save.
struct ExportFile {
  std::string name;  // "weights_head2_causal.csv"
  std::string mime;  // "text/csv", "application/json"
  std::string bytes;
};

// One exportable matrix of a result.
struct ExportItem {
  std::string id;         // "weights_head2", "x", ... (controls export_<id>_csv / _json)
  const char* label_key;  // tr() key of the matrix's name in the popup
  int head = -1;          // -1: the whole layer
};

// A matrix with its row and column labels: what both formats print.
struct ExportTable {
  std::string corner;  // the CSV's top-left cell
  std::vector<std::string> rows, cols;
  Matrix values;  // rows.size() x cols.size()
};

// The whole layer's items first, then per head q, k, v, scores,
// scaled_scores, weights for head 0, 1, ...
std::vector<ExportItem> export_items(const ExplorerResult& result);

// False when `id` is not one of export_items(result).
bool export_table(const ExplorerResult& result, const std::string& id, ExportTable* table);
std::string export_csv(const ExportTable& table);
std::string export_json(const ExportTable& table, const std::string& name);

// "<id>_<mask kind>.csv" / ".json".
std::string export_file_name(const ExplorerResult& result, const std::string& id, ExportFormat format);
// The file itself; false when `id` is unknown.
bool export_file(const ExplorerResult& result, const std::string& id, ExportFormat format, ExportFile* file);

}  // namespace attn::api
