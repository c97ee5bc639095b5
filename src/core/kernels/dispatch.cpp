#include "kernels.hpp"

namespace attn::kernels {

std::vector<std::string> available_isas() { return {"eigen"}; }
const char* active_isa() { return "eigen"; }
bool use_isa(const std::string& name) { return name == "eigen"; }

}  // namespace attn::kernels
