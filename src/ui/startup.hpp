// What a launch may ask for, from the desktop's flags or the page's URL
// parameters: both mains fill StartupOptions and call apply_startup, so the
// two builds accept the same values and say the same things about bad ones.
#pragma once

#include <string>
#include <vector>

namespace attn::ui {

struct AppState;

struct StartupOptions {
  // "" = not given. Applied in this order, so --text wins over --config,
  // which wins over --preset.
  std::string preset;  // fig41 | causal | sentence0..2 | padded
  std::string config;  // an explorer config (compute()'s text/experiment JSON)
  std::string text;    // a sentence (replaces an experiment input)
  std::string view;    // a views() id
  std::string panel;   // the scaling lab's panel: fig42 | saturation | training
  std::string d_k;     // the scaling lab's d_k, 1..1024
  std::string lang;    // the interface language: a languages() code (en, zh)
};

// Applies every valid option to state; returns one message per option that
// was not applied ("--view: unknown view 'x' (heatmaps|...)"), with `prefix`
// before the option's name ("--" for flags, "?" for URL parameters).
std::vector<std::string> apply_startup(AppState& state, const StartupOptions& options, const char* prefix);

}  // namespace attn::ui
