// Given attention weights as JSON; see given_json.hpp.
#include "api/given/given_json.hpp"

#include <cmath>
#include <limits>

#include "api/json_input.hpp"

namespace attn::api {
namespace {

using Json = nlohmann::json;

std::string read_labels(const Json& value, const char* name, std::vector<std::string>* out) {
  if (!value.is_array()) return std::string(name) + ": expected a list of strings, got " + describe(value);
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (value[i].is_string()) out->push_back(value[i].get<std::string>());
    else if (value[i].is_number()) out->push_back(value[i].dump());  // token ids
    else return std::string(name) + "[" + std::to_string(i) + "]: expected a string, got " + describe(value[i]);
  }
  return {};
}

// A weight as float32; the strings Python's json writes for non-numbers read
// as what they are, so the check can name them.
bool read_weight(const Json& v, float* out) {
  if (v.is_number()) {
    *out = float(v.get<double>());  // beyond float32's range: infinity, reported as such
    return true;
  }
  if (!v.is_string()) return false;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "NaN") *out = std::numeric_limits<float>::quiet_NaN();
  else if (s == "Infinity") *out = std::numeric_limits<float>::infinity();
  else if (s == "-Infinity") *out = -std::numeric_limits<float>::infinity();
  else return false;
  return true;
}

std::string index(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

std::string read_given_fields(const Json& value, GivenWeights* out) {
  for (const auto& item : value.items())
    if (item.key() != "weights" && item.key() != "tokens" && item.key() != "query_tokens" && item.key() != "titles")
      return field_name(item.key()) + ": unknown field (weights, tokens, query_tokens, titles)";
  const Json* weights = find_field(value, "weights");
  if (!weights) return "weights: missing";
  // The nested lists' shape, from the first element at each depth.
  std::vector<std::size_t> shape;
  for (const Json* v = weights; v->is_array(); v = &(*v)[0]) {
    if (v->empty()) return "weights: an empty list";
    shape.push_back(v->size());
  }
  if (shape.size() < 2 || shape.size() > 4)
    return "weights: expected queries x keys, heads x queries x keys or rows x cols x queries x keys "
           "as nested lists, got " + std::to_string(shape.size()) + " level(s) of lists";
  const std::size_t depth = shape.size();
  shape.insert(shape.begin(), 4 - depth, 1);
  GivenWeights given;
  given.rows = int(shape[0]);
  given.cols = int(shape[1]);
  const std::size_t q = shape[2], k = shape[3];
  if (std::string e = check_given_shape((long long)shape[0], (long long)shape[1], (long long)q, (long long)k);
      !e.empty())
    return e;
  for (std::size_t r = 0; r < shape[0]; ++r)
    for (std::size_t c = 0; c < shape[1]; ++c) {
      // This map in the reader's lists, as deep as they go.
      const Json* map = weights;
      std::string path = "weights";
      if (depth == 4) {
        if (!(*map)[r].is_array() || (*map)[r].size() != shape[1])
          return index(path, r) + ": expected a list of " + std::to_string(shape[1]) + " maps";
        map = &(*map)[r];
        path = index(path, r);
      }
      if (depth >= 3) {
        map = &(*map)[c];
        path = index(path, c);
      }
      if (!map->is_array() || map->size() != q) return path + ": expected " + std::to_string(q) + " query rows";
      Matrix& out_map = given.maps.emplace_back(Eigen::Index(q), Eigen::Index(k));
      for (std::size_t i = 0; i < q; ++i) {
        const Json& row = (*map)[i];
        if (!row.is_array() || row.size() != k)
          return index(path, i) + ": expected a row of " + std::to_string(k) + " weights (one per key), got " +
                 (row.is_array() ? std::to_string(row.size()) : describe(row));
        for (std::size_t j = 0; j < k; ++j)
          if (!read_weight(row[j], &out_map(Eigen::Index(i), Eigen::Index(j))))
            return index(index(path, i), j) + ": expected a number, got " + describe(row[j]);
      }
    }
  if (const Json* v = find_field(value, "tokens"))
    if (std::string e = read_labels(*v, "tokens", &given.key_tokens); !e.empty()) return e;
  if (const Json* v = find_field(value, "query_tokens"))
    if (std::string e = read_labels(*v, "query_tokens", &given.query_tokens); !e.empty()) return e;
  if (given.query_tokens.empty() && given.key_tokens.size() == q) given.query_tokens = given.key_tokens;
  if (const Json* v = find_field(value, "titles"))
    if (std::string e = read_labels(*v, "titles", &given.titles); !e.empty()) return e;
  // One title per column (d2l's show_heatmaps): every row of the grid repeats them.
  if (given.rows > 1 && given.titles.size() == shape[1]) {
    std::vector<std::string> titles;
    for (int r = 0; r < given.rows; ++r) titles.insert(titles.end(), given.titles.begin(), given.titles.end());
    given.titles = std::move(titles);
  }
  if (std::string e = check_given_weights(given); !e.empty()) return e;
  *out = std::move(given);
  return {};
}

}  // namespace

std::string read_given(const Json& value, GivenWeights* out) {
  if (!value.is_object())
    return "given: expected an object {\"weights\": [...], \"tokens\": [...], \"titles\": [...]}, got " +
           describe(value);
  const std::string e = read_given_fields(value, out);
  return e.empty() ? e : "given." + e;
}

Json given_json(const GivenWeights& given) {
  Json grid = Json::array();
  for (int r = 0; r < given.rows; ++r) {
    Json row = Json::array();
    for (int c = 0; c < given.cols; ++c) {
      const Matrix& map = given.maps[std::size_t(r) * std::size_t(given.cols) + std::size_t(c)];
      Json rows = Json::array();
      for (Eigen::Index i = 0; i < map.rows(); ++i)
        rows.push_back(std::vector<float>(map.row(i).data(), map.row(i).data() + map.cols()));
      row.push_back(std::move(rows));
    }
    grid.push_back(std::move(row));
  }
  Json out = {{"weights", std::move(grid)}};
  if (!given.key_tokens.empty()) out["tokens"] = given.key_tokens;
  if (!given.query_tokens.empty() && given.query_tokens != given.key_tokens) out["query_tokens"] = given.query_tokens;
  if (!given.titles.empty()) out["titles"] = given.titles;
  return out;
}

}  // namespace attn::api
