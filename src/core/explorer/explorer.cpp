#include "explorer.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <unordered_map>

#include "core/chapter/experiments.hpp"
#include "explorer_fields.hpp"
#include "order.hpp"
#include "core/kernels/kernels.hpp"
#include "core/base/rng.hpp"
#include "sentence.hpp"
#include "core/base/tokenizer.hpp"

namespace attn {

const char* input_name(Input input) {
  switch (input) {
    case Input::Text: return "text";
    case Input::Figure41: return "fig41";
    case Input::Causal: return "causal";
  }
  return "?";
}

const char* projection_name(Projection projection) {
  switch (projection) {
    case Projection::Random: return "random";
    case Projection::Identity: return "identity";
    case Projection::Chapter: return "chapter";
    case Projection::Trained: return "trained";
  }
  return "?";
}

static std::vector<std::string> position_names(int n) {
  std::vector<std::string> names;
  names.reserve(std::size_t(std::max(n, 0)));
  for (int t = 0; t < n; ++t) names.push_back("t" + std::to_string(t));
  return names;
}

std::vector<std::string> explorer_tokens(const ExplorerConfig& config) {
  switch (config.input) {
    case Input::Figure41: return position_names(Figure41Config{}.seq_len);
    case Input::Causal: return position_names(CausalConfig{}.seq_len);
    case Input::Text: break;
  }
  std::vector<std::string> tokens = tokenize(config.text);
  if (config.shuffle != 0) {
    const std::vector<std::string> ordered = tokens;
    const std::vector<int> order = shuffled_order(int(ordered.size()), config.shuffle);
    for (std::size_t i = 0; i < order.size(); ++i) tokens[i] = ordered[std::size_t(order[i])];
  }
  if (config.mask == Mask::Kind::Padding && config.pads > 0) {
    // The length first: pad_to takes tokens by value, and the order in which
    // arguments are evaluated is unspecified (clang moves tokens out before
    // a size() in the same call would run, so the pads went missing in wasm).
    const std::size_t padded = tokens.size() + static_cast<std::size_t>(config.pads);
    tokens = pad_to(std::move(tokens), padded);
  }
  return tokens;
}

void nearest_valid_heads(int d_model, int heads, int& below, int& above) {
  below = above = 0;
  for (int h = std::min(heads - 1, d_model); h >= 1 && !below; --h)
    if (d_model % h == 0) below = h;
  for (int h = heads + 1; h <= std::min(d_model, ExplorerLimits::kMaxHeads) && !above; ++h)
    if (d_model % h == 0) above = h;
}

namespace {

// A request's sizes: n tokens (with pads), d_model, heads.
struct Shape {
  int n = 0, d = 0, heads = 1;
};

Shape shape_of(const ExplorerConfig& c, int n) {
  switch (c.input) {
    case Input::Figure41: return {n, Figure41Config{}.d_model, Figure41Config{}.heads};
    case Input::Causal: return {n, CausalConfig{}.d_model, 1};
    case Input::Text: break;
  }
  return {n, c.d_model, c.heads};
}

std::string mib(long long bytes) { return std::to_string((bytes + (1LL << 20) - 1) >> 20) + " MiB"; }

}  // namespace

std::string check_text(const std::string& text) {
  using L = ExplorerLimits;
  if (text.size() > L::kMaxTextBytes)
    return std::to_string(text.size()) + " bytes; the limit is " + std::to_string(L::kMaxTextBytes) + " (" +
           std::to_string(L::kMaxTokens) + " tokens fit in far less)";
  // Checked, never changed: the tokenizer would turn bad bytes into U+FFFD,
  // and a NUL would cut a token's label short.
  if (std::string why = utf8_error(text); !why.empty()) return why;
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
    return "a NUL character (U+0000) at byte " + std::to_string(nul) + "; text cannot hold one";
  return {};
}

std::string check_explorer_config(const ExplorerConfig& c, bool has_trained_weights) {
  using L = ExplorerLimits;
  if (c.input == Input::Text) {
    if (c.d_model < L::kMinDModel || c.d_model > L::kMaxDModel)
      return "d_model: must be between " + std::to_string(L::kMinDModel) + " and " +
             std::to_string(L::kMaxDModel);
    if (c.heads < 1 || c.heads > L::kMaxHeads)
      return "heads: must be between 1 and " + std::to_string(L::kMaxHeads);
    if (c.d_model % c.heads != 0) {
      int below, above;
      nearest_valid_heads(c.d_model, c.heads, below, above);
      std::string s = "heads: " + std::to_string(c.heads) + " does not divide d_model " +
                      std::to_string(c.d_model) + " (each head gets d_model / heads columns); try ";
      if (below) s += std::to_string(below);
      if (below && above) s += " or ";
      if (above) s += std::to_string(above);
      return s;
    }
    if (c.projection == Projection::Chapter && c.d_model / c.heads < 2)
      return "projection: the chapter projections read two features per head, so d_model / heads "
             "must be at least 2";
    if (c.pads < 0 || c.pads > L::kMaxTokens)
      return "mask: the number of pads must be between 0 and " + std::to_string(L::kMaxTokens);
  } else if (c.mask == Mask::Kind::Padding && c.pads > 0) {
    return "mask: pads can only be appended to a text";
  }
  if (c.input == Input::Text && c.projection == Projection::Trained) {
    if (std::string e = check_train_config(trained_recipe(c)); !e.empty()) return "projection: trained model: " + e;
    if (!has_trained_weights && (c.trained_steps < 1 || c.trained_steps > L::kMaxTrainedSteps))
      return "trained_steps: must be between 1 and " + std::to_string(L::kMaxTrainedSteps);
    if (!has_trained_weights && static_cast<long long>(c.trained_steps) * c.d_model * c.d_model > L::kMaxTrainingWork)
      return "trained_steps: retraining " + std::to_string(c.trained_steps) + " steps at d_model " +
             std::to_string(c.d_model) + " is too slow for the explorer (steps x d_model^2 <= " +
             std::to_string(L::kMaxTrainingWork) + ")";
  }
  if (!(c.temperature >= L::kMinTemperature && c.temperature <= L::kMaxTemperature)) {
    char range[64];
    std::snprintf(range, sizeof range, "%g and %g", double(L::kMinTemperature), double(L::kMaxTemperature));
    return std::string("temperature: must be between ") + range;
  }
  if (c.scale.kind == Scale::Kind::Value && !(c.scale.value > 0.f && c.scale.value <= L::kMaxScale))
    return "scale: must be \"sqrt\", \"none\" or a number > 0 and at most 1000";

  if (c.input == Input::Text)
    if (std::string why = check_text(c.text); !why.empty()) return "text: " + why;
  const std::vector<std::string> tokens = explorer_tokens(c);
  if (tokens.empty()) return "text: has no tokens (it is empty or only spaces)";
  if (tokens.size() > static_cast<std::size_t>(L::kMaxTokens))
    return "text: has " + std::to_string(tokens.size()) + " tokens (with pads); the limit is " +
           std::to_string(L::kMaxTokens);
  const auto n = static_cast<Eigen::Index>(tokens.size());
  const long long heads = c.input == Input::Text ? c.heads : 1;  // experiments are small
  if (heads * n * n > L::kMaxWeights)
    return "heads: " + std::to_string(heads) + " heads x " + std::to_string(n) + "^2 tokens is " +
           std::to_string(heads * n * n) + " weights; the limit is " + std::to_string(L::kMaxWeights) +
           " (use fewer heads or a shorter text)";
  // Everything a result holds at once, before any of it is allocated.
  const Shape shape = shape_of(c, int(n));
  if (const long long bytes = explorer_peak_bytes(shape.n, shape.heads, shape.d); bytes > L::kMaxPeakBytes)
    return "d_model: " + std::to_string(n) + " tokens x " + std::to_string(shape.heads) + " heads at d_model " +
           std::to_string(shape.d) + " need " + mib(bytes) + " at once (every head's scores, weights and "
           "projections); the limit is " + mib(L::kMaxPeakBytes) +
           " (use a smaller d_model, fewer heads or a shorter text)";
  if (c.mask == Mask::Kind::Custom && (c.custom_mask.rows() != n || c.custom_mask.cols() != n))
    return "mask: the custom mask is " + std::to_string(c.custom_mask.rows()) + " x " +
           std::to_string(c.custom_mask.cols()) + " but there are " + std::to_string(n) +
           " tokens (one row and one column per token)";
  return {};
}

TrainConfig trained_recipe(const ExplorerConfig& c) {
  TrainConfig t;
  t.d_k = c.d_model;
  t.heads = c.heads;
  t.scaled = c.trained_scaled;
  t.learning_rate = c.trained_learning_rate;
  t.seed = c.seed;
  return t;
}

// An experiment's embeddings X and projections (ExplorerJob's Inputs piece).
static void build_inputs(const ExplorerConfig& c, const MultiHeadWeights*, ExplorerResult& r) {
  switch (c.input) {
    case Input::Figure41: {
      const Figure41Config f;
      r.X = figure41_input(f);
      r.weights = figure41_projections(f.d_model, f.heads);
      break;
    }
    case Input::Causal: {
      const CausalCompanion companion = run_causal_companion();
      r.X = companion.X;
      r.weights.heads = 1;
      r.weights.W_q = companion.W_q;
      r.weights.W_k = companion.W_k;
      r.weights.W_v = companion.W_v;
      r.weights.W_o = Matrix::Identity(r.X.cols(), r.X.cols());
      break;
    }
    case Input::Text: break;  // embeddings and projections come in their own pieces
  }
}

// A text config's projections other than random ones (random ones are drawn
// a block of rows at a time: ExplorerJob's RandomWeights pieces).
static void build_weights(const ExplorerConfig& c, const MultiHeadWeights* trained, ExplorerResult& r) {
  switch (c.projection) {
    case Projection::Identity:  // Q = K = V = X: attention by raw similarity
      r.weights.heads = c.heads;
      r.weights.W_q = Matrix::Identity(c.d_model, c.d_model);
      r.weights.W_k = r.weights.W_v = r.weights.W_o = r.weights.W_q;
      break;
    case Projection::Chapter: r.weights = figure41_projections(c.d_model, c.heads); break;
    case Projection::Random: r.weights = random_projections(c.d_model, c.heads, c.seed); break;
    case Projection::Trained: {
      if (trained) {
        r.weights = *trained;
        break;
      }
      // Retrained from the recipe (deterministic, bit-identical in every build),
      // so the config alone reproduces what the lab trained. (One piece: the
      // UI retrains a slice per frame itself and passes the weights.)
      Trainer trainer(trained_recipe(c));
      for (int s = 0; s < c.trained_steps; ++s) trainer.step();
      r.weights = trainer.projections();
      break;
    }
  }
}

// ---- the staged recompute ------------------------------------------------------

namespace {


// A piece is about this much work: ~1 ms in wasm (SIMD128 kernels at ~25
// GFLOP/s, ~60 ns a normal draw, a few ns a visited weight), well under a
// millisecond natively.
constexpr double kPieceFlops = 24e6;   // matrix products and attention
constexpr double kPieceDraws = 16384;  // normal draws, position encodings
constexpr double kPieceCells = 1 << 18;  // weights visited by a summary pass
// Attention per query row and key: 2 d_head (Q K^T) + 2 d_head (weights V)
// flops plus the softmax (scale, mask, max, exp, sum, normalise, entropy) and
// the three kept n x n matrices, counted as this many flops.
constexpr double kSoftmaxFlops = 48;

int rows_per_piece(double cost_per_row, double piece) {
  return int(std::clamp(piece / std::max(cost_per_row, 1.0), 1.0, double(1 << 30)));
}

int head_block_rows(int n, int d_head) { return rows_per_piece(double(n) * (4.0 * d_head + kSoftmaxFlops), kPieceFlops); }

// What the stats view shows of a weights matrix (HeadSummary), a block of rows at a time.
struct SummaryBuilder {
  StatsAccumulator stats;
  double entropy_sum = 0;
  HeadSummary finish_stats(Eigen::Index rows, bool histogram) {
    HeadSummary s;
    s.stats = stats.stats();
    s.mean_entropy = rows ? static_cast<float>(entropy_sum / double(rows)) : 0.f;
    // Computed once per result, not per drawn frame (the stats view plots it).
    s.histogram = empty_histogram(Figure41Config{}.histogram_bins, s.stats.min, s.stats.max);
    if (!histogram) s.histogram.counts.clear();  // fill_histograms bins them later, if wanted
    return s;
  }
};

}  // namespace

long long explorer_peak_bytes(int tokens, int heads, int d_model) {
  const long long n = tokens, h = std::max(heads, 1), d = d_model, d_head = d / h;
  const long long n2 = n * n;
  long long floats = h * (4 * n * d_head + 3 * n2 + n)  // per head: Q, K, V, output; scores, weights; entropy
                     + 6 * n * d                         // X, concat, output; Q, K, V of all heads
                     + 4 * d * d                         // W_q, W_k, W_v, W_o
                     + n2;                               // head average
  // The kernels' scratch (packed K and V panels, a block of scores; packed W),
  // kept between requests, with room for up to 64-wide panels.
  floats += (n + 64) * (2 * d_head + 16) + (d + 64) * d;
  long long bytes = 4 * floats + (h + 1) * n2;  // the masks: per head, and the full one
  bytes += 64 * n + 4096;  // tokens, key flags, summaries
  return bytes;
}

long long explorer_peak_bytes(const ExplorerConfig& config) {
  const Shape s = shape_of(config, int(explorer_tokens(config).size()));
  return explorer_peak_bytes(s.n, s.heads, s.d);
}

namespace {

// Natively a trial allocation (through a volatile pointer: a compiler may
// drop a malloc whose block is never used, and with it the test).
bool trial_allocation(long long bytes) {
  // More than size_t holds (wasm32: 4 GiB) can never be had; the cast would wrap.
  if (static_cast<unsigned long long>(bytes) > std::numeric_limits<std::size_t>::max()) return false;
  void* (*volatile allocate)(std::size_t) = std::malloc;
  void* block = allocate(static_cast<std::size_t>(bytes));
  std::free(block);
  return block != nullptr;
}

MemoryProbe g_memory_probe = trial_allocation;

}  // namespace

void set_memory_probe(MemoryProbe probe) { g_memory_probe = probe ? probe : trial_allocation; }

std::string check_memory_available(long long bytes) {
  if (bytes <= 0) return {};
  if (!g_memory_probe(bytes))
    return "memory: the lab could not get the " + mib(bytes) +
           " this needs (the browser may be short of memory: close other tabs, or use a shorter text, fewer heads "
           "or a smaller d_model)";
  return {};
}

struct ExplorerJob::Impl {
  enum class Kind {
    Inputs,            // X and the projection matrices at once (experiments)
    Embed,             // rows of X
    Positions,         // rows of X += position encodings
    RandomWeights,     // rows of W_q, W_k, W_v, W_o (index 0..3), in the order random_projections draws them
    OtherWeights,      // identity, chapter or trained projection matrices
    Project,           // rows of Q, K or V (index 0..2)
    Head,              // head `index`, query rows [first, first + rows)
    HeadStats,         // rows of head `index`: min/max/mean, entropy, added into the average
    HeadHistogram,     // rows of head `index` into its histogram
    Output,            // rows of concat W_o
    AverageStats,      // rows of the head average: divided by the heads, min/max/mean, entropy
    AverageHistogram,  // rows of the head average into its histogram
    Finish,            // the fully masked queries
    MaskOnce,          // the mask, built once for all heads
  };
  struct Piece {
    Kind kind;
    int index;
    int first, rows;
  };

