// The frame function, layout and state export; see app.hpp. The views are
// listed in views.cpp, the explorer's panels live in explorer/ (its core runs
// in explorer/update.cpp), the Figure 4.1 panels in fig41_panels.cpp.
#include "ui/shell/app.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>

#include <imgui.h>
#include <imgui_internal.h>  // ImHashStr, ImGuiWindow (measure_wanted_height)
#include <nlohmann/json.hpp>

#include "api/explorer/explorer_json.hpp"
#include "api/given/given_json.hpp"
#include "ui/a11y/a11y.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/why/why.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/shell/notices.hpp"
#include "ui/shell/views.hpp"
#include "ui/widgets/panel.hpp"
#include "ui/widgets/records.hpp"
#include "ui/widgets/text.hpp"
#include "ui/widgets/theme.hpp"

namespace attn::ui {

// The platform's scale change keeps the theme the style was built for
// (theme.hpp); app_frame makes the style follow state.theme.
namespace {

// ---- the frame's layout -------------------------------------------------------
// controls=full: the set-up panel left of the view, a button on the tab bar
// hides it; compact: the same panel, hidden until the button opens it; none:
// only the open view, no tab bar. A window narrower than about 560 CSS pixels
// (43 lines of text) would give the side panel over 40 % of its width, and one
// lower than about 420 (a phone on its side) leaves it no height: there
// the set-up starts hidden and, when opened, takes the view's place until the
// button closes it again. The button's last choice is kept per mode and per
// width class: a window resized to a phone's width never hides the figure
// behind a panel the reader opened beside it.

bool narrow_window() { return stacked_layout(); }

// The reader's last use of the set-up button in this mode at this width
// class: -1 never (the mode's default), 0 hidden, 1 shown. UI-only, so it
// lives in the host window's ImGui storage rather than in the state the URL
// carries. (Looked up by a key fixed here: ImGui::GetID would differ inside
// the tab bar.)
int& setup_choice(ControlsMode mode, bool narrow) {
  const char* keys[2][2] = {{"##setup_full_wide", "##setup_full_narrow"},
                            {"##setup_compact_wide", "##setup_compact_narrow"}};
  const ImGuiID key = ImHashStr(keys[mode == ControlsMode::Full ? 0 : 1][narrow ? 1 : 0]);
  return *ImGui::GetStateStorage()->GetIntRef(key, -1);
}

bool setup_shown(ControlsMode mode, bool narrow) {
  const int choice = setup_choice(mode, narrow);
  if (choice >= 0) return choice == 1;
  return mode == ControlsMode::Full && !narrow;
}

// The scaling lab is open: its statistics are computed (its training runs whenever started).
bool scaling_open(const AppState& state) { return open_view(state).source == ViewSource::Scaling; }

// After the lab's content drew into the current window: how tall the lab wants
// to be (AppState::wanted_height): as tall as it is, changed by what the
// layouts that fill it would take at their natural heights (want_height,
// widgets/panel); with no such layout, as tall as its content reaches.
void measure_wanted_height(AppState& state) {
  bool reported = false;
  const float change = take_wanted_height_change(&reported);
  const float height = ImGui::GetIO().DisplaySize.y;
  if (reported) {
    state.wanted_height = height + change;
    return;
  }
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float host_padding = (window->Flags & ImGuiWindowFlags_ChildWindow) ? ImGui::GetStyle().WindowPadding.y : 0;
  state.wanted_height = std::max(height, window->DC.CursorMaxPos.y + window->Scroll.y + window->WindowPadding.y + host_padding);
}

// The open view's controls: the explorer's set-up, or the scaling lab's.
void setup_child(AppState& state, const ImVec2& size) {
  ImGui::BeginChild("##setup", size, true);
  const ViewSource source = open_view(state).source;
  if (source == ViewSource::Scaling) scaling_setup_panel(state);
  else if (source == ViewSource::Poem) poem_setup_panel(state);
  else if (source == ViewSource::Why) why_setup_panel(state);
  else setup_panel(state);
  measure_wanted_height(state);  // the set-up's own; a view drawn after it measures again
  ImGui::EndChild();
  record_region(state, "setup_panel");
}

ViewsFrame frame_views(AppState& state) {
  ViewsFrame frame;
  const ControlsMode mode = state.controls_mode;
  const auto update = [&state] {
    update_result(state);  // the set-up may have changed the config
    if (state.views_code == ModuleLoad::Ready) scaling_update(state, scaling_open(state), /*fill_curves=*/false);
  };
  if (mode == ControlsMode::None) {
    frame.tabs = false;
    frame.around = [&state, update](const std::function<void()>& view) {
      update();
      view();
      measure_wanted_height(state);
    };
    return frame;
  }
  // Weights given from outside have no set-up: the view is all there is.
  const bool own_setup = open_view(state).source != ViewSource::Given;
  const bool narrow = narrow_window(), shown = own_setup && setup_shown(mode, narrow);
  if (own_setup) frame.leading = [&state, mode, narrow, shown] {
    // "###": one id for both labels, so the button keeps its place on the bar.
    const std::string label = std::string(tr(shown ? "setup.toggle.hide" : "setup.toggle.show")) + "###setup_toggle";
    if (ImGui::TabItemButton(label.c_str(), ImGuiTabItemFlags_Leading | ImGuiTabItemFlags_NoTooltip))
      setup_choice(mode, narrow) = shown ? 0 : 1;
    record_control(state, "setup_toggle");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("setup.toggle.help"));
  };
  const float setup_w = std::floor(std::clamp(ImGui::GetIO().DisplaySize.x * 0.25f, ImGui::GetFontSize() * 15.0f,
                                              ImGui::GetFontSize() * 22.0f));
  frame.around = [&state, update, shown, narrow, setup_w](const std::function<void()>& view) {
    if (shown && narrow) {  // the set-up in the view's place
      setup_child(state, ImVec2(0, 0));
      update();
      return;
    }
    if (shown) {
      setup_child(state, ImVec2(setup_w, 0));
      ImGui::SameLine();
    }
    update();
    ImGui::BeginChild("##view_body", ImVec2(0, 0), false, ImGuiWindowFlags_NoScrollWithMouse);
    view();
    measure_wanted_height(state);
    plot::ScrollWindowWithWheel();
    ImGui::EndChild();
  };
  return frame;
}

}  // namespace

