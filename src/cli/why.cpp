// why: the "why attention" experiments of core/why headless, the same runs
// the view trains in the page (deterministic for a seed):
//   why recurrence  a tanh RNN, a GRU and one attention layer learn to name
//                   the symbol k positions back;
//   why qkv         one attention layer without projections, with W_Q = W_K,
//                   and with three, on "previous symbol" and "key-value lookup".
#include <iostream>
#include <string>

#include "api/json_output.hpp"
#include "commands.hpp"
#include "core/why/why_lab.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

using why::Experiment;
using why::ExperimentSettings;
using why::ModelReport;

const char* const kWhyUsage =
    "usage: attention_cli why <recurrence|qkv> [options]\n"
    "  recurrence [--distance K|mix] [--steps N] [--seed S] [--lr X] [--batch B] [--timing] [--json]\n"
    "         a tanh RNN, a GRU and a causal attention layer (width 32) trained side by side\n"
    "         on the same batches to name the symbol K positions back (defaults: K 32,\n"
    "         600 steps, seed 1, lr 0.01, batch 32); held-out accuracy, the gradient\n"
    "         reaching each input, and with --timing one forward pass of each layer\n"
    "         for n = 16 ... 1024 on this machine (times vary: not in the default output)\n"
    "  qkv [--task previous|lookup] [--steps N] [--seed S] [--lr X] [--batch B] [--json]\n"
    "         one attention layer with no projections (q = k = v = x), W_Q = W_K, and\n"
    "         separate W_Q, W_K, W_V on the same batches; without --task, both tasks\n";

constexpr int kDefaultSteps = 600;

struct Run {
  ExperimentSettings settings;
  int steps = kDefaultSteps;
  std::vector<ModelReport> reports;
};

double ratio(const std::vector<double>& g, int a, int b) {
  return g.empty() || g[std::size_t(b)] == 0 ? 0.0 : g[std::size_t(a)] / g[std::size_t(b)];
}

api::OutJson model_json(const ModelReport& r, const ExperimentSettings& s) {
  api::OutJson j{{"accuracy", r.accuracy}, {"loss", r.loss}, {"gradient", r.gradient}};
  if (!r.by_distance.empty()) j["by_distance"] = r.by_distance;
  if (s.task == why::Task::Copy && !r.gradient.empty()) {
    const int T = int(r.gradient.size()), k = s.distance == 0 ? 32 : s.distance;
    j["gradient_first_over_last"] = ratio(r.gradient, 0, T - 1);
    j["gradient_answer_over_last"] = ratio(r.gradient, T - 1 - k, T - 1);
  }
  if (!r.attention.empty()) j["attention"] = r.attention;
  if (r.asymmetry >= 0) j["asymmetry"] = r.asymmetry, j["self_strongest"] = r.self_strongest;
  return j;
}

void train(Run& run, const std::vector<why::ModelSpec>& models) {
  Experiment experiment(run.settings, models);
  for (int s = 0; s < run.steps; ++s) experiment.step();
  run.reports = experiment.report();
}

void print_reports(const Run& run) {
  Table t{{"model", "accuracy", "loss", "‖∂L/∂x_first‖ / ‖∂L/∂x_last‖"}, {}};
  for (const ModelReport& r : run.reports)
    t.rows.push_back({r.key, fixed(100 * r.accuracy, 1) + " %", fixed(r.loss, 3),
                      r.gradient.empty() ? "" : fixed(ratio(r.gradient, 0, int(r.gradient.size()) - 1), 6)});
  print_table(std::cout, t);
}

ValueFlag distance_flag(int& out) {
  return {"distance", [&out](const std::string& text) {
            if (text == "mix") {
              out = 0;
              return std::string();
            }
            long long k = 0;
            std::string error = parse_int("distance", text, 1, why::kMaxDistance, k);
            if (!error.empty()) return error + " or 'mix'";
            out = int(k);
            return std::string();
          }};
}

ValueFlag task_flag(std::optional<why::Task>& out) {
  return {"task", [&out](const std::string& text) {
            if (text == "previous") out = why::Task::Previous;
            else if (text == "lookup") out = why::Task::Lookup;
            else return "--task: expected previous or lookup, got '" + text + "'";
            return std::string();
          }};
}

