// Deterministic exp and log: the same bits on every platform.
//
// Why not std::exp / std::log: glibc (native) and musl (Emscripten) are both
// accurate to about 1 ulp but differ in the last bit for some inputs, and one
// different bit in a softmax makes a training run diverge from its twin after
// a few hundred steps. These versions use only + - * /, comparisons, floor and
// exact bit manipulation of IEEE doubles, in a fixed order, so the browser
// and the desktop build compute identical results.
//
// Accuracy (tests/unit/test_trainer.cpp checks it against std::exp/std::log):
//   det_exp: relative error below ~4e-16 (a few ulp) for x in [-708, 709.7];
//            +inf above 709.78, 0 below -745.2, NaN for NaN; subnormal
//            results are produced by a final exact-or-once-rounded scaling.
//   det_log: relative error below ~4e-16 (absolute below ~2e-16 near x = 1);
//            -inf for 0, NaN for x < 0 or NaN, +inf for +inf.
#pragma once

namespace attn {

double det_exp(double x);
double det_log(double x);

// float versions: computed in double, rounded to float once.
inline float det_expf(float x) { return static_cast<float>(det_exp(static_cast<double>(x))); }
inline float det_logf(float x) { return static_cast<float>(det_log(static_cast<double>(x))); }

}  // namespace attn
