// Plain-text tables for the console reports (the chapter prints its numbers
// as small aligned tables). Formatting only: no maths here.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "core/types.hpp"

namespace attn::cli {

// Right-aligned columns separated by two spaces; the header is underlined.
struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};
void print_table(std::ostream& out, const Table& table);

// v with a fixed number of decimals ("0.1250").
std::string fixed(double v, int decimals);

// "t0", "t1", ... for positions without token text.
std::vector<std::string> position_labels(int n);

// A matrix as a table: row labels down the left, column labels on top.
void print_matrix(std::ostream& out, const std::string& title, const Matrix& m,
                  const std::vector<std::string>& row_labels,
                  const std::vector<std::string>& col_labels, int decimals = 4);
// A mask as a table of 1 (may attend) and 0 (hidden).
void print_mask(std::ostream& out, const std::string& title, const MaskMatrix& m,
                const std::vector<std::string>& row_labels,
                const std::vector<std::string>& col_labels);

}  // namespace attn::cli
