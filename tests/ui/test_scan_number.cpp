// The page's sscanf (platform/scan_number.hpp) against the C library's own,
// for the formats ImGui gives it (its number fields, its OpenGL backend, its
// imgui.ini) and text of every kind: numbers, signs, blanks, trailing words,
// nothing at all, a version string.
#include <doctest/doctest.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "platform/scan_number.hpp"

namespace attn::platform {
namespace {

int page_scan(const char* text, const char* format, ...) {
  va_list out;
  va_start(out, format);
  const int read = scan_numbers(text, format, out);
  va_end(out);
  return read;
}

const char* const kTexts[] = {"8", "  42", "-7", "+13", "3.75", "-0.5e2", "1e-3", "12abc", "abc", "", "   ", "+", "-",
                              "0", "007", "2147483647", "-2147483648", "\t9\n", "1,5", ".5", "inf", "nan", "0x1A",
                              "4294967295", "18446744073709551615", "#version 300 es", "#version", "#ver", "3.0",
                              "OpenGL ES 3.0 (WebGL 2.0)", "Pos=10,20", "Pos=10", "Pos = 3 , 4", "Size=640,480",
                              "Collapsed=1", "100%", "7 %", "2.5 4"};

// Each format with two slots of type T: the same return and the same bytes stored (or left).
template <typename T>
void same_as_libc(const char* format) {
  for (const char* text : kTexts) {
    T mine[2], libc[2];
    std::memset(mine, 0x5a, sizeof mine);  // untouched when nothing is read: the same bytes
    std::memcpy(libc, mine, sizeof mine);
    const int read_mine = page_scan(text, format, &mine[0], &mine[1]);
    const int read_libc = std::sscanf(text, format, &libc[0], &libc[1]);
    INFO("format \"", format, "\" text \"", text, "\"");
    CHECK(read_mine == read_libc);
    CHECK(std::memcmp(mine, libc, sizeof mine) == 0);
  }
}

TEST_CASE("the page's sscanf reads what ImGui gives it as the C library does") {
  // ImGui's number fields (DataTypeApplyOpFromText: each data type's format).
  same_as_libc<int>("%d");
  same_as_libc<int>("%i");
  same_as_libc<unsigned>("%u");
  same_as_libc<long long>("%lld");
  same_as_libc<unsigned long long>("%llu");
  same_as_libc<float>("%f");
  same_as_libc<double>("%lf");
  // Its OpenGL backend and imgui.ini.
  same_as_libc<int>("#version %d");
  same_as_libc<int>("%d.%d");
  same_as_libc<int>("Pos=%i,%i");
  same_as_libc<int>("Size=%i,%i");
  same_as_libc<int>("Collapsed=%d");
  // Blanks, %%, and two numbers.
  same_as_libc<int>("Pos = %d , %d");
  same_as_libc<int>("%d%%");
  same_as_libc<int>("%d %%");
  same_as_libc<float>("%f %f");
  same_as_libc<long>("%ld");
}

}  // namespace
}  // namespace attn::platform
