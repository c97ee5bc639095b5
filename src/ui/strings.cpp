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
    {"control.head_colormap", "Head colormap"},
    {"colormap.ylorrd", "YlOrRd"},
    {"colormap.viridis", "viridis"},

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
};

}  // namespace

const char* tr(const char* key) {
  for (const Entry& entry : kEnglish)
    if (std::strcmp(entry.key, key) == 0) return entry.text;
  return key;
}

}  // namespace attn::ui
