// Head statistics over held-out poems and the rules that name them.
#include "head_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/base/rng.hpp"

namespace attn::poem {

namespace {

std::size_t sz(int n) { return static_cast<std::size_t>(n); }

std::string percent(double fraction) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f %%", 100.0 * fraction);
  return buffer;
}

std::string fixed(double value, int decimals) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace

void name_pattern(HeadStats& s) {
  const double local = s.by_offset[0] + s.by_offset[1] + s.by_offset[2];
  const double ratio = s.punctuation_share > 0 ? s.punctuation_weight / s.punctuation_share : 0.0;
  if (s.first_weight >= 0.5) {
    s.pattern = "first position";
    s.summary = percent(s.first_weight) + " of its weight on the first position";
  } else if (s.punctuation_weight >= 0.25 && ratio >= 3.0) {
    s.pattern = "line boundary";
    s.summary = percent(s.punctuation_weight) + " of its weight on punctuation, " + fixed(ratio, 1) + "x their share";
  } else if (s.previous_line_weight >= 0.25) {
    s.pattern = "previous line";
    s.summary = percent(s.previous_line_weight) + " on the same place in the line before";
  } else if (s.by_offset[0] >= 0.5) {
    s.pattern = "current character";
    s.summary = percent(s.by_offset[0]) + " on the character itself";
  } else if (s.by_offset[1] >= 0.5) {
    s.pattern = "previous character";
    s.summary = percent(s.by_offset[1]) + " on the character one back";
  } else if (local >= 0.6) {
    s.pattern = "local";
    s.summary = percent(local) + " within the last three characters";
  } else if (s.entropy >= 2.0) {
    s.pattern = "broad";
    s.summary = "spread over many characters (entropy " + fixed(s.entropy, 2) + " nats)";
  } else {
    s.pattern = "mixed";
    s.summary = "no single rule (entropy " + fixed(s.entropy, 2) + " nats, " + percent(s.punctuation_weight) +
                " on punctuation)";
  }
  s.summary = s.pattern + ": " + s.summary;
}

std::vector<int> repeated_sequence(const PoemModel& model, int period, uint64_t seed) {
  Rng rng(seed, 53);
  std::vector<int> first;
  while (static_cast<int>(first.size()) < period) {
    const int id = Vocab::kSpecials + int(rng.next_u32() % uint32_t(model.vocab.size() - Vocab::kSpecials));
    if (!model.vocab.punctuation(id)) first.push_back(id);
  }
  std::vector<int> tokens{Vocab::kPoemStart};
  for (int copy = 0; copy < 2; ++copy) tokens.insert(tokens.end(), first.begin(), first.end());
  tokens.resize(std::min(tokens.size(), sz(model.config.context)));
  return tokens;
}

std::string describe_detected(const HeadStats& s) {
  if (s.strongest < 0)
    return "none: entropy " + fixed(s.entropy, 2) + " nats, uniform attention's " + fixed(s.uniform_entropy, 2);
  static const char* const kWhere[kDetectors] = {
      "on the character one back", "on the character itself", "on the first position",
      "on punctuation and line breaks", "on the same place in the previous line",
      "on earlier copies of the same character", "after the first copy of the same character (repeated sequences)",
      "in the previous line, one place after the same place (the place of the character it predicts)"};
  const DetectorScore& d = s.detectors[sz(s.strongest)];
  return std::string(detector_name(Detector(s.strongest))) + ": " + percent(d.mean_weight()) + " " +
         kWhere[s.strongest] + ", " + fixed(d.ratio(), 1) + "x uniform";
}

std::vector<HeadStats> analyse_heads(const PoemModel& model, const std::vector<std::vector<int>>& poems, int repeats,
                                     PoemDetectorScores* by_poem) {
  const GptConfig& c = model.config;
  std::vector<HeadStats> stats(sz(c.layers * c.heads));
  for (int l = 0; l < c.layers; ++l)
    for (int h = 0; h < c.heads; ++h) stats[sz(l * c.heads + h)].layer = l, stats[sz(l * c.heads + h)].head = h;
  long long queries = 0, previous_line_queries = 0;
  double uniform_entropy = 0;
  if (by_poem) by_poem->assign(poems.size(), std::vector<DetectorScores>(stats.size()));
  for (std::size_t p = 0; p < poems.size(); ++p) {
    const std::vector<int>& poem = poems[p];
    const int T = std::min(static_cast<int>(poem.size()), c.context);
    if (T < 2) continue;
    const std::vector<int> tokens(poem.begin(), poem.begin() + T);
    const PoemReading reading = read_attention(model, tokens);
    const SequenceRoles roles = poem_roles(tokens, [&](int id) {
      return id == Vocab::kLineBreak || model.vocab.punctuation(id);
    });
    for (std::size_t i = 0; i < stats.size(); ++i) {
      const float* att = reading.att[sz(stats[i].layer)][sz(stats[i].head)].data();
      add_detectors(att, T, roles, stats[i].detectors);
      if (by_poem) add_detectors(att, T, roles, (*by_poem)[p][i]);
    }
    for (int t = 1; t < T; ++t) uniform_entropy += std::log(double(t + 1));
    // Lines: runs between punctuation, line breaks and <poem>. line_start[t]:
    // where t's line begins; previous_start[t]: where the line before began.
    std::vector<int> line_start(sz(T)), previous_start(sz(T), -1);
    int start = 0, previous = -1;
    for (int t = 0; t < T; ++t) {
      line_start[sz(t)] = start;
      previous_start[sz(t)] = previous;
      const int id = tokens[sz(t)];
      if (id == Vocab::kPoemStart || id == Vocab::kLineBreak || model.vocab.punctuation(id)) previous = start, start = t + 1;
    }
    for (int t = 1; t < T; ++t) {
      int punctuation_keys = 0;
      for (int j = 0; j <= t; ++j) punctuation_keys += model.vocab.punctuation(tokens[sz(j)]);
      const int column = t - line_start[sz(t)];
      const int same_place = previous_start[sz(t)] >= 0 ? previous_start[sz(t)] + column : -1;
      const bool has_previous = same_place >= 0 && same_place < line_start[sz(t)] - 1;  // not the previous line's end mark
      ++queries;
      previous_line_queries += has_previous;
      for (HeadStats& s : stats) {
        const float* w = reading.att[sz(s.layer)][sz(s.head)].data() + sz(t) * sz(T);
        double entropy = 0, punctuation = 0;
        for (int j = 0; j <= t; ++j) {
          if (t - j <= kMaxOffset) s.by_offset[sz(t - j)] += w[j];
          if (model.vocab.punctuation(tokens[sz(j)])) punctuation += w[j];
          if (w[j] > 0) entropy -= double(w[j]) * std::log(double(w[j]));
        }
        s.punctuation_weight += punctuation;
        s.punctuation_share += double(punctuation_keys) / double(t + 1);
        s.first_weight += w[0];
        if (has_previous) s.previous_line_weight += w[same_place];
        s.entropy += entropy;
      }
    }
  }
  for (int r = 0; r < repeats; ++r) {
    const std::vector<int> tokens = repeated_sequence(model, (model.config.context - 1) / 2, uint64_t(r) + 1);
    const PoemReading reading = read_attention(model, tokens);
    const SequenceRoles roles = repeat_roles(tokens, (model.config.context - 1) / 2);
    for (HeadStats& s : stats)
      add_detectors(reading.att[sz(s.layer)][sz(s.head)].data(), int(tokens.size()), roles, s.detectors);
  }
  for (HeadStats& s : stats) {
    const double n = queries ? double(queries) : 1.0;
    s.uniform_entropy = uniform_entropy / n;
    s.strongest = strongest_detector(s.detectors);
    for (double& d : s.by_offset) d /= n;
    s.punctuation_weight /= n;
    s.punctuation_share /= n;
    s.first_weight /= n;
    s.entropy /= n;
    s.previous_line_weight /= previous_line_queries ? double(previous_line_queries) : 1.0;
    name_pattern(s);
    s.detected = describe_detected(s);
  }
  return stats;
}

}  // namespace attn::poem
