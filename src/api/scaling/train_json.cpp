// A trained model as JSON (train_json.hpp): the config, the last step's
// numbers and optionally the per-step history, from Trainer's own record.
#include "api/scaling/train_json.hpp"

namespace attn::api {

OutJson train_config_json(const TrainConfig& config) {
  return {{"task", train_task_name(config.task)}, {"d_k", config.d_k},
          {"heads", config.heads},               {"batch", config.batch},
          {"learning_rate", config.learning_rate}, {"seed", config.seed},
          {"scaled", config.scaled}};
}

OutJson trained_model_json(const Trainer& trainer, float eval_accuracy, bool with_history) {
  const std::vector<TrainStepStats>& history = trainer.history();
  // Before the first step there is no "last step": zeros, like a fresh summary.
  const TrainStepStats last = history.empty() ? TrainStepStats{} : history.back();
  const float first_loss = history.empty() ? 0.0f : history.front().loss;
  OutJson j = {{"config", train_config_json(trainer.config())},
               {"steps", history.size()},
               {"first_loss", first_loss},
               {"loss", last.loss},
               {"accuracy", last.accuracy},
               {"grad_norm", last.grad_norm}};
  j["eval_accuracy"] = eval_accuracy >= 0.0f ? OutJson(eval_accuracy) : OutJson(nullptr);
  if (with_history) {
    OutJson loss = OutJson::array(), accuracy = OutJson::array(), grad_norm = OutJson::array();
    for (const TrainStepStats& st : history) {
      loss.push_back(st.loss);
      accuracy.push_back(st.accuracy);
      grad_norm.push_back(st.grad_norm);
    }
    j["history"] = {{"loss", std::move(loss)}, {"accuracy", std::move(accuracy)},
                    {"grad_norm", std::move(grad_norm)}};
  }
  return j;
}

}  // namespace attn::api
