#include "core/base/work_clock.hpp"

#include <chrono>

namespace attn {
namespace {
// Set once, by a test program's main before it makes any state (see the header).
double g_default_step_ms = 0;
}  // namespace

WorkClock::WorkClock(double step_ms) : step_ms_(step_ms > 0 ? step_ms : 0) {}

double WorkClock::now_ms() {
  if (counting()) return count_ms_ += step_ms_;
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double WorkClock::default_step_ms() { return g_default_step_ms; }
void WorkClock::set_default_step_ms(double step_ms) { g_default_step_ms = step_ms; }

}  // namespace attn