namespace {

// Whether this frame's input may change the state: a mouse button down or
// released, the wheel, a key down, a character, or a widget still active. A
// mouse that only moves (hover readouts, tooltips) changes nothing kept.
bool frame_has_input(const ImGuiIO& io) {
  for (int b = 0; b < IM_ARRAYSIZE(io.MouseDown); ++b)
    if (io.MouseDown[b] || io.MouseReleased[b]) return true;
  for (bool down : io.KeysDown)
    if (down) return true;
  return io.MouseWheel != 0 || io.MouseWheelH != 0 || !io.InputQueueCharacters.empty() || ImGui::IsAnyItemActive();
}

// The other views' work each frame, once their code is there (view_code_ready:
// in the browser it comes after the first view).
void other_views_work(AppState& state) {
  // The lab's statistics only while it is shown; its training whenever it runs.
  scaling_train(state, scaling_open(state));
  scaling_update(state, scaling_open(state), /*fill_curves=*/true);
  if (poem_open(state)) poem_update(state);  // loads the model when first opened, reads the text
  if (why_open(state)) why_update(state);    // loads the experiments when first opened, trains the running panels
}

}  // namespace

void app_frame(AppState& state) {
  const auto frame_start = std::chrono::steady_clock::now();
  ++state.frames;
  state.frame_pieces = 0;
  // Input, a change between frames (set(), a button of the accessible copy, a
  // font) or in the last frame (a button's work, e.g. a training step, shows
  // in the frame after) moves the generation.
  const ImGuiIO& io = ImGui::GetIO();
  const int framebuffer_w = int(std::lround(io.DisplaySize.x * io.DisplayFramebufferScale.x));
  const int framebuffer_h = int(std::lround(io.DisplaySize.y * io.DisplayFramebufferScale.y));
  // A new window size lays the views out again (the accessible copy lists what is drawn).
  const bool changed = frame_has_input(io) || state.state_generation != state.frame_end_generation ||
                       framebuffer_w != state.framebuffer_w || framebuffer_h != state.framebuffer_h;
  if (changed || state.changed_last_frame) mark_state_changed(state);
  const uint64_t generation_at_start = state.state_generation;
  if (app_busy(state)) state.busy_frame = state.frames;
  const int select_view_frames = state.select_view_frames, select_panel_frames = state.scaling.select_panel_frames;
  plot::SetCurrentContext(&state.plot);
  follow_theme(state.theme);  // before any window: the whole frame in one theme
  state.layout.clear();
  clear_text_runs();
  state.a11y_tables.clear();
  state.controls.clear();
  ImGui::GetIO().ConfigInputTextCursorBlink = !state.reduced_motion;
  state.framebuffer_w = framebuffer_w;
  state.framebuffer_h = framebuffer_h;
  if (state.release_text_box) {
    if (ImGui::GetIO().WantTextInput) ImGui::ClearActiveID();
    state.release_text_box = false;
  }
  continue_retraining(state);
  update_result(state);
  if (state.views_code == ModuleLoad::Ready) other_views_work(state);

  // One host window covering the canvas, holding the tab bar, the set-up
  // panel and the open view as frame_views chooses: nothing overlaps at any size.
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(io.DisplaySize);
  const ImGuiWindowFlags host_flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  // On a phone every pixel of width goes to the figure: slimmer margins and a
  // slim scrollbar (a finger scrolls; the bar only says where the view is).
  set_stacked_when_short(state.controls_mode != ControlsMode::None);
  const bool stacked = stacked_layout();
  if (stacked) {
    const float font = ImGui::GetFontSize();
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(std::floor(font * 0.3f), std::floor(font * 0.3f)));
    ImGui::PushStyleVar(ImGuiStyleVar_ScrollbarSize, std::floor(font * 0.35f));
  }
  ImGui::Begin("##lab", nullptr, host_flags);
  take_wanted_height_change();  // only the open view's layouts count
  draw_notices(state);
  if (state.result) draw_views(state, frame_views(state));
  else setup_child(state, ImVec2(0, 0));  // no result yet: the set-up is the way to one
  if (open_view(state).source == ViewSource::Explorer) handle_cell_keys(state);  // a11y.hpp
  // A tab bar counts its selection frames down; without one (controls "none",
  // another view open) nothing would, and the app would never go idle. Before
  // the first result there are no tabs yet: while its recompute runs (a few
  // frames for a big config) the selection waits for them, and for the code
  // of the open view (view_code_ready) while it is on its way.
  if (state.result || !state.explorer_job) {
    if (state.select_view_frames == select_view_frames) state.select_view_frames = std::max(0, select_view_frames - 1);
    if (state.scaling.select_panel_frames == select_panel_frames && !view_code_coming(state))
      state.scaling.select_panel_frames = std::max(0, select_panel_frames - 1);
  }
  if (state.settle_frames > 0 && !state.explorer_job) --state.settle_frames;
  // A stacked panel that fitted itself to its content is laid out again next frame.
  if (take_fitted_resize()) state.settle_frames = std::max(state.settle_frames, 2);
  ImGui::End();
  if (stacked) ImGui::PopStyleVar(2);
  // What is left of the frame's share goes to a pending recompute, for the
  // newest config (the set-up panel may have changed it in this frame).
  continue_explorer_job(state);
  state.changed_last_frame = changed || state.state_generation != generation_at_start;
  state.frame_end_generation = state.state_generation;
  state.frame_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - frame_start).count();
  if (state.recent_frame_ms.size() == AppState::kRecentFrames)
    state.recent_frame_ms.erase(state.recent_frame_ms.begin());
  state.recent_frame_ms.push_back(float(state.frame_ms));
  if (state.recent_frame_pieces.size() == AppState::kRecentFrames)
    state.recent_frame_pieces.erase(state.recent_frame_pieces.begin());
  state.recent_frame_pieces.push_back(state.frame_pieces);
}

