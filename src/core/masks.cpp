#include "masks.hpp"

namespace attn {

Mask Mask::padding(std::vector<bool> key_valid) {
  Mask m;
  m.kind = Kind::Padding;
  m.key_valid = std::move(key_valid);
  return m;
}

Mask Mask::custom(MaskMatrix allowed) {
  Mask m;
  m.kind = Kind::Custom;
  m.allowed = std::move(allowed);
  return m;
}

MaskMatrix causal_mask(int n) {
  MaskMatrix allowed(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) allowed(i, j) = j <= i;
  return allowed;
}

MaskMatrix padding_mask(int n_queries, const std::vector<bool>& key_valid) {
  const int n_keys = static_cast<int>(key_valid.size());
  MaskMatrix allowed(n_queries, n_keys);
  for (int i = 0; i < n_queries; ++i)
    for (int j = 0; j < n_keys; ++j) allowed(i, j) = key_valid[j];
  return allowed;
}

std::string build_mask(const Mask& mask, int n_queries, int n_keys, MaskMatrix& allowed) {
  switch (mask.kind) {
    case Mask::Kind::None:
      allowed = MaskMatrix::Constant(n_queries, n_keys, true);
      return {};
    case Mask::Kind::Causal:
      // Position i sees keys j <= i; for n_keys != n_queries this is the
      // top-left-aligned lower triangle.
      allowed.resize(n_queries, n_keys);
      for (int i = 0; i < n_queries; ++i)
        for (int j = 0; j < n_keys; ++j) allowed(i, j) = j <= i;
      return {};
    case Mask::Kind::Padding:
      if (static_cast<int>(mask.key_valid.size()) != n_keys)
        return "padding mask has " + std::to_string(mask.key_valid.size()) + " key flags for " +
               std::to_string(n_keys) + " keys";
      allowed = padding_mask(n_queries, mask.key_valid);
      return {};
    case Mask::Kind::Custom:
      if (mask.allowed.rows() != n_queries || mask.allowed.cols() != n_keys)
        return "mask is " + std::to_string(mask.allowed.rows()) + " x " +
               std::to_string(mask.allowed.cols()) + ", scores are " +
               std::to_string(n_queries) + " x " + std::to_string(n_keys);
      allowed = mask.allowed;
      return {};
  }
  return "unknown mask kind";
}

const char* mask_name(Mask::Kind kind) {
  switch (kind) {
    case Mask::Kind::None: return "none";
    case Mask::Kind::Causal: return "causal";
    case Mask::Kind::Padding: return "padding";
    case Mask::Kind::Custom: return "custom";
  }
  return "?";
}

}  // namespace attn
