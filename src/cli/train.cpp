// train: the tiny one-layer attention model of core/scaling/trainer.hpp, trained
// headlessly. The same seed gives the same curves as the browser's scaling
// lab, bit for bit; --json prints the schema of api/scaling/train_json.hpp.
#include <iostream>

#include "api/scaling/train_json.hpp"
#include "commands.hpp"
#include "core/scaling/trainer.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

constexpr long long kDefaultSteps = 200;

ValueFlag task_flag(TrainTask& out) {
  return {"task", [&out](const std::string& text) {
            return train_task_from_name(text, out) ? std::string()
                                                   : "--task: unknown task '" + text + "' (known: retrieve)";
          }};
}

// sqrt: scores / sqrt(d_k), the chapter's scaled scores; none: raw scores.
ValueFlag scale_flag(bool& scaled) {
  return {"scale", [&scaled](const std::string& text) {
            if (text != "sqrt" && text != "none") return "--scale: expected sqrt or none, got '" + text + "'";
            scaled = text == "sqrt";
            return std::string();
          }};
}

void print_header(const TrainConfig& config) {
  std::cout << "Training a one-layer attention model on '" << train_task_name(config.task)
            << "': d_k " << config.d_k << ", " << config.heads << " head(s), scores "
            << (config.scaled ? "/ sqrt(d_k)" : "raw (not scaled)") << ", Adam lr "
            << config.learning_rate << ", batch " << config.batch << ", seed " << config.seed
            << "\n\n";
}

}  // namespace

int run_train(const CommandLine& line) {
  using L = TrainLimits;
  TrainConfig config;
  long long steps = kDefaultSteps;
  bool json = false;
  const FlagSpec flags{{task_flag(config.task),
                        int_flag("dk", L::kMinDk, L::kMaxDk, config.d_k),
                        scale_flag(config.scaled),
                        int_flag("steps", 1, L::kMaxSteps, steps),
                        seed_flag(config.seed),
                        positive_float_flag("lr", L::kMaxLearningRate, config.learning_rate),
                        int_flag("heads", 1, L::kMaxHeads, config.heads),
                        int_flag("batch", 1, L::kMaxBatch, config.batch)},
                       &json};
  if (const auto exit_code = read_flags(line, flags)) return *exit_code;
  // What the flags cannot see alone, e.g. heads that do not divide d_k.
  if (std::string e = check_train_config(config); !e.empty()) return command_error(line.command, e);

  Trainer trainer(config);
  if (json) {
    for (long long s = 1; s <= steps; ++s) trainer.step();
    std::cout << api::dump(api::trained_model_json(trainer, trainer.evaluate(), true)) << '\n';
    return 0;
  }
  print_header(config);
  // A table row every ~10 % of the run, and the first step.
  const long long every = steps >= 10 ? steps / 10 : 1;
  Table table{{"step", "loss", "accuracy", "grad norm"}, {}};
  for (long long s = 1; s <= steps; ++s) {
    const TrainStepStats st = trainer.step();
    if (s % every == 0 || s == 1)
      table.rows.push_back({std::to_string(st.step), fixed(st.loss, 4), fixed(st.accuracy, 3),
                            fixed(st.grad_norm, 4)});
  }
  print_table(std::cout, table);
  std::cout << "\nHeld-out accuracy (256 sequences): " << fixed(trainer.evaluate(), 3) << '\n';
  return 0;
}

}  // namespace attn::cli
