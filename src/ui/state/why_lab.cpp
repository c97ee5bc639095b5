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

// While a panel trains in the trainer's thread, each Advance asks for a
// slice this long: Pause and Reset wait at most this, or one step where a
// step takes longer. Each slice's answer draws a frame on the page; at 40 ms
// those frames took enough of a 2-core machine that the worker trained slower
// than the page's thread did (docs/performance.md); at 100 ms it trains faster.
constexpr double kWorkerSliceMs = 100.0;
// ... and two are on their way at a time: the next is queued there while the
// page's thread, busy with a frame, has not yet heard of the last.
constexpr int kWorkerSlicesAhead = 2;

std::vector<float> floats(const std::vector<double>& values) { return {values.begin(), values.end()}; }

WhyModel view_model(const why::ModelReport& r, const std::vector<why::CurvePoint>& curve) {
  WhyModel m;
  m.key = r.key;
  m.accuracy = r.accuracy;
  m.loss = r.loss;
  m.asymmetry = r.asymmetry;
  m.self_strongest = r.self_strongest;
  m.by_distance = floats(r.by_distance);
  m.gradient = floats(r.gradient);
  for (const why::CurvePoint& p : curve) m.curve_loss.push_back(float(p.loss)), m.curve_accuracy.push_back(float(p.accuracy));
  const int side = int(std::lround(std::sqrt(double(r.attention.size()))));
  if (side > 0 && std::size_t(side) * std::size_t(side) == r.attention.size())
    m.attention = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                      r.attention.data(), side, side).cast<float>();
  return m;
}

// To the module: through the trainer's thread when there is one (its answer
// comes later, through why_take_answer), else answered at once.
void send(AppState& state, const api::WhyRequest& request) {
  WhyLab& lab = state.why;
  WhyRunView& run = lab.runs[request.panel];
  if (request.op == api::WhyOp::Advance) ++run.advancing;
  if (request.op == api::WhyOp::Reset || request.op == api::WhyOp::Report) run.report_asked = true;
  if (request.op == api::WhyOp::Timing) lab.timing_asked = true;
  const std::vector<uint8_t> bytes = api::write_why_request(request);
  if (lab.post) lab.post(bytes);
  else why_take_answer(state, request.op, lab.call(bytes));
}

api::WhyRequest request(const WhyLab& lab, api::WhyOp op, WhyPanel panel) {
  api::WhyRequest r;
  r.op = op;
  r.panel = int(panel);
  r.run = lab.runs[int(panel)].id;
  return r;
}

void advance(AppState& state, WhyPanel panel, double budget_ms) {
  api::WhyRequest r = request(state.why, api::WhyOp::Advance, panel);
  r.number = budget_ms;
  send(state, r);
}

void take_report(AppState& state, WhyRunView& run, api::WhyReport report, std::string document) {
  run.reported_ms = state.clock.now_ms();
  run.report_ms = report.report_ms;
  run.confirm = false;
  run.models.clear();
  for (std::size_t i = 0; i < report.models.size(); ++i)
    run.models.push_back(view_model(report.models[i], i < report.curves.size() ? report.curves[i] : std::vector<why::CurvePoint>{}));
  run.reported_step = report.steps;
  run.report = std::move(report);
  run.document = std::move(document);
  static uint64_t generations = 0;
  run.generation = ++generations;
}

void start_fresh(AppState& state, WhyPanel panel) {
  WhyLab& lab = state.why;
  WhyRunView& run = lab.runs[int(panel)];
  static uint32_t ids = 0;
  run = WhyRunView{};
  run.reset_needed = false;
  run.settings = why_settings(lab, panel, lab.steps);
  run.id = ++ids;
  api::WhyRequest r = request(lab, api::WhyOp::Reset, panel);
  r.settings = run.settings;
  send(state, r);
  mark_state_changed(state);
}

