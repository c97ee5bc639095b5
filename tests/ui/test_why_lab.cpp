// The why-attention view's state (ui/state/why_lab.hpp) without a window:
// why_update and why_train drive the experiments' calls as the view does,
// served in-process as the desktop serves them (platform/why_native.hpp).
// What the view reports is held to attention_cli why --json (ATTN_CLI_FILE,
// run as a separate program): the same run, trained in one slice there and in
// the view's frame slices here, gives the same numbers.
#include <doctest/doctest.h>

#include <cstdio>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/json_output.hpp"
#include "api/why/why_calls.hpp"
#include "api/why/why_json.hpp"
#include "api/why/why_session.hpp"
#include "platform/why_native.hpp"
#include "ui/a11y/a11y_views.hpp"
#include "ui/state/lab_state.hpp"
#include "ui/state/records.hpp"
#include "ui/state/views.hpp"
#include "ui/state/why_lab.hpp"
#include "../test_files.hpp"

namespace attn::ui {
namespace {

// The view open on `query`, its module served and its shown panel's fresh run reported.
void open_why(AppState& state, const std::string& query) {
  CHECK(apply_url_query(state, "view=why&" + query).empty());
  REQUIRE(why_open(state));
  why_update(state);
  CHECK(state.why.load == ModuleLoad::Requested);  // asks the platform
  platform::serve_why_natively(state);
  REQUIRE(state.why.load == ModuleLoad::Ready);
  why_update(state);
  CHECK(why_run_shown(state.why).reported_step == 0);
}

// Start, then frames until the run pauses by itself; the frames it took.
int train_to_end(AppState& state) {
  why_train(state, WhyAction::Start);
  int frames = 0;
  while (state.why.runs[int(state.why.panel)].running && frames < 100000) {
    why_update(state);
    ++frames;
  }
  why_update(state);  // the last report
  return frames;
}

nlohmann::json cli_json(const std::string& args) {
  std::string out;
  FILE* pipe = popen((test::file_from_env("ATTN_CLI_FILE") + " why " + args + " --json").c_str(), "r");
  REQUIRE(pipe);
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  CHECK(pclose(pipe) == 0);
  return nlohmann::json::parse(out, nullptr, false);
}

// The run's last report as state().why gives it: attention_cli why's document.
nlohmann::json report_json(const WhyRunView& run) {
  REQUIRE(run.report);
  return nlohmann::json::parse(api::dump(api::why_report_json(*run.report)));
}

// The view's report at its last step against the CLI's document.
void check_against_cli(const AppState& state, const std::string& args) {
  const WhyRunView& run = why_run_shown(state.why);
  CHECK(run.finished);
  CHECK(run.step == state.why.steps);
  REQUIRE(run.report);
  CHECK(run.report->finished);
  const nlohmann::json report = report_json(run);
  CHECK(nlohmann::json::parse(run.document) == report);  // what state() shows is the typed report's document
  const nlohmann::json cli = cli_json(args);
  REQUIRE(cli.is_object());
  CHECK(report == cli);  // every number, curve and weight (float32 both ways)
}

}  // namespace

TEST_CASE("why lab: the recurrence run the view trains in frame slices is attention_cli why's") {
  AppState state;
  open_why(state, "why_distance=8&why_steps=12&why_seed=3&why_layers=3");
  const int frames = train_to_end(state);
  CHECK(frames >= 1);
  check_against_cli(state, "recurrence --distance 8 --steps 12 --seed 3 --layers 3");
  CHECK(report_json(why_run_shown(state.why))["conv_layers"] == 3);
  // The models the panels draw are the report's.
  const WhyRunView& run = why_run_shown(state.why);
  const nlohmann::json report = report_json(run);
  const WhyModel* attention = why_model(run, "attention");
  REQUIRE(attention);
  CHECK(attention->accuracy == doctest::Approx(report["attention"]["accuracy"].get<double>()));
  CHECK(attention->gradient.size() == report["attention"]["gradient"].size());
  const int T = int(attention->gradient.size());
  CHECK(attention->attention.rows() == T);
  CHECK(attention->attention(T - 1, 0) == report["attention"]["attention"][std::size_t(T - 1) * std::size_t(T)].get<float>());
  CHECK(attention->curve_loss.size() == 12);
}

TEST_CASE("why lab: the Q/K/V run on lookup is attention_cli why qkv --task lookup's") {
  AppState state;
  open_why(state, "why_panel=qkv&why_task=lookup&why_steps=10");
  train_to_end(state);
  check_against_cli(state, "qkv --task lookup --steps 10");
  const WhyModel* tied = why_model(why_run_shown(state.why), "tied");
  REQUIRE(tied);
  CHECK(tied->asymmetry >= 0);
  CHECK(tied->asymmetry < 1e-5);  // W_Q = W_K: S = X W Wᵀ Xᵀ is symmetric
}

TEST_CASE("why lab: Step takes one step, Reset and a changed setting start again") {
  AppState state;
  open_why(state, "why_steps=20&why_distance=4");
  why_train(state, WhyAction::Step);
  why_train(state, WhyAction::Step);
  why_update(state);
  CHECK(state.why.runs[0].step == 2);
  CHECK(state.why.runs[0].reported_step == 2);
  CHECK_FALSE(state.why.runs[0].running);
  why_train(state, WhyAction::Reset);
  why_update(state);
  CHECK(state.why.runs[0].step == 0);
  why_train(state, WhyAction::Step);
  // Another panel's task does not touch this panel's run; its own distance does.
  CHECK(apply_url_query(state, "why_task=lookup").empty());
  why_update(state);
  CHECK(state.why.runs[0].step == 1);
  CHECK(apply_url_query(state, "why_distance=5").empty());
  why_update(state);
  CHECK(state.why.runs[0].step == 0);
  CHECK(state.why.runs[0].settings.experiment.distance == 5);
  why_train(state, WhyAction::Step);
  CHECK(apply_url_query(state, "why_layers=2").empty());  // the CNN's depth is the run's too
  why_update(state);
  CHECK(state.why.runs[0].step == 0);
  CHECK(state.why.runs[0].settings.experiment.conv_layers == 2);
}

// A trainer on a thread of its own, as the browser's worker (web/why.js,
// why_worker.js): the view's requests are only posted, and the thread
// answers them later, in order, when the test lets it. Its module is the
// in-process one (api/why/why_calls.hpp); each of its slices is one step
// (this thread's own budget, whatever the view asks).
namespace thread {
std::deque<std::vector<uint8_t>> posted;
void post(const std::vector<uint8_t>& request) { posted.push_back(request); }
// The thread answers its first n requests (all: -1).
void answer(AppState& state, int n = -1) {
  for (; n != 0 && !posted.empty(); --n) {
    api::WhyRequest request;
    REQUIRE(api::read_why_request(posted.front(), request));
    posted.pop_front();
    if (request.op == api::WhyOp::Advance && request.number > 0) request.number = 0;
    why_take_answer(state, request.op, api::why_call(api::write_why_request(request)));
  }
}
}  // namespace thread

TEST_CASE("why lab: a trainer on another thread: late steps and reports are picked up, none lost or doubled") {
  AppState state;
  open_why(state, "why_steps=20&why_distance=4");
  state.why.post = thread::post;
  thread::posted.clear();
  WhyRunView& run = state.why.runs[0];
  why_train(state, WhyAction::Start);
  why_update(state);  // the thread starts training: two slices asked for ahead
  CHECK(thread::posted.size() == 2);
  CHECK_FALSE(why_busy(state.why));  // its answers ask for the frames: none of the run's own
  why_update(state);
  CHECK(thread::posted.size() == 2);  // no more until one answers
  thread::answer(state, 3);  // each answer asks for the next slice at once
  CHECK(run.step == 3);
  CHECK(run.running);
  CHECK(thread::posted.size() == 2);
  // Pause: the thread's slices under way still land, then the report of where it stopped.
  why_train(state, WhyAction::Pause);
  why_update(state);
  CHECK_FALSE(run.running);
  CHECK(thread::posted.size() == 2);  // no report before the last slice has answered
  CHECK(why_pending(state.why));      // the frames keep coming until the thread has answered
  thread::answer(state);
  CHECK(run.step == 5);
  why_update(state);
  REQUIRE(thread::posted.size() == 1);
  thread::answer(state);
  CHECK(run.reported_step == 5);
  REQUIRE(run.report);
  CHECK(run.report_ms == run.report->report_ms);  // what the report cost on its thread spaces the next
  CHECK(run.report_ms > 0);
  CHECK_FALSE(why_pending(state.why));
  // Step: its step comes with the thread's next answers; not one more.
  why_train(state, WhyAction::Step);
  why_update(state);
  CHECK(why_pending(state.why));
  thread::answer(state);
  why_update(state);
  thread::answer(state);
  CHECK(run.step == 6);
  CHECK(run.reported_step == 6);
  CHECK_FALSE(why_pending(state.why));
  // The numbers are a fresh run's to step 6: no step lost or taken twice.
  const nlohmann::json fresh = nlohmann::json::parse(
      api::why_call_compute(nlohmann::json{{"why", why_settings_json(state.why, WhyPanel::Recurrence, 6)}}.dump()));
  CHECK(report_json(run) == fresh);
  // Reset while slices are on their way: their late answers belong to the
  // replaced run and change nothing; the fresh run starts at step 0.
  why_train(state, WhyAction::Start);
  why_update(state);
  why_train(state, WhyAction::Reset);
  why_update(state);
  CHECK(thread::posted.size() == 3);
  thread::answer(state);
  CHECK(run.step == 0);
  CHECK(run.reported_step == 0);
  CHECK_FALSE(run.running);
  CHECK(run.error.empty());
  // A thread that stopped answers what it owed with its error: the view says so.
  why_train(state, WhyAction::Step);
  REQUIRE(thread::posted.size() == 1);
  thread::posted.clear();
  why_take_answer(state, api::WhyOp::Advance, api::answer_error("why: the trainer stopped: out of memory"));
  CHECK(run.error == "why: the trainer stopped: out of memory");
  CHECK_FALSE(why_pending(state.why));
}

// The module's bytes: requests it cannot read, panels and runs it does not
// hold, settings out of range and a truncated answer each get a message.
TEST_CASE("why lab: the module answers bad requests with a message") {
  const auto answer = [](api::WhyOp op, const std::vector<uint8_t>& request) {
    return api::read_why_answer(op, api::why_call(request));
  };
  CHECK(answer(api::WhyOp::Report, {1, 2}).error == "why: a request the module cannot read");
  CHECK(answer(api::WhyOp::Report, {99, 0, 0, 0}).error == "why: a request the module cannot read");
  api::WhyRequest r;
  r.op = api::WhyOp::Advance;
  r.panel = 7;
  r.number = 4;
  CHECK(answer(r.op, api::write_why_request(r)).error == "why: no panel 7");
  r.op = api::WhyOp::Reset;
  r.panel = 0;
  r.settings.steps = -1;
  CHECK(answer(r.op, api::write_why_request(r)).error.find("steps") != std::string::npos);
  r.settings = {};
  r.settings.experiment.distance = why::kMaxDistance + 1;
  CHECK(answer(r.op, api::write_why_request(r)).error.find("distance") != std::string::npos);
  r.settings = {};
  r.settings.experiment.conv_layers = why::kMaxConvLayers + 1;
  CHECK(answer(r.op, api::write_why_request(r)).error.find("convolution layers") != std::string::npos);
  r.settings = {};
  r.settings.experiment.task = why::Task::Lookup;  // the Q/K/V panel's task
  CHECK(answer(r.op, api::write_why_request(r)).error.find("task") != std::string::npos);
  r.op = api::WhyOp::Report;
  r.run = 123456;  // never started
  const api::WhyAnswer none = answer(r.op, api::write_why_request(r));
  CHECK(none.error.empty());
  CHECK(none.steps == -1);
  // A run's answer cut short anywhere reads as an error, not as numbers.
  r.op = api::WhyOp::Reset;
  r.settings = {};
  r.settings.steps = 2;
  r.settings.experiment.distance = 2;
  const std::vector<uint8_t> whole = api::why_call(api::write_why_request(r));
  REQUIRE(api::read_why_answer(r.op, whole).error.empty());
  CHECK(api::read_why_answer(r.op, whole).report.models.size() == 4);
  for (const std::size_t cut : {std::size_t(3), whole.size() / 2, whole.size() - 1})
    CHECK(api::read_why_answer(r.op, std::vector<uint8_t>(whole.begin(), whole.begin() + long(cut))).error ==
          "why: the module's answer was cut short");
  r.op = api::WhyOp::Timing;
  r.n = 0;
  r.number = 0.01;
  CHECK(answer(r.op, api::write_why_request(r)).error.find("timing") != std::string::npos);
}

TEST_CASE("why lab: bad values get a clear message and change nothing") {
  AppState state;
  open_why(state, "why_steps=5");
  CHECK(apply_state_fields(state, {{"why_distance", 65}}) == "why_distance: 65 is outside 0..64");
  CHECK(apply_state_fields(state, {{"why_steps", 0}}).rfind("why_steps:", 0) == 0);
  CHECK(apply_state_fields(state, {{"why_task", "reverse"}}).rfind("why_task: \"reverse\" is not one of", 0) == 0);
  CHECK(apply_state_fields(state, {{"why_seed", nlohmann::json::parse("1.5")}}).rfind("why_seed:", 0) == 0);
  CHECK(state.why.distance == 32);
  CHECK(state.why.steps == 5);
  // A URL clamps what it can and says so.
  const std::vector<std::string> notes = apply_url_query(state, "why_distance=99");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("why_distance") != std::string::npos);
  CHECK(state.why.distance == 64);
}

