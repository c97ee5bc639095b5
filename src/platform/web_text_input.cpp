// See web_text_input.hpp; the design is described at the top of web/text_input.js.
//
// Dear ImGui 1.86 has no SetPlatformImeDataFn (that came in 1.87): it only
// calls io.ImeSetInputScreenPosFn(x, y) when the caret moves, and never says
// when a text field stops being edited. So an end-of-frame context hook reads
// the same data (g.PlatformImePos, and g.WantTextInputNextFrame, which every
// active InputText sets during the frame) and tells JavaScript when either
// changes.
//
// Text from the page goes through the input queue (input_queue.hpp), in order
// with the keys and the characters GLFW delivers from keypress events. But ImGui 1.86 drops
// characters while Ctrl is held (so Ctrl+letter types nothing), which would
// drop the text of a Ctrl+V paste event: text that arrives while Ctrl is down
// waits in `pending`, ImGui's own Ctrl+V takes it through GetClipboardTextFn
// (once), and what it does not take goes in as characters once Ctrl is up.
#include "platform/web_text_input.hpp"

#include <cmath>
#include <string>

#include <emscripten.h>
#include <imgui.h>
#include <imgui_internal.h>

#include "core/base/tokenizer.hpp"
#include "platform/input_queue.hpp"
#include "platform/web_app.hpp"

namespace attn::platform {
namespace {

struct TextInput {
  bool deactivate = false;          // the page moved focus away from the field
  std::string pending;              // UTF-8 text from the page that arrived with Ctrl down
  std::string clipboard;            // what get_clipboard last returned
  bool active = false;              // last state sent to JavaScript
  int x = 0, y = 0, line = 0;       // caret (top-left, framebuffer pixels) and line height
  std::string copy_text;            // attn_text_input_copy_text's result
};

TextInput& text_input() {
  static TextInput input;
  return input;
}

// ImGui's Ctrl+V: the paste event already brought the clipboard's text (into
// `pending`); hand that over once, so nothing is pasted twice. Reading the
// system clipboard here is impossible anyway (it is asynchronous in browsers).
const char* get_clipboard(void*) {
  TextInput& input = text_input();
  input.clipboard.swap(input.pending);
  input.pending.clear();
  return input.clipboard.c_str();
}

// ImGui's Ctrl+C / Ctrl+X (and anything else that copies) -> the system clipboard.
void set_clipboard(void*, const char* text) {
  EM_ASM({
    const input = window.attentionLabTextInput;
    if (input) input.setClipboard(UTF8ToString($0));
  }, text);
}

// InputText's ignore_char_inputs: the characters of this frame will be dropped.
bool chars_ignored(const ImGuiIO& io) {
  return (io.KeyCtrl && !io.KeyAlt) || (io.ConfigMacOSXBehaviors && io.KeySuper);
}

// NewFramePost: before any widget runs, give ImGui the pending text once Ctrl
// is up and honour a deactivation asked for by the page.
void before_widgets(ImGuiContext* ctx, ImGuiContextHook*) {
  TextInput& input = text_input();
  if (!input.pending.empty() && !chars_ignored(ctx->IO)) {
    ImGui::GetIO().AddInputCharactersUTF8(input.pending.c_str());
    input.pending.clear();
  }
  if (!input.deactivate) return;
  input.deactivate = false;
  if (ctx->ActiveId != 0 && ctx->ActiveId == ctx->InputTextState.ID) ImGui::ClearActiveID();
}

// EndFramePost: is a text field being edited, and where is its caret?
void after_widgets(ImGuiContext* ctx, ImGuiContextHook*) {
  TextInput& input = text_input();
  const bool active = ctx->WantTextInputNextFrame == 1;
  const int x = active ? int(std::lround(ctx->PlatformImePos.x)) : 0;
  const int y = active ? int(std::lround(ctx->PlatformImePos.y)) : 0;
  const int line = active ? int(std::lround(ctx->FontSize)) : 0;
  if (active == input.active && x == input.x && y == input.y && line == input.line) return;
  input.active = active;
  input.x = x;
  input.y = y;
  input.line = line;
  EM_ASM({
    const input = window.attentionLabTextInput;
    if (input) input.update(!!$0, $1, $2, $3);
  }, active, x, y, line);
}

}  // namespace

void insert_page_text(ImGuiIO& io, const std::string& utf8) {
  TextInput& input = text_input();
  if (input.pending.empty() && !chars_ignored(io)) io.AddInputCharactersUTF8(utf8.c_str());
  else input.pending += utf8;
}

void install_web_text_input() {
  ImGuiIO& io = ImGui::GetIO();
  io.GetClipboardTextFn = get_clipboard;
  io.SetClipboardTextFn = set_clipboard;
  io.ClipboardUserData = nullptr;
  ImGuiContext* ctx = ImGui::GetCurrentContext();
  ImGuiContextHook hook;
  hook.Type = ImGuiContextHookType_NewFramePost;
  hook.Callback = before_widgets;
  ImGui::AddContextHook(ctx, &hook);
  hook.Type = ImGuiContextHookType_EndFramePost;
  hook.Callback = after_widgets;
  ImGui::AddContextHook(ctx, &hook);
  EM_ASM({
    const input = window.attentionLabTextInput;
    if (input) input.attach(Module);
    else console.warn("attention lab: text_input.js is not loaded; only typed ASCII reaches text fields");
  });
}

}  // namespace attn::platform