bool report_stale(const WhyLab& lab) {
  const WhyRunView& run = why_run_shown(lab);
  // A stopped run's last slices and report on their way keep it stale (while
  // it trains, each answer from the trainer's thread draws a frame of its own).
  const bool answers_due = !run.running && (run.report_asked || run.advancing > 0);
  return lab.load == ModuleLoad::Ready &&
         (why_needs_fresh_run(lab, lab.panel) || answers_due ||
          (run.error.empty() && (run.reported_step != run.step || run.confirm)));
}

}  // namespace

bool why_open(const AppState& state) { return open_view(state).source == ViewSource::Why; }

api::WhyRunSettings why_settings(const WhyLab& lab, WhyPanel panel, int steps) {
  api::WhyRunSettings s;
  s.panel = panel;
  s.steps = steps;
  s.experiment.seed = uint64_t(lab.seed);
  if (panel == WhyPanel::Recurrence) {
    s.experiment.distance = lab.distance;
    s.experiment.conv_layers = lab.conv_layers;
  } else {
    s.experiment.task = lab.lookup ? why::Task::Lookup : why::Task::Previous;
  }
  return s;
}

nlohmann::json why_settings_json(const WhyLab& lab, WhyPanel panel, int steps) {
  if (panel == WhyPanel::Recurrence)
    return {{"experiment", "recurrence"},
            {"distance", lab.distance == 0 ? nlohmann::json("mix") : nlohmann::json(lab.distance)},
            {"layers", lab.conv_layers},
            {"steps", steps},
            {"seed", lab.seed}};
  return {{"experiment", "qkv"}, {"task", lab.lookup ? "lookup" : "previous"}, {"steps", steps}, {"seed", lab.seed}};
}

bool why_needs_fresh_run(const WhyLab& lab, WhyPanel panel) {
  const WhyRunView& run = lab.runs[int(panel)];
  return run.reset_needed || !api::same_run(run.settings, why_settings(lab, panel, lab.steps));
}

const std::vector<int>& why_timing_lengths() {
  static const std::vector<int> lengths = {16, 64, 256, 1024};
  return lengths;
}

void why_measure_timing(WhyLab& lab) {
  lab.timing.clear();
  lab.timing_documents.clear();
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
      run.confirm = true;
      advance(state, panel, 0.0);  // a zero budget: one step
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
  const bool report_due = shown.running && !shown.report_asked && report_stale(lab) &&
                          state.clock.now_ms() - shown.reported_ms >= std::max(kReportEveryMs, kReportShare * shown.report_ms);
  for (int p = 0; p < kWhyPanels; ++p) {
    const WhyPanel panel = WhyPanel(p);
    WhyRunView& run = lab.runs[p];
    if (why_needs_fresh_run(lab, panel)) {
      if (panel == lab.panel) start_fresh(state, panel);
      else run.running = false;  // its settings changed while another panel was shown
    }
    if (why_needs_fresh_run(lab, panel) || !run.running || (report_due && panel == lab.panel)) continue;
    if (lab.post) {
      // The trainer's thread: its slices are asked for ahead, the next as
      // each one answers (why_take_answer).
      while (run.advancing < kWorkerSlicesAhead) advance(state, panel, kWorkerSliceMs);
      continue;
    }
    advance(state, panel, budget);
    lab.trained_until_ms = state.clock.now_ms();
  }
  // A report of a stopped run waits for its last slice (Pause: however late it comes).
  const bool settled = !shown.running && shown.advancing == 0;
  if (report_stale(lab) && !why_needs_fresh_run(lab, lab.panel) && !shown.report_asked && (settled || report_due))
    send(state, request(lab, api::WhyOp::Report, lab.panel));
  if (lab.timing_next >= 0 && !lab.timing_asked) {
    api::WhyRequest r;
    r.op = api::WhyOp::Timing;
    r.number = kTimingSeconds;
    r.n = why_timing_lengths()[std::size_t(lab.timing_next)];
    send(state, r);
  }
}

