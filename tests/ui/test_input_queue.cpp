// The input queue (src/platform/input_queue.cpp) against a real Dear ImGui
// 1.86 text field, without a window: every frame is NewFrame/InputText/
// EndFrame with the keys the queue fed. Quick taps (down and up between two
// frames) must act exactly once, in order with typed text; a held key repeats.
// The first case shows the bug the queue fixes: writing io.KeysDown straight
// from the key callback, as the 1.86 GLFW backend does, loses such taps.
#include <doctest/doctest.h>

#include <cstring>
#include <string>

#include <GLFW/glfw3.h>
#include <imgui.h>

#include "headless_imgui.hpp"
#include "platform/input_queue.hpp"

namespace {

using namespace attn::platform;

// An ImGui context with one text field that has the keyboard focus, caret at the end.
struct TextField {
  ImGuiContext* context = ImGui::CreateContext();
  char text[64] = {};
  int frames = 0;

  explicit TextField(const char* initial) {
    std::strncpy(text, initial, sizeof text - 1);
    ImGuiIO& io = attn::test::headless_imgui();
    // The GLFW backend's key map: KeysDown is indexed by GLFW key codes.
    io.KeyMap[ImGuiKey_Backspace] = GLFW_KEY_BACKSPACE;
    io.KeyMap[ImGuiKey_Delete] = GLFW_KEY_DELETE;
    io.KeyMap[ImGuiKey_LeftArrow] = GLFW_KEY_LEFT;
    io.KeyMap[ImGuiKey_RightArrow] = GLFW_KEY_RIGHT;
    io.KeyMap[ImGuiKey_Home] = GLFW_KEY_HOME;
    io.KeyMap[ImGuiKey_End] = GLFW_KEY_END;
    io.KeyMap[ImGuiKey_A] = GLFW_KEY_A;
    io.KeyMap[ImGuiKey_Z] = GLFW_KEY_Z;
    frame(false);  // the field takes the focus and, focused so, selects all
    frame(false);
    queue_key(GLFW_KEY_END, true);  // the caret at the end, as after a click there
    frame();
    queue_key(GLFW_KEY_END, false);
    frame();
  }
  ~TextField() {
    while (input_queue_pending()) frame();  // nothing left for the next case
    ImGui::DestroyContext(context);
  }
  // One frame; with_queue = feed the queue first, as both mains do.
  void frame(bool with_queue = true) {
    if (with_queue) feed_input_queue(ImGui::GetIO());
    ImGui::NewFrame();
    ImGui::Begin("field");
    if (frames++ == 0) ImGui::SetKeyboardFocusHere();
    ImGui::InputText("##text", text, sizeof text);
    ImGui::End();
    ImGui::Render();
  }
  // Frames until the queue is empty (at most `limit`); returns how many.
  int drain(int limit = 100) {
    int n = 0;
    while (input_queue_pending() && n < limit) {
      frame();
      ++n;
    }
    frame();  // the frame after the last event: ImGui acts on what it fed
    return n;
  }
};

void tap(int key) {
  queue_key(key, true);
  queue_key(key, false);
}
void type(const char* ascii) {
  for (const char* p = ascii; *p; ++p) {
    const int key = *p >= 'a' && *p <= 'z' ? GLFW_KEY_A + (*p - 'a') : *p == ' ' ? GLFW_KEY_SPACE : GLFW_KEY_UNKNOWN;
    queue_key(key, true);
    queue_char(static_cast<unsigned char>(*p));
    queue_key(key, false);
  }
}

}  // namespace

TEST_CASE("without the queue, a key pressed and released between two frames is lost (ImGui 1.86)") {
  TextField field("abc def");
  ImGuiIO& io = ImGui::GetIO();
  // What the 1.86 backend's key callback does: write the state at once.
  for (int i = 0; i < 3; ++i) {
    io.KeysDown[GLFW_KEY_BACKSPACE] = true;
    io.KeysDown[GLFW_KEY_BACKSPACE] = false;
  }
  field.frame(false);
  field.frame(false);
  CHECK(std::string(field.text) == "abc def");
}

