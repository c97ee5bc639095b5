// The ranged controls' table; see controls.hpp.
#include "ui/state/controls.hpp"

#include <vector>

#include "ui/state/scaling_lab.hpp"

namespace attn::ui {

const RangedControl& ranged_control(const std::string& field) {
  static const std::vector<RangedControl> table = {
      // field, label, help, lo, hi, typed
      {"d_model", "setup.d_model", "", 8, 512, false},
      {"heads", "setup.heads", "", 1, 16, false},  // a config may ask for up to ExplorerLimits::kMaxHeads
      {"seed", "setup.seed", "setup.seed.help", 0, 9007199254740991.0, true},  // 2^53 - 1: exact in a double
      {"temperature", "setup.temperature", "setup.temperature.help", 0.1, 5, true},
      {"pads", "setup.pads", "", 0, 32, false},
      {"keys", "scaling.keys", "scaling.keys.help", ScalingLimits::kMinKeys, ScalingLimits::kMaxKeys, false},
      {"train_lr", "scaling.train.lr", "scaling.train.lr.help", 0.0001, 0.1, true},
  };
  for (const RangedControl& row : table)
    if (field == row.field) return row;
  return table.front();
}

const char* mask_label_key(Mask::Kind kind) {
  switch (kind) {
    case Mask::Kind::None: return "mask.none";
    case Mask::Kind::Causal: return "mask.causal";
    case Mask::Kind::Padding: return "mask.padding";
    case Mask::Kind::Custom: return "mask.custom";
  }
  return "mask.none";
}

const char* projection_label_key(Projection projection) {
  switch (projection) {
    case Projection::Random: return "projection.random";
    case Projection::Identity: return "projection.identity";
    case Projection::Chapter: return "projection.chapter";
    case Projection::Trained: return "projection.trained";
  }
  return "projection.random";
}

}  // namespace attn::ui
