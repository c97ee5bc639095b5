// A trained model as JSON: one schema for `attention_cli train --json` and the
// browser's state(), so a curve from either can be compared with the other.
//
//   {"config": {"task": "retrieve", "d_k": 32, "heads": 1, "batch": 32,
//               "learning_rate": 0.003, "seed": 1, "scaled": true},
//    "steps": 200,                  steps taken so far
//    "first_loss": 2.1, "loss": 0.01, "accuracy": 1, "grad_norm": 0.02,
//                                   step 1's loss; the last step's numbers
//                                   (all 0 before the first step)
//    "eval_accuracy": 1 | null,     held-out accuracy, null when not measured
//    "history": {"loss": [...], "accuracy": [...], "grad_norm": [...]}}
//                                   one entry per step, only when asked for
// Numbers are float32 (OutJson); keys come out sorted. Builds the document
// only, never throws (the wasm build has no exceptions).
#pragma once

#include "api/json_output.hpp"
#include "core/scaling/trainer.hpp"

namespace attn::api {

// The "config" object above.
OutJson train_config_json(const TrainConfig& config);

// eval_accuracy < 0 prints null (evaluate() costs a forward pass over 256
// sequences, so a caller may not have one).
OutJson trained_model_json(const Trainer& trainer, float eval_accuracy, bool with_history);

}  // namespace attn::api
