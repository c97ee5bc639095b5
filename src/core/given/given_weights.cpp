// The checks of weights a reader gives; see given_weights.hpp.
#include "core/given/given_weights.hpp"

#include <cmath>
#include <cstdio>

namespace attn {
namespace {

std::string number(double v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", v);
  return buffer;
}

std::string check_labels(const std::vector<std::string>& labels, std::size_t want, const char* name,
                         const char* counted) {
  if (!labels.empty() && labels.size() != want)
    return std::string(name) + ": " + std::to_string(labels.size()) + " given for " + std::to_string(want) + " " +
           counted;
  for (std::size_t i = 0; i < labels.size(); ++i)
    if (labels[i].size() > GivenLimits::kMaxLabelBytes)
      return std::string(name) + "[" + std::to_string(i) + "]: " + std::to_string(labels[i].size()) +
             " bytes; a label is at most " + std::to_string(GivenLimits::kMaxLabelBytes);
  return {};
}

}  // namespace

std::string given_path(const GivenWeights& given, int map, int query, int key) {
  std::string path = "weights";
  if (given.rows * given.cols > 1)
    path += "[" + std::to_string(map / given.cols) + "][" + std::to_string(map % given.cols) + "]";
  if (query >= 0) path += "[" + std::to_string(query) + "]";
  if (key >= 0) path += "[" + std::to_string(key) + "]";
  return path;
}

std::string check_given_shape(long long rows, long long cols, long long q, long long k) {
  using L = GivenLimits;
  const long long count = rows * cols;
  if (count > L::kMaxMaps)
    return "weights: " + std::to_string(rows) + " x " + std::to_string(cols) + " = " + std::to_string(count) +
           " maps; the lab draws at most " + std::to_string(L::kMaxMaps) + " (pick some layers or heads)";
  if (q < 1 || k < 1) return "weights: a map has no queries or no keys";
  if (q > L::kMaxTokens || k > L::kMaxTokens)
    return "weights: " + std::to_string(q) + " queries x " + std::to_string(k) + " keys; the lab draws at most " +
           std::to_string(L::kMaxTokens) + " tokens a side (cut the sequence)";
  if (count * q * k > L::kMaxWeights)
    return "weights: " + std::to_string(count * q * k) + " weights in all; the limit is " +
           std::to_string(L::kMaxWeights) + " (pick some layers or heads)";
  return {};
}

std::string check_given_weights(const GivenWeights& given) {
  using L = GivenLimits;
  const long long count = (long long)given.rows * given.cols;
  if (given.rows < 1 || given.cols < 1 || count != (long long)given.maps.size())
    return "weights: no maps (expected queries x keys, or rows x cols x queries x keys)";
  const Eigen::Index q = given.maps.front().rows(), k = given.maps.front().cols();
  for (std::size_t m = 0; m < given.maps.size(); ++m)
    if (given.maps[m].rows() != q || given.maps[m].cols() != k)
      return given_path(given, int(m)) + ": " + std::to_string(given.maps[m].rows()) + " x " +
             std::to_string(given.maps[m].cols()) + ", but the first map is " + std::to_string(q) + " x " +
             std::to_string(k);
  if (std::string e = check_given_shape(given.rows, given.cols, q, k); !e.empty()) return e;
  if (std::string e = check_labels(given.query_tokens, std::size_t(q), "query_tokens", "queries"); !e.empty())
    return e;
  if (std::string e = check_labels(given.key_tokens, std::size_t(k), "tokens", "keys"); !e.empty()) return e;
  if (std::string e = check_labels(given.titles, std::size_t(count), "titles", "maps"); !e.empty()) return e;
  for (std::size_t m = 0; m < given.maps.size(); ++m) {
    const Matrix& w = given.maps[m];
    for (Eigen::Index r = 0; r < q; ++r) {
      double sum = 0;
      for (Eigen::Index c = 0; c < k; ++c) {
        const float v = w(r, c);
        if (std::isnan(v)) return given_path(given, int(m), int(r), int(c)) + ": NaN (not a number) is not a weight";
        if (!std::isfinite(v))
          return given_path(given, int(m), int(r), int(c)) + ": " + (v > 0 ? "" : "-") + "infinity is not a weight";
        if (v < 0)
          return given_path(given, int(m), int(r), int(c)) + ": " + number(v) +
                 " is negative; attention weights are softmax outputs, 0 or more";
        sum += v;
      }
      if (sum != 0 && std::fabs(sum - 1) > L::kRowSumTolerance)
        return given_path(given, int(m), int(r)) + ": the row sums to " + number(sum) +
               ", not 1; each query's weights are a softmax row (pass weights, not scores)";
    }
  }
  return {};
}

}  // namespace attn
