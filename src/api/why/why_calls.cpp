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

std::unique_ptr<WhyRun> runs[2];  // by WhyPanel

WhyRun* run_of(int panel) { return panel == 0 || panel == 1 ? runs[panel].get() : nullptr; }

std::string error_json(const std::string& error) { return OutJson{{"error", error}}.dump(); }

}  // namespace

std::string why_call_reset(const std::string& settings_json) {
  Json in;
  WhyRunSettings settings;
  std::string error = parse_config(settings_json, in);
  if (error.empty()) error = read_why_settings(in, settings);
  if (error.empty()) runs[int(settings.panel)] = std::make_unique<WhyRun>(settings);
  return error;
}

int why_call_advance(int panel, double budget_ms) {
  // The app's frame budgets (a counting clock in the UI tests: the same slices on any machine).
  static WorkClock clock;
  WhyRun* run = run_of(panel);
  if (!run) return -1;
  if (budget_ms >= 0) run->advance(clock, budget_ms);
  return run->steps();
}

std::string why_call_report(int panel) {
  WhyRun* run = run_of(panel);
  if (!run) return error_json("why: no run of that panel (reset first)");
  OutJson out = run->json();
  out["finished"] = run->finished();
  return out.dump();
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

std::string why_call_timing(double seconds_each, int n) {
  return OutJson{{"forward", why_forward_json(seconds_each, n)}}.dump();
}

}  // namespace attn::api
