// "a|b|c" from a table's ids: the views, presets, the scaling lab's panels
// and the languages list theirs this way in usage texts and messages.
#pragma once

#include <string>

namespace attn::ui {

template <typename Table, typename IdOf>
std::string join_ids(const Table& table, IdOf id_of) {
  std::string ids;
  for (const auto& row : table) ids += (ids.empty() ? "" : "|") + std::string(id_of(row));
  return ids;
}

template <typename Table>
std::string join_ids(const Table& table) {
  return join_ids(table, [](const auto& row) { return row.id; });
}

}  // namespace attn::ui
