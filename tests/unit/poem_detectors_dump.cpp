// For poem_detectors_check.py: hand-made attention on hand-made sequences,
// and what the head detectors (core/poem/head_detectors) make of them, as
// JSON. The weights are random rows over the visible keys, some of them
// peaked on one pattern's key, so every detector sees strong and weak heads.
//
//   poem_detectors_dump SEED   {"cases": [{"kind", "tokens", "marks", "period",
//                               "att": [T x T], "scores": {name: [weight, uniform, queries]}}]}
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/poem/head_detectors.hpp"
#include "core/base/rng.hpp"

using namespace attn;
using namespace attn::poem;

namespace {

// Row t: random positive weights on keys 0..t, normalised; with `peak` >= 0
// the key `peak` gets most of it.
std::vector<float> random_attention(int T, Rng& rng, const std::vector<int>& peaks) {
  std::vector<float> att(std::size_t(T) * std::size_t(T), 0.0f);
  for (int t = 0; t < T; ++t) {
    float* row = att.data() + std::size_t(t) * std::size_t(T);
    double sum = 0;
    for (int k = 0; k <= t; ++k) sum += row[k] = 0.05f + rng.uniform();
    if (peaks[std::size_t(t)] >= 0) sum += row[peaks[std::size_t(t)]] += float(3.0 * (t + 1));
    for (int k = 0; k <= t; ++k) row[k] = float(row[k] / sum);
  }
  return att;
}

void print_case(const char* kind, const SequenceRoles& roles, int period, const std::vector<float>& att, int T) {
  DetectorScores scores{};
  add_detectors(att.data(), T, roles, scores);
  std::printf("{\"kind\": \"%s\", \"period\": %d, \"tokens\": [", kind, period);
  for (int t = 0; t < T; ++t) std::printf("%s%d", t ? ", " : "", roles.tokens[std::size_t(t)]);
  std::printf("], \"marks\": [");
  for (int t = 0; t < T; ++t) std::printf("%s%d", t ? ", " : "", int(roles.marks[std::size_t(t)]));
  std::printf("], \"att\": [");
  for (std::size_t i = 0; i < att.size(); ++i) std::printf("%s%.9g", i ? ", " : "", double(att[i]));
  std::printf("], \"scores\": {");
  for (int d = 0; d < kDetectors; ++d) {
    const DetectorScore& s = scores[std::size_t(d)];
    std::printf("%s\"%s\": [%.17g, %.17g, %lld]", d ? ", " : "", detector_name(Detector(d)), s.weight, s.uniform,
                s.queries);
  }
  std::printf("}, \"strongest\": %d}", strongest_detector(scores));
}

}  // namespace

int main(int argc, char** argv) {
  Rng rng(argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1, 5);
  const int kMark = 2, kCases = 12, T = 40;
  std::printf("{\"cases\": [");
  for (int c = 0; c < kCases; ++c) {
    // A poem-like sequence: <poem> (1), then lines of 5 or 7 characters from a
    // small alphabet (so characters repeat), each ended by a mark (2).
    std::vector<int> tokens{1};
    while (int(tokens.size()) < T) {
      const int length = rng.uniform() < 0.5f ? 5 : 7;
      for (int i = 0; i < length && int(tokens.size()) < T; ++i) tokens.push_back(4 + int(rng.next_u32() % 9));
      if (int(tokens.size()) < T) tokens.push_back(kMark);
    }
    const SequenceRoles roles = poem_roles(tokens, [&](int id) { return id == kMark; });
    // Which key each row favours: none, or one detector's.
    std::vector<int> peaks(std::size_t(T), -1);
    const int favour = c % 6;  // 0: none, 1: previous, 2: first, 3: couplet, 4: self, 5: couplet one ahead
    for (int t = 1; t < T; ++t) {
      const std::size_t u = std::size_t(t);
      if (favour == 1) peaks[u] = t - 1;
      if (favour == 2) peaks[u] = 0;
      if (favour == 3) peaks[u] = roles.couplet[u];
      if (favour == 4) peaks[u] = t;
      if (favour == 5) peaks[u] = roles.couplet_ahead[u];
    }
    std::printf("%s", c ? ", " : "");
    print_case("poem", roles, 0, random_attention(T, rng, peaks), T);
  }
  for (int c = 0; c < 4; ++c) {
    const int period = 15;
    std::vector<int> first;
    for (int i = 0; i < period; ++i) first.push_back(4 + int(rng.next_u32() % 50));
    std::vector<int> tokens{1};
    for (int copy = 0; copy < 2; ++copy) tokens.insert(tokens.end(), first.begin(), first.end());
    const SequenceRoles roles = repeat_roles(tokens, period);
    const int n = int(tokens.size());
    std::vector<int> peaks(std::size_t(n), -1);
    if (c % 2)
      for (int t = 0; t < n; ++t) peaks[std::size_t(t)] = roles.induction[std::size_t(t)];
    std::printf(", ");
    print_case("repeat", roles, period, random_attention(n, rng, peaks), n);
  }
  std::printf("]}\n");
  return 0;
}
