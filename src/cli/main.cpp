// attention_cli: the chapter's experiments and the compute() API on the
// command line, as tables for a reader or JSON for tests and scripts.
//
//   attention_cli fig41  [--json]      Figure 4.1 console report
//   attention_cli fig42  [--json]      Figure 4.2: why divide by sqrt(d_k)
//   attention_cli causal [--json]      the causal-mask companion
//   attention_cli attend --config FILE compute() on a JSON config (- = stdin)
//   attention_cli config --config FILE the canonical form of a text/experiment config
//   attention_cli train --dk D --scale sqrt|none --steps N --seed S [--json] ...
//                                      train the tiny attention model (trainer.hpp)
//   attention_cli scaling --dk D [--keys N] [--json]
//                                      saturation, gradient size, float32 stability
//
// Exit codes: 0 ok, 2 bad usage or bad config (one line on stderr), 1 internal error.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "api/compute.hpp"
#include "api/explorer_json.hpp"
#include "api/json_output.hpp"
#include "core/experiments.hpp"
#include "core/scaling.hpp"
#include "core/trainer.hpp"
#include "tables.hpp"

namespace {

using attn::api::OutJson;
using attn::cli::fixed;

constexpr int kExitUsage = 2;

const char* const kUsage =
    "usage: attention_cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  fig41  [--json]        Figure 4.1: per-head min/max/mean, head average, top-3 keys\n"
    "  fig42  [--json]        Figure 4.2: score spread and softmax peak vs d_k, raw and scaled\n"
    "  causal [--json]        causal mask companion: bidirectional vs causal weights\n"
    "  attend --config FILE   run a JSON config through compute() (FILE '-' reads stdin)\n"
    "  config --config FILE   print a text/experiment config in canonical form (all fields,\n"
    "                         defaults filled in); parses only, attend runs it\n"
    "  train [--task retrieve] [--dk D] [--scale sqrt|none] [--steps N] [--seed S]\n"
    "        [--lr X] [--heads H] [--batch B] [--json]\n"
    "                         train the tiny one-layer attention model (defaults: retrieve,\n"
    "                         dk 32, sqrt, 200 steps, seed 1, lr 0.003, 1 head, batch 32)\n"
    "  scaling [--dk D] [--keys N] [--trials T] [--seed S] [--json]\n"
    "                         one attention row raw vs scaled, softmax entropy and Jacobian\n"
    "                         norm (means over T rows), float32 naive vs stable softmax\n"
    "  --help                 this text\n";

int usage_error(const std::string& message) {
  std::cerr << "attention_cli: " << message << "\n" << kUsage;
  return kExitUsage;
}

// The options after the subcommand. Only --json and --config exist.
struct Options {
  bool json = false;
  bool help = false;
  bool has_config = false;
  std::string config;
  std::string error;  // non-empty: bad usage
};

Options parse_options(int argc, char** argv, bool allow_config) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      o.help = true;
    } else if (arg == "--json" && !allow_config) {
      o.json = true;
    } else if (arg == "--config" && allow_config && i + 1 < argc && !o.has_config) {
      o.has_config = true;
      o.config = argv[++i];
    } else {
      o.error = "unexpected argument '" + arg + "' for '" + argv[1] + "'";
    }
  }
  if (allow_config && !o.has_config && !o.help && o.error.empty())
    o.error = std::string(argv[1]) + " needs --config FILE";
  return o;
}

