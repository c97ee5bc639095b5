// Text drawn with line breaks for Chinese, and recorded; see text.hpp.
#include "ui/widgets/text.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>

#include <imgui_internal.h>  // ImTextCharFromUtf8, CalcWrapWidthForPos, the current window

#include "ui/widgets/records.hpp"  // framebuffer_scale

namespace attn::ui {
namespace {

std::vector<TextRun> g_runs;

bool is_cjk(unsigned c) {
  return (c >= 0x2E80 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0xFF00 && c <= 0xFFEF);
}
// Marks a line must not start with (they close what precedes them) ...
bool closes(unsigned c) {
  static const char32_t kClosing[] = U"，。、；：！？）」』》〉】”’．,.;:!?)]}%";
  return c != 0 && std::char_traits<char32_t>::find(kClosing, std::size(kClosing) - 1, char32_t(c)) != nullptr;
}
// ... and marks a line must not end with (they open what follows).
bool opens(unsigned c) {
  static const char32_t kOpening[] = U"（「『《〈【“‘([{";
  return c != 0 && std::char_traits<char32_t>::find(kOpening, std::size(kOpening) - 1, char32_t(c)) != nullptr;
}
// May a line end between `before` and `after`?
bool may_break(unsigned before, unsigned after) {
  if (after == ' ' || closes(after) || opens(before)) return false;  // "10.2 %" keeps its "%"
  if (before == ' ') return true;
  return is_cjk(before) || is_cjk(after);
}

const char* skip_spaces(const char* p, const char* end) {
  while (p < end && *p == ' ') ++p;
  return p;
}
const char* trim_spaces(const char* begin, const char* p) {
  while (p > begin && p[-1] == ' ') --p;
  return p;
}

void record_run(const char* text, const char* text_end) {
  const float scale = framebuffer_scale();
  const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  TextRun run{ImGui::GetCurrentWindow()->Name, a.x * scale, a.y * scale, (b.x - a.x) * scale, (b.y - a.y) * scale, {}};
  const char* cut = text;
  for (unsigned c = 0; cut < text_end && cut - text < 40 && *cut != '\n';) cut += std::max(1, ImTextCharFromUtf8(&c, cut, text_end));
  run.text.assign(text, cut);
  g_runs.push_back(std::move(run));
}

// TextUnformatted, wrapped by break_lines when a wrap position is pushed.
void draw(const char* text, const char* text_end) {
  if (!text_end) text_end = text + std::strlen(text);
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  if (window->SkipItems) return;
  const float wrap_pos = window->DC.TextWrapPos;
  if (wrap_pos < 0.0f) {
    ImGui::TextUnformatted(text, text_end);
  } else {
    const std::string lines = break_lines(text, text_end, ImGui::CalcWrapWidthForPos(window->DC.CursorPos, wrap_pos));
    ImGui::PushTextWrapPos(-1.0f);  // the lines fit: ImGui must not break them again
    ImGui::TextUnformatted(lines.data(), lines.data() + lines.size());
    ImGui::PopTextWrapPos();
  }
  record_run(text, text_end);
}

void drawv(const char* fmt, va_list args) {
  char buffer[3072];
  const int n = std::vsnprintf(buffer, sizeof buffer, fmt, args);
  draw(buffer, buffer + std::min(n < 0 ? 0 : n, int(sizeof buffer) - 1));
}

}  // namespace

std::string break_lines(const char* text, const char* text_end, float wrap_width) {
  const float scale = ImGui::GetFontSize() / ImGui::GetFont()->FontSize;
  const auto advance = [scale](unsigned c) { return ImGui::GetFont()->GetCharAdvance(ImWchar(c)) * scale; };
  const auto measure = [&](const char* a, const char* b) {
    float w = 0;
    for (unsigned c = 0; a < b; w += advance(c)) a += std::max(1, ImTextCharFromUtf8(&c, a, text_end));
    return w;
  };
  std::string out;
  out.reserve(std::size_t(text_end - text) + 16);
  const char* line = text;          // where the current line starts
  const char* breakable = nullptr;  // the last place in it where it may end
  float width = 0;                  // of [line, p)
  unsigned before = 0;              // the character before p
  for (const char* p = text; p < text_end;) {
    unsigned c = 0;
    const int bytes = std::max(1, ImTextCharFromUtf8(&c, p, text_end));
    if (c == '\n') {
      out.append(line, p + 1);
      line = p + bytes, breakable = nullptr, width = 0, before = 0;
      p += bytes;
      continue;
    }
    if (p > line && may_break(before, c)) breakable = p;
    const float w = advance(c);
    // Past the edge: end the line at its last break (or, in a word longer
    // than the line, here); what came after the break starts the next one.
    if (c != ' ' && p > line && width + w > wrap_width) {
      const char* end = breakable ? breakable : p;
      out.append(line, trim_spaces(line, end));
      out.push_back('\n');
      line = skip_spaces(end, p);
      breakable = nullptr;
      width = measure(line, p);
      if (p > line && may_break(before, c)) breakable = p;
    }
    width += w;
    before = c;
    p += bytes;
  }
  out.append(line, text_end);
  return out;
}

void text(const char* text, const char* text_end) { draw(text, text_end); }

void textf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  drawv(fmt, args);
  va_end(args);
}

void text_wrapped(const char* fmt, ...) {
  const bool push = ImGui::GetCurrentWindow()->DC.TextWrapPos < 0.0f;
  if (push) ImGui::PushTextWrapPos(0.0f);
  va_list args;
  va_start(args, fmt);
  drawv(fmt, args);
  va_end(args);
  if (push) ImGui::PopTextWrapPos();
}

void text_disabled(const char* fmt, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  va_list args;
  va_start(args, fmt);
  drawv(fmt, args);
  va_end(args);
  ImGui::PopStyleColor();
}

void text_colored(const ImVec4& color, const char* fmt, ...) {
  ImGui::PushStyleColor(ImGuiCol_Text, color);
  va_list args;
  va_start(args, fmt);
  drawv(fmt, args);
  va_end(args);
  ImGui::PopStyleColor();
}

const std::vector<TextRun>& text_runs() { return g_runs; }
void clear_text_runs() { g_runs.clear(); }

}  // namespace attn::ui
