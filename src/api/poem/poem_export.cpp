// The learned-heads view's files; see poem_export.hpp.
#include "api/poem/poem_export.hpp"

#include <cstdio>

#include "api/json_output.hpp"

namespace attn::api {

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(v));
  return text;
}

}  // namespace

bool poem_export(const PoemReadingData& r, const std::string& text, const std::string& what, ExportFile* out) {
  const std::size_t dot = what.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string id = what.substr(0, dot), ext = what.substr(dot);
  const bool csv = ext == ".csv";
  if ((!csv && ext != ".json") || (id != "poem_weights" && id != "poem_next")) return false;
  const int T = r.size();
  std::string bytes;
  if (id == "poem_weights" && csv) {
    bytes = "layer,head,query,key,query_char,key_char,weight\n";
    for (int l = 0; l < r.layers; ++l)
      for (int h = 0; h < r.heads; ++h)
        for (int q = 0; q < T; ++q)
          for (int k = 0; k < T; ++k)
            bytes += std::to_string(l) + "," + std::to_string(h) + "," + std::to_string(q) + "," + std::to_string(k) +
                     "," + csv_field(r.tokens[std::size_t(q)]) + "," + csv_field(r.tokens[std::size_t(k)]) + "," +
                     number(r.weights(l, h)[std::size_t(q * T + k)]) + "\n";
  } else if (id == "poem_next" && csv) {
    bytes = "position,char,loss,rank,next_char,p\n";
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < kPoemTop; ++i) {
        const std::size_t at = std::size_t(t) * kPoemTop + std::size_t(i);
        bytes += std::to_string(t) + "," + csv_field(r.tokens[std::size_t(t)]) + "," +
                 (t > 0 ? number(r.losses[std::size_t(t - 1)]) : std::string()) + "," + std::to_string(i + 1) + "," +
                 csv_field(r.top_chars[at]) + "," + number(r.top_p[at]) + "\n";
      }
  } else {
    // As compute({poem: {text}}) names things: tokens, layers[l].heads[h][q][k], loss.
    OutJson doc = {{"text", text}, {"tokens", r.tokens}};
    if (id == "poem_weights") {
      OutJson layers = OutJson::array();
      for (int l = 0; l < r.layers; ++l) {
        OutJson heads = OutJson::array();
        for (int h = 0; h < r.heads; ++h) {
          OutJson rows = OutJson::array();
          for (int q = 0; q < T; ++q)
            rows.push_back(std::vector<float>(r.weights(l, h) + q * T, r.weights(l, h) + (q + 1) * T));
          heads.push_back(std::move(rows));
        }
        layers.push_back({{"heads", std::move(heads)}});
      }
      doc["layers"] = std::move(layers);
    } else {
      OutJson next = OutJson::array();
      for (int t = 0; t < T; ++t) {
        OutJson top = OutJson::array();
        for (int i = 0; i < kPoemTop; ++i) {
          const std::size_t at = std::size_t(t) * kPoemTop + std::size_t(i);
          top.push_back({{"char", r.top_chars[at]}, {"p", r.top_p[at]}});
        }
        next.push_back(std::move(top));
      }
      doc["next"] = std::move(next);
      doc["loss"] = r.losses;
    }
    bytes = doc.dump() + "\n";
  }
  *out = {what, csv ? "text/csv" : "application/json", std::move(bytes)};
  return true;
}

}  // namespace attn::api
