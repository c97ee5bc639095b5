// The UI tests' main. Every AppState made here slices its work by a counting
// clock (core/base/work_clock.hpp): each reading advances kTestClockStepMs, so a
// frame's share of a recompute or of training is a fixed number of pieces,
// and every test sees the same frames at any load and under any sanitizer.
// A quarter of a millisecond a reading keeps the app's proportions: the
// default sentence's recompute completes in the frame that changed it, a
// 512-token one spans many frames.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "core/base/work_clock.hpp"

constexpr double kTestClockStepMs = 0.25;

int main(int argc, char** argv) {
  attn::WorkClock::set_default_step_ms(kTestClockStepMs);
  doctest::Context context(argc, argv);
  return context.run();
}