TEST_CASE("three quick Backspace taps between two frames delete three characters") {
  TextField field("abc def");
  for (int i = 0; i < 3; ++i) tap(GLFW_KEY_BACKSPACE);
  const int frames = field.drain();
  CHECK(std::string(field.text) == "abc ");
  CHECK(frames == 6);  // down and up of each tap in frames of their own
}

TEST_CASE("taps and typed text keep their order") {
  TextField field("");
  type("abc");
  tap(GLFW_KEY_BACKSPACE);
  type("x");
  tap(GLFW_KEY_LEFT);
  type("y");
  tap(GLFW_KEY_HOME);
  type("z");
  tap(GLFW_KEY_END);
  tap(GLFW_KEY_DELETE);  // nothing after the end: deletes nothing
  type("w");
  field.drain();
  CHECK(std::string(field.text) == "zabyxw");
}

TEST_CASE("fast typing goes in whole: a word a frame, a space at most once a frame") {
  TextField field("");
  type("thecat");
  CHECK(field.drain() == 1);
  type(" sat on the mat");
  field.drain();
  CHECK(std::string(field.text) == "thecat sat on the mat");
}

TEST_CASE("a quick Ctrl+A then typing replaces the text; a quick Ctrl+Z undoes a step") {
  TextField field("old text");
  queue_key(GLFW_KEY_LEFT_CONTROL, true);
  tap(GLFW_KEY_A);
  queue_key(GLFW_KEY_LEFT_CONTROL, false);
  type("new");
  field.drain();
  CHECK(std::string(field.text) == "new");
  queue_key(GLFW_KEY_LEFT_CONTROL, true);
  tap(GLFW_KEY_Z);
  queue_key(GLFW_KEY_LEFT_CONTROL, false);
  field.drain();
  CHECK(std::string(field.text) == "ne");  // 1.86's undo: one step per character typed
}

TEST_CASE("Shift + arrows select; a character typed then replaces the selection") {
  TextField field("abcd");
  queue_key(GLFW_KEY_LEFT_SHIFT, true);
  tap(GLFW_KEY_LEFT);
  tap(GLFW_KEY_LEFT);
  queue_key(GLFW_KEY_LEFT_SHIFT, false);
  type("x");
  field.drain();
  CHECK(std::string(field.text) == "abx");
}

TEST_CASE("text from the page takes its turn in the queue") {
  TextField field("ab");
  tap(GLFW_KEY_BACKSPACE);
  queue_text("\xe7\x8c\xab");  // 猫, as an input method's result arrives
  tap(GLFW_KEY_BACKSPACE);
  queue_text("\xe5\x9d\x90");  // 坐
  field.drain();
  CHECK(std::string(field.text) == "a\xe5\x9d\x90");
}

TEST_CASE("a held key repeats as usual") {
  TextField field("0123456789");
  queue_key(GLFW_KEY_BACKSPACE, true);
  for (int i = 0; i < 30; ++i) field.frame();  // held for half a second at 60 frames/s
  queue_key(GLFW_KEY_BACKSPACE, false);
  field.drain();
  // One delete on the press, then one per KeyRepeatRate after KeyRepeatDelay.
  const ImGuiIO& io = ImGui::GetIO();
  const int repeats = int((30 / 60.0f - io.KeyRepeatDelay) / io.KeyRepeatRate);
  const size_t expected = size_t(10 - 1 - repeats);
  CHECK(repeats >= 3);
  CHECK(std::strlen(field.text) >= expected - 1);  // frame-time rounding: one repeat either way
  CHECK(std::strlen(field.text) <= expected + 1);
}

TEST_CASE("repeats from GLFW are dropped; key codes ImGui has no slot for are ignored") {
  TextField field("abc");
  input_queue_key_callback(nullptr, GLFW_KEY_BACKSPACE, 0, GLFW_PRESS, 0);
  input_queue_key_callback(nullptr, GLFW_KEY_BACKSPACE, 0, GLFW_REPEAT, 0);
  input_queue_key_callback(nullptr, GLFW_KEY_BACKSPACE, 0, GLFW_RELEASE, 0);
  input_queue_key_callback(nullptr, GLFW_KEY_UNKNOWN, 0, GLFW_PRESS, 0);
  input_queue_key_callback(nullptr, 100000, 0, GLFW_PRESS, 0);
  field.drain();
  CHECK(std::string(field.text) == "ab");
}
