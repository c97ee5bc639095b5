// The presets: named explorer configs, kept as data in assets/presets.json
// (compiled in). A preset's config is parsed by the same parser as any
// config, so it does not depend on the interface language; only its button
// label (a string-table key) does.
#pragma once

#include <string>
#include <vector>

#include "core/explorer/explorer.hpp"

namespace attn::ui {

struct AppState;

struct Preset {
  std::string id;         // ?preset=, --preset, the button's control name "preset_<id>"
  std::string label_key;  // tr() key of the button
  ExplorerConfig config;
};

// In button order. Entries that do not parse are left out (ui_native checks
// that none is).
const std::vector<Preset>& presets();
// Why an entry of the data was left out ("" when all parsed).
const std::string& presets_error();

// Loads preset `id` into the state (and resets selection and zoom); false if unknown.
bool apply_preset(AppState& state, const std::string& id);
// "fig41|causal|...", for usage texts and messages.
std::string preset_ids();

}  // namespace attn::ui
