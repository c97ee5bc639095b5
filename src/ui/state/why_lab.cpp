// See why_lab.hpp.
#include "ui/state/why_lab.hpp"

#include <algorithm>
#include <cmath>

#include "ui/state/app_state.hpp"
#include "ui/state/views.hpp"

namespace attn::ui {
namespace {

// A frame's share of training (ms of the module's clock; a step takes at least
// one): three times what the rest of the last frame took, drawing included,
// so training gets three quarters of the time, between these bounds. A
// recurrence step takes about 44 ms in Chromium; drawing a frame there took
// 50 ms more on a machine without a GPU, and one step a frame trained at a
// third of the speed the panel reaches this way.
constexpr double kTrainBudgetMs = 12.0, kTrainBudgetMaxMs = 250.0, kTrainShare = 3.0;
// While a panel trains, its report (every model forward and backward over the
// held-out set: in the recurrence panel as long as four steps) is fetched at
// most once a second, and no sooner than kReportShare of the time since the
// last one has gone to training: reports cost training at most 1 / kReportShare.
constexpr double kReportEveryMs = 1000.0;
constexpr double kReportShare = 10.0;
// Each timing row: long enough for browsers' coarse clocks.
constexpr double kTimingSeconds = 0.25;

std::vector<float> floats(const nlohmann::json& values) {
  std::vector<float> out;
  if (values.is_array())
    for (const nlohmann::json& v : values) out.push_back(v.is_number() ? v.get<float>() : 0.0f);
  return out;
}

double number(const nlohmann::json& model, const char* key, double otherwise) {
  const auto it = model.find(key);
  return it != model.end() && it->is_number() ? it->get<double>() : otherwise;
}

WhyModel read_model(const std::string& key, const nlohmann::json& j) {
  WhyModel m;
  m.key = key;
  m.accuracy = number(j, "accuracy", 0);
  m.loss = number(j, "loss", 0);
  m.asymmetry = number(j, "asymmetry", -1);
  m.self_strongest = number(j, "self_strongest", -1);
  if (j.contains("by_distance")) m.by_distance = floats(j["by_distance"]);
  if (j.contains("gradient")) m.gradient = floats(j["gradient"]);
  if (j.contains("curve_loss")) m.curve_loss = floats(j["curve_loss"]);
  if (j.contains("curve_accuracy")) m.curve_accuracy = floats(j["curve_accuracy"]);
  if (j.contains("attention")) {
    const std::vector<float> a = floats(j["attention"]);
    const int side = int(std::lround(std::sqrt(double(a.size()))));
    if (side > 0 && std::size_t(side) * std::size_t(side) == a.size())
      m.attention = Eigen::Map<const Matrix>(a.data(), side, side);
  }
  return m;
}

// The report's models in the module's order: the recurrence panel's at the
// top level, the Q/K/V panel's under their task.
std::vector<WhyModel> read_models(const nlohmann::json& report, WhyPanel panel, bool lookup) {
  std::vector<WhyModel> out;
  const bool recurrence = panel == WhyPanel::Recurrence;
  const nlohmann::json* models = &report;
  if (!recurrence) {
    const auto task = report.find(lookup ? "lookup" : "previous");
    if (task == report.end()) return out;
    models = &*task;
  }
  const char* keys[2][3] = {{"rnn", "gru", "attention"}, {"none", "tied", "separate"}};
  for (const char* key : keys[recurrence ? 0 : 1])
    if (models->contains(key)) out.push_back(read_model(key, (*models)[key]));
  return out;
}

void fetch_report(AppState& state, WhyPanel panel) {
  WhyLab& lab = state.why;
  WhyRunView& run = lab.runs[int(panel)];
  const double start = state.clock.now_ms();
  nlohmann::json report = nlohmann::json::parse(lab.calls.report(int(panel)), nullptr, false);
  if (report.is_object() && report.contains("pending")) return;  // a trainer's thread is working on it
  run.reported_ms = state.clock.now_ms();
  run.report_ms = run.reported_ms - start;
  if (report.is_object() && report.contains("report_ms")) {  // what it cost on the trainer's thread
    run.report_ms = number(report, "report_ms", run.report_ms);
    report.erase("report_ms");
  }
  if (!report.is_object() || report.contains("error")) {
    run.error = report.is_object() ? report["error"].get<std::string>() : "why: the module's report is not JSON";
    run.running = false;
    run.reported_step = run.step;
    return;
  }
  run.step = report.value("steps", run.step);
  run.finished = report.value("finished", false);
  run.confirm = false;
  run.models = read_models(report, panel, lab.lookup);
  run.report = std::move(report);
  run.reported_step = run.step;
  static uint64_t generations = 0;
  run.generation = ++generations;
  mark_state_changed(state);
}

void start_fresh(AppState& state, WhyPanel panel) {
  WhyLab& lab = state.why;
  WhyRunView& run = lab.runs[int(panel)];
  run = WhyRunView{};
  run.reset_needed = false;
  run.settings = why_settings_json(lab, panel, lab.steps);
  run.error = lab.calls.reset(run.settings.dump());
  if (run.error.empty()) fetch_report(state, panel);
  mark_state_changed(state);
}

bool report_stale(const WhyLab& lab) {
  const WhyRunView& run = why_run_shown(lab);
  return lab.load == ModuleLoad::Ready &&
         (why_needs_fresh_run(lab, lab.panel) || (run.error.empty() && (run.reported_step != run.step || run.confirm)));
}

}  // namespace

bool why_open(const AppState& state) { return open_view(state).source == ViewSource::Why; }

nlohmann::json why_settings_json(const WhyLab& lab, WhyPanel panel, int steps) {
  if (panel == WhyPanel::Recurrence)
    return {{"experiment", "recurrence"},
            {"distance", lab.distance == 0 ? nlohmann::json("mix") : nlohmann::json(lab.distance)},
            {"steps", steps},
            {"seed", lab.seed}};
  return {{"experiment", "qkv"}, {"task", lab.lookup ? "lookup" : "previous"}, {"steps", steps}, {"seed", lab.seed}};
}

bool why_needs_fresh_run(const WhyLab& lab, WhyPanel panel) {
  const WhyRunView& run = lab.runs[int(panel)];
  return run.reset_needed || run.settings != why_settings_json(lab, panel, lab.steps);
}

const std::vector<int>& why_timing_lengths() {
  static const std::vector<int> lengths = {16, 64, 256, 1024};
  return lengths;
}

void why_measure_timing(WhyLab& lab) {
  lab.timing = nlohmann::json::array();
  lab.timing_next = 0;
}

void why_train(AppState& state, WhyAction action) {
  WhyLab& lab = state.why;
  const WhyPanel panel = lab.panel;
  WhyRunView& run = lab.runs[int(panel)];
  mark_state_changed(state);
  switch (action) {
    case WhyAction::Start: run.running = !run.finished && run.error.empty(); break;
    case WhyAction::Pause:
      run.running = false;
      run.confirm = true;
      break;
    case WhyAction::Reset:
      run.reset_needed = true;
      run.running = false;
      break;
    case WhyAction::Step:
      run.running = false;
      if (lab.load != ModuleLoad::Ready || why_needs_fresh_run(lab, panel) || run.finished || !run.error.empty()) break;
      if (const int steps = lab.calls.advance(int(panel), 0.0); steps >= 0) run.step = steps;  // a zero budget: one step
      run.confirm = true;
      break;
  }
}

void why_update(AppState& state) {
  WhyLab& lab = state.why;
  if (lab.load == ModuleLoad::Idle) {
    lab.load = ModuleLoad::Requested;
    mark_state_changed(state);
  }
  if (lab.load != ModuleLoad::Ready) return;
  const double since_training = lab.trained_until_ms < 0 ? 0.0 : state.clock.now_ms() - lab.trained_until_ms;
  const double budget = std::clamp(kTrainShare * since_training, kTrainBudgetMs, kTrainBudgetMaxMs);
  lab.trained_until_ms = -1;
  // A report due while the shown panel trains takes that panel's frame (one
  // or the other: a frame never holds both).
  WhyRunView& shown = lab.runs[int(lab.panel)];
  const bool report_due = shown.running && report_stale(lab) &&
                          state.clock.now_ms() - shown.reported_ms >= std::max(kReportEveryMs, kReportShare * shown.report_ms);
  for (int p = 0; p < kWhyPanels; ++p) {
    const WhyPanel panel = WhyPanel(p);
    WhyRunView& run = lab.runs[p];
    if (why_needs_fresh_run(lab, panel)) {
      if (panel == lab.panel) start_fresh(state, panel);
      else run.running = false;  // its settings changed while another panel was shown
    }
    if (why_needs_fresh_run(lab, panel) || (run.running && report_due && panel == lab.panel)) continue;
    if (!run.running) {
      // Stopped: its steps as the trainer last said (a thread's last slice may come after Pause).
      if (const int steps = lab.calls.advance(p, -1.0); steps >= 0 && steps != run.step) {
        run.step = steps;
        mark_state_changed(state);
      }
      continue;
    }
    const int steps = lab.calls.advance(p, budget);
    lab.trained_until_ms = state.clock.now_ms();
    if (steps < 0) {
      run.running = false;
      run.reset_needed = true;
      continue;
    }
    run.step = steps;
    if (run.step >= lab.steps) run.running = false;
  }
  if (report_stale(lab) && !why_needs_fresh_run(lab, lab.panel) && (!shown.running || report_due))
    fetch_report(state, lab.panel);
  if (lab.timing_next >= 0) {
    const std::vector<int>& lengths = why_timing_lengths();
    const nlohmann::json rows =
        nlohmann::json::parse(lab.calls.timing(kTimingSeconds, lengths[std::size_t(lab.timing_next)]), nullptr, false);
    if (rows.is_object() && rows.contains("pending")) return;  // timed on the trainer's thread: a later frame
    if (rows.is_object() && rows.contains("forward"))
      for (const nlohmann::json& row : rows["forward"]) lab.timing.push_back(row);
    lab.timing_next = lab.timing_next + 1 < int(lengths.size()) ? lab.timing_next + 1 : -1;
    mark_state_changed(state);
  }
}

bool why_busy(const WhyLab& lab) {
  // A threaded trainer's steps ask for their frames (web/why.js): the page
  // then draws when there is news, and leaves the trainer the cores.
  const bool threaded = lab.calls.threaded && lab.calls.threaded();
  return why_pending(lab) || (!threaded && (lab.runs[0].running || lab.runs[1].running));
}

bool why_pending(const WhyLab& lab) {
  return lab.load == ModuleLoad::Requested || lab.load == ModuleLoad::Loading || lab.timing_next >= 0 || report_stale(lab);
}

const WhyRunView& why_run_shown(const WhyLab& lab) { return lab.runs[int(lab.panel)]; }

const WhyModel* why_model(const WhyRunView& run, const std::string& key) {
  for (const WhyModel& m : run.models)
    if (m.key == key) return &m;
  return nullptr;
}

nlohmann::json why_state_json(const WhyLab& lab) {
  nlohmann::json out = {{"load", module_load_name(lab.load)},
                        {"error", lab.load_error},
                        {"panel", lab.panel == WhyPanel::Recurrence ? "recurrence" : "qkv"},
                        {"distance", lab.distance == 0 ? nlohmann::json("mix") : nlohmann::json(lab.distance)},
                        {"recurrent", lab.gru ? "gru" : "rnn"},
                        {"task", lab.lookup ? "lookup" : "previous"},
                        {"steps", lab.steps},
                        {"seed", lab.seed},
                        {"timing", lab.timing},
                        {"measuring", lab.timing_next >= 0}};
  const char* names[] = {"recurrence", "qkv"};
  for (int p = 0; p < kWhyPanels; ++p) {
    const WhyRunView& run = lab.runs[p];
    out[names[p]] = {{"step", run.step},         {"finished", run.finished}, {"running", run.running},
                     {"error", run.error},       {"reported_step", run.reported_step},
                     {"report", run.report}};
  }
  return out;
}

}  // namespace attn::ui
