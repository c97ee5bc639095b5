// Text as ImGui::Text* draws it, with two differences the chapter needs:
//
// - Wrapped text breaks the way Chinese is set: between any two CJK
//   characters, at spaces, and never before a closing mark (，。；：」） …) or
//   after an opening one (“（「 …). ImGui 1.86 breaks only at spaces, so a
//   Chinese run between two Latin words ("说出 k 个位置") counts as one long
//   word: it leaves a lone "k" at the end of a line that had room, then cuts
//   the run wherever the edge falls.
// - Every run is recorded (text_runs()) with its rectangle and the window it
//   lies in, so layout() can say whether any text is cut or covered.
//
// Each function honours PushTextWrapPos like its ImGui namesake.
#pragma once

#include <string>
#include <vector>

#include <imgui.h>

namespace attn::ui {

void text(const char* text, const char* text_end = nullptr);  // ImGui::TextUnformatted
void textf(const char* fmt, ...) IM_FMTARGS(1);                // ImGui::Text
void text_wrapped(const char* fmt, ...) IM_FMTARGS(1);         // ImGui::TextWrapped
void text_disabled(const char* fmt, ...) IM_FMTARGS(1);        // ImGui::TextDisabled
void text_colored(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);  // ImGui::TextColored

// `text` with a line break wherever it must break to fit `wrap_width`
// (UI units, at the current font): the lines the functions above draw.
std::string break_lines(const char* text, const char* text_end, float wrap_width);

// One run of text drawn this frame, in framebuffer pixels.
struct TextRun {
  std::string window;  // the ImGui window it was drawn in (a section of layout())
  float x = 0, y = 0, w = 0, h = 0;
  std::string text;    // its first characters, to name it
};
// The runs since the last clear_text_runs() (the shell clears them as a frame starts).
const std::vector<TextRun>& text_runs();
void clear_text_runs();

}  // namespace attn::ui
