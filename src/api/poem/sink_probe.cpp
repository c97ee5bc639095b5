// The attention-sink probe; see sink_probe.hpp.
#include "api/poem/sink_probe.hpp"

#include <cstddef>

namespace attn::api {

std::string sink_probe(const PoemReadingData& with, const PoemReadingData& probe, bool removed, int layer, int head,
                       SinkProbe& out) {
  const int T = with.size(), shift = removed ? 1 : 0;  // original position t is the probe's t - shift
  if (T < 3 || probe.size() != T - shift) return "sink probe: the two readings are not of the same text";
  if (layer < 0 || layer >= with.layers || head < 0 || head >= with.heads || probe.layers != with.layers ||
      probe.heads != with.heads)
    return "sink probe: no head " + std::to_string(layer) + "." + std::to_string(head);
  const float* a = with.weights(layer, head);
  const float* b = probe.weights(layer, head);
  const auto A = [&](int q, int k) { return double(a[std::size_t(q) * std::size_t(T) + std::size_t(k)]); };
  const int P = probe.size();
  const auto B = [&](int q, int k) {  // at the original positions q, k >= shift
    return double(b[std::size_t(q - shift) * std::size_t(P) + std::size_t(k - shift)]);
  };
  SinkProbe p;
  p.removed = removed;
  // The queries after the first: each sees position 0 in the original.
  for (int q = 1; q < T; ++q) {
    ++p.queries;
    p.first_before += A(q, 0);
    if (!removed) p.first_after += B(q, 0);
    p.self_before += A(q, q);
    p.self_after += B(q, q);
  }
  const double n = p.queries;
  p.first_before /= n, p.first_after /= n, p.self_before /= n, p.self_after /= n;
  for (int k = 1; k < T; ++k) {  // each key's gain, over the queries that see it (the others: 0 both ways)
    double gain = 0;
    for (int q = k; q < T; ++q) gain += B(q, k) - A(q, k);
    gain /= n;
    if (gain > p.gain) p.gain = gain, p.gain_key = k, p.gain_token = with.tokens[std::size_t(k)];
  }
  // The characters from the second on: with.losses[t] predicts token t + 1.
  for (int t = 1; t + 1 < T; ++t) {
    p.loss_before += with.losses[std::size_t(t)];
    p.loss_after += probe.losses[std::size_t(t - shift)];
  }
  p.loss_before /= double(T - 2), p.loss_after /= double(T - 2);
  out = std::move(p);
  return "";
}

}  // namespace attn::api