extern "C" {

// Text from the page (an input method's result, insertText, paste), UTF-8;
// it takes its turn in the input queue, then ImGui inserts it into the active
// field (see `pending`).
EMSCRIPTEN_KEEPALIVE void attn_text_input_insert(const char* utf8) {
  if (!utf8) return;
  // text_input.js passes only valid UTF-16 (web/utf16.js), which encodes to
  // valid UTF-8; anything else would reach the field changed, so it does not.
  if (const std::string why = attn::utf8_error(utf8); !why.empty()) {
    attn::platform::web_app().state.notices.push_back("typed text: " + why + "; nothing was inserted");
    return;
  }
  attn::platform::queue_text(utf8);
}

// What ImGui's Ctrl+C would copy from the active field right now: the
// selection, or the whole text without one ("" without an active field or in
// a password field). The page's copy/cut events use it synchronously, which
// works in every browser without clipboard permissions.
EMSCRIPTEN_KEEPALIVE const char* attn_text_input_copy_text() {
  ImGuiContext& g = *ImGui::GetCurrentContext();
  std::string& out = attn::platform::text_input().copy_text;
  out.clear();
  const ImGuiInputTextState* state = g.ActiveId != 0 ? ImGui::GetInputTextState(g.ActiveId) : nullptr;
  if (!state || (state->Flags & ImGuiInputTextFlags_Password)) return out.c_str();
  const bool selection = state->Stb.select_start != state->Stb.select_end;
  const int begin = selection ? ImMin(state->Stb.select_start, state->Stb.select_end) : 0;
  const int end = selection ? ImMax(state->Stb.select_start, state->Stb.select_end) : state->CurLenW;
  const ImWchar* text = state->TextW.Data;
  if (!text || end <= begin) return out.c_str();
  out.resize(size_t(ImTextCountUtf8BytesFromStr(text + begin, text + end)) + 1);
  ImTextStrToUtf8(out.data(), int(out.size()), text + begin, text + end);
  out.pop_back();  // the terminator ImTextStrToUtf8 wrote; c_str() keeps one
  return out.c_str();
}

// The page moved focus elsewhere: stop editing the field on the next frame.
EMSCRIPTEN_KEEPALIVE void attn_text_input_deactivate() { attn::platform::text_input().deactivate = true; }

}  // extern "C"
