// See why_calls.hpp.
#include "api/why/why_calls.hpp"

#include <limits>
#include <memory>

#include "api/json_input.hpp"
#include "api/json_output.hpp"
#include "api/why/why_json.hpp"
#include "api/why/why_session.hpp"
#include "core/base/work_clock.hpp"

namespace attn::api {
namespace {

struct PanelRun {
  std::unique_ptr<WhyRun> run;
  uint32_t id = 0;  // the view's number for it
};
PanelRun runs[kWhyPanels];

std::string error_json(const std::string& error) { return OutJson{{"error", error}}.dump(); }

}  // namespace

std::vector<uint8_t> why_call(const std::vector<uint8_t>& bytes) {
  // The app's frame budgets (a counting clock in the UI tests: the same slices on any machine).
  static WorkClock clock;
  WhyRequest request;
  if (!read_why_request(bytes, request)) return answer_error("why: a request the module cannot read");
  WhyAnswer answer;
  if (request.op == WhyOp::Timing) {
    if (request.n < 1 || request.n > 4096 || !(request.number > 0 && request.number <= 10))
      answer.error = "why: timing: n from 1 to 4096, 0 to 10 seconds each";
    else answer.timings = why::time_forward({request.n}, request.number);
    answer.document = dump(why_forward_json(answer.timings));
    return write_why_answer(request.op, answer);
  }
  answer.panel = request.panel;
  answer.run = request.run;
  if (request.panel != 0 && request.panel != 1) {
    answer.error = "why: no panel " + std::to_string(request.panel);
    return write_why_answer(request.op, answer);
  }
  PanelRun& slot = runs[request.panel];
  if (request.op == WhyOp::Reset) {
    answer.error = check_why_run(request.settings);
    if (answer.error.empty() && int(request.settings.panel) != request.panel) answer.error = "why: settings of the other panel";
    if (!answer.error.empty()) return write_why_answer(request.op, answer);
    slot.run = std::make_unique<WhyRun>(request.settings);
    slot.id = request.run;
  } else if (!slot.run || slot.id != request.run) {
    return write_why_answer(request.op, answer);  // a run this module no longer holds (or never did): steps -1
  }
  WhyRun& run = *slot.run;
  if (request.op == WhyOp::Advance && request.number >= 0) run.advance(clock, request.number);
  if (request.op == WhyOp::Reset || request.op == WhyOp::Report) {
    const double start = clock.now_ms();
    answer.report = run.report();
    answer.report.report_ms = clock.ms_since(start);
    answer.document = dump(why_report_json(answer.report));
  }
  answer.steps = run.steps();
  answer.finished = run.finished();
  return write_why_answer(request.op, answer);
}

std::string why_call_compute(const std::string& config_json) {
  Json config;
  if (std::string e = parse_config(config_json, config); !e.empty()) return error_json(e);
  if (!config.is_object() || !config.contains("why")) return error_json("why: expected {\"why\": {...}}");
  WhyRunSettings settings;
  if (std::string e = read_why_settings(config["why"], settings); !e.empty()) return error_json(e);
  WhyRun run(settings);
  WorkClock unlimited(0.0);
  run.advance(unlimited, std::numeric_limits<double>::infinity());
  return run.json().dump();
}

}  // namespace attn::api