// ---- fig41 -------------------------------------------------------------------
int run_fig41(const Options& o) {
  const attn::Figure41 f = attn::run_figure41();
  const attn::MultiHeadResult& r = f.result;
  if (o.json) {
    OutJson j = {{"heads", attn::api::heads_json(r, attn::api::HeadField::Weights)},
                 {"average", attn::api::to_json(r.average_weights)},
                 {"output", attn::api::to_json(r.output)},
                 {"stats", attn::api::stats_json(f.head_stats)},
                 {"top_keys", attn::api::top_keys_json(f.top_keys)},
                 {"tokens", attn::api::to_json(f.tokens)}};
    std::cout << attn::api::dump(j) << '\n';
    return 0;
  }
  const attn::Figure41Config& c = f.config;
  std::cout << "Figure 4.1: multi-head self-attention on a synthetic sequence\n"
            << "seq_len " << c.seq_len << ", d_model " << c.d_model << ", " << c.heads
            << " heads (d_head " << c.d_model / c.heads << ")\n\n";

  attn::cli::Table stats{{"head", "min", "max", "mean"}, {}};
  for (std::size_t h = 0; h < f.head_stats.size(); ++h)
    stats.rows.push_back({std::to_string(h), fixed(f.head_stats[h].min, 4),
                          fixed(f.head_stats[h].max, 4), fixed(f.head_stats[h].mean, 4)});
  std::cout << "Attention weights per head\n";
  attn::cli::print_table(std::cout, stats);
  std::cout << '\n';

  attn::cli::print_matrix(std::cout, "Head-average attention weights (rows: queries, columns: keys)",
                          r.average_weights, f.tokens, f.tokens);

  std::cout << "Top-" << c.top_k << " keys per position (head average)\n";
  for (std::size_t q = 0; q < f.top_keys.size(); ++q) {
    std::cout << "  " << f.tokens[q] << ":";
    for (int k : f.top_keys[q])
      std::cout << "  " << f.tokens[k] << " (" << fixed(r.average_weights(static_cast<Eigen::Index>(q), k), 4) << ")";
    std::cout << '\n';
  }
  return 0;
}

// ---- fig42 -------------------------------------------------------------------
int run_fig42(const Options& o) {
  const attn::Figure42 f = attn::run_figure42();
  if (o.json) {
    OutJson j = {{"dims", OutJson::array()}, {"raw_std", OutJson::array()},
                 {"scaled_std", OutJson::array()}, {"raw_peak", OutJson::array()},
                 {"scaled_peak", OutJson::array()}, {"raw_hist", OutJson::array()},
                 {"scaled_hist", OutJson::array()}};
    for (const attn::Figure42Dim& d : f.dims) {
      j["dims"].push_back(d.d_k);
      j["raw_std"].push_back(d.raw_std);
      j["scaled_std"].push_back(d.scaled_std);
      j["raw_peak"].push_back(d.raw_peak);
      j["scaled_peak"].push_back(d.scaled_peak);
      j["raw_hist"].push_back(attn::api::to_json(d.raw_hist));
      j["scaled_hist"].push_back(attn::api::to_json(d.scaled_hist));
    }
    std::cout << attn::api::dump(j) << '\n';
    return 0;
  }
  std::cout << "Figure 4.2: why divide by sqrt(d_k)\n"
            << f.config.samples << " samples of q, k ~ N(0, I) per d_k; softmax peak = mean of "
            << "max(softmax([score, 0])) over the first " << f.config.peak_samples << "\n\n";
  attn::cli::Table t{{"d_k", "sqrt(d_k)", "raw std", "scaled std", "raw peak", "scaled peak"}, {}};
  for (const attn::Figure42Dim& d : f.dims)
    t.rows.push_back({std::to_string(d.d_k), fixed(std::sqrt(double(d.d_k)), 3), fixed(d.raw_std, 3),
                      fixed(d.scaled_std, 3), fixed(d.raw_peak, 3), fixed(d.scaled_peak, 3)});
  attn::cli::print_table(std::cout, t);
  std::cout << "\nRaw std grows like sqrt(d_k) and the raw peak climbs towards 1 (softmax saturates);\n"
               "scaled scores keep std ~1 and a peak near 0.68 at every d_k.\n";
  return 0;
}

// ---- causal ------------------------------------------------------------------
int run_causal(const Options& o) {
  const attn::CausalCompanion c = attn::run_causal_companion();
  if (o.json) {
    OutJson j = {{"scores", attn::api::to_json(c.bidirectional.raw_scores)},
                 {"bidirectional", attn::api::to_json(c.bidirectional.weights)},
                 {"causal", attn::api::to_json(c.causal.weights)},
                 {"mask", attn::api::to_json(c.mask)},
                 {"output_diff", attn::api::to_json(c.output_diff)}};
    std::cout << attn::api::dump(j) << '\n';
    return 0;
  }
  const auto labels = attn::cli::position_labels(c.config.seq_len);
  std::cout << "Causal mask companion: " << c.config.seq_len << " tokens, d_model "
            << c.config.d_model << ", one head\n\n";
  attn::cli::print_matrix(std::cout, "Raw scores Q K^T", c.bidirectional.raw_scores, labels, labels);
  attn::cli::print_matrix(std::cout, "Bidirectional weights (every position sees every key)",
                          c.bidirectional.weights, labels, labels);
  attn::cli::print_mask(std::cout, "Causal mask (1 = may attend: key j <= query i)", c.mask, labels, labels);
  attn::cli::print_matrix(std::cout, "Causal weights", c.causal.weights, labels, labels);
  attn::cli::Table diff{{"position", "||out_bi - out_causal||"}, {}};
  for (Eigen::Index i = 0; i < c.output_diff.size(); ++i)
    diff.rows.push_back({labels[static_cast<std::size_t>(i)], fixed(c.output_diff[i], 6)});
  std::cout << "Output difference per position (the last one sees everything either way)\n";
  attn::cli::print_table(std::cout, diff);
  return 0;
}

