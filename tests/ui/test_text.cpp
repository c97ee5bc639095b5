// break_lines (ui/widgets/text.hpp): where wrapped text breaks, checked
// against what any line of it must satisfy rather than against a copy of its
// output: nothing lost or reordered, no line past the width, no line starting
// with a closing mark, Latin words whole, and every line but the last filled
// to within a few characters (no lone word left at a line's end that had room).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <imgui.h>

#include "headless_imgui.hpp"
#include "ui/widgets/text.hpp"

namespace attn::ui {
namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines(1);
  for (const char ch : text) {
    if (ch == '\n') lines.emplace_back();
    else lines.back().push_back(ch);
  }
  return lines;
}

std::string without_spaces(const std::string& text) {
  std::string out;
  for (const char ch : text)
    if (ch != ' ' && ch != '\n') out.push_back(ch);
  return out;
}

float width(const std::string& line) { return ImGui::CalcTextSize(line.c_str()).x; }

// What a line can take from the start of the next: a Latin word, or one
// character with the closing marks that must stay with it.
std::string first_unit(const std::string& line) {
  std::size_t end = 0;
  if (!line.empty() && static_cast<unsigned char>(line[0]) < 0x80) {
    while (end < line.size() && line[end] != ' ' && static_cast<unsigned char>(line[end]) < 0x80) ++end;
    return line.substr(0, end);
  }
  end = 3;  // one CJK character (3 bytes in UTF-8)
  while (line.compare(end, 3, "，") == 0 || line.compare(end, 3, "。") == 0 || line.compare(end, 3, "；") == 0) end += 3;
  return line.substr(0, end);
}

// The lines of `text` at `chars` characters' width (the default font: every
// glyph, and the fallback of a CJK one, is one advance wide).
std::vector<std::string> wrap(const std::string& text, int chars, float* wrap_width) {
  *wrap_width = ImGui::CalcTextSize("x").x * float(chars);
  return split_lines(break_lines(text.data(), text.data() + text.size(), *wrap_width));
}

struct Frame {
  Frame() {
    ImGui::CreateContext();
    test::headless_imgui();
    ImGui::NewFrame();
  }
  ~Frame() {
    ImGui::EndFrame();
    ImGui::DestroyContext();
  }
};

TEST_CASE("text: Chinese wraps between characters, fills its lines, keeps closing marks and Latin words") {
  Frame frame;
  const std::string text = "任务：随机符号组成的序列；在最后一个位置，说出 k 个位置之前的那个符号。"
                           "循环网络必须把它在状态里传递 k 步；一层注意力一步就能读到它。在单个 CPU 线程上，"
                           "循环网络的每一小步花费不多。在 GPU 上差距更大。";
  const float one = ImGui::CalcTextSize("x").x;
  for (const int chars : {9, 14, 20, 33}) {
    CAPTURE(chars);
    float wrap_width = 0;
    const std::vector<std::string> lines = wrap(text, chars, &wrap_width);
    REQUIRE(lines.size() > 1);
    std::string joined;
    for (const std::string& line : lines) joined += line;
    CHECK(without_spaces(joined) == without_spaces(text));  // nothing lost, nothing moved
    for (std::size_t i = 0; i < lines.size(); ++i) {
      CAPTURE(lines[i]);
      CHECK(width(lines[i]) <= wrap_width + 0.01f);
      CHECK(lines[i] != "k");  // ImGui 1.86 left "k" alone on a line
      CHECK(lines[i].rfind(" ", 0) != 0);  // no line starts with the space it broke at
      for (const char* mark : {"，", "。", "；", "："}) CHECK(lines[i].rfind(mark, 0) != 0);
      // Filled: what the next line starts with would not have fitted.
      if (i + 1 < lines.size()) CHECK(width(lines[i] + " " + first_unit(lines[i + 1])) > wrap_width - one);
    }
    // Latin words stay whole: every run of letters in a line is a word of the text.
    for (const std::string& line : lines)
      for (const char* word : {"CPU", "GPU"})
        if (line.find(word[0]) != std::string::npos && line.find(word) == std::string::npos)
          CHECK(line.find(std::string(word).substr(0, 2)) == std::string::npos);
  }
}

TEST_CASE("text: English wraps at spaces only, and a word longer than the line is cut at its edge") {
  Frame frame;
  float wrap_width = 0;
  CHECK(wrap("The cat sat on the mat", 10, &wrap_width) == std::vector<std::string>{"The cat", "sat on the", "mat"});
  CHECK(wrap("attention_weights", 8, &wrap_width) == std::vector<std::string>{"attentio", "n_weight", "s"});
  CHECK(wrap("one\ntwo", 40, &wrap_width) == std::vector<std::string>{"one", "two"});  // its own line breaks stay
  CHECK(wrap("", 10, &wrap_width) == std::vector<std::string>{""});
  // "%" and "。" stay with their number: the line ends before it instead.
  CHECK(wrap("数值 10.2 %。完", 8, &wrap_width) == std::vector<std::string>{"数值", "10.2 %。完"});
}

}  // namespace
}  // namespace attn::ui
