// The frame function and layout export; see app.hpp. Panels of Figure 4.1
// live in fig41_panels.cpp.
#include "ui/app.hpp"

#include <cmath>

#include <imgui.h>
#include <nlohmann/json.hpp>

#include "ui/fig41_panels.hpp"
#include "ui/panel.hpp"
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

namespace {

void draw_header(AppState& state) {
  const Figure41& fig = *state.fig41;
  ImGui::TextUnformatted(tr("fig41.title"));
  ImGui::SameLine();
  help_marker(tr("fig41.help"));

  // The colormap choice, right-aligned on the title line.
  const char* names[] = {tr("colormap.ylorrd"), tr("colormap.viridis")};
  const float combo_w = ImGui::GetFontSize() * 8.0f;
  const char* label = tr("control.head_colormap");
  const float label_w = ImGui::CalcTextSize(label).x + ImGui::GetStyle().ItemInnerSpacing.x;
  const float right_x = ImGui::GetWindowContentRegionMax().x - combo_w - label_w;
  ImGui::SameLine();
  // Narrow windows: the control moves below the title instead of covering it.
  if (ImGui::GetCursorPosX() + ImGui::GetStyle().ItemSpacing.x > right_x) ImGui::NewLine();
  else ImGui::SameLine(right_x);
  ImGui::SetNextItemWidth(combo_w);
  int current = int(state.head_colormap);
  if (ImGui::Combo(label, &current, names, gfx::kColormapCount)) state.head_colormap = gfx::Colormap(current);

  const int d_head = fig.result.heads.empty() ? 0 : int(fig.result.heads[0].Q.cols());
  ImGui::TextDisabled(tr("fig41.subtitle.fmt"), fig.config.seq_len, fig.config.d_model, fig.config.heads, d_head);
}

}  // namespace

void app_frame(AppState& state) {
  plot::SetCurrentContext(&state.plot);
  state.layout.clear();
  const ImGuiIO& io = ImGui::GetIO();
  state.framebuffer_w = int(std::lround(io.DisplaySize.x * io.DisplayFramebufferScale.x));
  state.framebuffer_h = int(std::lround(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  if (!state.fig41) state.fig41 = run_figure41();

  // One host window covering the canvas; panels are child windows in a grid,
  // so nothing overlaps and everything follows the window size.
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags host_flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("##lab", nullptr, host_flags);
  draw_header(state);
  fig41_panels(state);
  ImGui::End();
}

void app_shutdown(AppState& state) { plot::ShutdownContext(state.plot); }

namespace {
nlohmann::json config_object(const AppState& state) {
  return nlohmann::json{{"experiment", state.experiment}};
}
}  // namespace

std::string current_config_json(const AppState& state) { return config_object(state).dump(); }

std::string layout_json(const AppState& state) {
  using nlohmann::json;
  json heatmaps = json::array();
  for (const HeatmapLayout& entry : state.layout) {
    json item = {{"name", entry.name},
                 {"source", entry.source},
                 {"head", entry.head},
                 {"x", entry.cells.x},
                 {"y", entry.cells.y},
                 {"w", entry.cells.w},
                 {"h", entry.cells.h},
                 {"rows", entry.rows},
                 {"cols", entry.cols},
                 {"lo", entry.lo},  // float -> double is exact; dumped round-trip
                 {"hi", entry.hi},
                 {"colormap", gfx::colormap_name(entry.colormap)}};
    if (state.css_pixel_ratio > 0) {
      const double r = state.css_pixel_ratio;
      item["css_x"] = entry.cells.x / r;
      item["css_y"] = entry.cells.y / r;
      item["css_w"] = entry.cells.w / r;
      item["css_h"] = entry.cells.h / r;
    }
    heatmaps.push_back(std::move(item));
  }
  json layout = {{"config", config_object(state)},
                 {"heatmaps", std::move(heatmaps)},
                 {"framebuffer", {{"w", state.framebuffer_w}, {"h", state.framebuffer_h}}}};
  if (state.css_pixel_ratio > 0) layout["device_pixel_ratio"] = state.css_pixel_ratio;
  return layout.dump();
}

}  // namespace attn::ui
