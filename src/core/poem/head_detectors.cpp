// The head detectors: roles of a sequence's positions, weights against uniform.
#include "head_detectors.hpp"

namespace attn::poem {

namespace {
std::size_t sz(int n) { return static_cast<std::size_t>(n); }
}  // namespace

const char* detector_name(Detector d) {
  switch (d) {
    case Detector::kPrevious: return "previous character";
    case Detector::kSelf: return "same character";
    case Detector::kFirst: return "first position";
    case Detector::kPunctuation: return "punctuation";
    case Detector::kCouplet: return "couplet";
    case Detector::kDuplicate: return "duplicate character";
    case Detector::kInduction: return "induction";
    case Detector::kCoupletAhead: return "couplet, one ahead";
  }
  return "?";
}

SequenceRoles poem_roles(const std::vector<int>& tokens, const std::function<bool(int)>& is_mark) {
  const int T = static_cast<int>(tokens.size());
  SequenceRoles r;
  r.tokens = tokens;
  r.marks.assign(sz(T), false);
  r.couplet.assign(sz(T), -1);
  r.couplet_ahead.assign(sz(T), -1);
  r.induction.assign(sz(T), -1);
  // Lines: runs of characters between marks. A mark ends its line; "。\n"
  // ends one line, not two (the line break after a mark starts nothing).
  int start = 1, previous = -1, previous_length = 0;
  for (int t = 1; t < T; ++t) {
    r.marks[sz(t)] = is_mark(tokens[sz(t)]);
    if (r.marks[sz(t)]) {
      if (t > start) previous = start, previous_length = t - start;
      start = t + 1;
      continue;
    }
    const int column = t - start;
    if (previous >= 0 && column < previous_length) r.couplet[sz(t)] = previous + column;
    if (previous >= 0 && column + 1 < previous_length) r.couplet_ahead[sz(t)] = previous + column + 1;
  }
  return r;
}

SequenceRoles repeat_roles(const std::vector<int>& tokens, int period) {
  const int T = static_cast<int>(tokens.size());
  SequenceRoles r;
  r.repeated = true;
  r.tokens = tokens;
  r.marks.assign(sz(T), false);
  r.couplet.assign(sz(T), -1);
  r.couplet_ahead.assign(sz(T), -1);
  r.induction.assign(sz(T), -1);
  // tokens[t] repeats tokens[t - period]; the key after that first occurrence
  // is what an induction head attends to (it predicts what came next before).
  for (int t = period + 1; t < T; ++t) r.induction[sz(t)] = t - period + 1;
  return r;
}

void detector_keys(Detector d, const SequenceRoles& roles, int t, std::vector<int>& keys) {
  keys.clear();
  const int token = roles.tokens[sz(t)];
  if (t < 1) return;
  if (roles.repeated) {  // only induction is measured on a repeated sequence
    if (d == Detector::kInduction && roles.induction[sz(t)] >= 0) keys.push_back(roles.induction[sz(t)]);
    return;
  }
  switch (d) {
    case Detector::kPrevious: keys.push_back(t - 1); break;
    case Detector::kSelf: keys.push_back(t); break;
    case Detector::kFirst: keys.push_back(0); break;
    case Detector::kPunctuation:
      for (int k = 0; k <= t; ++k)
        if (roles.marks[sz(k)]) keys.push_back(k);
      break;
    case Detector::kCouplet:
      if (roles.couplet[sz(t)] >= 0) keys.push_back(roles.couplet[sz(t)]);
      break;
    case Detector::kDuplicate:  // a mark's earlier marks are punctuation, not a repeat
      if (!roles.marks[sz(t)])
        for (int k = 0; k < t; ++k)
          if (roles.tokens[sz(k)] == token) keys.push_back(k);
      break;
    case Detector::kInduction: break;
    case Detector::kCoupletAhead:
      if (roles.couplet_ahead[sz(t)] >= 0) keys.push_back(roles.couplet_ahead[sz(t)]);
      break;
  }
}

void add_detectors(const float* att, int T, const SequenceRoles& roles, DetectorScores& scores) {
  std::vector<int> keys;
  for (int t = 1; t < T; ++t) {
    const float* w = att + sz(t) * sz(T);
    for (int d = 0; d < kDetectors; ++d) {
      detector_keys(Detector(d), roles, t, keys);
      if (keys.empty()) continue;  // the query has no keys of this pattern
      DetectorScore& s = scores[sz(d)];
      for (int k : keys) s.weight += w[k];
      s.uniform += double(keys.size()) / double(t + 1);
      ++s.queries;
    }
  }
}

int strongest_detector(const DetectorScores& scores) {
  int best = -1;
  for (int d = 0; d < kDetectors; ++d) {
    const DetectorScore& s = scores[sz(d)];
    if (s.ratio() < kMinRatio || s.mean_weight() < kMinWeight) continue;
    if (best < 0 || s.ratio() > scores[sz(best)].ratio()) best = d;
  }
  return best;
}

}  // namespace attn::poem