// ---- attend ------------------------------------------------------------------
// Reads the whole file (or stdin). stdio, not iostreams: fread/ferror report
// a directory or a read error, which an ifstream would silently treat as EOF.
bool read_all(const std::string& path, std::string& text, std::string& error) {
  FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot open config file '" + path + "': " + std::strerror(errno);
    return false;
  }
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) text.append(buf, n);
  const bool failed = std::ferror(file) != 0;
  if (failed) error = "cannot read config file '" + path + "': " + std::strerror(errno);
  if (file != stdin) std::fclose(file);
  return !failed;
}

int run_attend(const Options& o) {
  std::string text, error;
  if (!read_all(o.config, text, error)) {
    std::cerr << "attention_cli: attend: " << error << '\n';
    return kExitUsage;
  }
  const attn::api::ComputeResult r = attn::api::compute(text);
  if (r.ok) {
    std::cout << r.json << '\n';
    return 0;
  }
  // The message is the error object's only string; compute() keeps it on one line.
  const auto j = nlohmann::json::parse(r.json, nullptr, false);
  const auto it = j.is_object() ? j.find("error") : j.end();
  const std::string message = (j.is_object() && it != j.end() && it->is_string())
                                  ? it->get<std::string>() : r.json;
  std::cerr << "attention_cli: attend: " << message << '\n';
  return kExitUsage;
}

// ---- config ------------------------------------------------------------------
// parse_explorer_config then print_explorer_config: the form the UI writes
// (URL state, currentConfig()), and a fixed point of parse + print.
int run_config(const Options& o) {
  std::string text, error;
  if (!read_all(o.config, text, error)) {
    std::cerr << "attention_cli: config: " << error << '\n';
    return kExitUsage;
  }
  attn::ExplorerConfig config;
  if (std::string e = attn::api::parse_explorer_config(text, config); !e.empty()) {
    std::cerr << "attention_cli: config: " << e << '\n';
    return kExitUsage;
  }
  std::cout << attn::api::print_explorer_config(config) << '\n';
  return 0;
}

// ---- train / scaling: flag parsing -------------------------------------------
// "--name value" flags; every error is one line on stderr and exit 2.
struct Flags {
  std::vector<std::pair<std::string, std::string>> values;
  bool json = false;
  bool help = false;
  std::string error;
};

Flags parse_flags(int argc, char** argv, const std::vector<std::string>& names) {
  Flags f;
  for (int i = 2; i < argc && f.error.empty(); ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") {
      f.json = true;
    } else if (arg == "--help" || arg == "-h") {
      f.help = true;
    } else if (arg.rfind("--", 0) == 0 &&
               std::find(names.begin(), names.end(), arg.substr(2)) != names.end()) {
      if (i + 1 >= argc || std::string(argv[i + 1]).rfind("--", 0) == 0) {
        f.error = arg + " needs a value";
      } else {
        for (const auto& v : f.values)
          if (v.first == arg.substr(2)) f.error = arg + " given twice";
        f.values.emplace_back(arg.substr(2), argv[++i]);
      }
    } else {
      f.error = "unexpected argument '" + arg + "'";
    }
  }
  return f;
}

// Whole-string integer in [lo, hi]; false (and a message) otherwise.
bool parse_int(const std::string& name, const std::string& text, long long lo, long long hi,
               long long& out, std::string& error) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi) {
    error = "--" + name + ": expected an integer in " + std::to_string(lo) + ".." +
            std::to_string(hi) + ", got '" + text + "'";
    return false;
  }
  out = v;
  return true;
}

int flag_error(const char* command, const std::string& message) {
  std::cerr << "attention_cli: " << command << ": " << message << '\n';
  return kExitUsage;
}

