// Keys and typed text in the order they happened, handed to Dear ImGui a
// frame at a time so that no key tap is lost.
//
// Why: Dear ImGui 1.86 reads keys as per-frame state (io.KeysDown), and its
// GLFW backend writes that state from the key callback. A key pressed and
// released between two frames (a quick tap: 10-30 ms is usual, and frames
// under software GL or on a slow phone are further apart) leaves KeysDown as
// it was, so ImGui never sees the tap. ImGui 1.87 added an input queue for
// this; this is the same idea for 1.86, shared by the desktop and the web
// builds (both replace the backend's key and char callbacks with queue_*).
//
// Rules of a frame (feed_input_queue, before ImGui::NewFrame), after 1.87's
// "trickle" queue: events apply in order until one would
//  - change a key that already changed this frame: a tap is down in one
//    frame and up in the next, so it acts exactly once;
//  - bring text after a key that acts (Backspace, arrows, Enter, Ctrl, a
//    shortcut), or such a key after text: ImGui's text field reads a frame's
//    characters before its keys, and ignores them while Ctrl is down, so
//    mixing the two in one frame would reorder or drop them;
//  - change Shift after a key that acts read it;
// and the rest waits for the next frame (input_queue_pending asks for one).
// Keys that only type a character (letters, digits, punctuation with no Ctrl,
// Alt or Super down) never stop the queue, and Space only once a frame (the
// cell cursor reads it), so fast typing still goes in a word or more a frame.
// A held key's repeats (GLFW_REPEAT) are dropped: ImGui repeats a key that
// stays down across frames by itself.
#pragma once

#include <string>

struct ImGuiIO;
struct GLFWwindow;

namespace attn::platform {

// A key's GLFW code went down or up (GLFW_PRESS / GLFW_RELEASE; repeats are dropped).
void queue_key(int glfw_key, bool down);
// A character from GLFW's char callback (Unicode code point).
void queue_char(unsigned int codepoint);
// Text from elsewhere (the page's input method, insertText, paste: UTF-8),
// handed to `insert_text` when its turn comes (see feed_input_queue).
void queue_text(std::string utf8);

// Applies this frame's share of the queue to io (KeysDown, the modifiers, the
// character queue). Text events go to insert_text (web: held back while Ctrl
// is down, web_text_input.cpp); null means io.AddInputCharactersUTF8.
using TextSink = void (*)(ImGuiIO& io, const std::string& utf8);
void feed_input_queue(ImGuiIO& io, TextSink insert_text = nullptr);

// Events wait for a later frame: the platform must draw another one.
bool input_queue_pending();

// GLFW callbacks that queue instead of writing io directly. Install them
// after ImGui_ImplGlfw_InitForOpenGL(window, true), which installed the
// backend's: glfwSetKeyCallback(window, input_queue_key_callback) and
// glfwSetCharCallback(window, input_queue_char_callback).
void input_queue_key_callback(GLFWwindow* window, int key, int scancode, int action, int mods);
void input_queue_char_callback(GLFWwindow* window, unsigned int codepoint);

}  // namespace attn::platform