bool app_pending(const AppState& state) {
  int steps = 0, target = 0;
  ExplorerProgress progress;
  return view_code_coming(state) || state.select_view_frames > 0 || state.scaling.select_panel_frames > 0 || state.settle_frames > 0 ||
         retraining_progress(state, &steps, &target) || explorer_progress(state, &progress) ||
         (open_view(state).histograms && state.result && !has_histograms(*state.result)) ||
         scaling_pending(state.scaling, scaling_open(state)) || poem_pending(state.poem) ||
         (why_open(state) && why_pending(state.why)) ||
         (open_view(state).source == ViewSource::Chapter && !state.fig41);
}

bool app_busy(const AppState& state) {
  return app_pending(state) || state.scaling.running || poem_busy(state.poem) || (why_open(state) && why_busy(state.why));
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
  if (open_view(state).source == ViewSource::Chapter) return nlohmann::json{{"experiment", "fig41"}};
  if (open_view(state).source == ViewSource::Given && state.given)  // compute() reads them back
    return nlohmann::json{{"given", api::given_json(*state.given)}};
  if (open_view(state).source == ViewSource::Poem) {
    nlohmann::json poem = {{"text", state.poem.read_text}};
    if (state.poem.read_trained) poem["model"] = "training";  // compute() asks the trainer
    return nlohmann::json{{"poem", std::move(poem)}};
  }
  if (open_view(state).source == ViewSource::Why) {  // compute() trains a fresh run to the step shown
    const WhyRunView& run = why_run_shown(state.why);
    return nlohmann::json{{"why", why_settings_json(state.why, state.why.panel, std::max(run.reported_step, 0))}};
  }
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
    item["zoomable"] = entry.zoomable;
    if (entry.masked) item["masked_color"] = {gfx::kMaskedColor.r, gfx::kMaskedColor.g, gfx::kMaskedColor.b};
    heatmaps.push_back(std::move(item));
  }
  json controls = json::object();
  for (const auto& [name, r] : state.controls) controls[name] = rect_json(state, r.x, r.y, r.w, r.h);
  json sections = json::array();
  for (const Section& s : last_frame_sections()) {
    json item = rect_json(state, s.rect.x, s.rect.y, s.rect.w, s.rect.h);
    item["name"] = s.name;
    item["parent"] = s.parent;
    item["inner"] = rect_json(state, s.inner.x, s.inner.y, s.inner.w, s.inner.h);
    item["scroll_x"] = s.scroll_x;
    item["scroll_y"] = s.scroll_y;
    item["scroll_top"] = s.scroll_top;
    item["panel"] = s.panel;
    item["content_h"] = s.content_h;
    sections.push_back(std::move(item));
  }
  json texts = json::array();
  for (const TextRun& run : text_runs()) {
    json item = rect_json(state, run.x, run.y, run.w, run.h);
    item["section"] = run.window;
    item["text"] = run.text;
    texts.push_back(std::move(item));
  }
  json layout = {{"config", layout_config(state)},
                 {"sections", std::move(sections)},
                 {"texts", std::move(texts)},
                 {"heatmaps", std::move(heatmaps)},
                 {"controls", std::move(controls)},
                 {"view", view_id(state.view)},
                 {"theme", theme_id(state.theme)},  // as drawn (?theme=auto and host follow a colour scheme)
                 {"framebuffer", {{"w", state.framebuffer_w}, {"h", state.framebuffer_h}}},
                 {"wanted_height", state.wanted_height},  // framebuffer px: what a host's height 'auto' is told
                 // Which frame this is (state().frames counts the same): a test that
                 // reads the layout, takes a screenshot and reads it again knows
                 // whether the shot is of the frame described.
                 {"frame", state.frames}};
  if (state.css_pixel_ratio > 0) layout["device_pixel_ratio"] = state.css_pixel_ratio;
  return layout.dump();
}

