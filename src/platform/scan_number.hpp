// The sscanf Dear ImGui needs, and no more: numbers, between literal text.
//
// ImGui 1.86 calls sscanf to parse what a reader types into a number field
// (InputScalar, a slider's Ctrl+click text: %d, %u, %lld, %llu, %f, %lf;
// imgui_widgets.cpp, DataTypeApplyOpFromText), in its OpenGL backend to read
// "#version %d" and "%d.%d", and to read imgui.ini ("Pos=%i,%i"), which the
// page never loads. musl's scanf is 4.4 KB of the page's wasm; the page's
// module defines sscanf with this instead (main_web.cpp), which keeps its
// first download within budget.
#pragma once

#include <cstdarg>

namespace attn::platform {

// As vsscanf(text, format, out) for formats made of literal characters, blanks
// (any run of white space, none included) and the conversions %d %i %u %f with
// the length l or ll (and %%): the number of conversions stored, or EOF (-1)
// when the text ended before the first. Any other conversion ends the scan there.
int scan_numbers(const char* text, const char* format, va_list out);

}  // namespace attn::platform
