// Attention masks: which keys each query may look at.
//
//   none     every query sees every key
//   causal   query i sees keys j <= i (a decoder only looks back)
//   padding  nobody attends to pad keys (they are not content)
//   custom   an explicit boolean matrix, true = allowed
#pragma once

#include <string>
#include <vector>

#include "types.hpp"

namespace attn {

struct Mask {
  enum class Kind { None, Causal, Padding, Custom };
  Kind kind = Kind::None;
  std::vector<bool> key_valid;  // Padding: one flag per key, false = pad
  MaskMatrix allowed;           // Custom: n_q x n_k, true = allowed

  static Mask none() { return {}; }
  static Mask causal() { Mask m; m.kind = Kind::Causal; return m; }
  static Mask padding(std::vector<bool> key_valid);
  static Mask custom(MaskMatrix allowed);
};

MaskMatrix causal_mask(int n);                            // lower triangle incl. diagonal
MaskMatrix padding_mask(int n_queries, const std::vector<bool>& key_valid);
// Materialise any mask for an n_queries x n_keys score matrix.
// Returns an empty string on success, otherwise why the mask does not fit.
std::string build_mask(const Mask& mask, int n_queries, int n_keys, MaskMatrix& allowed);

const char* mask_name(Mask::Kind kind);

}  // namespace attn