TEST_CASE("why lab: the accessible copy says the panel's numbers") {
  AppState state;
  open_why(state, "why_distance=0&why_steps=3");  // the mix: accuracy at every distance
  train_to_end(state);
  const A11yView copy = a11y_view(state);
  const WhyRunView& run = why_run_shown(state.why);
  CHECK(copy.title.find(": ") != std::string::npos);
  CHECK(copy.summary.find("After 3 steps") == 0);
  char accuracy[32];
  const nlohmann::json report = report_json(run);
  std::snprintf(accuracy, sizeof accuracy, "%.1f %%", report["attention"]["accuracy"].get<double>() * 100);
  CHECK(copy.summary.find(std::string("attention ") + accuracy) != std::string::npos);
  std::snprintf(accuracy, sizeof accuracy, "%.1f %%", report["cnn"]["accuracy"].get<double>() * 100);
  CHECK(copy.summary.find(std::string("The CNN (4 layers of kernel 3) reaches 8 positions back: ") + accuracy) !=
        std::string::npos);
  REQUIRE(copy.tables.size() == 2);
  CHECK(copy.tables[0].rows.size() == 7);  // k = 1 ... 64
  CHECK(copy.tables[0].columns == std::vector<std::string>{"tanh RNN", "CNN", "attention"});
  const auto at_64 = [&](const char* key) {
    char v[32];
    std::snprintf(v, sizeof v, "%.3f", report[key]["by_distance"][6].get<double>());
    return std::string(v);
  };
  CHECK(copy.tables[0].text[6][1] == at_64("cnn"));
  CHECK(copy.tables[0].text[6][2] == at_64("attention"));
  CHECK(copy.tables[1].rows.size() == report["attention"]["gradient"].size());
}

