// The English string table (a Chinese one will sit beside it).
#include "ui/strings.hpp"

#include <cstring>

namespace attn::ui {
namespace {

struct Entry {
  const char* key;
  const char* text;
};

// ASCII only for now: the default ImGui font has no Greek or math glyphs.
constexpr Entry kEnglish[] = {
    {"app.title", "Self-attention lab"},
    {"fig41.title", "Figure 4.1  Four attention heads on a synthetic sequence"},
    {"fig41.subtitle.fmt", "seq_len %d, d_model %d, %d heads (d_head %d); X row t = [t/8, sin t, cos t, +-1, noise]"},
    {"fig41.help",
     "Each head projects the same tokens with its own W_q and W_k, so each head can attend by a different "
     "feature of the sequence."},

    {"panel.average.title", "Head average"},
    {"panel.average.formula", "average_weights = mean_h softmax(Q_h K_h^T / sqrt(d_k))"},
    {"panel.average.help",
     "Averaging the heads shows where the layer looks overall; each row is one query's attention over all "
     "keys and sums to 1."},
    {"panel.head.title.fmt", "Head %d"},
    {"panel.head.formula.fmt", "attention_weights = softmax(Q_%d K_%d^T / sqrt(d_k))"},
    {"panel.head0.help",
     "Head 0 compares tokens through features 0 and 1 only (t/8 and sin t), so its pattern comes from "
     "position alone, free of noise."},
    {"panel.head1.help",
     "Head 1 reads features 8 and 9, which hold only small noise: its scores stay near 0, so softmax spreads "
     "the weight almost evenly (about 1/n per key)."},
    {"panel.hist.title", "Weight histograms per head"},
    {"panel.hist.formula.fmt", "counts of attention_weights values, %d bins over [min, max] of each head"},
    {"panel.hist.help",
     "A sharp head puts most weight on a few keys (many values near 0, a few large ones); a flat head piles "
     "every value up near 1/n."},
    {"control.hist_per_head", "one plot per head (each with its own x range)"},
    {"panel.stats.title", "Per-head statistics"},
    {"panel.stats.formula", "min, max and mean of each head's attention_weights"},
    {"panel.stats.help",
     "Every row of weights sums to 1, so each head's mean is exactly 1/n; min and max show how peaked the "
     "head is."},
    {"panel.topk.title.fmt", "Top-%d keys per query (head average)"},
    {"panel.topk.formula.fmt", "the %d largest entries of each row of average_weights"},
    {"panel.topk.help", "The keys each query attends to most, read from the head-average weights."},

    {"axis.query", "query"},
    {"axis.key", "key"},
    {"axis.weight", "weight"},
    {"axis.count", "count"},
    {"label.head.fmt", "head %d"},
    {"table.head", "head"},
    {"table.min", "min"},
    {"table.max", "max"},
    {"table.mean", "mean"},
    {"table.query", "query"},
    {"table.rank.fmt", "#%d"},

    // ---- the explorer -------------------------------------------------------------
    {"tab.heatmaps", "Heatmaps"},
    {"tab.focus", "Focus"},
    {"tab.steps", "Steps"},
    {"tab.lines", "Lines"},
    {"tab.stats", "Stats"},
    {"tab.chapter", "Figure 4.1"},
    {"tab.debug", "Debug"},

    {"setup.title", "Set-up"},
    {"setup.help",
     "Every token becomes a vector X; each head projects X into queries, keys and values and mixes the "
     "values by how well queries match keys."},
    {"setup.sentence", "Sentence"},
    {"setup.sentence.help", "Words and punctuation become tokens; Chinese text is split per character."},
    {"setup.input.fig41", "Input: the Figure 4.1 synthetic sequence (8 tokens, d_model 32)"},
    {"setup.input.causal", "Input: the causal-mask companion (8 random tokens, d_model 16)"},
    {"setup.presets", "Presets"},
    {"preset.fig41", "Figure 4.1 synthetic sequence"},
    {"preset.causal", "Causal-mask companion"},
    {"preset.sentence0", "The cat sat on the mat"},
    {"preset.sentence1", "The animal didn't cross the street because it was too tired"},
    {"preset.sentence2", "I poured water from the bottle into the cup until it was full"},
    {"preset.padded", "Padded to 10 tokens"},
    {"setup.d_model", "d_model"},
    {"setup.heads", "heads"},
    {"setup.heads.invalid.fmt", "%d heads do not divide d_model %d (each head takes d_model / heads columns). Use:"},
    {"setup.heads.use.fmt", "%d heads"},
    {"setup.seed", "seed"},
    {"setup.temperature", "T (temp.)"},
    {"setup.temperature.help", "Scores are divided by T: T > 1 flattens the weights, T < 1 sharpens them."},
    {"setup.scale", "scale"},
    {"setup.scale.sqrt", "1 / sqrt(d_k)"},
    {"setup.scale.none", "none"},
    {"setup.scale.help",
     "Dot products of d_k-dimensional random vectors have variance d_k; dividing by sqrt(d_k) keeps softmax "
     "out of saturation."},
    {"setup.projection", "projection"},
    {"projection.random", "random"},
    {"projection.identity", "identity (Q = K = V = X)"},
    {"projection.chapter", "chapter"},
    {"projection.trained", "trained (not yet)"},
    {"setup.projection.note", "random: seeded Xavier W_q, W_k, W_v; identity: Q = K = V = X; chapter: Figure 4.1's W_q, W_k; trained: arrives with the training lab."},
    {"setup.positions", "add position encodings"},
    {"setup.mask", "mask"},
    {"mask.none", "none"},
    {"mask.causal", "causal"},
    {"mask.padding", "padding"},
    {"mask.custom", "custom"},
    {"setup.pads", "pad tokens"},
    {"setup.custom.note", "Click heatmap cells to allow or block a query-key pair."},
    {"setup.tokens.fmt", "%d tokens, %d heads, d_head %d"},
    {"setup.error", "Not applied:"},

    {"view.average", "Head average"},
    {"view.head.fmt", "Head %d"},
    {"view.heatmaps.help",
     "Row = query, column = key; each row sums to 1. Click a cell to select its query; wheel zooms, drag pans."},
    {"view.fully_masked.fmt", "%d query row(s) have every key masked: their weights are all 0 and their output is 0."},
    {"view.selected.fmt", "Selected query: %d '%s'"},
    {"view.zoom.reset", "Reset zoom"},
    {"view.window.fmt", "showing queries %d-%d, keys %d-%d of %d (wheel: zoom, drag: pan)"},
    {"tip.query", "query"},
    {"tip.key", "key"},
    {"tip.raw", "raw score q.k"},
    {"tip.scaled", "scaled score"},
    {"tip.weight", "weight"},
    {"tip.masked", "masked (-inf before softmax)"},
    {"tip.average_note", "(head average: raw scores are per head)"},
    {"control.head", "head"},
    {"control.head.average", "average"},

    {"focus.title.fmt", "Query %d '%s': its weights over the keys"},
    {"focus.help", "The output of a query is the weighted sum of the value rows: o_i = sum_j w_ij v_j."},
    {"focus.values.title", "Output = sum of weight x value row"},
    {"focus.values.formula", "o_i = sum_j attention_weights[i][j] * V[j]"},
    {"focus.values.average", "Pick a single head to see its value rows (the average has no V)."},
    {"focus.output", "output o_i"},
    {"focus.dims.fmt", "(first %d of %d value dimensions)"},
    {"steps.q", "1. Q = X W_q"},
    {"steps.q.help", "Each token's query: what it is looking for."},
    {"steps.k", "2. K = X W_k"},
    {"steps.k.help", "Each token's key: how it can be found."},
    {"steps.v", "3. V = X W_v"},
    {"steps.v.help", "Each token's value: what it hands on when attended to."},
    {"steps.scores", "4. raw_scores = Q K^T"},
    {"steps.scores.help", "Query i dotted with key j: large when they point the same way."},
    {"steps.scaled", "5. scaled_scores = Q K^T * scale / T"},
    {"steps.scaled.help", "Divided by sqrt(d_k) (and the temperature) so the spread stays near 1 whatever d_k is."},
    {"steps.masked", "6. scaled_scores + mask"},
    {"steps.masked.help", "Masked cells (grey) become -inf, so softmax gives them exactly 0 weight."},
    {"steps.weights", "7. attention_weights = softmax(row)"},
    {"steps.weights.help", "Each row becomes positive weights that sum to 1."},
    {"steps.output", "8. output = attention_weights V"},
    {"steps.output.help", "Each query's output is its weighted mix of the value rows."},
    {"axis.dim", "dim"},
    {"axis.value", "value"},

    {"lines.title", "Head lines: who attends to whom"},
    {"lines.help",
     "Left: queries, right: keys. A line's opacity is the weight; each head has its own colour. Hover a token "
     "to see only its lines."},
    {"lines.only_selected", "Many tokens: lines are drawn for the selected query only."},

    {"stats.table.title", "Per-head statistics"},
    {"stats.table.formula", "min, max, mean of attention_weights; entropy H(row) = -sum_j w_ij ln w_ij"},
    {"stats.table.help",
     "Every row of weights sums to 1, so the mean is 1/n; a low entropy means a sharp head, log(n) a uniform one."},
    {"table.entropy", "mean H(row)"},
    {"table.avg", "avg"},
    {"stats.hist.title", "Weight histograms per head"},
    {"stats.hist.no_legend", "Colours as in the head lines view (legend shown for up to 8 heads)."},
    {"debug.dump.too_big", "Too many weights to dump (over a million): use fewer tokens or heads."},
    {"debug.timing.fmt", "compute (run_explorer): %.2f ms   frame (UI build): %.2f ms"},
    {"debug.config", "Current config (JSON)"},
    {"debug.dump", "Dump every matrix (JSON)"},
    {"debug.dumped", "The desktop app writes attention_dump.json; the browser downloads it."},
};

}  // namespace

const char* tr(const char* key) {
  for (const Entry& entry : kEnglish)
    if (std::strcmp(entry.key, key) == 0) return entry.text;
  return key;
}

}  // namespace attn::ui
