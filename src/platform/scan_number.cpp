#include "platform/scan_number.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace attn::platform {
namespace {

bool blank(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// One conversion at *text (blanks skipped first): true when a number was read and stored.
bool convert(const char** text, char conversion, int length, va_list* out) {
  while (blank(**text)) ++*text;
  const char* from = *text;
  char* end = nullptr;
  if (conversion == 'f') {
    if (length == 0) {
      const float v = std::strtof(from, &end);
      if (end != from) *va_arg(*out, float*) = v;
    } else {
      const double v = std::strtod(from, &end);
      if (end != from) *va_arg(*out, double*) = v;
    }
  } else if (conversion == 'u') {
    const unsigned long long v = std::strtoull(from, &end, 10);
    if (end == from) return false;
    if (length == 2) *va_arg(*out, unsigned long long*) = v;
    else if (length == 1) *va_arg(*out, unsigned long*) = static_cast<unsigned long>(v);
    else *va_arg(*out, unsigned*) = static_cast<unsigned>(v);
  } else {  // d, or i: 0x and 0 prefixes as in C
    const long long v = std::strtoll(from, &end, conversion == 'i' ? 0 : 10);
    if (end == from) return false;
    if (length == 2) *va_arg(*out, long long*) = v;
    else if (length == 1) *va_arg(*out, long*) = static_cast<long>(v);
    else *va_arg(*out, int*) = static_cast<int>(v);
  }
  if (end == from) return false;
  *text = end;
  return true;
}

}  // namespace

int scan_numbers(const char* text, const char* format, va_list out) {
  va_list args;
  va_copy(args, out);
  int stored = 0;
  const auto ended = [&] { return stored ? stored : EOF; };  // the text ran out
  for (const char* f = format; *f;) {
    if (blank(*f)) {
      while (blank(*f)) ++f;
      while (blank(*text)) ++text;
      continue;
    }
    if (*f != '%' || f[1] == '%') {
      const char literal = *f;
      f += literal == '%' ? 2 : 1;
      if (literal == '%')
        while (blank(*text)) ++text;  // as C's %% does
      if (!*text) return ended();
      if (*text != literal) break;
      ++text;
      continue;
    }
    ++f;
    int length = 0;
    while (*f == 'l' && length < 2) ++f, ++length;
    const char conversion = *f;
    if (conversion != 'd' && conversion != 'i' && conversion != 'u' && conversion != 'f') break;
    ++f;
    const char* rest = text;
    while (blank(*rest)) ++rest;
    if (!*rest) return ended();
    if (!convert(&text, conversion, length, &args)) break;
    ++stored;
  }
  va_end(args);
  return stored;
}

}  // namespace attn::platform
