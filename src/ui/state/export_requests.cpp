// Export requests; see export_requests.hpp.
#include "ui/state/export_requests.hpp"

#include "ui/state/app_state.hpp"

namespace attn::ui {

std::string export_png_name(View view, const ExplorerResult* result) {
  const std::string name = std::string("view_") + view_id(view);
  if (view_spec(view).exports != ViewExports::Matrices || !result) return name + ".png";
  return name + "_" + mask_name(result->config.mask) + ".png";
}

bool request_export(AppState& state, const std::string& what) {
  if (what == "png") {
    state.png_request = export_png_name(state.view, state.result ? &*state.result : nullptr);
    return true;
  }
  if (view_spec(state.view).exports == ViewExports::Poem) {
    ExportFile file;
    if (!poem_export_file(state.poem, what, &file)) return false;
    state.export_requests.push_back(std::move(file));
    return true;
  }
  const std::size_t dot = what.rfind('.');
  if (!state.result || dot == std::string::npos) return false;
  const std::string ext = what.substr(dot);
  if (ext != ".csv" && ext != ".json") return false;
  ExportFile file;
  if (!export_file(*state.result, what.substr(0, dot), ext == ".csv" ? ExportFormat::Csv : ExportFormat::Json, &file))
    return false;
  state.export_requests.push_back(std::move(file));
  return true;
}

}  // namespace attn::ui
