// Start-up options; see startup.hpp.
#include "ui/startup.hpp"

#include <cerrno>
#include <cstdlib>

#include "api/explorer_json.hpp"
#include "ui/app.hpp"
#include "ui/ids.hpp"
#include "ui/presets.hpp"
#include "ui/scaling/lab.hpp"
#include "ui/strings.hpp"

namespace attn::ui {

std::vector<std::string> apply_startup(AppState& state, const StartupOptions& o, const char* prefix) {
  std::vector<std::string> problems;
  const std::string p = prefix;
  if (!o.preset.empty() && !apply_preset(state, o.preset))
    problems.push_back(p + "preset: unknown preset '" + o.preset + "' (" + preset_ids() + ")");
  if (!o.config.empty()) {
    ExplorerConfig config;
    if (std::string why = api::parse_explorer_config(o.config, config); why.empty()) state.config = config;
    else problems.push_back(p + "config: " + why);
  }
  if (!o.text.empty()) {
    state.config.text = o.text;
    state.config.input = Input::Text;  // a sentence replaces an experiment input
  }
  if (!o.view.empty()) {
    if (view_from_id(o.view, &state.view)) state.select_view_frames = 2;
    else problems.push_back(p + "view: unknown view '" + o.view + "' (" + view_ids() + ")");
  }
  if (!o.panel.empty()) {
    if (scaling_panel_from_id(o.panel, &state.scaling.panel)) state.scaling.select_panel_frames = 2;
    else problems.push_back(p + "panel: unknown panel '" + o.panel + "' (" + scaling_panel_ids() + ")");
  }
  if (!o.d_k.empty()) {
    errno = 0;
    char* end = nullptr;
    const long d_k = std::strtol(o.d_k.c_str(), &end, 10);
    if (*end == '\0' && errno == 0 && d_k >= ScalingLimits::kMinDk && d_k <= ScalingLimits::kMaxDk)
      state.scaling.d_k = int(d_k);
    else
      problems.push_back(p + "dk: expected a whole number in " + std::to_string(ScalingLimits::kMinDk) + "-" +
                         std::to_string(ScalingLimits::kMaxDk) + ", got '" + o.d_k + "'");
  }
  if (!o.lang.empty() && !set_language(o.lang))
    problems.push_back(p + "lang: unknown language '" + o.lang + "' (" +
                       join_ids(languages(), [](const Language& l) { return l.code; }) + ")");
  return problems;
}

}  // namespace attn::ui
