// The fast kernels behind attention.hpp and multihead.hpp, one build per
// instruction set. Natively the best one the CPU has is picked at run time
// (the default build runs on any x86-64); the environment variable
// ATTN_KERNEL=<name> or use_isa() picks another one (benchmarks and tests
// compare them).
#pragma once

#include <string>
#include <vector>

namespace attn::kernels {

// The instruction sets this build and this CPU can run, best first.
std::vector<std::string> available_isas();
// The one in use.
const char* active_isa();
// false (and nothing changes) when name is not in available_isas().
bool use_isa(const std::string& name);

}  // namespace attn::kernels