void why_take_answer(AppState& state, api::WhyOp op, const std::vector<uint8_t>& bytes) {
  WhyLab& lab = state.why;
  api::WhyAnswer answer = api::read_why_answer(op, bytes);
  mark_state_changed(state);
  if (op == api::WhyOp::Timing) {
    lab.timing_asked = false;
    if (lab.timing_next < 0) return;
    lab.timing.insert(lab.timing.end(), answer.timings.begin(), answer.timings.end());
    if (answer.error.empty()) lab.timing_documents.push_back(std::move(answer.document));
    const bool last = !answer.error.empty() || lab.timing_next + 1 == int(why_timing_lengths().size());
    lab.timing_next = last ? -1 : lab.timing_next + 1;
    return;
  }
  // An answer that is only an error names no run (the trainer stopped, or
  // could not read the request): it is every waiting run's.
  const bool anonymous = answer.run == 0 && !answer.error.empty();
  for (int p = 0; p < kWhyPanels; ++p) {
    WhyRunView& run = lab.runs[p];
    if (anonymous ? run.advancing == 0 && !run.report_asked : p != answer.panel || answer.run != run.id) continue;
    if (op == api::WhyOp::Advance) run.advancing = std::max(0, run.advancing - 1);
    else run.report_asked = false;
    if (!answer.error.empty() || answer.steps < 0) {
      // The module refused the run, or no longer holds it (a trainer that
      // stopped): the view says so, and Reset starts it again.
      run.error = answer.error.empty() ? "why: the module no longer holds this run (Reset starts it again)" : answer.error;
      run.running = false;
      run.reported_step = run.step;
      continue;
    }
    run.step = answer.steps;
    run.finished = answer.finished;
    if (run.finished || run.step >= lab.steps) run.running = false;
    if (op != api::WhyOp::Advance) take_report(state, run, std::move(answer.report), std::move(answer.document));
    // The trainer's thread trains on while the run does.
    if (op == api::WhyOp::Advance && lab.post && run.running && run.advancing < kWorkerSlicesAhead)
      advance(state, WhyPanel(p), kWorkerSliceMs);
  }
}

bool why_busy(const WhyLab& lab) {
  // A threaded trainer's answers ask for their frames (web/why.js): the page
  // then draws when there is news, and leaves the trainer the cores.
  return why_pending(lab) || (!lab.post && (lab.runs[0].running || lab.runs[1].running));
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

namespace {

// What the module printed (state() shows the page the CLI's numbers, float32
// printed shortest): null when it printed nothing readable.
nlohmann::json printed(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

// The rows measured so far.
nlohmann::json timing_json(const WhyLab& lab) {
  nlohmann::json rows = nlohmann::json::array();
  for (const std::string& text : lab.timing_documents)
    if (const nlohmann::json part = printed(text); part.is_array()) rows.insert(rows.end(), part.begin(), part.end());
  return rows;
}

}  // namespace

nlohmann::json why_state_json(const WhyLab& lab) {
  nlohmann::json out = {{"load", module_load_name(lab.load)},
                        {"error", lab.load_error},
                        {"panel", lab.panel == WhyPanel::Recurrence ? "recurrence" : "qkv"},
                        {"distance", lab.distance == 0 ? nlohmann::json("mix") : nlohmann::json(lab.distance)},
                        {"recurrent", lab.gru ? "gru" : "rnn"},
                        {"conv_layers", lab.conv_layers},
                        {"task", lab.lookup ? "lookup" : "previous"},
                        {"steps", lab.steps},
                        {"seed", lab.seed},
                        {"timing", timing_json(lab)},
                        {"measuring", lab.timing_next >= 0}};
  const char* names[] = {"recurrence", "qkv"};
  for (int p = 0; p < kWhyPanels; ++p) {
    const WhyRunView& run = lab.runs[p];
    out[names[p]] = {{"step", run.step},         {"finished", run.finished}, {"running", run.running},
                     {"error", run.error},       {"reported_step", run.reported_step},
                     {"report", printed(run.document)}};
  }
  return out;
}

}  // namespace attn::ui
