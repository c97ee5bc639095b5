#include "json_output.hpp"

namespace attn::api {

OutJson to_json(const Matrix& m) {
  OutJson rows = OutJson::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    OutJson row = OutJson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

OutJson to_json(const MaskMatrix& m) {
  OutJson rows = OutJson::array();
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    OutJson row = OutJson::array();
    for (Eigen::Index c = 0; c < m.cols(); ++c) row.push_back(m(r, c) ? 1 : 0);
    rows.push_back(std::move(row));
  }
  return rows;
}

OutJson to_json(const Vector& v) {
  OutJson out = OutJson::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) out.push_back(v[i]);
  return out;
}

OutJson to_json(const Histogram& h) {
  return OutJson{{"lo", h.lo}, {"hi", h.hi}, {"counts", h.counts}};
}

OutJson to_json(const std::vector<std::string>& tokens) {
  OutJson out = OutJson::array();
  for (const std::string& t : tokens) out.push_back(t);
  return out;
}

OutJson heads_json(const MultiHeadResult& result, HeadField field) {
  OutJson out = OutJson::array();
  for (const HeadResult& head : result.heads) {
    switch (field) {
      case HeadField::RawScores: out.push_back(to_json(head.raw_scores)); break;
      case HeadField::ScaledScores: out.push_back(to_json(head.scaled_scores)); break;
      case HeadField::Weights: out.push_back(to_json(head.weights)); break;
    }
  }
  return out;
}

OutJson stats_json(const std::vector<WeightStats>& stats) {
  OutJson out = OutJson::array();
  for (std::size_t h = 0; h < stats.size(); ++h)
    out.push_back({{"head", h}, {"min", stats[h].min}, {"max", stats[h].max}, {"mean", stats[h].mean}});
  return out;
}

OutJson top_keys_json(const std::vector<std::vector<int>>& top_keys) {
  OutJson out = OutJson::array();
  for (const std::vector<int>& keys : top_keys) out.push_back(keys);
  return out;
}

std::string dump(const OutJson& j) {
  return j.dump(-1, ' ', false, OutJson::error_handler_t::replace);
}

}  // namespace attn::api
