// The "why attention" view's training in the page (api/why/why_session.hpp): a
// run sliced by the frame budget takes the experiment's own steps, so after N
// steps its JSON is the bytes attention_cli why prints for --steps N (which
// runs it in one slice); the report follows the steps; bad settings are refused.
#include <doctest/doctest.h>

#include <limits>
#include <string>

#include "api/why/why_json.hpp"
#include "api/why/why_session.hpp"
#include "core/why/why_lab.hpp"

namespace attn::api {
namespace {

WhyRunSettings recurrence_settings(int steps) {
  WhyRunSettings s;
  s.experiment.distance = 8;
  s.experiment.batch = 8;
  s.steps = steps;
  return s;
}

std::string sliced_json(const WhyRunSettings& settings, double step_ms, double budget_ms) {
  WhyRun run(settings);
  WorkClock clock(step_ms);  // counting: every reading advances step_ms
  int slices = 0, before = 0;
  while (!run.finished()) {
    const int taken = run.advance(clock, budget_ms);
    CHECK(taken >= 1);                              // a slice always moves
    CHECK(run.steps() == before + taken);
    before = run.steps();
    ++slices;
  }
  CHECK(run.advance(clock, budget_ms) == 0);        // finished: nothing more
  CHECK(slices > 1);
  return run.json().dump();
}

std::string one_slice_json(const WhyRunSettings& settings) {
  WhyRun run(settings);
  WorkClock clock(0.0);
  run.advance(clock, std::numeric_limits<double>::infinity());
  return run.json().dump();
}

TEST_CASE("why session: a run sliced by the frame budget gives the numbers of one slice, for either panel") {
  const WhyRunSettings recurrence = recurrence_settings(12);
  const std::string whole = one_slice_json(recurrence);
  CHECK(sliced_json(recurrence, 1.0, 3.0) == whole);   // three steps a slice
  CHECK(sliced_json(recurrence, 1.0, 0.5) == whole);   // a budget below one reading: one step a slice
  CHECK(whole.find("\"experiment\":\"recurrence\"") != std::string::npos);
  for (const char* key : {"\"rnn\"", "\"gru\"", "\"attention\"", "\"steps\":12", "\"distance\":8"})
    CHECK(whole.find(key) != std::string::npos);

  WhyRunSettings qkv;
  qkv.panel = WhyPanel::Qkv;
  qkv.experiment.task = why::Task::Lookup;
  qkv.experiment.batch = 8;
  qkv.steps = 6;
  const std::string lookup = one_slice_json(qkv);
  CHECK(sliced_json(qkv, 1.0, 2.0) == lookup);
  for (const char* key : {"\"lookup\"", "\"none\"", "\"tied\"", "\"separate\"", "\"asymmetry\""})
    CHECK(lookup.find(key) != std::string::npos);
  CHECK(lookup.find("\"previous\"") == std::string::npos);  // this panel's task only
}

TEST_CASE("why session: the report is measured at the current step, the experiment's own") {
  WhyRunSettings s = recurrence_settings(4);
  WhyRun run(s);
  WorkClock clock(1.0);
  const std::vector<why::ModelReport> untrained = run.report().models;
  REQUIRE(untrained.size() == 4);  // rnn, gru, attention, cnn
  run.advance(clock, 100.0);
  REQUIRE(run.finished());
  // The same as an Experiment stepped by hand.
  why::Experiment by_hand(s.experiment, why::recurrence_models());
  for (int i = 0; i < 4; ++i) by_hand.step();
  const std::vector<why::ModelReport> expected = by_hand.report();
  const std::vector<why::ModelReport>& got = run.report().models;
  REQUIRE(got.size() == expected.size());
  for (std::size_t m = 0; m < got.size(); ++m) {
    CHECK(got[m].key == expected[m].key);
    CHECK(got[m].loss == expected[m].loss);
    CHECK(got[m].gradient == expected[m].gradient);
    CHECK(got[m].loss != untrained[m].loss);  // trained: it moved
  }
}

TEST_CASE("why session: settings a panel cannot train are refused with what is wrong") {
  WhyRunSettings s;
  CHECK(check_why_run(s).empty());
  s.experiment.task = why::Task::Previous;
  CHECK(check_why_run(s).find("copy task") != std::string::npos);
  s.panel = WhyPanel::Qkv;
  CHECK(check_why_run(s).empty());
  s.experiment.task = why::Task::Copy;
  CHECK(check_why_run(s).find("previous or lookup") != std::string::npos);
  s = WhyRunSettings{};
  s.steps = -1;
  CHECK(check_why_run(s).find("steps") != std::string::npos);
  s = WhyRunSettings{};
  s.experiment.distance = 65;  // beyond the sequence
  CHECK(!check_why_run(s).empty());
  s = WhyRunSettings{};
  s.experiment.learning_rate = std::numeric_limits<float>::quiet_NaN();
  CHECK(!check_why_run(s).empty());
}

TEST_CASE("why session: settings read from JSON as the CLI's flags name them; anything wrong is named, nothing changed") {
  WhyRunSettings s;
  CHECK(read_why_settings(Json::parse(R"({"experiment": "qkv", "task": "lookup", "steps": 40, "seed": 9, "batch": 4, "lr": 0.02})"), s) == "");
  CHECK(s.panel == WhyPanel::Qkv);
  CHECK(s.experiment.task == why::Task::Lookup);
  CHECK(s.steps == 40);
  CHECK(s.experiment.seed == 9);
  CHECK(s.experiment.batch == 4);
  CHECK(s.experiment.learning_rate == 0.02f);
  WhyRunSettings r;
  CHECK(read_why_settings(Json::parse(R"({"experiment": "recurrence", "distance": "mix"})"), r) == "");
  CHECK(r.experiment.distance == 0);
  CHECK(read_why_settings(Json::parse(R"({"experiment": "qkv"})"), r) == "");
  CHECK(r.experiment.task == why::Task::Previous);  // a Q/K/V run without a task: the first
  const WhyRunSettings before = s;
  for (const char* bad : {R"({"distance": 0})", R"({"distance": 65})", R"({"distance": 3.5})", R"({"steps": -1})",
                          R"({"batch": 0})", R"({"lr": 0})", R"({"lr": null})", R"({"lr": "fast"})", R"({"task": "copy"})",
                          R"({"experiment": "rnn"})", R"({"colour": 1})", R"([1, 2])", R"({"experiment": "recurrence", "task": "lookup"})"}) {
    CAPTURE(bad);
    const std::string e = read_why_settings(Json::parse(bad), s);
    CHECK(e.rfind("why: ", 0) == 0);
    CHECK(s.steps == before.steps);
    CHECK(s.panel == before.panel);
    CHECK(s.experiment.task == before.experiment.task);
  }
}

}  // namespace
}  // namespace attn::api