  ExplorerResult r;
  Shape shape;
  int d_head = 0;
  AttentionOptions options;
  std::optional<MultiHeadWeights> trained;
  Projections p;            // Q, K, V of all heads (not kept once the heads are done)
  std::optional<ProjectionDraws> draws;  // random projections: drawn across pieces in one sequence
  std::unordered_map<std::string, int> embedded;  // token -> the row of X that holds its embedding
  std::vector<bool> reused_rows;  // rows of X taken from the previous result (embedding and position)
  bool reuse_projections = false;  // p holds the previous result's Q, K, V
  SummaryBuilder summary;   // the head (or average) being summarised
  std::vector<Piece> pieces;
  std::size_t next = 0;
  int heads_done = 0;
  bool histograms = true;

  void add_blocks(Kind kind, int index, int total, int per_piece) {
    for (int first = 0; first < total; first += per_piece)
      pieces.push_back({kind, index, first, std::min(per_piece, total - first)});
  }

  Impl(const ExplorerConfig& c, const ExplorerResult* previous, const MultiHeadWeights* trained_weights,
       bool with_histograms)
      : histograms(with_histograms) {
    r.config = c;
    r.tokens = explorer_tokens(c);
    r.key_valid = key_valid_flags(r.tokens);
    shape = shape_of(c, int(r.tokens.size()));
    const int n = shape.n, d = shape.d, H = shape.heads;
    d_head = d / H;
    if (trained_weights) trained = *trained_weights;

    options.scale = c.scale;
    options.temperature = c.temperature;
    switch (c.mask) {
      case Mask::Kind::None: break;
      case Mask::Kind::Causal: options.mask = Mask::causal(); break;
      case Mask::Kind::Padding: options.mask = Mask::padding(r.key_valid); break;
      case Mask::Kind::Custom: options.mask = Mask::custom(c.custom_mask); break;
    }
    r.attention.heads.resize(std::size_t(H));
    r.summaries.resize(std::size_t(H));

    // The inputs: all reused when only the temperature, scale or mask changed.
    bool reuse_heads = false;
    if (previous && same_inputs(previous->config, c, previous->tokens, r.tokens)) {
      r.X = previous->X;
      r.weights = previous->weights;
      // Q, K, V are X times the same matrices: every head's slices are the same too.
      reuse_heads = previous->attention.heads.size() == std::size_t(H);
      for (const HeadResult& head : previous->attention.heads)
        reuse_heads = reuse_heads && head.Q.rows() == n && head.Q.cols() == d_head && head.K.rows() == n &&
                      head.V.rows() == n;
      if (reuse_heads)
        for (int h = 0; h < H; ++h) {
          HeadResult& head = r.attention.heads[std::size_t(h)];
          const HeadResult& old = previous->attention.heads[std::size_t(h)];
          head.Q = old.Q;
          head.K = old.K;
          head.V = old.V;
        }
    } else if (c.input != Input::Text) {
      pieces.push_back({Kind::Inputs, 0, 0, n});
    } else {
      // A text, its order or the heads changed, the rest of what shapes the
      // inputs did not (typing, shuffling, the heads slider): the projection matrices stay (they do
      // not depend on the heads for random and identity projections), and so
      // does each row of X whose token is the same at the same position.
      bool same_weights = false, same_rows = false;
      if (previous && previous->config.input == Input::Text) {
        ExplorerConfig a = previous->config;
        a.text = c.text;
        a.shuffle = c.shuffle;
        a.heads = c.heads;
        same_rows = same_inputs(a, c, {}, {});
        same_weights = same_rows && (previous->config.heads == c.heads || c.projection == Projection::Random ||
                                     c.projection == Projection::Identity);
      }
      const int draw_rows = rows_per_piece(d, kPieceDraws);
      if (same_rows) {
        r.X.resize(n, d);
        reused_rows.assign(std::size_t(n), false);
        for (int i = 0; i < n && std::size_t(i) < previous->tokens.size(); ++i)
          if (previous->tokens[std::size_t(i)] == r.tokens[std::size_t(i)]) {
            r.X.row(i) = previous->X.row(i);
            reused_rows[std::size_t(i)] = true;
          }
      }
      add_blocks(Kind::Embed, 0, n, draw_rows);
      if (c.positions) add_blocks(Kind::Positions, 0, n, draw_rows);
      if (same_weights) {
        r.weights = previous->weights;
        r.weights.heads = H;
        // Same X and the same matrices: Q, K, V are the old heads' slices side by side.
        reuse_projections = std::find(reused_rows.begin(), reused_rows.end(), false) == reused_rows.end() &&
                            std::size_t(n) == previous->tokens.size();
        for (const HeadResult& head : previous->attention.heads)
          reuse_projections = reuse_projections && head.Q.rows() == n && head.K.rows() == n && head.V.rows() == n;
        if (reuse_projections) {
          p.Q.resize(n, d);
          p.K.resize(n, d);
          p.V.resize(n, d);
          Eigen::Index column = 0;
          for (const HeadResult& head : previous->attention.heads) {
            p.Q.middleCols(column, head.Q.cols()) = head.Q;
            p.K.middleCols(column, head.K.cols()) = head.K;
            p.V.middleCols(column, head.V.cols()) = head.V;
            column += head.Q.cols();
          }
          reuse_projections = column == d;
        }
      } else if (c.projection == Projection::Random) {
        for (int i = 0; i < 4; ++i) add_blocks(Kind::RandomWeights, i, d, draw_rows);
      } else {
        pieces.push_back({Kind::OtherWeights, 0, 0, d});
      }
    }
    if (!reuse_heads && !reuse_projections)
      for (int i = 0; i < 3; ++i) add_blocks(Kind::Project, i, n, rows_per_piece(2.0 * d * d, kPieceFlops));
    if (c.mask != Mask::Kind::None) pieces.push_back({Kind::MaskOnce, 0, 0, n});
    const int head_rows = head_block_rows(n, d_head), cell_rows = rows_per_piece(n, kPieceCells);
    for (int h = 0; h < H; ++h) {
      add_blocks(Kind::Head, h, n, head_rows);
      add_blocks(Kind::HeadStats, h, n, cell_rows);
      if (histograms) add_blocks(Kind::HeadHistogram, h, n, cell_rows);
    }
    add_blocks(Kind::Output, 0, n, rows_per_piece(2.0 * d * d, kPieceFlops));
    add_blocks(Kind::AverageStats, 0, n, cell_rows);
    if (histograms) add_blocks(Kind::AverageHistogram, 0, n, cell_rows);
    pieces.push_back({Kind::Finish, 0, 0, n});
  }

