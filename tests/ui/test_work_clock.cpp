// The UI tests' clock (core/base/work_clock.hpp, set in main.cpp): the frames a
// test sees do not depend on how busy the machine is. The same frames, the
// explorer's recompute, a retraining and the scaling lab's training and
// curves, are run on an idle process and beside one busy thread per core;
// the work done in every frame, and the results, must be the same.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "ui/explorer/explorer.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/app_state.hpp"

namespace attn::ui {
namespace {

// What one frame did, in units of work: nothing here is a time.
struct FrameWork {
  int pieces_done = -1;   // the explorer's pending recompute (-1: none)
  int retrained = -1;     // a trained projection's retraining (-1: none)
  int scaling_steps = 0;  // the scaling lab's trained steps
  int curve_points = 0;   // Figure 4.2's curve, filled in the background
  bool result = false;
  bool operator==(const FrameWork& o) const {
    return pieces_done == o.pieces_done && retrained == o.retrained && scaling_steps == o.scaling_steps &&
           curve_points == o.curve_points && result == o.result;
  }
};

struct Trace {
  std::vector<FrameWork> frames;
  Matrix average_weights;  // the recompute's result
  Matrix retrained_w_q;    // the retrained projection
  double wall_ms = 0;
};

std::string words(int n) {
  std::string text;
  for (int i = 0; i < n; ++i) text += "w" + std::to_string(i) + " ";
  return text;
}

// The non-drawing part of app_frame (shell/app.cpp), for two states: one
// recomputing a big sentence while the scaling lab trains, one retraining
// a trained projection from a config that came from elsewhere.
// With the steady clock, as many frames as the recompute takes (the scaling
// lab does not train then).
Trace run_frames(bool steady_clock) {
  AppState big, retrain;
  if (steady_clock) big.clock = retrain.clock = WorkClock(0.0);
  big.config.text = words(512);
  big.config.d_model = 512;
  big.config.heads = 16;
  big.scaling.running = !steady_clock;
  retrain.config.projection = Projection::Trained;
  retrain.config.heads = 1;
  retrain.config.trained_steps = 200;
  Trace trace;
  const auto start = std::chrono::steady_clock::now();
  for (int f = 0; steady_clock ? !big.result && f < 10000 : f < 12; ++f) {
    ++big.frames;
    continue_retraining(big);
    update_result(big);
    scaling_train(big, /*visible=*/true);
    scaling_update(big, /*visible=*/true, /*fill_curves=*/true);
    continue_explorer_job(big);
    ++retrain.frames;
    continue_retraining(retrain);
    update_result(retrain);
    continue_explorer_job(retrain);
    FrameWork w;
    ExplorerProgress progress;
    if (explorer_progress(big, &progress)) w.pieces_done = progress.pieces_done;
    int steps = 0, target = 0;
    if (retraining_progress(retrain, &steps, &target)) w.retrained = steps;
    w.scaling_steps = lab_trained_steps(big.scaling);
    w.curve_points = int(big.scaling.fig42_curve.size());
    w.result = big.result.has_value();
    trace.frames.push_back(w);
  }
  trace.wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (big.result) trace.average_weights = big.result->attention.average_weights;
  if (retrain.result) trace.retrained_w_q = retrain.result->weights.W_q;
  return trace;
}

// Runs f with one thread per core spinning beside it.
template <typename F>
auto beside_busy_threads(F f) {
  std::atomic<bool> stop{false};
  std::vector<std::thread> busy;
  for (unsigned i = 0; i < std::max(2u, std::thread::hardware_concurrency()); ++i)
    busy.emplace_back([&stop] {
      volatile unsigned long long spin = 0;
      while (!stop.load(std::memory_order_relaxed)) spin = spin + 1;
    });
  auto result = f();
  stop = true;
  for (std::thread& t : busy) t.join();
  return result;
}

int frames_with_pieces(const Trace& t) {
  int n = 0;
  for (const FrameWork& w : t.frames) n += w.pieces_done >= 0;
  return n;
}

}  // namespace

TEST_CASE("a UI test's frames are the same on an idle and on a loaded machine") {
  const Trace idle = run_frames(/*steady_clock=*/false);
  const Trace loaded = beside_busy_threads([] { return run_frames(/*steady_clock=*/false); });
  MESSAGE("12 frames: " << idle.wall_ms << " ms idle, " << loaded.wall_ms << " ms beside busy threads");
  REQUIRE(idle.frames.size() == loaded.frames.size());
  for (std::size_t f = 0; f < idle.frames.size(); ++f) {
    CAPTURE(f);
    CHECK(idle.frames[f] == loaded.frames[f]);
  }
  CHECK(idle.average_weights == loaded.average_weights);
  CHECK(idle.retrained_w_q == loaded.retrained_w_q);
  // The frames did spread work: a recompute over several frames, training
  // and a retraining a slice each, the curve filled in the background.
  CHECK(frames_with_pieces(idle) > 2);
  CHECK(idle.frames.back().result);
  CHECK(idle.frames[1].scaling_steps > idle.frames[0].scaling_steps);
  CHECK(idle.frames[0].retrained == 0);  // started at the end of the first frame
  CHECK(idle.frames[1].retrained > 0);
  CHECK(idle.frames[1].retrained < 200);
  CHECK(idle.frames.back().curve_points > 0);
  CHECK(idle.retrained_w_q.size() > 0);
}

TEST_CASE("the app's steady clock gives the same results, in frames that follow the machine") {
  // The app slices by wall time, so how many frames a recompute takes depends
  // on the load: that is what a test must not wait on. Its results do not.
  const Trace counted = run_frames(/*steady_clock=*/false);
  const Trace steady = run_frames(/*steady_clock=*/true);
  MESSAGE("frames with a pending recompute: " << frames_with_pieces(counted) << " counted, "
                                              << frames_with_pieces(steady) << " by the steady clock");
  REQUIRE(steady.frames.back().result);
  CHECK(steady.average_weights == counted.average_weights);
}

}  // namespace attn::ui
