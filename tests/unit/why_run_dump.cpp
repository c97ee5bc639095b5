// Prints what the "why attention" view's run (api::WhyRun) reports after a
// number of steps, trained as the page trains it: in slices of a frame's
// budget, read from a counting clock (3 steps a slice). why_run_check.py
// compares it with `attention_cli why ... --json`: natively, the view's
// slicing against the CLI's one slice; in wasm (under Node), the browser's
// arithmetic against the native CLI's, which must be the same bits.
//
//   why_run_dump recurrence DISTANCE STEPS BATCH SEED
//   why_run_dump qkv previous|lookup STEPS BATCH SEED
#include <cstdio>
#include <cstdlib>
#include <string>

#include "api/why/why_session.hpp"

int main(int argc, char** argv) {
  using namespace attn;
  if (argc != 6) {
    std::fprintf(stderr, "usage: why_run_dump recurrence DISTANCE|qkv TASK STEPS BATCH SEED\n");
    return 2;
  }
  api::WhyRunSettings s;
  const std::string panel = argv[1], what = argv[2];
  if (panel == "qkv") {
    s.panel = api::WhyPanel::Qkv;
    s.experiment.task = what == "lookup" ? why::Task::Lookup : why::Task::Previous;
  } else {
    s.experiment.distance = std::atoi(what.c_str());
  }
  s.steps = std::atoi(argv[3]);
  s.experiment.batch = std::atoi(argv[4]);
  s.experiment.seed = std::strtoull(argv[5], nullptr, 10);
  if (const std::string e = api::check_why_run(s); !e.empty()) {
    std::fprintf(stderr, "why_run_dump: %s\n", e.c_str());
    return 2;
  }
  api::WhyRun run(s);
  WorkClock clock(1.0);
  while (!run.finished()) run.advance(clock, 2.5);
  const std::string json = run.json().dump();
  std::fwrite(json.data(), 1, json.size(), stdout);
  std::fputc('\n', stdout);
  return 0;
}
