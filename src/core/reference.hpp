// The naive reference kernel: plain loops over std::vector, no Eigen, written
// in the order of the chapter's formulas (in the spirit of llm.c's
// attention_forward). It exists so the tests can check the Eigen path
// (attention.hpp) against an independent computation; it is never used by the UI.
#pragma once

#include <vector>

namespace attn::reference {

struct Result {
  std::vector<float> raw_scores;  // (n_q, n_k)
  std::vector<float> weights;     // (n_q, n_k)
  std::vector<float> output;      // (n_q, d_v)
};

// q: (n_q, d_k), k: (n_k, d_k), v: (n_k, d_v), all row-major.
// allowed: (n_q, n_k) row-major 0/1, or empty for "no mask".
// scale: the factor applied to raw scores (e.g. 1/sqrt(d_k)).
Result attention(const std::vector<float>& q, const std::vector<float>& k,
                 const std::vector<float>& v, int n_q, int n_k, int d_k, int d_v, float scale,
                 const std::vector<unsigned char>& allowed = {});

}  // namespace attn::reference
