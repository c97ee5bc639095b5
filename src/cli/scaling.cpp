// scaling: the scaling lab at one d_k (core/scaling/scaling.hpp). One query against
// n keys with raw and scaled weights, the softmax entropy and Jacobian norm
// averaged over T rows (both collapse for raw scores as d_k grows), and a
// float32 softmax without the max subtraction next to the stable one.
#include <iostream>

#include "api/json_output.hpp"
#include "commands.hpp"
#include "core/scaling/scaling.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

// One lab run: the flags' values and what the core computed from them.
struct ScalingRun {
  int d_k = 64, keys = 16, trials = 200;
  uint64_t seed = 1;
  AttentionRow row;
  Saturation saturation;
  std::vector<float> naive, stable;  // float32 softmax of the raw scores
};

api::OutJson scaling_json(const ScalingRun& r) {
  // Non-finite naive weights print as null (JSON has no NaN or inf).
  return {{"dk", r.d_k}, {"keys", r.keys}, {"trials", r.trials}, {"seed", r.seed},
          {"raw_scores", r.row.raw_scores}, {"raw_weights", r.row.raw_weights},
          {"scaled_weights", r.row.scaled_weights},
          {"raw_entropy", r.saturation.raw_entropy}, {"scaled_entropy", r.saturation.scaled_entropy},
          {"raw_jacobian_norm", r.saturation.raw_jacobian_norm},
          {"scaled_jacobian_norm", r.saturation.scaled_jacobian_norm},
          {"naive_softmax", r.naive}, {"stable_softmax", r.stable},
          {"naive_finite", all_finite(r.naive)}};
}

void print_scaling_text(const ScalingRun& r) {
  std::cout << "Scaling lab at d_k " << r.d_k << ": one query against " << r.keys
            << " keys, q, k ~ N(0, I)\n\n";
  Table t{{"key", "raw score", "raw weight", "scaled weight", "naive f32", "stable f32"}, {}};
  for (std::size_t j = 0; j < r.row.raw_scores.size(); ++j)
    t.rows.push_back({std::to_string(j), fixed(r.row.raw_scores[j], 3), fixed(r.row.raw_weights[j], 4),
                      fixed(r.row.scaled_weights[j], 4), fixed(r.naive[j], 4), fixed(r.stable[j], 4)});
  print_table(std::cout, t);
  std::cout << "\nMeans over " << r.trials << " rows:\n";
  const Saturation& s = r.saturation;
  Table m{{"", "raw", "scaled"}, {}};
  m.rows.push_back({"softmax entropy (nats)", fixed(s.raw_entropy, 4), fixed(s.scaled_entropy, 4)});
  m.rows.push_back({"||diag(p) - p p^T||_F", fixed(s.raw_jacobian_norm, 4), fixed(s.scaled_jacobian_norm, 4)});
  print_table(std::cout, m);
  std::cout << "\nNaive float32 softmax (no max subtraction) "
            << (all_finite(r.naive) ? "stays finite here" : "overflows: inf/inf = NaN")
            << "; the stable one always does.\n";
}

}  // namespace

int run_scaling(const CommandLine& line) {
  using L = SaturationLimits;
  ScalingRun r;
  bool json = false;
  const FlagSpec flags{{int_flag("dk", L::kMinDk, L::kMaxDk, r.d_k),
                        int_flag("keys", L::kMinKeys, L::kMaxKeys, r.keys),
                        int_flag("trials", L::kMinTrials, L::kMaxTrials, r.trials),
                        seed_flag(r.seed)},
                       &json};
  if (const auto exit_code = read_flags(line, flags)) return *exit_code;
  r.row = attention_row(r.d_k, r.keys, r.seed);
  r.saturation = saturation(r.d_k, r.keys, r.trials, r.seed);
  r.naive = naive_softmax(r.row.raw_scores);
  r.stable = stable_softmax(r.row.raw_scores);
  if (json)
    std::cout << api::dump(scaling_json(r)) << '\n';
  else
    print_scaling_text(r);
  return 0;
}

}  // namespace attn::cli
