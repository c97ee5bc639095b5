// The "why attention" view's calls into its experiments, in-process: one run
// per panel (WhyRun), asked in why_wire.hpp's bytes. The browser's
// experiments module (platform/why_module.cpp) exports these same functions
// (and trains the view's runs in a Web Worker, web/why.js), and the desktop
// and the UI tests call them directly, so the view speaks to its models the
// same way everywhere (ui/state/why_lab.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::api {

// A request's answer (why_wire.hpp). Advance's budget is read from this
// module's clock (a counting clock in the UI tests: the same slices on any
// machine); a request that cannot be read answers with its error.
std::vector<uint8_t> why_call(const std::vector<uint8_t>& request);
// compute()'s {"why": settings}: a fresh run to its last step, as attention_cli
// why's JSON, or {"error": ...}.
std::string why_call_compute(const std::string& config_json);

}  // namespace attn::api
