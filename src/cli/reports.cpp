// fig41, fig42, causal: the chapter's three experiments (core/chapter/experiments.hpp)
// as the console reports the chapter prints, or as JSON for tests and scripts.
#include <cmath>
#include <iostream>

#include "api/json_output.hpp"
#include "commands.hpp"
#include "core/chapter/experiments.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

using api::OutJson;

void print_fig41_text(const Figure41& f) {
  const MultiHeadResult& r = f.result;
  const Figure41Config& c = f.config;
  std::cout << "Figure 4.1: multi-head self-attention on a synthetic sequence\n"
            << "seq_len " << c.seq_len << ", d_model " << c.d_model << ", " << c.heads
            << " heads (d_head " << c.d_model / c.heads << ")\n\n";

  Table stats{{"head", "min", "max", "mean"}, {}};
  for (std::size_t h = 0; h < f.head_stats.size(); ++h)
    stats.rows.push_back({std::to_string(h), fixed(f.head_stats[h].min, 4),
                          fixed(f.head_stats[h].max, 4), fixed(f.head_stats[h].mean, 4)});
  std::cout << "Attention weights per head\n";
  print_table(std::cout, stats);
  std::cout << '\n';

  print_matrix(std::cout, "Head-average attention weights (rows: queries, columns: keys)",
               r.average_weights, f.tokens, f.tokens);

  std::cout << "Top-" << c.top_k << " keys per position (head average)\n";
  for (std::size_t q = 0; q < f.top_keys.size(); ++q) {
    std::cout << "  " << f.tokens[q] << ":";
    for (int k : f.top_keys[q])
      std::cout << "  " << f.tokens[k] << " ("
                << fixed(r.average_weights(static_cast<Eigen::Index>(q), k), 4) << ")";
    std::cout << '\n';
  }
}

OutJson fig41_json(const Figure41& f) {
  const MultiHeadResult& r = f.result;
  return {{"heads", api::heads_json(r, api::HeadField::Weights)},
          {"average", api::to_json(r.average_weights)},
          {"output", api::to_json(r.output)},
          {"stats", api::stats_json(f.head_stats)},
          {"top_keys", api::top_keys_json(f.top_keys)},
          {"tokens", api::to_json(f.tokens)}};
}

void print_fig42_text(const Figure42& f) {
  std::cout << "Figure 4.2: why divide by sqrt(d_k)\n"
            << f.config.samples << " samples of q, k ~ N(0, I) per d_k; softmax peak = mean of "
            << "max(softmax([score, 0])) over the first " << f.config.peak_samples << "\n\n";
  Table t{{"d_k", "sqrt(d_k)", "raw std", "scaled std", "raw peak", "scaled peak"}, {}};
  for (const Figure42Dim& d : f.dims)
    t.rows.push_back({std::to_string(d.d_k), fixed(std::sqrt(double(d.d_k)), 3), fixed(d.raw_std, 4),
                      fixed(d.scaled_std, 4), fixed(d.raw_peak, 4), fixed(d.scaled_peak, 4)});
  print_table(std::cout, t);
  std::cout << "\nRaw std grows like sqrt(d_k) and the raw peak climbs towards 1 (softmax saturates);\n"
               "scaled scores keep std ~1 and a peak near 0.68 at every d_k.\n";
}

OutJson fig42_json(const Figure42& f) {
  OutJson j = {{"dims", OutJson::array()}, {"raw_std", OutJson::array()},
               {"scaled_std", OutJson::array()}, {"raw_peak", OutJson::array()},
               {"scaled_peak", OutJson::array()}, {"raw_hist", OutJson::array()},
               {"scaled_hist", OutJson::array()}};
  for (const Figure42Dim& d : f.dims) {
    j["dims"].push_back(d.d_k);
    j["raw_std"].push_back(d.raw_std);
    j["scaled_std"].push_back(d.scaled_std);
    j["raw_peak"].push_back(d.raw_peak);
    j["scaled_peak"].push_back(d.scaled_peak);
    j["raw_hist"].push_back(api::to_json(d.raw_hist));
    j["scaled_hist"].push_back(api::to_json(d.scaled_hist));
  }
  return j;
}

OutJson causal_json(const CausalCompanion& c) {
  return {{"scores", api::to_json(c.bidirectional.raw_scores)},
          {"bidirectional", api::to_json(c.bidirectional.weights)},
          {"causal", api::to_json(c.causal.weights)},
          {"mask", api::to_json(c.mask)},
          {"output_diff", api::to_json(c.output_diff)},
          {"top_keys", api::top_keys_json(c.top_keys)}};
}

void print_causal_text(const CausalCompanion& c) {
  const auto labels = position_labels(c.config.seq_len);
  std::cout << "Causal mask companion: " << c.config.seq_len << " tokens, d_model "
            << c.config.d_model << ", one head\n\n";
  print_matrix(std::cout, "Raw scores Q K^T", c.bidirectional.raw_scores, labels, labels);
  print_matrix(std::cout, "Bidirectional weights (every position sees every key)",
               c.bidirectional.weights, labels, labels);
  print_mask(std::cout, "Causal mask (1 = may attend: key j <= query i)", c.mask, labels, labels);
  print_matrix(std::cout, "Causal weights", c.causal.weights, labels, labels);
  Table diff{{"position", "||out_bi - out_causal||"}, {}};
  for (Eigen::Index i = 0; i < c.output_diff.size(); ++i)
    diff.rows.push_back({labels[static_cast<std::size_t>(i)], fixed(c.output_diff[i], 6)});
  std::cout << "Output difference per position (the last one sees everything either way)\n";
  print_table(std::cout, diff);
  std::cout << "\nTop-3 keys per position (causal weights)\n";
  for (std::size_t q = 0; q < c.top_keys.size(); ++q) {
    std::cout << "  " << labels[q] << ":";
    for (int k : c.top_keys[q])
      std::cout << "  " << labels[static_cast<std::size_t>(k)] << " ("
                << fixed(c.causal.weights(static_cast<Eigen::Index>(q), k), 4) << ")";
    std::cout << '\n';
  }
}

// The three reports take the same flags (--seed, --json) and print one of two
// forms. --seed is np.random.seed's: 42, the default, gives the book's numbers.
template <typename Config, typename Result>
int run_report(const CommandLine& line, Result (*run)(const Config&), OutJson (*to_json)(const Result&),
               void (*print_text)(const Result&)) {
  bool json = false;
  Config config;
  if (const auto exit_code = read_flags(line, {{numpy_seed_flag(config.seed)}, &json})) return *exit_code;
  const Result result = run(config);
  if (json)
    std::cout << api::dump(to_json(result)) << '\n';
  else
    print_text(result);
  return 0;
}

}  // namespace

int run_fig41(const CommandLine& line) { return run_report(line, run_figure41, fig41_json, print_fig41_text); }

int run_fig42(const CommandLine& line) { return run_report(line, run_figure42, fig42_json, print_fig42_text); }

int run_causal(const CommandLine& line) {
  return run_report(line, run_causal_companion, causal_json, print_causal_text);
}

}  // namespace attn::cli