// ---- train -------------------------------------------------------------------
int run_train(int argc, char** argv) {
  const Flags f = parse_flags(argc, argv, {"task", "dk", "scale", "steps", "seed", "lr", "heads", "batch"});
  if (!f.error.empty()) return flag_error("train", f.error);
  if (f.help) {
    std::cout << kUsage;
    return 0;
  }
  attn::TrainConfig config;
  long long steps = 200;
  std::string error;
  for (const auto& [name, value] : f.values) {
    long long n = 0;
    bool ok = true;
    if (name == "task") {
      ok = attn::train_task_from_name(value, config.task);
      if (!ok) error = "--task: unknown task '" + value + "' (known: retrieve)";
    } else if (name == "dk") {
      ok = parse_int(name, value, 1, 1024, n, error);
      config.d_k = static_cast<int>(n);
    } else if (name == "heads") {
      ok = parse_int(name, value, 1, 64, n, error);
      config.heads = static_cast<int>(n);
    } else if (name == "batch") {
      ok = parse_int(name, value, 1, 4096, n, error);
      config.batch = static_cast<int>(n);
    } else if (name == "steps") {
      ok = parse_int(name, value, 1, 100000, steps, error);
    } else if (name == "seed") {
      ok = parse_int(name, value, 0, 9007199254740991ll, n, error);  // 2^53 - 1: exact in JSON
      config.seed = static_cast<uint64_t>(n);
    } else if (name == "scale") {
      ok = value == "sqrt" || value == "none";
      config.scaled = value == "sqrt";
      if (!ok) error = "--scale: expected sqrt or none, got '" + value + "'";
    } else if (name == "lr") {
      char* end = nullptr;
      const float lr = std::strtof(value.c_str(), &end);
      ok = !value.empty() && *end == '\0' && std::isfinite(lr) && lr > 0.0f && lr <= 100.0f;
      config.learning_rate = lr;
      if (!ok) error = "--lr: expected a number in (0, 100], got '" + value + "'";
    }
    if (!ok) return flag_error("train", error);
  }
  if (std::string e = attn::check_train_config(config); !e.empty()) return flag_error("train", e);

  attn::Trainer trainer(config);
  const char* scale = config.scaled ? "sqrt" : "none";
  const long long every = steps >= 10 ? steps / 10 : 1;
  if (!f.json)
    std::cout << "Training a one-layer attention model on '" << attn::train_task_name(config.task)
              << "': d_k " << config.d_k << ", " << config.heads << " head(s), scores "
              << (config.scaled ? "/ sqrt(d_k)" : "raw (not scaled)") << ", Adam lr "
              << config.learning_rate << ", batch " << config.batch << ", seed " << config.seed
              << "\n\n";
  attn::cli::Table table{{"step", "loss", "accuracy", "grad norm"}, {}};
  for (long long s = 1; s <= steps; ++s) {
    const attn::TrainStepStats st = trainer.step();
    if (!f.json && (s % every == 0 || s == 1))
      table.rows.push_back({std::to_string(st.step), fixed(st.loss, 4), fixed(st.accuracy, 3),
                            fixed(st.grad_norm, 4)});
  }
  const float final_accuracy = trainer.evaluate();
  if (f.json) {
    OutJson j = {{"task", attn::train_task_name(config.task)}, {"dk", config.d_k},
                 {"scale", scale}, {"steps", steps}, {"heads", config.heads},
                 {"lr", config.learning_rate}, {"batch", config.batch}, {"seed", config.seed},
                 {"loss", OutJson::array()}, {"accuracy", OutJson::array()},
                 {"grad_norm", OutJson::array()}, {"final_accuracy", final_accuracy}};
    for (const attn::TrainStepStats& st : trainer.history()) {
      j["loss"].push_back(st.loss);
      j["accuracy"].push_back(st.accuracy);
      j["grad_norm"].push_back(st.grad_norm);
    }
    std::cout << attn::api::dump(j) << '\n';
    return 0;
  }
  attn::cli::print_table(std::cout, table);
  std::cout << "\nHeld-out accuracy (256 sequences): " << fixed(final_accuracy, 3) << '\n';
  return 0;
}

