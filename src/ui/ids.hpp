// "a|b|c" from a table whose rows have an `id`: the views, presets and the
// scaling lab's panels list their ids this way in usage texts and messages.
#pragma once

#include <string>

namespace attn::ui {

template <typename Table>
std::string join_ids(const Table& table) {
  std::string ids;
  for (const auto& row : table) ids += (ids.empty() ? "" : "|") + std::string(row.id);
  return ids;
}

}  // namespace attn::ui
