// What the "why attention" view asks of its experiments' module and gets
// back, as plain data and as bytes (api/wire.hpp): the browser keeps the
// experiments in a wasm module of their own, trained in a Web Worker, and
// the desktop and the tests hand the same bytes to why_call in-process.
//
// Every request names its panel and run: the view numbers a panel's runs (a
// Reset each), and drops an answer about a run it has since replaced.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/why/why_limits.hpp"
#include "api/wire.hpp"
#include "core/why/why_lab.hpp"

namespace attn::api {

enum class WhyPanel { Recurrence, Qkv };
inline constexpr int kWhyPanels = 2;

struct WhyRunSettings {
  WhyPanel panel = WhyPanel::Recurrence;
  // Recurrence: task Copy, its distance (0: the mix). Qkv: task Previous or Lookup.
  why::ExperimentSettings experiment;
  int steps = WhyLimits::kDefaultSteps;  // where training stops
};
bool same_run(const WhyRunSettings& a, const WhyRunSettings& b);

// A run at one of its steps, measured on the held-out set: what the view
// draws, and what attention_cli why prints (why_json.hpp: why_report_json).
struct WhyReport {
  WhyRunSettings settings;
  int steps = 0;
  bool finished = false;
  std::vector<why::ModelReport> models;              // the experiment's order
  std::vector<std::vector<why::CurvePoint>> curves;  // each model's training batches, step by step
  double report_ms = 0;  // what measuring it cost where the run trains (not in the JSON)
};

enum class WhyOp : uint32_t {
  Reset = 1,    // settings -> the fresh run's status and its report at step 0
  Advance = 2,  // budget_ms (f64; < 0: no step, 0: one) -> status: the steps the budget allowed, at least one while any remain
  Report = 3,   // -> status and the report at the run's step
  Timing = 4,   // seconds each (f64), n -> the rows: each layer's forward pass for n, timed there
};

// A request: its op, panel and run, then the op's fields.
struct WhyRequest {
  WhyOp op = WhyOp::Report;
  int panel = 0;
  uint32_t run = 0;
  WhyRunSettings settings;  // Reset
  double number = 0;        // Advance: the budget (ms); Timing: seconds each
  int n = 0;                // Timing
};
std::vector<uint8_t> write_why_request(const WhyRequest& request);
// False when the bytes are cut short or name no op.
bool read_why_request(const std::vector<uint8_t>& bytes, WhyRequest& out);

// An answer: "" or the error, then (all but Timing) the run's status, then
// the op's data.
struct WhyAnswer {
  std::string error;
  int panel = 0;
  uint32_t run = 0;
  int steps = -1;  // -1: the module holds no run of that panel
  bool finished = false;
  WhyReport report;                          // Reset, Report
  std::vector<why::ForwardTiming> timings;   // Timing
  // The same as attention_cli why prints it (why_json.hpp): the report's
  // document, or the timings' rows. The view draws the typed data; this text
  // is only what state() shows a page, so the main module carries no JSON
  // writer of its own for the experiments.
  std::string document;
};
std::vector<uint8_t> write_why_answer(WhyOp op, const WhyAnswer& answer);
// A truncated answer reads as one whose error says so.
WhyAnswer read_why_answer(WhyOp op, const std::vector<uint8_t>& bytes);

}  // namespace attn::api