// ---- scaling -----------------------------------------------------------------
int run_scaling(int argc, char** argv) {
  const Flags f = parse_flags(argc, argv, {"dk", "keys", "trials", "seed"});
  if (!f.error.empty()) return flag_error("scaling", f.error);
  if (f.help) {
    std::cout << kUsage;
    return 0;
  }
  long long d_k = 64, keys = 16, trials = 200, seed = 1;
  std::string error;
  for (const auto& [name, value] : f.values) {
    bool ok = true;
    if (name == "dk") ok = parse_int(name, value, 1, 1024, d_k, error);
    if (name == "keys") ok = parse_int(name, value, 1, 4096, keys, error);
    if (name == "trials") ok = parse_int(name, value, 1, 10000, trials, error);
    if (name == "seed") ok = parse_int(name, value, 0, 9007199254740991ll, seed, error);
    if (!ok) return flag_error("scaling", error);
  }
  const int dk = static_cast<int>(d_k), n = static_cast<int>(keys);
  const attn::AttentionRow row = attn::attention_row(dk, n, static_cast<uint64_t>(seed));
  const attn::Saturation sat = attn::saturation(dk, n, static_cast<int>(trials), static_cast<uint64_t>(seed));
  const std::vector<float> naive = attn::naive_softmax(row.raw_scores);
  const std::vector<float> stable = attn::stable_softmax(row.raw_scores);
  if (f.json) {
    // Non-finite naive weights print as null (JSON has no NaN or inf).
    OutJson j = {{"dk", dk}, {"keys", n}, {"trials", trials}, {"seed", seed},
                 {"raw_scores", row.raw_scores}, {"raw_weights", row.raw_weights},
                 {"scaled_weights", row.scaled_weights},
                 {"raw_entropy", sat.raw_entropy}, {"scaled_entropy", sat.scaled_entropy},
                 {"raw_jacobian_norm", sat.raw_jacobian_norm},
                 {"scaled_jacobian_norm", sat.scaled_jacobian_norm},
                 {"naive_softmax", naive}, {"stable_softmax", stable},
                 {"naive_finite", attn::all_finite(naive)}};
    std::cout << attn::api::dump(j) << '\n';
    return 0;
  }
  std::cout << "Scaling lab at d_k " << dk << ": one query against " << n
            << " keys, q, k ~ N(0, I)\n\n";
  attn::cli::Table t{{"key", "raw score", "raw weight", "scaled weight", "naive f32", "stable f32"}, {}};
  for (int j = 0; j < n; ++j) {
    const auto u = static_cast<std::size_t>(j);
    t.rows.push_back({std::to_string(j), fixed(row.raw_scores[u], 3), fixed(row.raw_weights[u], 4),
                      fixed(row.scaled_weights[u], 4), fixed(naive[u], 4), fixed(stable[u], 4)});
  }
  attn::cli::print_table(std::cout, t);
  std::cout << "\nMeans over " << trials << " rows:\n";
  attn::cli::Table m{{"", "raw", "scaled"}, {}};
  m.rows.push_back({"softmax entropy (nats)", fixed(sat.raw_entropy, 4), fixed(sat.scaled_entropy, 4)});
  m.rows.push_back({"||diag(p) - p p^T||_F", fixed(sat.raw_jacobian_norm, 4),
                    fixed(sat.scaled_jacobian_norm, 4)});
  attn::cli::print_table(std::cout, m);
  std::cout << "\nNaive float32 softmax (no max subtraction) "
            << (attn::all_finite(naive) ? "stays finite here" : "overflows: inf/inf = NaN")
            << "; the stable one always does.\n";
  return 0;
}

int run(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "train") return run_train(argc, argv);
  if (command == "scaling") return run_scaling(argc, argv);
  using Runner = int (*)(const Options&);
  struct Command { const char* name; Runner run; bool takes_config; };
  static const Command commands[] = {{"fig41", run_fig41, false}, {"fig42", run_fig42, false},
                                     {"causal", run_causal, false}, {"attend", run_attend, true},
                                     {"config", run_config, true}};
  for (const Command& c : commands) {
    if (command != c.name) continue;
    const Options o = parse_options(argc, argv, c.takes_config);
    if (!o.error.empty()) return usage_error(o.error);
    if (o.help) {
      std::cout << kUsage;
      return 0;
    }
    return c.run(o);
  }
  return usage_error("unknown command '" + command + "'");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // e.g. bad_alloc: report, never crash
    std::cerr << "attention_cli: internal error: " << e.what() << '\n';
    return 1;
  }
}
