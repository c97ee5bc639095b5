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

// The string tables name them by the core's own ids: "mask." + mask_name, "projection." + projection_name.
std::string mask_label_key(Mask::Kind kind) { return std::string("mask.") + mask_name(kind); }

std::string projection_label_key(Projection projection) {
  return std::string("projection.") + projection_name(projection);
}

}  // namespace attn::ui
