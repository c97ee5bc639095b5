// URL text: percent-encoding of query values, splitting a query into its
// parameters, and base64url (RFC 4648 section 5, without padding) for the
// bits of a custom mask (lab_state.hpp says how a state becomes a URL).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace attn::ui {

// UTF-8 in; RFC 3986's unreserved characters and ',' stay, every other byte is %XX.
std::string percent_encode(const std::string& text);

// "?a=1&b=%E6%88%91" (the '?' optional) -> {{"a", "1"}, {"b", "我"}}: names and
// values percent-decoded, '+' read as a space, a name without '=' has "".
std::vector<std::pair<std::string, std::string>> parse_query(const std::string& query);

std::string base64url_encode(const std::string& bytes);
// False when text holds a character outside the base64url alphabet.
bool base64url_decode(const std::string& text, std::string* bytes);

}  // namespace attn::ui