namespace {

nlohmann::json retraining_json(const AppState& state) {
  int steps = 0, target = 0;
  if (!retraining_progress(state, &steps, &target)) return nullptr;
  return {{"steps", steps}, {"target", target}};
}

nlohmann::json pending_json(const AppState& state) {
  ExplorerProgress p;
  if (!explorer_progress(state, &p)) return nullptr;
  return {{"pieces_done", p.pieces_done}, {"pieces", p.pieces},     {"heads_done", p.heads_done},
          {"heads", p.heads},             {"percent", p.percent()}, {"config", nlohmann::json::parse(api::print_explorer_config(state.explorer_job->config()), nullptr, false)}};
}

}  // namespace

namespace {

// Every view in tab order, from the views table: the tests take the list from
// here (state().views, attention_app --views) rather than repeating it.
nlohmann::json views_table_json() {
  nlohmann::json out = nlohmann::json::array();
  for (const ViewSpec& spec : views())
    // always: a tab at every load; not always: only with ?debug=1 (debug_only) or with weights given.
    out.push_back({{"id", spec.id}, {"source", view_source_id(spec.source)},
                   {"always", spec.shown == ViewShown::Always}, {"debug_only", spec.shown == ViewShown::Debug}});
  return out;
}

}  // namespace

std::string views_json() { return views_table_json().dump(); }

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
  // A shuffled sentence's order check (explorer/order.cpp), or null.
  json order = nullptr;
  if (state.order_check)
    order = {{"order", state.order_check->order},
             {"weights_without", state.order_check->weights_without},
             {"outputs_without", state.order_check->outputs_without},
             {"weights_with", state.order_check->weights_with},
             {"outputs_with", state.order_check->outputs_with},
             {"mask_orders", state.order_check->mask_orders},
             {"labels", state.order_labels}};
  else if (!state.order_error.empty())
    order = {{"error", state.order_error}};
  json out = {{"config", json::parse(api::print_explorer_config(state.config), nullptr, false)},
              {"tokens", std::move(tokens)},
              {"order", std::move(order)},
              {"selected_query", state.selected_query},
              {"selected_head", state.selected_head},
              {"view", view_id(state.view)},
              {"views", views_table_json()},
              // Where the code of every view but the first stands (AppState::views_code).
              {"views_code", {{"load", module_load_name(state.views_code)}, {"error", state.views_code_error}}},
              {"lang", current_language().code},
              {"heads", heads},
              {"stats_table", std::move(stats)},
              {"error", state.error},
              {"retraining", retraining_json(state)},
              {"pending", pending_json(state)},
              {"scaling", scaling_state_json(state.scaling)},
              {"poem", poem_state_json(state.poem)},
              {"why", why_state_json(state.why)},
              {"frames", state.frames},
              {"reduced_motion", state.reduced_motion},
              {"cursor", {{"key", state.cursor.key}, {"shown", state.cursor.shown}, {"moves", state.cursor.moves}}},
              {"notices", state.notices},
              {"timings_ms", {{"compute", state.compute_ms}, {"frame", state.frame_ms}, {"recent", state.recent_frame_ms}}},
              {"frame_pieces", state.recent_frame_pieces}, {"compute_pieces", state.compute_pieces}};
  return out.dump();
}

}  // namespace attn::ui
