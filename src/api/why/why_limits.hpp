// The why experiments' limits and defaults beyond the core's own
// (core/why/why_tasks.hpp: the distances; core/why/why_lab.hpp: a run's
// settings): attention_cli why, compute({why}) and the page's URL fields
// and controls all read them here.
#pragma once

namespace attn::api {

struct WhyLimits {
  static constexpr int kMaxSteps = 100000;  // attention_cli why --steps, compute({why})
  // The page trains about 15 steps a second beside its frames (docs/performance.md):
  // 2,000 steps is two minutes; longer runs are the CLI's.
  static constexpr int kPageMaxSteps = 2000;
  static constexpr int kDefaultSteps = 600;
};
static_assert(WhyLimits::kDefaultSteps <= WhyLimits::kPageMaxSteps && WhyLimits::kPageMaxSteps <= WhyLimits::kMaxSteps);

}  // namespace attn::api