TEST_CASE("why lab: the forward passes are timed one length a frame, into the table and the copy") {
  AppState state;
  open_why(state, "why_steps=1");
  why_measure_timing(state.why);
  int frames = 0;
  while (state.why.timing_next >= 0 && frames < 10) {
    CHECK(why_pending(state.why));  // the frames keep coming until every length is timed
    why_update(state);
    ++frames;
  }
  CHECK(frames == 4);
  REQUIRE(state.why.timing.size() == 16);  // rnn, gru, attention, cnn at n = 16, 64, 256, 1024
  const why::ForwardTiming& rnn_1024 = state.why.timing[12];
  CHECK(rnn_1024.layer == "rnn");
  CHECK(rnn_1024.n == 1024);
  CHECK(rnn_1024.dependent_steps == 1024);
  CHECK(state.why.timing[14].layer == "attention");
  CHECK(state.why.timing[14].dependent_steps == 1);
  CHECK(state.why.timing[15].layer == "cnn");
  CHECK(state.why.timing[15].dependent_steps == 1);
  const A11yView copy = a11y_view(state);
  REQUIRE(copy.tables.size() == 3);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.4g", rnn_1024.ms);
  CHECK(copy.tables[2].rows[0] == "tanh RNN");
  CHECK(copy.tables[2].text[0][3] == ms);
  CHECK(copy.tables[2].text[0][5] == "1024");  // its dependent steps, measured
  CHECK(copy.tables[2].rows[2] == "CNN");
  CHECK(copy.tables[2].text[2][5] == "1");
  CHECK(copy.tables[2].rows[3] == "attention");
  CHECK(copy.tables[2].text[3][5] == "1");
}

