// why: the "why attention" experiments of core/why headless, the same runs
// the view trains in the page (deterministic for a seed):
//   why recurrence  a tanh RNN, a GRU, one attention layer and a stack of
//                   convolutions learn to name the symbol k positions back;
//   why qkv         one attention layer without projections, with W_Q = W_K,
//                   and with three, on "previous symbol" and "key-value lookup".
#include <iostream>
#include <limits>
#include <string>

#include "api/json_output.hpp"
#include "api/why/why_json.hpp"
#include "api/why/why_session.hpp"
#include "commands.hpp"
#include "core/why/why_lab.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

using api::WhyPanel;
using api::WhyRun;
using api::WhyRunSettings;
using why::ModelReport;

const char* const kWhyUsage =
    "usage: attention_cli why <recurrence|qkv> [options]\n"
    "  recurrence [--distance K|mix] [--layers L] [--steps N] [--seed S] [--lr X] [--batch B] [--timing] [--json]\n"
    "         a tanh RNN, a GRU, a causal attention layer and L causal convolutions of\n"
    "         kernel 3 (\"cnn\", reaching 2L back; width 32) trained side by side on the same\n"
    "         batches to name the symbol K positions back (defaults: K 32, L 4,\n"
    "         600 steps, seed 1, lr 0.01, batch 32); held-out accuracy, the gradient\n"
    "         reaching each input, and with --timing one forward pass of each layer\n"
    "         for n = 16 ... 1024 on this machine (times vary: not in the default output)\n"
    "  qkv [--task previous|lookup] [--steps N] [--seed S] [--lr X] [--batch B] [--json]\n"
    "         one attention layer with no projections (q = k = v = x), W_Q = W_K, and\n"
    "         separate W_Q, W_K, W_V on the same batches; without --task, both tasks\n";

// The page's WhyRun, trained in one slice: the numbers the view shows after as many steps.
void train(WhyRun& run) {
  WorkClock clock(0.0);
  run.advance(clock, std::numeric_limits<double>::infinity());
}

void print_reports(WhyRun& run) {
  Table t{{"model", "accuracy", "loss", "‖∂L/∂x_first‖ / ‖∂L/∂x_last‖"}, {}};
  for (const ModelReport& r : run.report().models) {
    const std::size_t T = r.gradient.size();
    t.rows.push_back({r.key, fixed(100 * r.accuracy, 1) + " %", fixed(r.loss, 3),
                      T == 0 || r.gradient[T - 1] == 0 ? "" : fixed(r.gradient[0] / r.gradient[T - 1], 6)});
  }
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

// The flags both experiments take, into s.
std::vector<ValueFlag> training_flags(WhyRunSettings& s) {
  return {int_flag("steps", 0, api::WhyLimits::kMaxSteps, s.steps), seed_flag(s.experiment.seed),
          positive_float_flag("lr", 1.0f, s.experiment.learning_rate), int_flag("batch", 1, 1024, s.experiment.batch)};
}

int recurrence(const CommandLine& line) {
  WhyRunSettings settings;
  bool json = false, timing = false;
  FlagSpec flags{training_flags(settings), &json};
  flags.values.push_back(distance_flag(settings.experiment.distance));
  flags.values.push_back(int_flag("layers", 1, why::kMaxConvLayers, settings.experiment.conv_layers));
  // --timing takes no value: taken out before the flag reader sees it.
  CommandLine rest = line;
  for (auto it = rest.args.begin(); it != rest.args.end();)
    if (*it == "--timing") timing = true, it = rest.args.erase(it);
    else ++it;
  if (const auto exit_code = read_flags(rest, flags)) return *exit_code;
  if (std::string e = api::check_why_run(settings); !e.empty()) return command_error(line.command, e);
  WhyRun run(settings);
  train(run);
  api::OutJson out = run.json();
  if (timing) out["forward"] = api::why_forward_json(0.5);
  if (json) {
    std::cout << api::dump(out) << '\n';
    return 0;
  }
  const why::ExperimentSettings& e = settings.experiment;
  std::cout << "Copy the symbol " << (e.distance ? std::to_string(e.distance) : std::string("k (a mix of 1..64)"))
            << " positions back (the CNN " << e.conv_layers << " layers deep): " << run.steps()
            << " Adam steps of batch " << e.batch << ", seed " << e.seed
            << "; held out:\n\n";
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
  WhyRunSettings settings;
  settings.panel = WhyPanel::Qkv;
  bool json = false;
  std::optional<why::Task> task;
  FlagSpec flags{training_flags(settings), &json};
  flags.values.push_back(task_flag(task));
  if (const auto exit_code = read_flags(line, flags)) return *exit_code;
  const why::ExperimentSettings& e = settings.experiment;
  api::OutJson out = api::why_header_json("qkv", e, settings.steps);
  for (const why::Task t : {why::Task::Previous, why::Task::Lookup}) {
    if (task && *task != t) continue;
    settings.experiment.task = t;
    if (std::string error = api::check_why_run(settings); !error.empty()) return command_error(line.command, error);
    WhyRun run(settings);
    train(run);
    out[why::task_name(t)] = run.json()[why::task_name(t)];
    if (!json) {
      std::cout << (t == why::Task::Previous ? "Previous symbol" : "Key-value lookup") << ": " << run.steps()
                << " Adam steps of batch " << e.batch << ", seed " << e.seed << "; held out:\n\n";
      Table table{{"projections", "accuracy", "loss", "score asymmetry", "own key strongest"}, {}};
      for (const ModelReport& r : run.report().models)
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
