// See input_queue.hpp for why and for the rules of a frame.
#include "platform/input_queue.hpp"

#include <bitset>
#include <utility>
#include <vector>

#include <GLFW/glfw3.h>
#include <imgui.h>

namespace attn::platform {
namespace {

struct InputEvent {
  enum class Kind { Key, Char, Text } kind;
  bool down = false;       // Key: pressed (true) or released
  unsigned int code = 0;   // Key: GLFW code (the io.KeysDown index in ImGui's GLFW backend); Char: code point
  std::string text;        // Text: UTF-8
};

// A few events at a time (a frame's worth of typing): a vector, consumed from the front.
std::vector<InputEvent>& events() {
  static std::vector<InputEvent> queue;
  return queue;
}

constexpr int kKeyCount = 512;  // io.KeysDown's size in 1.86
static_assert(kKeyCount == sizeof(ImGuiIO::KeysDown) / sizeof(bool), "io.KeysDown has another size");

// The modifiers as the 1.86 backend derives them from KeysDown.
void update_modifiers(ImGuiIO& io) {
  io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
  io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
  io.KeyAlt = io.KeysDown[GLFW_KEY_LEFT_ALT] || io.KeysDown[GLFW_KEY_RIGHT_ALT];
  io.KeySuper = io.KeysDown[GLFW_KEY_LEFT_SUPER] || io.KeysDown[GLFW_KEY_RIGHT_SUPER];
}

// What a key's change means to ImGui right now.
enum class KeyRole {
  Types,  // only types its character (no Ctrl, Alt or Super down): ImGui reads
          // nothing from it (its letter shortcuts need Ctrl or Super)
  Space,  // types a space, and the cell cursor toggles a cell with it: once a frame
  Shift,  // changes what the keys after it do, but not whether text goes in
  Acts,   // everything else: editing and cursor keys, Ctrl, Alt, Super, shortcuts
};
KeyRole key_role(int key, const ImGuiIO& io) {
  if (key == GLFW_KEY_LEFT_SHIFT || key == GLFW_KEY_RIGHT_SHIFT) return KeyRole::Shift;
  if (io.KeyCtrl || io.KeyAlt || io.KeySuper) return KeyRole::Acts;
  if (key == GLFW_KEY_SPACE) return KeyRole::Space;
  const bool printable = (key >= GLFW_KEY_APOSTROPHE && key <= GLFW_KEY_GRAVE_ACCENT) ||
                         key == GLFW_KEY_WORLD_1 || key == GLFW_KEY_WORLD_2 ||
                         (key >= GLFW_KEY_KP_0 && key <= GLFW_KEY_KP_ADD);
  return printable ? KeyRole::Types : KeyRole::Acts;
}

}  // namespace

void queue_key(int glfw_key, bool down) {
  if (glfw_key < 0 || glfw_key >= kKeyCount) return;  // GLFW_KEY_UNKNOWN, or a code ImGui has no slot for
  events().push_back({InputEvent::Kind::Key, down, unsigned(glfw_key), {}});
}

void queue_char(unsigned int codepoint) {
  events().push_back({InputEvent::Kind::Char, false, codepoint, {}});
}

void queue_text(std::string utf8) {
  if (utf8.empty()) return;
  events().push_back({InputEvent::Kind::Text, false, 0, std::move(utf8)});
}

void feed_input_queue(ImGuiIO& io, TextSink insert_text) {
  std::vector<InputEvent>& queue = events();
  std::bitset<kKeyCount> changed;  // keys other than KeyRole::Types changed this frame
  bool key_acted = false;          // a key that acts changed this frame: it read the modifiers
  bool typed = false;              // text went in this frame
  size_t fed = 0;
  for (; fed < queue.size(); ++fed) {
    const InputEvent& event = queue[fed];
    if (event.kind == InputEvent::Kind::Key) {
      const int key = int(event.code);
      const KeyRole role = key_role(key, io);
      if (role != KeyRole::Types && changed[event.code]) break;
      if (role == KeyRole::Shift && key_acted) break;
      if (role == KeyRole::Acts && typed) break;
      io.KeysDown[key] = event.down;
      update_modifiers(io);
      if (role != KeyRole::Types) changed.set(event.code);
      if (role == KeyRole::Acts) key_acted = true;
    } else {
      if (key_acted) break;
      if (event.kind == InputEvent::Kind::Char) io.AddInputCharacter(event.code);
      else if (insert_text) insert_text(io, event.text);
      else io.AddInputCharactersUTF8(event.text.c_str());
      typed = true;
    }
  }
  queue.erase(queue.begin(), queue.begin() + std::ptrdiff_t(fed));
}

bool input_queue_pending() { return !events().empty(); }

void input_queue_key_callback(GLFWwindow*, int key, int, int action, int) {
  // Emscripten's GLFW names the right Cmd key of a Mac (DOM keyCode 93) the
  // Menu key; it is a Super key to ImGui's Mac shortcuts.
  if (key == GLFW_KEY_MENU && ImGui::GetIO().ConfigMacOSXBehaviors) key = GLFW_KEY_RIGHT_SUPER;
  if (action == GLFW_PRESS || action == GLFW_RELEASE) queue_key(key, action == GLFW_PRESS);
}

void input_queue_char_callback(GLFWwindow*, unsigned int codepoint) { queue_char(codepoint); }

}  // namespace attn::platform
