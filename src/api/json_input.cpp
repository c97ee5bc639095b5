#include "json_input.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_set>
#include <vector>

namespace attn::api {
namespace {

// A SAX consumer that builds nothing: it only tracks where in the document the
// parser is (object keys and array indices), so a parse error can be reported
// against the field it happened in. Used only after parse() has failed.
class ErrorLocator : public nlohmann::json_sax<Json> {
 public:
  std::string path() const {
    std::string p;
    for (const Frame& f : frames_) {
      if (f.is_array) {
        p += "[" + std::to_string(f.index) + "]";
      } else {
        if (!f.has_key) break;  // the error is in the key itself
        p += (p.empty() ? "" : ".") + field_name(f.key);
      }
    }
    if (p.empty()) return "config";
    // A deeply nested document would give a path as long as the input.
    constexpr std::size_t kMaxPath = 60;
    return p.size() > kMaxPath ? p.substr(0, kMaxPath) + "..." : p;
  }
  std::string message;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override { frames_.push_back(Frame{}); return true; }
  bool key(string_t& k) override {
    frames_.back().key = k;
    frames_.back().has_key = true;
    return true;
  }
  bool end_object() override { frames_.pop_back(); return value(); }
  bool start_array(std::size_t) override {
    Frame f;
    f.is_array = true;
    frames_.push_back(f);
    return true;
  }
  bool end_array() override { frames_.pop_back(); return value(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    message = ex.what();
    // Drop nlohmann's "[json.exception.parse_error.101] " prefix: it is noise to a reader.
    const auto close = message.find("] ");
    if (message.rfind("[json.exception", 0) == 0 && close != std::string::npos)
      message.erase(0, close + 2);
    return false;
  }

 private:
  struct Frame {
    bool is_array = false;
    long long index = 0;
    bool has_key = false;
    std::string key;
  };
  // A value just finished: the enclosing array moves on to its next index.
  bool value() {
    if (!frames_.empty() && frames_.back().is_array) ++frames_.back().index;
    return true;
  }
  std::vector<Frame> frames_;
};

// A JSON number as a finite float32, or an error for NaN/inf/out-of-range.
bool to_finite_float(const Json& v, float& out) {
  const double d = v.get<double>();  // caller checked is_number()
  if (!std::isfinite(d) || std::fabs(d) > std::numeric_limits<float>::max()) return false;
  out = static_cast<float>(d);
  return true;
}

std::string index_path(const std::string& field, std::size_t r) {
  return field + "[" + std::to_string(r) + "]";
}

std::string index_path(const std::string& field, std::size_t r, std::size_t c) {
  return index_path(field, r) + "[" + std::to_string(c) + "]";
}

// Shared shape checks for numeric and boolean matrices: non-empty, rows of
// arrays, rectangular, within limits. Returns the column count via cols.
std::string check_rectangular(const Json& value, const std::string& field, int max_rows,
                              int max_cols, std::size_t& cols) {
  if (!value.is_array()) return field + ": expected a matrix (an array of rows), got " + describe(value);
  if (value.empty()) return field + ": is empty (a matrix needs at least one row)";
  if (value.size() > static_cast<std::size_t>(max_rows))
    return field + ": has " + std::to_string(value.size()) + " rows; the limit is " +
           std::to_string(max_rows);
  for (std::size_t r = 0; r < value.size(); ++r) {
    const Json& row = value[r];
    if (!row.is_array()) return index_path(field, r) + ": expected a row (an array), got " + describe(row);
    if (r == 0) {
      if (row.empty()) return index_path(field, 0) + ": is empty (rows need at least one column)";
      if (row.size() > static_cast<std::size_t>(max_cols))
        return field + ": has " + std::to_string(row.size()) + " columns; the limit is " +
               std::to_string(max_cols);
      cols = row.size();
    } else if (row.size() != cols) {
      return field + ": is ragged: row " + std::to_string(r) + " has " + std::to_string(row.size()) +
             " entries but row 0 has " + std::to_string(cols);
    }
  }
  return {};
}

}  // namespace

std::string parse_config(const std::string& text, Json& out) {
  if (text.size() > kMaxConfigBytes)
    return "config: " + std::to_string(text.size()) + " bytes; the limit is " +
           std::to_string(kMaxConfigBytes >> 20) + " MiB";
  // The keys of each open object, to refuse one given twice (nlohmann keeps
  // the last). Hashed: a config may name a million keys in one object.
  std::vector<std::unordered_set<std::string>> keys;
  std::string duplicate;
  const Json::parser_callback_t watch = [&](int, Json::parse_event_t event, Json& parsed) {
    if (event == Json::parse_event_t::object_start) keys.emplace_back();
    if (event == Json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
    if (event == Json::parse_event_t::key && !keys.empty() && duplicate.empty()) {
      const std::string& key = parsed.get_ref<const std::string&>();
      if (!keys.back().insert(key).second) duplicate = key;
    }
    return true;
  };
  out = Json::parse(text, watch, /*allow_exceptions=*/false);
  if (!duplicate.empty() && !out.is_discarded()) {
    out = Json();
    return field_name(duplicate) + ": given twice (a JSON object names each field once)";
  }
  if (!out.is_discarded()) return {};
  ErrorLocator locator;
  Json::sax_parse(text, &locator);
  if (locator.message.empty()) locator.message = "parse error";
  return locator.path() + ": not valid JSON: " + locator.message;
}

std::string describe(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return value.get<bool>() ? "true" : "false";
    case Json::value_t::string: return "the string " + quoted(value.get_ref<const std::string&>());
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float: return "the number " + value.dump();
    default: return "an unsupported value";
  }
}

std::string quoted(const std::string& text) {
  constexpr std::size_t kMax = 40;
  std::string shown = text.substr(0, kMax);
  // Do not cut a UTF-8 sequence in half: drop trailing continuation bytes
  // and the lead byte they belong to.
  if (text.size() > kMax) {
    while (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0xC0) == 0x80) shown.pop_back();
    if (!shown.empty() && (static_cast<unsigned char>(shown.back()) & 0x80)) shown.pop_back();
    shown += "...";
  }
  // dump() escapes quotes, backslashes and control characters (so a key with
  // a newline still gives a one-line message); replace, never throw, on bad UTF-8.
  return Json(shown).dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string field_name(const std::string& key) {
  const bool plain = !key.empty() && key.size() <= 40 &&
                     key.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                           "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
  return plain ? key : quoted(key);
}

std::string read_matrix(const Json& value, const std::string& field, int max_rows, int max_cols,
                        Matrix& out) {
  std::size_t cols = 0;
  if (std::string error = check_rectangular(value, field, max_rows, max_cols, cols); !error.empty())
    return error;
  out.resize(static_cast<Eigen::Index>(value.size()), static_cast<Eigen::Index>(cols));
  for (std::size_t r = 0; r < value.size(); ++r) {
    for (std::size_t c = 0; c < cols; ++c) {
      const Json& v = value[r][c];
      if (!v.is_number()) return index_path(field, r, c) + ": expected a number, got " + describe(v);
      float f = 0;
      if (!to_finite_float(v, f))
        return index_path(field, r, c) + ": " + v.dump() + " is not a finite float32 value";
      out(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = f;
    }
  }
  return {};
}

std::string read_int(const Json& value, const std::string& field, int lo, int hi, int& out) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  if (!value.is_number()) return field + ": expected an integer in " + range + ", got " + describe(value);
  const double d = value.get<double>();
  if (std::floor(d) != d)
    return field + ": expected an integer in " + range + ", got " + describe(value);
  if (d < lo || d > hi) return field + ": " + value.dump() + " is outside " + range;
  out = static_cast<int>(d);
  return {};
}

std::string read_seed(const Json& value, const std::string& field, uint64_t& out) {
  const std::string want = "expected a non-negative integer";
  if (value.is_number_unsigned()) {
    out = value.get<uint64_t>();
    return {};
  }
  if (value.is_number_integer()) {  // signed: only negatives land here
    const int64_t v = value.get<int64_t>();
    if (v < 0) return field + ": " + want + ", got " + describe(value);
    out = static_cast<uint64_t>(v);
    return {};
  }
  if (value.is_number_float()) {
    const double d = value.get<double>();
    // Integral doubles are exact up to 2^53; beyond that the user's digits were already lost.
    if (d >= 0 && d <= 9007199254740992.0 && std::floor(d) == d) {
      out = static_cast<uint64_t>(d);
      return {};
    }
  }
  return field + ": " + want + " below 2^64, got " + describe(value);
}

std::string read_bool(const Json& value, const std::string& field, bool& out) {
  if (!value.is_boolean()) return field + ": expected true or false, got " + describe(value);
  out = value.get<bool>();
  return {};
}

std::string read_positive_float(const Json& value, const std::string& field, float& out) {
  if (!value.is_number()) return field + ": expected a number > 0, got " + describe(value);
  float f = 0;
  if (!to_finite_float(value, f)) return field + ": " + value.dump() + " is not a finite float32 value";
  if (!(f > 0.f))
    return field + ": must be a number > 0, got " + value.dump() +
           (value.get<double>() > 0 ? " (it rounds to 0 in float32)" : "");
  out = f;
  return {};
}

std::string read_scale(const Json& value, const std::string& field, Scale& out) {
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s == "sqrt") { out = Scale::sqrt_dk(); return {}; }
    if (s == "none") { out = Scale::none(); return {}; }
    return field + ": unknown scale " + quoted(s) + "; expected \"sqrt\", \"none\" or a number > 0";
  }
  if (!value.is_number())
    return field + ": expected \"sqrt\", \"none\" or a number > 0, got " + describe(value);
  float f = 0;
  if (!to_finite_float(value, f)) return field + ": " + value.dump() + " is not a finite float32 value";
  // A positive double can still round to 0 in float32 (1e-50): that would erase every score.
  if (!(f > 0.f)) return field + ": must be a number > 0, got " + value.dump();
  out = Scale::factor(f);
  return {};
}

