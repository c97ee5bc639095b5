#include "reference.hpp"

#include <cmath>

namespace attn::reference {

Result attention(const std::vector<float>& q, const std::vector<float>& k,
                 const std::vector<float>& v, int n_q, int n_k, int d_k, int d_v, float scale,
                 const std::vector<unsigned char>& allowed) {
  Result r;
  r.raw_scores.assign(static_cast<size_t>(n_q) * n_k, 0.f);
  r.weights.assign(static_cast<size_t>(n_q) * n_k, 0.f);
  r.output.assign(static_cast<size_t>(n_q) * d_v, 0.f);
  auto is_allowed = [&](int i, int j) { return allowed.empty() || allowed[i * n_k + j] != 0; };

  for (int i = 0; i < n_q; ++i) {
    const float* q_i = &q[i * d_k];           // (d_k)
    float* raw_i = &r.raw_scores[i * n_k];    // (n_k)
    float* w_i = &r.weights[i * n_k];         // (n_k)
    float* out_i = &r.output[i * d_v];        // (d_v)

    // pass 1: raw scores q_i . k_j, and the maximum scaled score over allowed keys
    float max_score = 0.f;
    bool any_allowed = false;
    for (int j = 0; j < n_k; ++j) {
      const float* k_j = &k[j * d_k];
      float dot = 0.f;
      for (int c = 0; c < d_k; ++c) dot += q_i[c] * k_j[c];
      raw_i[j] = dot;
      if (is_allowed(i, j) && (!any_allowed || dot * scale > max_score)) {
        max_score = dot * scale;
        any_allowed = true;
      }
    }
    if (!any_allowed) continue;  // fully masked: weights and output stay 0

    // pass 2: exp(score - max) and their sum
    float sum = 0.f;
    for (int j = 0; j < n_k; ++j) {
      w_i[j] = is_allowed(i, j) ? std::exp(raw_i[j] * scale - max_score) : 0.f;
      sum += w_i[j];
    }
    // pass 3: normalise
    for (int j = 0; j < n_k; ++j) w_i[j] /= sum;

    // pass 4: weighted sum of value rows
    for (int j = 0; j < n_k; ++j) {
      const float* v_j = &v[j * d_v];
      for (int c = 0; c < d_v; ++c) out_i[c] += w_i[j] * v_j[c];
    }
  }
  return r;
}

}  // namespace attn::reference
