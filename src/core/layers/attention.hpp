// One head of scaled dot-product attention with its mask, the chapter's
// formula as plain loops in a fixed order:
//
//   s_ij   = scale * q_i . k_j                      where allowed[i][j]
//   att_ij = exp(s_ij - max_j s_ij) / sum_j (...)   0 where not allowed
//   out_i  = sum_j att_ij v_j
//
// Shapes: q (n_q, d), k and v (n_k, d), their rows `ld` apart (a head is a
// column slice of a wider matrix: the poem model's packed q|k|v, the scaling
// lab's heads); out (n_q, d), rows `ld_out` apart; att (n_q, n_k), dense.
// allowed (n_q, n_k), row-major, true = query i may look at key j (a
// MaskMatrix's data: masks.hpp's causal_mask, for instance); null lets every
// query see every key. A query with no allowed key gets zero weights and a
// zero output.
//
// The maximum and the softmax's sum are kept in double and exp is det_exp
// (base/detmath.hpp): the same bits natively and in wasm, so a seed trains
// the same model in the page and in attention_cli.
//
// Backward mirrors the passes (the weighted sum -> d weights and d values;
// the softmax -> d scores = att (d att - sum_j att d att); the scores -> d q
// and d k) and ACCUMULATES (+=) into dq, dk and dv, which may be one array:
// the why experiment's variants share one input for several roles
// (q = k = v = x without projections), and the roles' gradients then sum
// where they share, as the chain rule says. d-arrays have the strides of
// their inputs; dout has out's.
#pragma once

namespace attn::layers {

template <class Real>
void attention_forward(Real* out, int ld_out, Real* att, const Real* q, const Real* k, const Real* v, int ld,
                       int n_q, int n_k, int d, double scale, const bool* allowed);
template <class Real>
void attention_backward(Real* dq, Real* dk, Real* dv, const Real* dout, int ld_out, const Real* att, const Real* q,
                        const Real* k, const Real* v, int ld, int n_q, int n_k, int d, double scale,
                        const bool* allowed);

}  // namespace attn::layers