std::string read_mask(const Json& value, const std::string& field, int max_size, MaskSpec& out) {
  const std::string expected =
      "expected \"none\", \"causal\", \"padding\", {\"pad\": k} or a 0/1 matrix";
  if (value.is_string()) {
    const std::string& s = value.get_ref<const std::string&>();
    if (s == "none") { out.kind = MaskSpec::Kind::None; return {}; }
    if (s == "causal") { out.kind = MaskSpec::Kind::Causal; return {}; }
    if (s == "padding") { out.kind = MaskSpec::Kind::Padding; return {}; }
    return field + ": unknown mask " + quoted(s) + "; " + expected;
  }
  if (value.is_object()) {
    for (const auto& item : value.items())
      if (item.key() != "pad") return field + "." + field_name(item.key()) + ": unknown field; " + expected;
    const auto pad = value.find("pad");
    if (pad == value.end()) return field + ": " + expected;
    out.kind = MaskSpec::Kind::AppendPads;
    return read_int(*pad, field + ".pad", 0, max_size, out.pads);
  }
  if (value.is_array()) {
    std::size_t cols = 0;
    if (std::string error = check_rectangular(value, field, max_size, max_size, cols); !error.empty())
      return error;
    out.kind = MaskSpec::Kind::Custom;
    out.allowed.resize(static_cast<Eigen::Index>(value.size()), static_cast<Eigen::Index>(cols));
    for (std::size_t r = 0; r < value.size(); ++r) {
      for (std::size_t c = 0; c < cols; ++c) {
        const Json& v = value[r][c];
        bool allowed = false;
        if (v.is_boolean()) {
          allowed = v.get<bool>();
        } else if (v.is_number() && (v.get<double>() == 0.0 || v.get<double>() == 1.0)) {
          allowed = v.get<double>() == 1.0;
        } else {
          return index_path(field, r, c) + ": expected 0/1 or true/false, got " + describe(v);
        }
        out.allowed(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = allowed;
      }
    }
    return {};
  }
  return field + ": " + expected + ", got " + describe(value);
}

bool contains(std::initializer_list<const char*> names, const std::string& key) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return key == n; });
}

std::string joined(std::initializer_list<const char*> names) {
  std::string out;
  for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

const Json* find_field(const Json& config, const char* key) {
  const auto it = config.find(key);
  return it == config.end() ? nullptr : &*it;
}

}  // namespace attn::api
