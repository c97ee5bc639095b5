// See why_session.hpp.
#include "api/why_session.hpp"

#include "api/why_json.hpp"

namespace attn::api {
namespace {

std::vector<why::ModelSpec> panel_models(const WhyRunSettings& s) {
  return s.panel == WhyPanel::Recurrence ? why::recurrence_models() : why::qkv_models(s.experiment.task);
}

}  // namespace

std::string check_why_run(const WhyRunSettings& s) {
  const bool copy = s.experiment.task == why::Task::Copy;
  if (s.panel == WhyPanel::Recurrence && !copy) return "task: the recurrence panel trains the copy task";
  if (s.panel == WhyPanel::Qkv && copy) return "task: the Q/K/V panel trains previous or lookup";
  if (s.steps < 0 || s.steps > kWhyMaxSteps) return "steps: 0 to " + std::to_string(kWhyMaxSteps);
  return why::check_settings(s.experiment);
}

WhyRun::WhyRun(const WhyRunSettings& settings)
    : settings_(settings), experiment_(settings.experiment, panel_models(settings)) {}

int WhyRun::advance(WorkClock& clock, double budget_ms) {
  const double start = clock.now_ms();
  int taken = 0;
  while (!finished() && (taken == 0 || clock.ms_since(start) < budget_ms)) {
    experiment_.step();
    ++taken;
  }
  return taken;
}

const std::vector<why::ModelReport>& WhyRun::report() {
  if (reported_at_ != steps()) {
    report_ = experiment_.report();
    reported_at_ = steps();
  }
  return report_;
}

OutJson WhyRun::json() {
  const why::ExperimentSettings& e = settings_.experiment;
  if (settings_.panel == WhyPanel::Recurrence) {
    OutJson out = why_header_json("recurrence", e, steps());
    add_why_models(out, report(), e);
    return out;
  }
  OutJson out = why_header_json("qkv", e, steps());
  OutJson variants;
  add_why_models(variants, report(), e);
  out[why::task_name(e.task)] = variants;
  return out;
}

}  // namespace attn::api
