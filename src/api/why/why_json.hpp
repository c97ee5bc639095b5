// The "why attention" experiments as JSON: one schema for `attention_cli why
// recurrence|qkv --json` and the view's training in the page (why_session.hpp),
// so the numbers of either can be compared with the other's.
//
//   recurrence: {"experiment": "recurrence", "distance": 32 | "mix", "steps": 600,
//                "seed": 1, "batch": 32, "learning_rate": 0.01,
//                "rnn": MODEL, "gru": MODEL, "attention": MODEL}
//   qkv:        {"experiment": "qkv", "steps", "seed", "batch", "learning_rate",
//                "previous": {"none": MODEL, "tied": MODEL, "separate": MODEL},
//                "lookup": {...}}          (only the tasks run)
//   MODEL:      {"accuracy", "loss", "gradient": [‖∂L/∂x_t‖ for each t],
//                "by_distance": [...] (copy: at 1, 2, 4, ..., 64),
//                "gradient_first_over_last", "gradient_answer_over_last" (copy),
//                "attention": [T x T] (attention), "asymmetry", "self_strongest" (qkv)}
// Numbers are float32 (OutJson); keys come out sorted.
#pragma once

#include <vector>

#include "api/json_output.hpp"
#include "api/why/why_wire.hpp"
#include "core/why/why_lab.hpp"

namespace attn::api {

OutJson why_model_json(const why::ModelReport& report, const why::ExperimentSettings& settings);

// The header of either experiment (settings.task does not enter it).
OutJson why_header_json(const char* experiment, const why::ExperimentSettings& settings, int steps);

// The models of one experiment, by key, into `out` (a recurrence header, or a
// qkv task's object).
void add_why_models(OutJson& out, const std::vector<why::ModelReport>& reports, const why::ExperimentSettings& settings);

// A run's document at its step: the recurrence experiment's, or the qkv
// experiment's with the run's task alone; each model with its training curve
// ("curve_loss", "curve_accuracy": each step's batch).
OutJson why_report_json(const WhyReport& report);

// Parallel against sequential: forward passes timed (why::time_forward), as
// rows {"layer", "n", "ms", "gflops", "dependent_steps"}.
OutJson why_forward_json(const std::vector<why::ForwardTiming>& timings);
// ... one of each layer for n (0: for n = 16, 64, 256, 1024), timed here.
OutJson why_forward_json(double seconds_each, int n = 0);

}  // namespace attn::api
