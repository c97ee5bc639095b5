#include "tables.hpp"

#include <algorithm>
#include <cstdio>

namespace attn::cli {

void print_table(std::ostream& out, const Table& table) {
  std::vector<std::size_t> width(table.header.size(), 0);
  auto widen = [&](const std::vector<std::string>& row) {
    if (row.size() > width.size()) width.resize(row.size(), 0);
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
  };
  widen(table.header);
  for (const auto& row : table.rows) widen(row);

  auto print_row = [&](const std::vector<std::string>& row) {
    std::string line;
    for (std::size_t c = 0; c < width.size(); ++c) {
      const std::string cell = c < row.size() ? row[c] : "";
      line += (c ? "  " : "") + std::string(width[c] - cell.size(), ' ') + cell;
    }
    out << "  " << line << '\n';
  };
  print_row(table.header);
  std::vector<std::string> rule;
  for (std::size_t w : width) rule.emplace_back(w, '-');
  print_row(rule);
  for (const auto& row : table.rows) print_row(row);
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::vector<std::string> position_labels(int n) {
  std::vector<std::string> labels;
  for (int i = 0; i < n; ++i) labels.push_back("t" + std::to_string(i));
  return labels;
}

namespace {
template <typename Cell>
void print_grid(std::ostream& out, const std::string& title, Eigen::Index rows, Eigen::Index cols,
                const std::vector<std::string>& row_labels,
                const std::vector<std::string>& col_labels, Cell cell) {
  Table table;
  table.header.push_back("");
  for (Eigen::Index c = 0; c < cols; ++c)
    table.header.push_back(c < static_cast<Eigen::Index>(col_labels.size()) ? col_labels[c] : "");
  for (Eigen::Index r = 0; r < rows; ++r) {
    std::vector<std::string> row{r < static_cast<Eigen::Index>(row_labels.size()) ? row_labels[r] : ""};
    for (Eigen::Index c = 0; c < cols; ++c) row.push_back(cell(r, c));
    table.rows.push_back(std::move(row));
  }
  out << title << '\n';
  print_table(out, table);
  out << '\n';
}
}  // namespace

void print_matrix(std::ostream& out, const std::string& title, const Matrix& m,
                  const std::vector<std::string>& row_labels,
                  const std::vector<std::string>& col_labels, int decimals) {
  print_grid(out, title, m.rows(), m.cols(), row_labels, col_labels,
             [&](Eigen::Index r, Eigen::Index c) { return fixed(m(r, c), decimals); });
}

void print_mask(std::ostream& out, const std::string& title, const MaskMatrix& m,
                const std::vector<std::string>& row_labels,
                const std::vector<std::string>& col_labels) {
  print_grid(out, title, m.rows(), m.cols(), row_labels, col_labels,
             [&](Eigen::Index r, Eigen::Index c) { return std::string(m(r, c) ? "1" : "0"); });
}

}  // namespace attn::cli