  void run(const Piece& piece) {
    const int n = shape.n, d = shape.d, H = shape.heads;
    const ExplorerConfig& c = r.config;
    switch (piece.kind) {
      case Kind::Inputs: build_inputs(c, trained ? &*trained : nullptr, r); break;
      case Kind::Embed: embed(piece.first, piece.rows); break;
      case Kind::Positions: add_positions(piece.first, piece.rows); break;
      case Kind::RandomWeights:
        // random_projections' draws (sentence.hpp), a block of rows at a time.
        if (piece.index == 0 && piece.first == 0) {
          r.weights.heads = H;
          draws.emplace(d, c.seed);
        }
        draws->draw_rows(r.weights, piece.index, piece.first, piece.rows);
        break;
      case Kind::OtherWeights: build_weights(c, trained ? &*trained : nullptr, r); break;
      case Kind::Project:
        project_rows(r.X, r.weights, piece.index, piece.first, piece.rows, p);  // project(), by blocks
        break;
      case Kind::Head: head_rows(piece.index, piece.first, piece.rows); break;
      case Kind::HeadStats: {
        const HeadResult& head = r.attention.heads[std::size_t(piece.index)];
        if (piece.first == 0) {
          summary = {};
          if (piece.index == 0) r.attention.average_weights = Matrix::Zero(n, n);
        }
        // min/max/mean, and combine_heads' sum of the heads, head after head.
        summary.stats.add_rows(head.weights, piece.first, piece.rows);
        add_head_rows(head, piece.first, piece.rows, r.attention);
        // The kernel's row entropies (from its softmax sums: no log per weight).
        const bool kernel_entropy = head.entropy.size() == n;
        for (int i = piece.first; i < piece.first + piece.rows; ++i)
          summary.entropy_sum += kernel_entropy ? double(head.entropy[i])
                                                : double(row_entropy(head.weights.data() + std::ptrdiff_t(i) * n, std::size_t(n)));
        if (piece.first + piece.rows == n) r.summaries[std::size_t(piece.index)] = summary.finish_stats(n, histograms);
        break;
      }
      case Kind::HeadHistogram:
        histogram_add(r.summaries[std::size_t(piece.index)].histogram,
                      r.attention.heads[std::size_t(piece.index)].weights.data() + std::ptrdiff_t(piece.first) * n,
                      std::size_t(piece.rows) * std::size_t(n));
        break;
      case Kind::Output:
        if (piece.first == 0) {
          // Every head is done: what they needed is no longer.
          p = Projections{};
          options.mask.allowed.resize(0, 0);
        }
        output_rows(r.weights, piece.first, piece.rows, r.attention);
        break;
      case Kind::AverageStats: {
        if (piece.first == 0) summary = {};
        average_rows(H, piece.first, piece.rows, r.attention);  // as combine_heads
        summary.stats.add_rows(r.attention.average_weights, piece.first, piece.rows);
        for (int i = piece.first; i < piece.first + piece.rows; ++i)
          summary.entropy_sum +=
              double(row_entropy(r.attention.average_weights.data() + std::ptrdiff_t(i) * n, std::size_t(n)));
        if (piece.first + piece.rows == n) r.average_summary = summary.finish_stats(n, histograms);
        break;
      }
      case Kind::AverageHistogram:
        histogram_add(r.average_summary.histogram,
                      r.attention.average_weights.data() + std::ptrdiff_t(piece.first) * n,
                      std::size_t(piece.rows) * std::size_t(n));
        break;
      case Kind::MaskOnce: {
        // Every head would build the same n x n mask; as a custom mask each
        // copies it instead (the same cells, so the same numbers).
        MaskMatrix mask;
        build_mask(options.mask, n, n, mask);
        options.mask = Mask::custom(std::move(mask));
        break;
      }
      case Kind::Finish: {
        const MaskMatrix& mask = r.attention.heads.front().allowed;
        for (int q = 0; q < n; ++q)
          if (!mask.row(q).any()) r.fully_masked_queries.push_back(q);
        break;
      }
    }
  }