int recurrence(const CommandLine& line) {
  Run run;
  bool json = false, timing = false;
  FlagSpec flags{{distance_flag(run.settings.distance), int_flag("steps", 0, 100000, run.steps), seed_flag(run.settings.seed),
                  positive_float_flag("lr", 1.0f, run.settings.learning_rate), int_flag("batch", 1, 1024, run.settings.batch)},
                 &json};
  // --timing takes no value: taken out before the flag reader sees it.
  CommandLine rest = line;
  for (auto it = rest.args.begin(); it != rest.args.end();)
    if (*it == "--timing") timing = true, it = rest.args.erase(it);
    else ++it;
  if (const auto exit_code = read_flags(rest, flags)) return *exit_code;
  if (std::string e = why::check_settings(run.settings); !e.empty()) return command_error(line.command, e);
  train(run, why::recurrence_models());
  api::OutJson out{{"experiment", "recurrence"}, {"distance", run.settings.distance == 0 ? api::OutJson("mix") : api::OutJson(run.settings.distance)},
                   {"steps", run.steps}, {"seed", run.settings.seed}, {"batch", run.settings.batch},
                   {"learning_rate", run.settings.learning_rate}};
  for (const ModelReport& r : run.reports) out[r.key] = model_json(r, run.settings);
  if (timing) {
    api::OutJson rows = api::OutJson::array();
    for (const why::ForwardTiming& f : why::time_forward({16, 64, 256, 1024}, 0.5))
      rows.push_back({{"layer", f.layer}, {"n", f.n}, {"ms", f.ms}, {"gflops", f.flops / f.ms / 1e6},
                      {"dependent_steps", f.dependent_steps}});
    out["forward"] = rows;
  }
  if (json) {
    std::cout << api::dump(out) << '\n';
    return 0;
  }
  std::cout << "Copy the symbol " << (run.settings.distance ? std::to_string(run.settings.distance) : std::string("k (a mix of 1..64)"))
            << " positions back: " << run.steps << " Adam steps of batch " << run.settings.batch << ", seed "
            << run.settings.seed << "; held out:\n\n";
  print_reports(run);
  if (timing) {
    std::cout << "\nOne forward pass (B = 1, width " << why::kWidth << "):\n";
    Table t{{"layer", "n", "ms", "GFLOP/s", "dependent steps"}, {}};
    for (const auto& row : out["forward"])
      t.rows.push_back({row["layer"].get<std::string>(), std::to_string(row["n"].get<int>()), fixed(row["ms"].get<double>(), 3),
                        fixed(row["gflops"].get<double>(), 2), std::to_string(row["dependent_steps"].get<int>())});
    print_table(std::cout, t);
  }
  return 0;
}

int qkv(const CommandLine& line) {
  Run run;
  bool json = false;
  std::optional<why::Task> task;
  FlagSpec flags{{task_flag(task), int_flag("steps", 0, 100000, run.steps), seed_flag(run.settings.seed),
                  positive_float_flag("lr", 1.0f, run.settings.learning_rate), int_flag("batch", 1, 1024, run.settings.batch)},
                 &json};
  if (const auto exit_code = read_flags(line, flags)) return *exit_code;
  api::OutJson out{{"experiment", "qkv"}, {"steps", run.steps}, {"seed", run.settings.seed}, {"batch", run.settings.batch},
                   {"learning_rate", run.settings.learning_rate}};
  for (const why::Task t : {why::Task::Previous, why::Task::Lookup}) {
    if (task && *task != t) continue;
    run.settings.task = t;
    if (std::string e = why::check_settings(run.settings); !e.empty()) return command_error(line.command, e);
    train(run, why::qkv_models(t));
    api::OutJson variants;
    for (const ModelReport& r : run.reports) variants[r.key] = model_json(r, run.settings);
    out[why::task_name(t)] = variants;
    if (!json) {
      std::cout << (t == why::Task::Previous ? "Previous symbol" : "Key-value lookup") << ": " << run.steps
                << " Adam steps of batch " << run.settings.batch << ", seed " << run.settings.seed << "; held out:\n\n";
      Table table{{"projections", "accuracy", "loss", "score asymmetry", "own key strongest"}, {}};
      for (const ModelReport& r : run.reports)
        table.rows.push_back({r.key, fixed(100 * r.accuracy, 1) + " %", fixed(r.loss, 3), fixed(r.asymmetry, 6),
                              fixed(100 * r.self_strongest, 1) + " %"});
      print_table(std::cout, table);
      std::cout << '\n';
    }
  }
  if (json) std::cout << api::dump(out) << '\n';
  return 0;
}

}  // namespace

int run_why(const CommandLine& line) {
  if (line.args.empty() || line.args[0] == "--help") {
    (line.args.empty() ? std::cerr : std::cout) << kWhyUsage;
    return line.args.empty() ? kExitUsage : 0;
  }
  const CommandLine sub{"why " + line.args[0], {line.args.begin() + 1, line.args.end()}, kWhyUsage};
  if (line.args[0] == "recurrence") return recurrence(sub);
  if (line.args[0] == "qkv") return qkv(sub);
  return command_error(line.command, "unknown experiment '" + line.args[0] + "' (recurrence, qkv)");
}

}  // namespace attn::cli
