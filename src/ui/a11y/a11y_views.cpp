// Each view's title, summary and tables for the accessible mirror (see
// a11y_views.hpp). Every number comes from the result the view draws; the
// summaries pick out what a sighted reader sees at a glance (the strongest
// keys, the most focused head, the trend of a curve).
#include "ui/a11y/a11y_views.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/explorer/fixed_filter.hpp"
#include "core/statistics.hpp"
#include "ui/chapter/fig41_panels.hpp"
#include "ui/explorer/explorer.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/scaling/scaling.hpp"
#include "ui/state/app_state.hpp"

namespace attn::ui {
namespace {

std::string number(const char* fmt, double value) { return format(fmt, value); }
std::string both(const char* what, const char* which) { return std::string(what) + " (" + which + ")"; }

std::string join(const std::vector<std::string>& sentences) {
  std::string out;
  for (const std::string& s : sentences) out += (out.empty() ? "" : " ") + s;
  return out;
}

// "Head 2: the query 3 'it' attends most to 1 'cat' (0.41) and 5 'street'
// (0.22); entropy 1.30 nats." for one query row of a head (-1: the average).
std::string head_sentence(const ExplorerResult& r, int head, int q) {
  const Matrix& weights = head < 0 ? r.attention.average_weights : r.attention.heads[std::size_t(head)].weights;
  const int n = int(weights.cols());
  const float* row = weights.data() + std::size_t(q) * std::size_t(n);
  // The two strongest keys (the first of equals): a loop; a sort costs the page's download more code.
  int keys[2] = {0, n > 1 ? 1 : 0};
  if (n > 1 && row[1] > row[0]) std::swap(keys[0], keys[1]);
  for (int k = 2; k < n; ++k) {
    if (row[k] > row[keys[0]]) {
      keys[1] = keys[0];
      keys[0] = k;
    } else if (row[k] > row[keys[1]]) {
      keys[1] = k;
    }
  }
  const std::string name = head < 0 ? tr("view.average") : head_title(head);
  const std::string query = token_label(r, q);
  if (n == 0 || row[keys[0]] <= 0.0f) return format(tr("a11y.head.masked.fmt"), name.c_str(), query.c_str());
  const double entropy = head < 0 ? double(row_entropy(row, std::size_t(n)))
                                  : double(r.attention.heads[std::size_t(head)].entropy(q));
  const std::string first = token_label(r, keys[0]);
  if (n == 1 || row[keys[1]] <= 0.0f)
    return format(tr("a11y.head.one.fmt"), name.c_str(), query.c_str(), first.c_str(), double(row[keys[0]]), entropy);
  const std::string second = token_label(r, keys[1]);
  return format(tr("a11y.head.fmt"), name.c_str(), query.c_str(), first.c_str(), double(row[keys[0]]),
                second.c_str(), double(row[keys[1]]), entropy);
}

// The selected query's weights, one row per head and the average (lines and
// focus views draw exactly these).
A11yTable query_table(const ExplorerResult& r, int q) {
  A11yTable table;
  table.caption = format(tr("a11y.query_table.fmt"), token_label(r, q).c_str());
  table.corner = std::string(tr("table.head")) + " \\ " + tr("axis.key");
  const int n = int(r.tokens.size()), shown = std::min(n, A11yTable::kMaxSide);
  for (int k = 0; k < shown; ++k) table.columns.push_back(token_label(r, k));
  const auto add_row = [&](const std::string& header, const Matrix& weights) {
    table.rows.push_back(header);
    for (int k = 0; k < shown; ++k) table.values.push_back(weights(q, k));
  };
  for (int h = 0; h < int(r.attention.heads.size()); ++h) add_row(head_title(h), r.attention.heads[std::size_t(h)].weights);
  add_row(tr("view.average"), r.attention.average_weights);
  if (shown < n) table.note = format(tr("a11y.window.fmt"), 0, int(table.rows.size()) - 1, int(table.rows.size()), 0,
                                     shown - 1, n);
  return table;
}

// The focus view's table: each key's weight and value row, then the output
// row they sum to (a head's only: the average has no values of its own).
A11yTable values_table(const ExplorerResult& r, int head, int q) {
  const HeadResult& h = r.attention.heads[std::size_t(head)];
  A11yTable table;
  table.caption = head_title(head) + ": " + tr("focus.output");
  table.corner = tr("tip.key");
  const int dims = std::min(int(h.V.cols()), A11yTable::kMaxSide);
  table.columns.push_back(tr("tip.weight"));
  for (int j = 0; j < dims; ++j) table.columns.push_back("v[" + std::to_string(j) + "]");
  for (int k = 0; k < int(h.V.rows()); ++k) {
    table.rows.push_back(token_label(r, k) + (h.allowed(q, k) ? "" : std::string(" (") + tr("a11y.masked_cell") + ")"));
    table.text.push_back({a11y_number(h.weights(q, k))});
    for (int j = 0; j < dims; ++j) table.text.back().push_back(number("%.3f", double(h.V(k, j))));
  }
  table.rows.push_back(tr("focus.output"));
  table.text.push_back({""});
  for (int j = 0; j < dims; ++j) table.text.back().push_back(number("%.3f", double(h.output(q, j))));
  return table;
}

// Weight histograms, a column per head: each cell a bin's range and count.
A11yTable histogram_table(const char* caption, const std::vector<const Histogram*>& histograms) {
  A11yTable table;
  table.caption = caption;
  table.corner = tr("axis.weight");
  for (std::size_t h = 0; h < histograms.size(); ++h) table.columns.push_back(head_title(int(h)));
  // Each head has its own bins over its own min..max: a row per bin index.
  const std::size_t bins = histograms.empty() ? 0 : histograms[0]->counts.size();
  for (std::size_t b = 0; b < bins; ++b) {
    table.rows.push_back(std::to_string(b + 1));
    table.text.emplace_back();
    for (const Histogram* hist : histograms) {
      const double left = double(hist->bin_left(int(b)));
      table.text.back().push_back(b < hist->counts.size()
                                      ? format("%.3f-%.3f: %d", left, left + double(hist->bin_width()), hist->counts[b])
                                      : "");
    }
  }
  return table;
}

// What an explorer view's copy holds besides the heatmaps it drew.
struct ExplorerCopy {
  bool every_head = false;     // a sentence for the average and each head (else the selected head's)
  bool head0_for_average = false;  // the selected head, or head 0 while the average is selected (steps.cpp)
  bool only_selected_heatmap = false;  // lists the selected head's heatmap only (the others are a
                                       // Page Up/Down or the head control away)
  bool query_table = false;    // the selected query's weights in each head
  bool values_table = false;   // the selected head's value rows, weighted (a single head only)
};

void explorer_view(const AppState& state, A11yView& out, const ExplorerCopy& copy) {
  if (!state.result || state.result->tokens.empty()) return;
  const ExplorerResult& r = *state.result;
  const int q = std::clamp(state.selected_query, 0, int(r.tokens.size()) - 1);
  const int heads = int(r.attention.heads.size());
  const int head = std::clamp(state.selected_head, -1, heads - 1);
  std::vector<std::string> sentences;
  if (copy.every_head) {
    sentences.push_back(head_sentence(r, -1, q));
    for (int h = 0; h < heads; ++h) sentences.push_back(head_sentence(r, h, q));
  } else {
    sentences.push_back(head_sentence(r, copy.head0_for_average ? std::max(head, 0) : head, q));
  }
  // A shuffled sentence: what the shuffle showed (explorer/order.cpp).
  if (std::string order = order_sentence(state); !order.empty()) sentences.push_back(order);
  out.summary = join(sentences);
  if (copy.only_selected_heatmap) out.only_heatmap = head < 0 ? "average" : "head" + std::to_string(head);
  if (copy.query_table) out.tables.push_back(query_table(r, q));
  if (copy.values_table && state.selected_head >= 0 && state.selected_head < heads)
    out.tables.push_back(values_table(r, state.selected_head, q));
}

void stats_view(const AppState& state, A11yView& out) {
  if (!state.result || state.result->tokens.empty()) return;
  const ExplorerResult& r = *state.result;
  const std::vector<StatsRow> rows = stats_table_text(r);
  A11yTable table;
  table.caption = tr("a11y.stats.caption");
  table.corner = tr("table.head");
  table.columns = {tr("table.min"), tr("table.max"), tr("table.mean"), tr("table.entropy")};
  for (const StatsRow& row : rows) {
    table.rows.push_back(row.head == "avg" ? tr("table.avg") : row.head);
    table.text.push_back({row.min, row.max, row.mean, row.mean_entropy});
  }
  out.tables.push_back(std::move(table));
  std::vector<const Histogram*> histograms;  // binned once the stats view drew them
  for (const HeadSummary& s : r.summaries)
    if (!s.histogram.counts.empty()) histograms.push_back(&s.histogram);
  if (!histograms.empty() && histograms.size() == r.summaries.size())
    out.tables.push_back(histogram_table(tr("stats.hist.title"), histograms));
  int focused = 0, spread = 0;
  for (int h = 1; h < int(r.summaries.size()); ++h) {
    if (r.summaries[std::size_t(h)].mean_entropy < r.summaries[std::size_t(focused)].mean_entropy) focused = h;
    if (r.summaries[std::size_t(h)].mean_entropy > r.summaries[std::size_t(spread)].mean_entropy) spread = h;
  }
  if (!r.summaries.empty())
    out.summary = format(tr("a11y.stats.fmt"), head_title(focused).c_str(),
                         double(r.summaries[std::size_t(focused)].mean_entropy), head_title(spread).c_str(),
                         double(r.summaries[std::size_t(spread)].mean_entropy));
}

// Figure 4.1's heads learned position patterns: say, per head, which key
// offset most queries attend to most, and how focused the head is.
void chapter_view(const AppState& state, A11yView& out) {
  out.title = tr("fig41.title");
  if (!state.fig41) return;
  const Figure41& fig = *state.fig41;
  std::vector<std::string> sentences;
  for (int h = 0; h < int(fig.result.heads.size()); ++h) {
    const HeadResult& head = fig.result.heads[std::size_t(h)];
    const int n = int(head.weights.rows());
    std::vector<int> rows_at(std::size_t(2 * n), 0);  // rows whose strongest key is at offset key - query (+ n)
    for (int q = 0; q < n; ++q) {
      int k = 0;
      for (int j = 1; j < n; ++j)
        if (head.weights(q, j) > head.weights(q, k)) k = j;
      ++rows_at[std::size_t(k - q + n)];
    }
    int mode = 0;  // the most common offset (the smallest of equals)
    for (int i = 1; i < 2 * n; ++i)
      if (rows_at[std::size_t(i)] > rows_at[std::size_t(mode)]) mode = i;
    double entropy = 0;
    for (int q = 0; q < n; ++q) entropy += double(head.entropy(q));
    sentences.push_back(format(tr("a11y.fig41.head.fmt"), head_title(h).c_str(), rows_at[std::size_t(mode)], n, mode - n,
                               n ? entropy / n : 0.0));
  }
  for (const std::string& note : flat_head_notes(fig)) sentences.push_back(note + ".");
  out.summary = join(sentences);
  // The figure's two tables as it prints them, and its histograms as counts.
  A11yTable stats;
  stats.caption = tr("panel.stats.title");
  stats.corner = tr("table.head");
  stats.columns = {tr("table.min"), tr("table.max"), tr("table.mean")};
  for (std::size_t h = 0; h < fig.head_stats.size(); ++h) {
    const WeightStats& s = fig.head_stats[h];
    stats.rows.push_back(std::to_string(h));
    stats.text.push_back({a11y_number(s.min), a11y_number(s.max), a11y_number(s.mean)});
  }
  out.tables.push_back(std::move(stats));
  A11yTable top;
  top.caption = format(tr("panel.topk.title.fmt"), fig.config.top_k);
  top.corner = tr("table.query");
  for (int j = 0; j < fig.config.top_k; ++j) top.columns.push_back(format(tr("table.rank.fmt"), j + 1));
  for (std::size_t q = 0; q < fig.top_keys.size(); ++q) {
    top.rows.push_back(fig.tokens[q]);
    top.text.emplace_back();
    for (const int key : fig.top_keys[q])
      top.text.back().push_back(fig.tokens[std::size_t(key)] + " " +
                                number("%.3f", double(fig.result.average_weights(Eigen::Index(q), key))));
  }
  out.tables.push_back(std::move(top));
  std::vector<const Histogram*> histograms;
  for (const Histogram& hist : fig.head_histograms) histograms.push_back(&hist);
  out.tables.push_back(histogram_table(tr("stats.hist.title"), histograms));
}

A11yTable numbers_table(const char* caption, std::vector<std::string> columns) {
  A11yTable table;
  table.caption = caption;
  table.corner = tr("scaling.dk");
  table.columns = std::move(columns);
  return table;
}


void figure42_view(const ScalingLab& lab, A11yView& out) {
  A11yTable table = numbers_table(tr("scaling.tab.fig42"),
      {both(tr("scaling.numbers.std"), tr("scaling.raw")), both(tr("scaling.numbers.std"), tr("scaling.scaled")),
       both(tr("scaling.numbers.theory"), "sqrt(d_k)"), both(tr("scaling.numbers.peak"), tr("scaling.raw")),
       both(tr("scaling.numbers.peak"), tr("scaling.scaled"))});
  for (const auto& [d_k, p] : lab.fig42_curve) {
    table.rows.push_back(std::to_string(d_k));
    table.text.push_back({number("%.3f", double(p.raw_std)), number("%.3f", double(p.scaled_std)),
                          number("%.3f", std::sqrt(double(d_k))), number("%.3f", double(p.raw_peak)),
                          number("%.3f", double(p.scaled_peak))});
  }
  std::vector<std::string> sentences;
  if (lab.current) {
    const ScalingNumbersText t = scaling_numbers_text(*lab.current);
    sentences.push_back(format(tr("a11y.fig42.current.fmt"), lab.current->d_k, t.raw_std.c_str(), t.scaled_std.c_str(),
                               t.raw_peak.c_str(), t.scaled_peak.c_str()));
  }
  if (lab.fig42_curve.size() >= 2) {
    // The chapter's smallest and largest dims when measured, else the curve's ends.
    const auto at = [&](int d_k, bool first) {
      const auto it = lab.fig42_curve.find(d_k);
      return it != lab.fig42_curve.end() ? it : (first ? lab.fig42_curve.begin() : std::prev(lab.fig42_curve.end()));
    };
    const auto lo = at(chapter_dims().front(), true), hi = at(chapter_dims().back(), false);
    float scaled_min = lo->second.scaled_std, scaled_max = scaled_min;
    for (const auto& [d_k, p] : lab.fig42_curve) {
      scaled_min = std::min(scaled_min, p.scaled_std);
      scaled_max = std::max(scaled_max, p.scaled_std);
    }
    sentences.push_back(format(tr("a11y.fig42.fmt"), double(lo->second.raw_std), lo->first, double(hi->second.raw_std),
                               hi->first, double(scaled_min), double(scaled_max)));
  }
  out.summary = join(sentences);
  out.tables.push_back(std::move(table));
}

void saturation_view(const ScalingLab& lab, A11yView& out) {
  A11yTable table = numbers_table(tr("scaling.tab.saturation"),
      {both(tr("scaling.axis.entropy"), tr("scaling.raw")), both(tr("scaling.axis.entropy"), tr("scaling.scaled")),
       both(tr("scaling.axis.jacobian"), tr("scaling.raw")), both(tr("scaling.axis.jacobian"), tr("scaling.scaled"))});
  float scaled_min = 0, scaled_max = 0;
  for (const auto& [d_k, s] : lab.saturation_curve) {
    table.rows.push_back(std::to_string(d_k));
    table.text.push_back({number("%.3f", double(s.raw_entropy)), number("%.3f", double(s.scaled_entropy)),
                          number("%.4g", double(s.raw_jacobian_norm)), number("%.4g", double(s.scaled_jacobian_norm))});
    scaled_min = table.rows.size() == 1 ? s.scaled_entropy : std::min(scaled_min, s.scaled_entropy);
    scaled_max = table.rows.size() == 1 ? s.scaled_entropy : std::max(scaled_max, s.scaled_entropy);
  }
  if (lab.saturation_curve.size() >= 2) {
    const auto& first = *lab.saturation_curve.begin();
    const auto& last = *std::prev(lab.saturation_curve.end());
    out.summary = format(tr("a11y.saturation.fmt"), double(first.second.raw_entropy), first.first,
                         double(last.second.raw_entropy), last.first, std::log(double(lab.saturation_keys)),
                         double(scaled_min), double(scaled_max));
  }
  out.tables.push_back(std::move(table));
  // The single attention row and its float32 softmaxes, as the row plot and the stability table show them.
  if (!lab.row) return;
  const AttentionRow& row = *lab.row;
  A11yTable keys;
  keys.caption = format(tr("scaling.row.title.fmt"), lab.n_keys, row.d_k);
  keys.corner = tr("scaling.axis.key");
  keys.columns = {tr("scaling.stability.score"), tr("scaling.legend.raw_softmax"), tr("scaling.legend.scaled_softmax"),
                  tr("scaling.stability.naive"), tr("scaling.stability.stable")};
  const auto weight = [](const std::vector<float>& v, std::size_t j) { return j < v.size() ? number("%.4g", double(v[j])) : ""; };
  for (std::size_t j = 0; j < row.raw_scores.size(); ++j) {
    keys.rows.push_back("k" + std::to_string(j));
    keys.text.push_back({number("%.2f", double(row.raw_scores[j])), weight(row.raw_weights, j),
                         weight(row.scaled_weights, j), weight(lab.naive, j), weight(lab.stable, j)});
  }
  out.tables.push_back(std::move(keys));
}

void training_view(const AppState& state, A11yView& out) {
  const ScalingLab& lab = state.scaling;
  const TrainerSummary scaled = trainer_summary(lab.scaled_model.get());
  const TrainerSummary unscaled = trainer_summary(lab.unscaled_model.get());
  if (scaled.steps == 0) out.summary = tr("a11y.training.none");
  else
    out.summary = format(tr("a11y.training.fmt"), scaled.steps, double(scaled.loss), double(scaled.accuracy) * 100.0,
                         double(unscaled.loss), double(unscaled.accuracy) * 100.0);
  // The two models' example attention: the heatmaps drawn (AppState::a11y_tables).
}

}  // namespace

std::string head_title(int head) { return format(tr("view.head.fmt"), head); }

void describe_heatmaps(const AppState& state, A11yView& out) {
  ExplorerCopy copy;
  copy.every_head = copy.only_selected_heatmap = true;
  explorer_view(state, out, copy);
}

void describe_focus(const AppState& state, A11yView& out) {
  ExplorerCopy copy;
  copy.query_table = copy.values_table = true;
  explorer_view(state, out, copy);
}

void describe_steps(const AppState& state, A11yView& out) {
  ExplorerCopy copy;
  copy.head0_for_average = true;
  explorer_view(state, out, copy);
}

void describe_filters(const AppState& state, A11yView& out) {
  explorer_view(state, out, ExplorerCopy{});  // attention's sentence for the selected head and query
  if (!state.result || state.result->tokens.empty()) return;
  const ExplorerResult& r = *state.result;
  const int q = std::clamp(state.selected_query, 0, int(r.tokens.size()) - 1);
  out.summary = format(tr("filter.a11y.fmt"), q, r.tokens[std::size_t(q)].c_str(), double(kFixedFilterTaps[0]),
                       double(kFixedFilterTaps[1]), double(kFixedFilterTaps[2])) +
                " " + out.summary;
}

void describe_lines(const AppState& state, A11yView& out) {
  ExplorerCopy copy;
  copy.every_head = copy.query_table = true;
  explorer_view(state, out, copy);
}

void describe_stats(const AppState& state, A11yView& out) { stats_view(state, out); }

void describe_chapter(const AppState& state, A11yView& out) { chapter_view(state, out); }

void describe_scaling(const AppState& state, A11yView& out) {
  out.title = std::string(tr("scaling.title")) + ": " + tr(scaling_panel_label_key(state.scaling.panel));
  if (state.scaling.panel == ScalingPanel::Figure42) figure42_view(state.scaling, out);
  else if (state.scaling.panel == ScalingPanel::Saturation) saturation_view(state.scaling, out);
  else training_view(state, out);
}

void describe_debug(const AppState& state, A11yView& out) {
  out.summary = format(tr("a11y.debug.fmt"), state.compute_ms, state.frame_ms);
}

A11yView a11y_view(const AppState& state) {
  const ViewSpec& spec = open_view(state);
  A11yView out;
  out.title = tr(spec.label_key);
  if (!view_code_ready(state, spec)) {
    out.summary = view_code_message(state);
    return out;
  }
  spec.describe(state, out);
  // A change that could not be applied: the reader hears why, before the (older) numbers.
  if (!state.error.empty() && spec.source == ViewSource::Explorer)
    out.summary = format(tr("a11y.error.fmt"), state.error.c_str()) + (out.summary.empty() ? "" : " ") + out.summary;
  return out;
}

}  // namespace attn::ui