  // Rows [first, first + rows) of X: each token's embedding depends on its
  // text only (embed_tokens), so a repeated token copies the row drawn first.
  void embed(int first, int rows) {
    const int d = shape.d;
    if (first == 0 && r.X.rows() != shape.n) r.X.resize(shape.n, d);
    std::vector<std::string> fresh;
    std::vector<int> fresh_rows;
    for (int i = first; i < first + rows; ++i) {
      if (reused(i)) continue;
      const auto [at, inserted] = embedded.emplace(r.tokens[std::size_t(i)], i);
      if (inserted) {
        fresh.push_back(r.tokens[std::size_t(i)]);
        fresh_rows.push_back(i);
      }
    }
    const Matrix drawn = embed_tokens(fresh, d, r.config.seed, /*positions=*/false);
    for (std::size_t k = 0; k < fresh_rows.size(); ++k) r.X.row(fresh_rows[k]) = drawn.row(Eigen::Index(k));
    for (int i = first; i < first + rows; ++i) {
      if (reused(i)) continue;
      const int source = embedded.at(r.tokens[std::size_t(i)]);
      if (source != i) r.X.row(i) = r.X.row(source);
    }
  }

  bool reused(int row) const { return !reused_rows.empty() && reused_rows[std::size_t(row)]; }

