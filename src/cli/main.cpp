// attention_cli: the chapter's experiments and the compute() API on the
// command line, as tables for a reader or JSON for tests and scripts.
//
//   attention_cli fig41  [--json]      Figure 4.1 console report
//   attention_cli fig42  [--json]      Figure 4.2: why divide by sqrt(d_k)
//   attention_cli causal [--json]      the causal-mask companion
//   attention_cli attend --config FILE compute() on a JSON config (- = stdin)
//   attention_cli config --config FILE the canonical form of a text/experiment config
//
// Exit codes: 0 ok, 2 bad usage or bad config (one line on stderr), 1 internal error.
#include <cerrno>
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

int run(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
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
