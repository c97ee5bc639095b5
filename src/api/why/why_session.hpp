// One panel of the "why attention" view, trained in the page: its experiment
// (core/why/why_lab.hpp) advanced a slice at a time, each slice as many steps
// as the frame's budget allows (read from a WorkClock, so tests see the same
// slices on any machine), and its report (why_wire.hpp's WhyReport, and as
// attention_cli why's JSON, why_json.hpp). The steps are the experiment's own, however they are
// sliced: after N steps the numbers are those `attention_cli why ... --steps
// N --json` prints, which runs the same class in one slice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "api/json_input.hpp"
#include "api/json_output.hpp"
#include "api/why/why_wire.hpp"
#include "core/why/why_lab.hpp"
#include "core/base/work_clock.hpp"

namespace attn::api {

// "" or what is wrong: the experiment's settings, a task the panel does not
// train, steps outside 0..WhyLimits::kMaxSteps.
std::string check_why_run(const WhyRunSettings& settings);

// A run's settings from JSON, as attention_cli why's flags name them (compute()'s
// {"why": ...} and the view's module): {"experiment": "recurrence" | "qkv",
// "distance": 1..64 | "mix", "task": "previous" | "lookup", "steps", "seed",
// "batch", "lr"}; absent keys keep out's values. "" or the first thing wrong
// (an unknown key, a wrong type, a value out of range), and then out is as it was.
std::string read_why_settings(const Json& in, WhyRunSettings& out);

class WhyRun {
 public:
  // Precondition: check_why_run(settings) is empty.
  explicit WhyRun(const WhyRunSettings& settings);
  // Steps until budget_ms of the clock is spent or the last step is taken; at
  // least one while any remain. Returns the steps taken.
  int advance(WorkClock& clock, double budget_ms);
  int steps() const { return experiment_.steps(); }
  bool finished() const { return steps() >= settings_.steps; }
  const WhyRunSettings& settings() const { return settings_; }
  const why::Experiment& experiment() const { return experiment_; }
  // The run at the current step, its models measured on the held-out set
  // (measured once per step: it costs a forward and backward pass of every model).
  const WhyReport& report();
  // attention_cli why's document at the current step (why_report_json).
  OutJson json();

 private:
  WhyRunSettings settings_;
  why::Experiment experiment_;
  WhyReport report_;
  int reported_at_ = -1;
};

}  // namespace attn::api
