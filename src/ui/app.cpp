// The frame function, layout and state export; see app.hpp. The views are
// listed in views.cpp, the explorer's panels live in explorer/ (its core runs
// in explorer/update.cpp), the Figure 4.1 panels in fig41_panels.cpp.
#include "ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "api/explorer_json.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/panel.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/strings.hpp"

namespace attn::ui {

void apply_style(float scale) {
  ImGuiStyle style;  // fresh defaults, so repeated scaling does not compound
  ImGui::StyleColorsLight(&style);
  // A textbook page: white paper, flat panels, thin borders.
  style.WindowRounding = 0.0f;
  style.ChildRounding = 3.0f;
  style.FrameRounding = 2.0f;
  style.WindowBorderSize = 0.0f;
  style.ChildBorderSize = 1.0f;
  style.FrameBorderSize = 1.0f;  // checkboxes and combos stay visible on white panels
  style.WindowPadding = ImVec2(10, 8);
  style.Colors[ImGuiCol_WindowBg] = ImVec4(0.97f, 0.97f, 0.96f, 1.0f);
  style.Colors[ImGuiCol_ChildBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
  style.Colors[ImGuiCol_Border] = ImVec4(0.0f, 0.0f, 0.0f, 0.18f);
  style.Colors[ImGuiCol_FrameBg] = ImVec4(0.93f, 0.93f, 0.93f, 1.0f);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

void app_frame(AppState& state) {
  const auto frame_start = std::chrono::steady_clock::now();
  plot::SetCurrentContext(&state.plot);
  state.layout.clear();
  state.controls.clear();
  const ImGuiIO& io = ImGui::GetIO();
  state.framebuffer_w = int(std::lround(io.DisplaySize.x * io.DisplayFramebufferScale.x));
  state.framebuffer_h = int(std::lround(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  continue_retraining(state);
  update_result(state);
  // The lab's statistics only while it is shown; its training whenever it runs.
  scaling_train(state, state.view == View::Scaling);
  scaling_update(state, state.view == View::Scaling, /*fill_curves=*/true);

  // One host window covering the canvas: the set-up panel on the left, the
  // views as tabs on the right, so nothing overlaps at any window size.
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags host_flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("##lab", nullptr, host_flags);
  const float setup_w = std::floor(std::clamp(io.DisplaySize.x * 0.25f, ImGui::GetFontSize() * 15.0f,
                                              ImGui::GetFontSize() * 22.0f));
  // The left panel holds the open view's controls: the explorer's set-up, or the scaling lab's.
  ImGui::BeginChild("##setup", ImVec2(setup_w, 0), true);
  if (state.view == View::Scaling) scaling_setup_panel(state);
  else setup_panel(state);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("##views_host", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
  update_result(state);  // controls above may have changed the config
  scaling_update(state, state.view == View::Scaling, /*fill_curves=*/false);
  if (state.result) draw_views(state);
  ImGui::EndChild();
  ImGui::End();
  state.frame_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count();
}

void app_shutdown(AppState& state) { plot::ShutdownContext(state.plot); }

std::string current_config_json(const AppState& state) { return api::print_explorer_config(state.config); }

namespace {

nlohmann::json rect_json(const AppState& state, float x, float y, float w, float h) {
  nlohmann::json item = {{"x", x}, {"y", y}, {"w", w}, {"h", h}};
  if (state.css_pixel_ratio > 0) {
    const double r = state.css_pixel_ratio;
    item["css_x"] = x / r;
    item["css_y"] = y / r;
    item["css_w"] = w / r;
    item["css_h"] = h / r;
  }
  return item;
}

// The compute() config that reproduces the heatmaps on screen: the chapter
// view draws the Figure 4.1 experiment itself, every other view the explorer's
// last result (while a change is retraining or rejected, that is not the
// reader's current config).
nlohmann::json layout_config(const AppState& state) {
  if (state.view == View::Chapter) return nlohmann::json{{"experiment", "fig41"}};
  const ExplorerConfig& shown = state.result ? state.result->config : state.config;
  return nlohmann::json::parse(api::print_explorer_config(shown), nullptr, false);
}

}  // namespace

std::string layout_json(const AppState& state) {
  using nlohmann::json;
  json heatmaps = json::array();
  for (const HeatmapLayout& entry : state.layout) {
    json item = rect_json(state, float(entry.cells.x), float(entry.cells.y), float(entry.cells.w), float(entry.cells.h));
    item["name"] = entry.name;
    item["source"] = entry.source;
    item["head"] = entry.head;
    item["rows"] = entry.cells.rows;
    item["cols"] = entry.cells.cols;
    item["row0"] = entry.cells.row0;
    item["col0"] = entry.cells.col0;
    item["lo"] = entry.spec.lo;  // float -> double is exact; dumped round-trip
    item["hi"] = entry.spec.hi;
    item["colormap"] = gfx::colormap_name(entry.spec.colormap);
    if (entry.masked) item["masked_color"] = {gfx::kMaskedColor.r, gfx::kMaskedColor.g, gfx::kMaskedColor.b};
    heatmaps.push_back(std::move(item));
  }
  json controls = json::object();
  for (const auto& [name, r] : state.controls) controls[name] = rect_json(state, r.x, r.y, r.w, r.h);
  json layout = {{"config", layout_config(state)},
                 {"heatmaps", std::move(heatmaps)},
                 {"controls", std::move(controls)},
                 {"view", view_id(state.view)},
                 {"framebuffer", {{"w", state.framebuffer_w}, {"h", state.framebuffer_h}}}};
  if (state.css_pixel_ratio > 0) layout["device_pixel_ratio"] = state.css_pixel_ratio;
  return layout.dump();
}

namespace {

nlohmann::json retraining_json(const AppState& state) {
  int steps = 0, target = 0;
  if (!retraining_progress(state, &steps, &target)) return nullptr;
  return {{"steps", steps}, {"target", target}};
}

}  // namespace

std::string state_json(const AppState& state) {
  using nlohmann::json;
  json tokens = json::array(), stats = json::array();
  int heads = 0;
  if (state.result) {
    for (const std::string& token : state.result->tokens) tokens.push_back(token);
    heads = int(state.result->attention.heads.size());
    // The numbers as the reader sees them: parsed back from the displayed text.
    for (const StatsRow& row : stats_table_text(*state.result)) {
      json item = {{"min", std::strtod(row.min.c_str(), nullptr)},
                   {"max", std::strtod(row.max.c_str(), nullptr)},
                   {"mean", std::strtod(row.mean.c_str(), nullptr)},
                   {"mean_entropy", std::strtod(row.mean_entropy.c_str(), nullptr)}};
      if (row.head == "avg") item["head"] = "avg";
      else item["head"] = std::atoi(row.head.c_str());
      stats.push_back(std::move(item));
    }
  }
  json out = {{"config", json::parse(api::print_explorer_config(state.config), nullptr, false)},
              {"tokens", std::move(tokens)},
              {"selected_query", state.selected_query},
              {"selected_head", state.selected_head},
              {"view", view_id(state.view)},
              {"lang", current_language().code},
              {"heads", heads},
              {"stats_table", std::move(stats)},
              {"error", state.error},
              {"retraining", retraining_json(state)},
              {"scaling", scaling_state_json(state.scaling)},
              {"timings_ms", {{"compute", state.compute_ms}, {"frame", state.frame_ms}}}};
  return out.dump();
}

}  // namespace attn::ui
