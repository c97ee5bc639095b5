// URL text; see url_text.hpp.
#include "ui/widgets/url_text.hpp"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace attn::ui {
namespace {

constexpr const char* kBase64Url = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

}  // namespace

std::string percent_encode(const std::string& text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == ',') {
      out += char(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> parse_query(const std::string& query) {
  auto decode = [](const std::string& part) {
    std::string out;
    for (std::size_t i = 0; i < part.size(); ++i) {
      if (part[i] == '+') {
        out += ' ';
      } else if (part[i] == '%' && i + 2 < part.size() && std::isxdigit((unsigned char)part[i + 1]) &&
                 std::isxdigit((unsigned char)part[i + 2])) {
        out += char(std::stoi(part.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        out += part[i];
      }
    }
    return out;
  };
  std::vector<std::pair<std::string, std::string>> params;
  std::size_t start = (!query.empty() && query[0] == '?') ? 1 : 0;
  while (start < query.size()) {
    std::size_t end = query.find('&', start);
    if (end == std::string::npos) end = query.size();
    const std::string part = query.substr(start, end - start);
    if (!part.empty()) {
      const std::size_t eq = part.find('=');
      params.emplace_back(decode(part.substr(0, eq)), eq == std::string::npos ? "" : decode(part.substr(eq + 1)));
    }
    start = end + 1;
  }
  return params;
}

std::string base64url_encode(const std::string& bytes) {
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const unsigned chunk = (unsigned(uint8_t(bytes[i])) << 16) |
                           (i + 1 < bytes.size() ? unsigned(uint8_t(bytes[i + 1])) << 8 : 0u) |
                           (i + 2 < bytes.size() ? unsigned(uint8_t(bytes[i + 2])) : 0u);
    const std::size_t chars = bytes.size() - i >= 3 ? 4 : bytes.size() - i + 1;  // no padding
    for (std::size_t k = 0; k < chars; ++k) text += kBase64Url[(chunk >> (18 - 6 * k)) & 63];
  }
  return text;
}

bool base64url_decode(const std::string& text, std::string* bytes) {
  bytes->clear();
  unsigned buffer = 0;
  int held = 0;
  for (const char c : text) {
    const char* at = c ? std::strchr(kBase64Url, c) : nullptr;
    if (!at) return false;
    buffer = (buffer << 6) | unsigned(at - kBase64Url);
    held += 6;
    if (held >= 8) {
      held -= 8;
      bytes->push_back(char(uint8_t(buffer >> held)));
    }
  }
  return true;
}

}  // namespace attn::ui