// The view's limits are the experiments' own: every value a URL field takes
// is one the experiments accept, the first value past it is refused, and a
// fresh view's settings are attention_cli why's defaults.
TEST_CASE("why lab: the URL fields' ranges and defaults are the core's and the API's") {
  const auto accepted = [](const WhyLab& lab, WhyPanel panel) {
    api::WhyRunSettings run;
    std::string e = api::read_why_settings(why_settings_json(lab, panel, lab.steps), run);
    if (e.empty()) e = api::check_why_run(run);
    return e;
  };
  AppState fresh;
  api::WhyRunSettings settings;
  REQUIRE(api::read_why_settings(why_settings_json(fresh.why, WhyPanel::Recurrence, fresh.why.steps), settings).empty());
  const api::WhyRunSettings defaults;
  CHECK(settings.steps == defaults.steps);
  CHECK(settings.experiment.distance == defaults.experiment.distance);
  CHECK(settings.experiment.conv_layers == defaults.experiment.conv_layers);
  CHECK(settings.experiment.seed == defaults.experiment.seed);
  CHECK(settings.experiment.batch == defaults.experiment.batch);
  CHECK(settings.experiment.learning_rate == defaults.experiment.learning_rate);

  const struct {
    const char* field;
    int lo, hi;
  } ranges[] = {{"why_distance", 0, why::kMaxDistance},
                {"why_layers", 1, why::kMaxConvLayers},
                {"why_steps", 1, api::WhyLimits::kPageMaxSteps}};
  for (const auto& r : ranges) {
    CAPTURE(r.field);
    for (const int v : {r.lo, r.hi}) {
      AppState state;
      CHECK(apply_state_fields(state, {{r.field, v}}).empty());
      CHECK(accepted(state.why, WhyPanel::Recurrence) == "");
    }
    AppState state;
    const std::string range = std::to_string(r.lo) + ".." + std::to_string(r.hi);
    CHECK(apply_state_fields(state, {{r.field, r.hi + 1}}) ==
          std::string(r.field) + ": " + std::to_string(r.hi + 1) + " is outside " + range);
    CHECK(apply_state_fields(state, {{r.field, r.lo - 1}}).find(range) != std::string::npos);
  }
  CHECK(api::WhyLimits::kPageMaxSteps <= api::WhyLimits::kMaxSteps);
}

}  // namespace attn::ui
