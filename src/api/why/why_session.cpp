// See why_session.hpp.
#include "api/why/why_session.hpp"

#include <type_traits>

#include "api/why/why_json.hpp"

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
  if (s.steps < 0 || s.steps > WhyLimits::kMaxSteps) return "steps: 0 to " + std::to_string(WhyLimits::kMaxSteps);
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

const WhyReport& WhyRun::report() {
  if (reported_at_ != steps()) {
    report_.settings = settings_;
    report_.steps = steps();
    report_.finished = finished();
    report_.models = experiment_.report();
    report_.curves.clear();
    for (std::size_t i = 0; i < experiment_.size(); ++i) report_.curves.push_back(experiment_.curve(i));
    reported_at_ = steps();
  }
  return report_;
}

OutJson WhyRun::json() { return why_report_json(report()); }

std::string read_why_settings(const Json& in, WhyRunSettings& out) {
  if (!in.is_object()) return "why: expected an object, got " + describe(in);
  WhyRunSettings s = out;
  const auto whole = [&](const char* key, long long lo, long long hi, auto& into) -> std::string {
    const Json& v = in[key];
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      return std::string("why: ") + key + ": expected a whole number from " + std::to_string(lo) + " to " +
             std::to_string(hi) + ", got " + describe(v);
    into = static_cast<std::remove_reference_t<decltype(into)>>(v.get<long long>());
    return "";
  };
  for (const auto& [key, v] : in.items()) {
    std::string e;
    if (key == "experiment") {
      if (v == "recurrence") s.panel = WhyPanel::Recurrence, s.experiment.task = why::Task::Copy;
      else if (v == "qkv") s.panel = WhyPanel::Qkv;
      else e = "why: experiment: expected \"recurrence\" or \"qkv\", got " + describe(v);
    } else if (key == "distance") {
      if (v == "mix") s.experiment.distance = 0;
      else if (e = whole("distance", 1, why::kMaxDistance, s.experiment.distance); !e.empty()) e += " or \"mix\"";
    } else if (key == "layers") {
      e = whole("layers", 1, why::kMaxConvLayers, s.experiment.conv_layers);
    } else if (key == "task") {
      if (v == "previous") s.experiment.task = why::Task::Previous;
      else if (v == "lookup") s.experiment.task = why::Task::Lookup;
      else e = "why: task: expected \"previous\" or \"lookup\", got " + describe(v);
    } else if (key == "steps") {
      e = whole("steps", 0, WhyLimits::kMaxSteps, s.steps);
    } else if (key == "seed") {
      e = whole("seed", 0, (1LL << 53), s.experiment.seed);
    } else if (key == "batch") {
      e = whole("batch", 1, 1024, s.experiment.batch);
    } else if (key == "lr") {
      if (!v.is_number() || !(v.get<double>() > 0.0 && v.get<double>() <= 1.0))
        e = "why: lr: expected a number in (0, 1], got " + describe(v);
      else s.experiment.learning_rate = v.get<float>();
    } else {
      e = "why: unknown key \"" + key + "\" (experiment, distance, layers, task, steps, seed, batch, lr)";
    }
    if (!e.empty()) return e;
  }
  // A Q/K/V run names its task; the copy task is the recurrence panel's.
  if (s.panel == WhyPanel::Qkv && s.experiment.task == why::Task::Copy) s.experiment.task = why::Task::Previous;
  if (std::string e = check_why_run(s); !e.empty()) return "why: " + e;
  out = s;
  return "";
}

}  // namespace attn::api
