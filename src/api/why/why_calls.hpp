// The "why attention" view's calls into its experiments, in-process: one run
// per panel (WhyRun) and its answers in attention_cli why's JSON. The browser's
// experiments module (platform/why_module.cpp) exports these same functions,
// and the desktop and the UI tests call them directly, so the view speaks to
// its models the same way everywhere (ui/state/why_lab.hpp's WhyCalls).
#pragma once

#include <string>

namespace attn::api {

// A fresh run of the settings' panel (read_why_settings' JSON): "" or what is wrong.
std::string why_call_reset(const std::string& settings_json);
// Steps of the panel's run (0: recurrence, 1: qkv) until budget_ms of this
// module's clock is spent, at least one while any remain (a negative budget:
// none). The run's steps after them; -1 without a run.
int why_call_advance(int panel, double budget_ms);
// The panel's run at its step: attention_cli why's document with "finished",
// or {"error": ...}.
std::string why_call_report(int panel);
// compute()'s {"why": settings}: a fresh run to its last step, or {"error": ...}.
std::string why_call_compute(const std::string& config_json);
// {"forward": rows}: each layer's forward pass, timed here for n (0: for
// n = 16 ... 1024), seconds_each per layer and n.
std::string why_call_timing(double seconds_each, int n);

}  // namespace attn::api
