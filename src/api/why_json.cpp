// See why_json.hpp.
#include "api/why_json.hpp"

#include <cstddef>
#include <string>
#include <type_traits>

namespace attn::api {
namespace {

double ratio(const std::vector<double>& g, int a, int b) {
  return g.empty() || g[std::size_t(b)] == 0 ? 0.0 : g[std::size_t(a)] / g[std::size_t(b)];
}

}  // namespace

OutJson why_model_json(const why::ModelReport& r, const why::ExperimentSettings& s) {
  OutJson j{{"accuracy", r.accuracy}, {"loss", r.loss}, {"gradient", r.gradient}};
  if (!r.by_distance.empty()) j["by_distance"] = r.by_distance;
  if (s.task == why::Task::Copy && !r.gradient.empty()) {
    // In the mix, the gradient profile is the distance-32 set's (why_lab.hpp).
    const int T = int(r.gradient.size()), k = s.distance == 0 ? 32 : s.distance;
    j["gradient_first_over_last"] = ratio(r.gradient, 0, T - 1);
    j["gradient_answer_over_last"] = ratio(r.gradient, T - 1 - k, T - 1);
  }
  if (!r.attention.empty()) j["attention"] = r.attention;
  if (r.asymmetry >= 0) j["asymmetry"] = r.asymmetry, j["self_strongest"] = r.self_strongest;
  return j;
}

OutJson why_header_json(const char* experiment, const why::ExperimentSettings& s, int steps) {
  OutJson out{{"experiment", experiment}, {"steps", steps}, {"seed", s.seed}, {"batch", s.batch},
              {"learning_rate", s.learning_rate}};
  if (std::string(experiment) == "recurrence") out["distance"] = s.distance == 0 ? OutJson("mix") : OutJson(s.distance);
  return out;
}

void add_why_models(OutJson& out, const std::vector<why::ModelReport>& reports, const why::ExperimentSettings& s) {
  for (const why::ModelReport& r : reports) out[r.key] = why_model_json(r, s);
}

OutJson why_forward_json(double seconds_each) {
  OutJson rows = OutJson::array();
  for (const why::ForwardTiming& f : why::time_forward({16, 64, 256, 1024}, seconds_each))
    rows.push_back({{"layer", f.layer}, {"n", f.n}, {"ms", f.ms}, {"gflops", f.flops / f.ms / 1e6},
                    {"dependent_steps", f.dependent_steps}});
  return rows;
}

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
    } else if (key == "task") {
      if (v == "previous") s.experiment.task = why::Task::Previous;
      else if (v == "lookup") s.experiment.task = why::Task::Lookup;
      else e = "why: task: expected \"previous\" or \"lookup\", got " + describe(v);
    } else if (key == "steps") {
      e = whole("steps", 0, kWhyMaxSteps, s.steps);
    } else if (key == "seed") {
      e = whole("seed", 0, (1LL << 53), s.experiment.seed);
    } else if (key == "batch") {
      e = whole("batch", 1, 1024, s.experiment.batch);
    } else if (key == "lr") {
      if (!v.is_number() || !(v.get<double>() > 0.0 && v.get<double>() <= 1.0))
        e = "why: lr: expected a number in (0, 1], got " + describe(v);
      else s.experiment.learning_rate = v.get<float>();
    } else {
      e = "why: unknown key \"" + key + "\" (experiment, distance, task, steps, seed, batch, lr)";
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
