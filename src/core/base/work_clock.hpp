// The clock that time-sliced work takes its budget from.
//
// Work spread over frames (the explorer's recompute, the retraining of a
// trained projection, the scaling lab's training and curves, the poem model's
// training on the page's thread) runs pieces until its share of a frame is
// spent, so a slow machine still draws its frames on time. "Spent" is read
// from a WorkClock, never from the system clock directly:
//
//   - the app's clocks read the steady clock (the default);
//   - the UI tests' clocks count instead: every reading advances a fixed step,
//     so a slice does the same pieces whatever the load, the sanitizer or the
//     CPU, and a test sees the same frames every run (tests/ui/main.cpp sets
//     that default before any state exists; test_work_clock.cpp checks it).
//
// Each AppState owns one clock, so a counting clock starts at 0 for every
// state. Measurements that are shown as times (a frame's duration, a font
// build) are not budgets: they read the steady clock as they are.
#pragma once

namespace attn {

class WorkClock {
 public:
  // step_ms 0: the steady clock. step_ms > 0: a counting clock that starts at
  // 0 and advances step_ms at every reading. Default: default_step_ms().
  WorkClock() : WorkClock(default_step_ms()) {}
  explicit WorkClock(double step_ms);
  double now_ms();
  double ms_since(double start_ms) { return now_ms() - start_ms; }
  bool counting() const { return step_ms_ > 0; }

  // The step new clocks get; 0 (the steady clock) unless a test program sets it.
  static double default_step_ms();
  static void set_default_step_ms(double step_ms);

 private:
  double step_ms_;
  double count_ms_ = 0;
};

}  // namespace attn
