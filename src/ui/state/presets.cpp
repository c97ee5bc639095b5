// The presets, parsed once from the compiled-in assets/presets.json; see presets.hpp.
#include "ui/state/presets.hpp"

#include <nlohmann/json.hpp>

#include "api/explorer/explorer_json.hpp"
#include "ui/state/app_state.hpp"
#include "ui/widgets/ids.hpp"

namespace attn::ui {

extern const char* const kPresetsJson;  // presets_data.cpp, generated

namespace {

struct Table {
  std::vector<Preset> presets;
  std::string error;
};

// [{"id", "label", "config"}]; never throws (the wasm build has no exceptions).
Table parse_presets() {
  Table table;
  // From a std::string, as every other parse in the lab: nlohmann builds its
  // parser once per kind of input, and a second one cost the first download 1.4 KB.
  const api::Json data = api::Json::parse(std::string(kPresetsJson), nullptr, /*allow_exceptions=*/false);
  if (!data.is_array()) {
    table.error = "assets/presets.json: not a JSON array";
    return table;
  }
  for (std::size_t i = 0; i < data.size(); ++i) {
    const api::Json& entry = data[i];
    const std::string where = "assets/presets.json[" + std::to_string(i) + "]: ";
    const api::Json* id = entry.is_object() ? api::find_field(entry, "id") : nullptr;
    const api::Json* label = entry.is_object() ? api::find_field(entry, "label") : nullptr;
    const api::Json* config = entry.is_object() ? api::find_field(entry, "config") : nullptr;
    if (!id || !id->is_string() || !label || !label->is_string() || !config) {
      table.error += where + "needs \"id\", \"label\" and \"config\"; ";
      continue;
    }
    Preset preset{id->get<std::string>(), label->get<std::string>(), {}};
    if (std::string e = api::read_explorer_config(*config, preset.config); !e.empty()) {
      table.error += where + e + "; ";
      continue;
    }
    table.presets.push_back(std::move(preset));
  }
  return table;
}

const Table& table() {
  static const Table parsed = parse_presets();
  return parsed;
}

}  // namespace

const std::vector<Preset>& presets() { return table().presets; }
const std::string& presets_error() { return table().error; }

bool apply_preset(AppState& state, const std::string& id) {
  for (const Preset& preset : presets()) {
    if (id != preset.id) continue;
    state.config = preset.config;
    // An experiment has no text: the sentence box shows it empty, not a stale sentence.
    if (state.config.input != Input::Text) state.config.text.clear();
    state.selected_query = 0;
    state.selected_head = -1;
    state.zoom = plot::HeatmapZoom{};
    return true;
  }
  return false;
}

std::string preset_ids() { return join_ids(presets()); }

}  // namespace attn::ui
