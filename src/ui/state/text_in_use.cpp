// See text_in_use.hpp.
#include "ui/state/text_in_use.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

#include <imgui.h>

#include "core/base/tokenizer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/state/app_state.hpp"

namespace attn::ui {
namespace {

void sort_unique(std::vector<uint32_t>* cps) {
  std::sort(cps->begin(), cps->end());
  cps->erase(std::unique(cps->begin(), cps->end()), cps->end());
}

// A language's strings change only when a view's strings arrive (the
// learned-heads view's, with its module): their characters are collected once
// per language and per such arrival (the tables are static, so their address
// is their identity).
const std::vector<uint32_t>& table_characters(const Language& language) {
  static const Language* cached_for = nullptr;
  static std::size_t cached_added = 0;
  static std::vector<uint32_t> cached;
  if (cached_for != &language || cached_added != view_strings_added()) {
    cached.clear();
    for (const StringEntry& entry : all_strings(language)) append_code_points(entry.text, &cached);
    sort_unique(&cached);
    cached_for = &language;
    cached_added = view_strings_added();
  }
  return cached;
}

}  // namespace

void append_code_points(std::string_view text, std::vector<uint32_t>* out) {
  for (std::size_t i = 0; i < text.size();) {
    // ASCII is the common case: skip it without decoding.
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    out->push_back(uint32_t(decode_utf8(text, i)));
  }
}

std::vector<uint32_t> characters_in_use(const AppState& state) {
  std::vector<uint32_t> dynamic;
  append_code_points(state.config.text, &dynamic);
  if (state.result)
    for (const std::string& token : state.result->tokens) append_code_points(token, &dynamic);
  for (const std::string& token : state.scaling.example_tokens) append_code_points(token, &dynamic);
  append_code_points(state.error, &dynamic);
  // Weights given from outside (the view "given"): their tokens and titles.
  if (state.given)
    for (const auto* labels : {&state.given->query_tokens, &state.given->key_tokens, &state.given->titles})
      for (const std::string& label : *labels) append_code_points(label, &dynamic);
  // The learned-heads view: its text, what the model read and predicts, the held-out poems' labels.
  const PoemLab& poem = state.poem;
  append_code_points(poem_text_shown(poem), &dynamic);
  if (poem.reading) {
    for (const std::string& token : poem.reading->tokens) append_code_points(token, &dynamic);
    for (const std::string& ch : poem.reading->top_chars) append_code_points(ch, &dynamic);
  }
  // Everything the model being trained can predict, from Start on: one atlas
  // rebuild then, rather than one for each character it comes to predict
  // while it trains (each 15-30 ms of a frame).
  if (poem.training) append_code_points(poem.training->characters, &dynamic);
  // Every held-out poem's label only while the picker lists them: some 1,000
  // characters, which made each atlas rebuild (a new predicted character
  // while typing) 15 ms; else the labels the view shows.
  if (poem.summary) {
    const int poems = int(poem.summary->held_out.size());
    for (int i = 0; i < poems; ++i)
      if (poem.labels_shown || i == poem.poem || i == poem.trained_poem) append_code_points(poem_label(*poem.summary, i), &dynamic);
  }
  sort_unique(&dynamic);
  const std::vector<uint32_t>& table = table_characters(current_language());
  std::vector<uint32_t> all;
  all.reserve(table.size() + dynamic.size());
  std::set_union(table.begin(), table.end(), dynamic.begin(), dynamic.end(), std::back_inserter(all));
  return all;
}

std::string missing_glyphs_note(std::string_view text) {
  // Without a frame (UI tests without a window) there is no font to ask.
  const ImFont* font = ImGui::GetCurrentContext() ? ImGui::GetFont() : nullptr;
  if (!font) return "";
  std::string note;
  for (std::size_t i = 0; i < text.size();) {
    const uint32_t cp = uint32_t(decode_utf8(text, i));
    const bool drawn = cp < 0x80 || font->FindGlyphNoFallback(ImWchar(cp)) != nullptr;  // (ImWchar is 32-bit)
    if (drawn) continue;
    char code[16];
    std::snprintf(code, sizeof code, "U+%04X", unsigned(cp));
    note += (note.empty() ? " (" : " ") + std::string(code);
  }
  return note.empty() ? note : note + ")";
}

}  // namespace attn::ui