  // The position encoding (sentence.hpp) added to rows [first, first + rows)
  // of X, but those taken from the previous result (they have it).
  void add_positions(int first, int rows) {
    for (int i = first; i < first + rows;) {
      if (reused(i)) {
        ++i;
        continue;
      }
      int end = i + 1;
      while (end < first + rows && !reused(end)) ++end;
      add_sinusoidal_positions(r.X, i, end - i);
      i = end;
    }
  }

  // Query rows [first, first + rows) of head h: attention_head (multihead.cpp)
  // for the whole head, or the same rows of it, written in place (attention_rows:
  // the same numbers for any blocking).
  void head_rows(int h, int first, int rows) {
    const int n = shape.n;
    HeadResult& head = r.attention.heads[std::size_t(h)];
    if (first == 0) {
      if (head.Q.size() == 0) {  // (reused from the last result otherwise)
        head.Q = p.Q.middleCols(h * d_head, d_head);
        head.K = p.K.middleCols(h * d_head, d_head);
        head.V = p.V.middleCols(h * d_head, d_head);
      }
      start_attention(head.Q, head.K, head.V, options, head);
    }
    attention_rows(head.Q, head.K, head.V, options, first, rows, head);
    if (first + rows < n) return;
    // The head is done: its output goes into concat (combine_heads' layout).
    place_head(head, h, shape.heads, r.attention);
    ++heads_done;
  }
};

ExplorerJob::ExplorerJob(const ExplorerConfig& config, const ExplorerResult* previous,
                         const MultiHeadWeights* trained, bool histograms)
    : impl_(std::make_unique<Impl>(config, previous, trained, histograms)) {}
ExplorerJob::~ExplorerJob() = default;
ExplorerJob::ExplorerJob(ExplorerJob&&) noexcept = default;
ExplorerJob& ExplorerJob::operator=(ExplorerJob&&) noexcept = default;

bool ExplorerJob::step(double budget_ms, WorkClock& clock) {
  const double start = clock.now_ms();
  Impl& j = *impl_;
  while (j.next < j.pieces.size()) {
    j.run(j.pieces[j.next++]);
    if (clock.ms_since(start) >= budget_ms) break;
  }
  return done();
}

bool ExplorerJob::done() const { return impl_->next == impl_->pieces.size(); }

ExplorerProgress ExplorerJob::progress() const {
  return {int(impl_->next), int(impl_->pieces.size()), impl_->heads_done, impl_->shape.heads};
}

const ExplorerConfig& ExplorerJob::config() const { return impl_->r.config; }

ExplorerResult ExplorerJob::take() { return std::move(impl_->r); }

bool has_histograms(const ExplorerResult& r) {
  for (const HeadSummary& s : r.summaries)
    if (s.histogram.counts.empty()) return false;
  return !r.average_summary.histogram.counts.empty();
}

bool fill_histograms(ExplorerResult& r, double budget_ms, WorkClock& clock) {
  const double start = clock.now_ms();
  bool binned = false;
  for (std::size_t h = 0; h <= r.summaries.size(); ++h) {
    const bool average = h == r.summaries.size();
    HeadSummary& s = average ? r.average_summary : r.summaries[h];
    if (!s.histogram.counts.empty()) continue;
    if (binned && clock.ms_since(start) >= budget_ms) return false;
    const Matrix& w = average ? r.attention.average_weights : r.attention.heads[h].weights;
    s.histogram = histogram(w.data(), std::size_t(w.size()), Figure41Config{}.histogram_bins, s.stats.min, s.stats.max);
    binned = true;
  }
  return true;
}

ExplorerResult run_explorer(const ExplorerConfig& c, const ExplorerResult* previous,
                            const MultiHeadWeights* trained) {
  ExplorerJob job(c, previous, trained);
  WorkClock clock;
  while (!job.step(std::numeric_limits<double>::infinity(), clock)) {
  }
  return job.take();
}

}  // namespace attn
