// What the scaling lab reports: each trainer's summary, the numbers as
// displayed and the "scaling" object of state().
#include <cstdio>
#include <cstdlib>

#include "api/scaling/train_json.hpp"
#include "ui/scaling/scaling.hpp"

namespace attn::ui {

TrainerSummary trainer_summary(const Trainer* trainer) {
  TrainerSummary s;
  if (!trainer || trainer->history().empty()) return s;
  const auto& h = trainer->history();
  s.steps = int(h.size());
  s.first_loss = h.front().loss;
  s.loss = h.back().loss;
  s.accuracy = h.back().accuracy;
  s.grad_norm = h.back().grad_norm;
  return s;
}

ScalingNumbersText scaling_numbers_text(const Figure42Dim& dim) {
  auto format = [](float value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", double(value));
    return std::string(text);
  };
  return {format(dim.raw_std), format(dim.scaled_std), format(dim.raw_peak), format(dim.scaled_peak)};
}

nlohmann::json scaling_state_json(const ScalingLab& lab) {
  using nlohmann::json;
  json out = {{"d_k", lab.d_k}, {"samples", lab.samples}, {"n_keys", lab.n_keys},
              {"panel", scaling_panel_id(lab.panel)}};
  // The numbers as the reader sees them: parsed back from the displayed text.
  if (lab.current && lab.current_d_k == lab.d_k && lab.current_samples == lab.samples) {
    const ScalingNumbersText text = scaling_numbers_text(*lab.current);
    out["raw_std"] = std::strtod(text.raw_std.c_str(), nullptr);
    out["scaled_std"] = std::strtod(text.scaled_std.c_str(), nullptr);
    out["raw_peak"] = std::strtod(text.raw_peak.c_str(), nullptr);
    out["scaled_peak"] = std::strtod(text.scaled_peak.c_str(), nullptr);
  } else {
    out["raw_std"] = out["scaled_std"] = out["raw_peak"] = out["scaled_peak"] = nullptr;
  }
  out["curve_points"] = lab.fig42_curve.size();
  // Each model in the schema `attention_cli train --json` prints (api/scaling/train_json.hpp).
  // Through its text: the float32 numbers print as the shortest text that reads
  // back exactly (0.003), where converting the tree would widen them to doubles
  // (0.003000000026077032).
  auto model = [](const Trainer* trainer, float eval) {
    return trainer ? json::parse(api::dump(api::trained_model_json(*trainer, eval, false))) : json(nullptr);
  };
  const char* stopped = lab.stopped == ScalingLab::Stopped::Converged ? "converged"
                        : lab.stopped == ScalingLab::Stopped::Budget  ? "budget"
                                                                      : nullptr;
  out["training"] = {{"running", lab.running},
                     {"stopped", stopped ? json(stopped) : json(nullptr)},
                     {"steps", lab_trained_steps(lab)},
                     {"error", lab.train_error},
                     {"steps_last_frame", lab.steps_last_frame},
                     {"train_ms_last_frame", lab.train_ms_last_frame},
                     {"scaled", model(lab.scaled_model.get(), lab.scaled_eval)},
                     {"unscaled", model(lab.unscaled_model.get(), lab.unscaled_eval)}};
  return out;
}

}  // namespace attn::ui
