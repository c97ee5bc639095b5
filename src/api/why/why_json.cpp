// See why_json.hpp.
#include "api/why/why_json.hpp"

#include <cstddef>
#include <string>

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
  if (std::string(experiment) == "recurrence") {
    out["distance"] = s.distance == 0 ? OutJson("mix") : OutJson(s.distance);
    out["conv_layers"] = s.conv_layers;
  }
  return out;
}

void add_why_models(OutJson& out, const std::vector<why::ModelReport>& reports, const why::ExperimentSettings& s) {
  for (const why::ModelReport& r : reports) out[r.key] = why_model_json(r, s);
}

OutJson why_report_json(const WhyReport& report) {
  const why::ExperimentSettings& e = report.settings.experiment;
  OutJson models;
  add_why_models(models, report.models, e);
  for (std::size_t i = 0; i < report.models.size() && i < report.curves.size(); ++i) {
    OutJson loss = OutJson::array(), accuracy = OutJson::array();
    for (const why::CurvePoint& p : report.curves[i]) loss.push_back(p.loss), accuracy.push_back(p.accuracy);
    OutJson& model = models[report.models[i].key];
    model["curve_loss"] = std::move(loss);
    model["curve_accuracy"] = std::move(accuracy);
  }
  if (report.settings.panel == WhyPanel::Recurrence) {
    OutJson out = why_header_json("recurrence", e, report.steps);
    out.update(models);
    return out;
  }
  OutJson out = why_header_json("qkv", e, report.steps);
  out[why::task_name(e.task)] = std::move(models);
  return out;
}

OutJson why_forward_json(const std::vector<why::ForwardTiming>& timings) {
  OutJson rows = OutJson::array();
  for (const why::ForwardTiming& f : timings)
    rows.push_back({{"layer", f.layer}, {"n", f.n}, {"ms", f.ms}, {"gflops", f.gflops()},
                    {"dependent_steps", f.dependent_steps}});
  return rows;
}

OutJson why_forward_json(double seconds_each, int n) {
  const std::vector<int> lengths = n > 0 ? std::vector<int>{n} : std::vector<int>{16, 64, 256, 1024};
  return why_forward_json(why::time_forward(lengths, seconds_each));
}

}  // namespace attn::api
