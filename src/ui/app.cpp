// The frame function, layout and state export; see app.hpp. The explorer's
// panels live in explorer/, the Figure 4.1 panels in fig41_panels.cpp.
#include "ui/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "api/explorer_json.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/fig41_panels.hpp"
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

const char* view_id(View view) {
  switch (view) {
    case View::Heatmaps: return "heatmaps";
    case View::Focus: return "focus";
    case View::Steps: return "steps";
    case View::Lines: return "lines";
    case View::Stats: return "stats";
    case View::Chapter: return "chapter";
    case View::Scaling: return "scaling";
    case View::Debug: return "debug";
  }
  return "heatmaps";
}

bool view_from_id(const std::string& id, View* view) {
  for (int i = 0; i < kViewCount; ++i)
    if (id == view_id(View(i))) {
      *view = View(i);
      return true;
    }
  return false;
}

namespace {

// Runs the core only when a control changed the config, never per frame.
// A config the core rejects leaves the last good result on screen.
void update_result(AppState& state) {
  if (!state.config_changed) return;
  state.config_changed = false;
  ExplorerConfig& config = state.config;
  // A custom mask follows the token count: a new count starts from "all allowed".
  if (config.mask == Mask::Kind::Custom) {
    const int n = int(explorer_tokens(config).size());
    // A pasted novel must not allocate n^2 flags before the check rejects it.
    if (n <= ExplorerLimits::kMaxTokens && (config.custom_mask.rows() != n || config.custom_mask.cols() != n))
      config.custom_mask = MaskMatrix::Constant(n, n, true);
  }
  state.error = check_explorer_config(config);
  if (!state.error.empty()) return;
  const auto start = std::chrono::steady_clock::now();
  state.result = run_explorer(config, state.result ? &*state.result : nullptr);
  state.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const int n = int(state.result->tokens.size());
  state.selected_query = std::clamp(state.selected_query, 0, std::max(0, n - 1));
  const int heads = int(state.result->attention.heads.size());
  if (state.selected_head >= heads) state.selected_head = -1;
  state.lines_head_visible.resize(std::size_t(heads), true);
}

struct TabSpec {
  View view;
  const char* label_key;
  const char* control;
};

void draw_views(AppState& state) {
  static const TabSpec tabs[] = {
      {View::Heatmaps, "tab.heatmaps", "tab_heatmaps"}, {View::Focus, "tab.focus", "tab_focus"},
      {View::Steps, "tab.steps", "tab_steps"},          {View::Lines, "tab.lines", "tab_lines"},
      {View::Stats, "tab.stats", "tab_stats"},          {View::Chapter, "tab.chapter", "tab_chapter"},
      {View::Scaling, "tab.scaling", "tab_scaling"},    {View::Debug, "tab.debug", "tab_debug"}};
  if (!ImGui::BeginTabBar("##views")) return;
  for (const TabSpec& tab : tabs) {
    if (tab.view == View::Debug && !state.debug) continue;
    // While a view is being selected by code, only its tab may draw content
    // (another tab could still report open in the same frame).
    const bool by_code = state.select_view_frames > 0;
    const ImGuiTabItemFlags flags = (by_code && state.view == tab.view) ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(tr(tab.label_key), nullptr, flags);
    record_control(state, tab.control);
    if (!open) continue;
    if (by_code && state.view != tab.view) {
      ImGui::EndTabItem();
      continue;
    }
    state.view = tab.view;
    // Views get a child region, so their own layout starts below the tab bar.
    ImGui::BeginChild("##view", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    switch (tab.view) {
      case View::Heatmaps: heatmaps_view(state); break;
      case View::Focus: focus_view(state); break;
      case View::Steps: steps_view(state); break;
      case View::Lines: lines_view(state); break;
      case View::Stats: stats_view(state); break;
      case View::Chapter:
        if (!state.fig41) state.fig41 = run_figure41();
        fig41_panels(state);
        break;
      case View::Scaling: scaling_view(state); break;
      case View::Debug: debug_view(state); break;
    }
    ImGui::EndChild();
    ImGui::EndTabItem();
  }
  if (state.select_view_frames > 0) --state.select_view_frames;
  ImGui::EndTabBar();
}

}  // namespace

void app_frame(AppState& state) {
  const auto frame_start = std::chrono::steady_clock::now();
  plot::SetCurrentContext(&state.plot);
  state.layout.clear();
  state.controls.clear();
  const ImGuiIO& io = ImGui::GetIO();
  state.framebuffer_w = int(std::lround(io.DisplaySize.x * io.DisplayFramebufferScale.x));
  state.framebuffer_h = int(std::lround(io.DisplaySize.y * io.DisplayFramebufferScale.y));
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
// view draws the Figure 4.1 experiment itself, every other view the explorer.
nlohmann::json layout_config(const AppState& state) {
  if (state.view == View::Chapter) return nlohmann::json{{"experiment", "fig41"}};
  return nlohmann::json::parse(api::print_explorer_config(state.config), nullptr, false);
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
    item["rows"] = entry.rows;
    item["cols"] = entry.cols;
    item["row0"] = entry.cells.row0;
    item["col0"] = entry.cells.col0;
    item["lo"] = entry.lo;  // float -> double is exact; dumped round-trip
    item["hi"] = entry.hi;
    item["colormap"] = gfx::colormap_name(entry.colormap);
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
              {"heads", heads},
              {"stats_table", std::move(stats)},
              {"error", state.error},
              {"scaling", scaling_state_json(state.scaling)},
              {"timings_ms", {{"compute", state.compute_ms}, {"frame", state.frame_ms}}}};
  return out.dump();
}

}  // namespace attn::ui
