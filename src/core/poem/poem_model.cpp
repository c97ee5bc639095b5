// Training, reading, scoring and sampling the poem model; the baselines.
#include "poem_model.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "core/kernels/per_isa.hpp"
#include "core/base/parallel.hpp"

namespace attn::poem {

namespace {

std::size_t sz(long long n) { return static_cast<std::size_t>(n); }
constexpr double kPi = 3.14159265358979323846;

}  // namespace

PoemSplit split_corpus(const PoemCorpus& corpus, bool use_modern) {
  PoemSplit split;
  if (use_modern) split.modern = corpus.modern;
  if (!corpus.tang.empty()) {
    const std::vector<std::string> poems = clean_tang_corpus(corpus.tang, &split.cleaning);
    const TangSplit parts = split_tang(poems, corpus.tang300);
    for (int i : parts.train) split.poems.push_back(poems[sz(i)]);
    for (int i : parts.validation) split.validation.push_back(poems[sz(i)]);
    split.excluded = static_cast<int>(parts.excluded.size());
    split.held_out = corpus.tang300;
    return split;
  }
  for (std::size_t i = 0; i < corpus.tang300.size(); ++i)
    (held_out(static_cast<int>(i)) ? split.held_out : split.poems).push_back(corpus.tang300[i]);
  split.poems.insert(split.poems.end(), corpus.song100.begin(), corpus.song100.end());
  return split;
}

std::vector<std::string> PoemSplit::train() const {
  std::vector<std::string> all = poems;
  all.insert(all.end(), modern.begin(), modern.end());
  return all;
}

std::vector<int> encode_all(const Vocab& vocab, const std::vector<std::string>& texts, int start) {
  std::vector<int> ids;
  for (const std::string& t : texts) {
    const std::vector<int> poem = vocab.encode_poem(t, start);
    ids.insert(ids.end(), poem.begin(), poem.end());
  }
  return ids;
}

std::string check_train_config(const PoemTrainConfig& c) {
  GptConfig model = c.model;
  model.vocab = std::max(model.vocab, 1);
  if (std::string e = check_gpt_config(model); !e.empty()) return e;
  if (c.steps < 1 || c.steps > 1000000) return "steps: 1..1000000";
  if (c.batch < 1 || c.batch > 1024) return "batch: 1..1024";
  if (!(c.learning_rate > 0.0f && c.learning_rate <= 1.0f)) return "learning_rate: in (0, 1]";
  if (c.warmup < 0) return "warmup: at least 0";
  if (!(c.modern_share >= 0.0f && c.modern_share <= 1.0f)) return "modern_share: in 0..1";
  if (!(c.modern_until >= 0.0f && c.modern_until <= 1.0f)) return "modern_until: in 0..1";
  if (!(c.dropout >= 0.0f && c.dropout < 1.0f)) return "dropout: in [0, 1)";
  if (!(c.line_start_share >= 0.0f && c.line_start_share <= 1.0f)) return "line_start_share: in 0..1";
  return "";
}

PoemTrainer::PoemTrainer(const PoemTrainConfig& config, Vocab vocab, std::vector<int> poem_tokens,
                         std::vector<int> modern_tokens)
    : config_(config), poem_tokens_(std::move(poem_tokens)), modern_tokens_(std::move(modern_tokens)),
      rng_(config.seed, 31) {
  if (!config.use_modern || modern_tokens_.size() <= sz(config.model.context) + 1) modern_tokens_.clear();
  for (std::size_t i = 0; i + sz(config.model.context) < poem_tokens_.size(); ++i)
    if (poem_tokens_[i] == Vocab::kPoemStart || poem_tokens_[i] == Vocab::kLineBreak) line_starts_.push_back(i);
  model_.config = config.model;
  model_.config.vocab = vocab.size();
  model_.vocab = std::move(vocab);
  model_.params = init_params(model_.config, config.seed);
  tensors_ = param_tensors(model_.config);
  grads_.assign(model_.params.size(), 0.0f);
}

void PoemTrainer::draw_batch() {
  const int B = config_.batch, T = model_.config.context;
  inputs_.assign(sz(B) * sz(T), 0);
  targets_.assign(inputs_.size(), 0);
  for (int b = 0; b < B; ++b) {
    const bool modern_phase = double(step_) < double(config_.modern_until) * config_.steps;
    const bool modern = !modern_tokens_.empty() && modern_phase && rng_.uniform() < config_.modern_share;
    const std::vector<int>& tokens = modern ? modern_tokens_ : poem_tokens_;
    std::size_t s = rng_.next_u32() % (tokens.size() - sz(T));  // the window [s, s + T] fits
    if (!modern && !line_starts_.empty() && rng_.uniform() < config_.line_start_share)
      s = line_starts_[rng_.next_u32() % line_starts_.size()];
    for (int t = 0; t < T; ++t) {
      inputs_[sz(b) * sz(T) + sz(t)] = tokens[s + sz(t)];
      targets_[sz(b) * sz(T) + sz(t)] = tokens[s + sz(t) + 1];
    }
  }
}

float PoemTrainer::learning_rate() const {
  // Linear warm-up, then a cosine from the peak down to a tenth of it.
  const double peak = config_.learning_rate;
  if (step_ < config_.warmup) return static_cast<float>(peak * (step_ + 1) / config_.warmup);
  const double done = config_.steps > config_.warmup
                          ? double(step_ - config_.warmup) / double(config_.steps - config_.warmup) : 1.0;
  return static_cast<float>(peak * (0.1 + 0.9 * 0.5 * (1.0 + std::cos(kPi * std::min(done, 1.0)))));
}

void PoemTrainer::run_shard(int shard) {
  const int T = model_.config.context;
  const int first = shard * kShardSequences, n = shard_sequences(shard);
  Shard& sh = shards_[sz(shard)];
  sh.ws.dropout = config_.dropout;
  sh.ws.dropout_seed = ((config_.seed << 32) ^ uint64_t(step_)) + (uint64_t(shard) << 48);
  const std::size_t at = sz(first) * sz(T);
  sh.loss = gpt_forward(sh.ws, model_.config, model_.params.data(), inputs_.data() + at, targets_.data() + at, n, T,
                        Path::Fast);
  sh.grads.assign(grads_.size(), 0.0f);
  gpt_backward(sh.ws, model_.config, model_.params.data(), sh.grads.data(), Path::Fast);
}

int PoemTrainer::shard_sequences(int shard) const {
  return std::min(kShardSequences, config_.batch - shard * kShardSequences);
}

namespace {

// y += weight x, per vector width (kernels/per_isa.hpp).
ATTN_PER_ISA void add_weighted(float* y, const float* x, float weight, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) y[i] += weight * x[i];
}

}  // namespace

// The batch's mean is the shards' means weighted by their sequences.
void PoemTrainer::add_gradient(int shard, const float* g, std::size_t begin, std::size_t end) {
  add_weighted(grads_.data() + begin, g + begin, float(shard_sequences(shard)) / float(config_.batch), end - begin);
}

void PoemTrainer::add_loss(int shard, float loss) { part_loss_ += double(loss) * shard_sequences(shard); }

PoemStepStats PoemTrainer::finish_step() {
  const float lr = learning_rate();
  adam_.step(model_.params, grads_, tensors_, lr, config_.threads);
  const float loss = float(part_loss_ / config_.batch);
  part_done_ = 0;
  ++step_;
  return {step_, loss, lr};
}

PoemStepStats PoemTrainer::step() {
  draw_batch();
  shards_.resize(sz(shards()));
  parallel_for(shards(), config_.threads, [this](int shard) { run_shard(shard); });
  // The shards' gradients summed in shard order, as step_part does, a range
  // of elements a thread.
  constexpr std::size_t kRange = 1 << 15;
  parallel_for(static_cast<int>((grads_.size() + kRange - 1) / kRange), config_.threads, [this](int r) {
    const std::size_t begin = sz(r) * kRange, end = std::min(grads_.size(), begin + kRange);
    std::fill(grads_.begin() + std::ptrdiff_t(begin), grads_.begin() + std::ptrdiff_t(end), 0.0f);
    for (int shard = 0; shard < shards(); ++shard) add_gradient(shard, shards_[sz(shard)].grads.data(), begin, end);
  });
  part_loss_ = 0;
  for (int shard = 0; shard < shards(); ++shard) add_loss(shard, shards_[sz(shard)].loss);
  return finish_step();
}

void PoemTrainer::begin_part() {
  draw_batch();
  shards_.resize(sz(shards()));
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  part_loss_ = 0;
  part_done_ = 0;
  next_shard_ = shard_begin(replica_);
}

PoemStepStats PoemTrainer::step_part(int sequences) {
  if (next_shard_ < 0) begin_part();
  for (int done = 0; done < std::max(sequences, 1) && next_shard_ < shards(); done += kShardSequences) {
    run_shard(next_shard_);
    add_gradient(next_shard_, shards_[sz(next_shard_)].grads.data(), 0, grads_.size());
    add_loss(next_shard_, shards_[sz(next_shard_)].loss);
    part_done_ += shard_sequences(next_shard_++);
  }
  if (next_shard_ < shards()) return {};
  next_shard_ = -1;
  return finish_step();
}

void PoemTrainer::set_replica(int replica, int replicas) {
  replicas_ = std::clamp(replicas, 1, shards());
  replica_ = std::clamp(replica, 0, replicas_ - 1);
  next_shard_ = -1;
}

bool PoemTrainer::replica_part(int sequences) {
  if (next_shard_ < 0) begin_part();
  for (int done = 0; done < std::max(sequences, 1) && next_shard_ < shard_end(replica_); done += kShardSequences) {
    run_shard(next_shard_);
    part_done_ += shard_sequences(next_shard_++);
  }
  return next_shard_ >= shard_end(replica_);
}

std::vector<float> PoemTrainer::part_gradient() const {
  std::vector<float> out;
  out.reserve(sz(replica_shards(replica_)) * grads_.size());
  for (int s = shard_begin(replica_); s < shard_end(replica_); ++s)
    out.insert(out.end(), shards_[sz(s)].grads.begin(), shards_[sz(s)].grads.end());
  return out;
}

std::vector<float> PoemTrainer::part_losses() const {
  std::vector<float> out;
  for (int s = shard_begin(replica_); s < shard_end(replica_); ++s) out.push_back(shards_[sz(s)].loss);
  return out;
}

PoemStepStats PoemTrainer::finish_replicas(const std::vector<const float*>& parts, const std::vector<const float*>& losses) {
  // Every shard in shard order, as step_part adds them.
  std::fill(grads_.begin(), grads_.end(), 0.0f);
  part_loss_ = 0;
  for (int r = 0; r < replicas_; ++r)
    for (int s = shard_begin(r), j = 0; s < shard_end(r); ++s, ++j) {
      add_gradient(s, parts[sz(r)] + sz(j) * grads_.size(), 0, grads_.size());
      add_loss(s, losses[sz(r)][j]);
    }
  next_shard_ = -1;
  return finish_step();
}

namespace {

PoemReading read_with(const PoemModel& model, const std::vector<int>& tokens, Path path, bool attention_only) {
  const GptConfig& c = model.config;
  const int T = static_cast<int>(tokens.size());
  PoemReading reading;
  reading.tokens = tokens;
  if (T == 0) return reading;
  // Each position's target is the next token (the last has none), so the
  // forward pass computes the losses from the logits: p itself can underflow.
  std::vector<int> targets(tokens.begin() + 1, tokens.end());
  targets.push_back(-1);
  GptWorkspace<float> ws;
  ws.attention_only = attention_only;
  gpt_forward(ws, c, model.params.data(), tokens.data(), targets.data(), 1, T, path);
  if (!attention_only) reading.losses.assign(ws.losses.begin(), ws.losses.end() - 1);
  reading.att.resize(sz(c.layers));
  for (int l = 0; l < c.layers; ++l)
    for (int h = 0; h < c.heads; ++h) {
      const auto first = ws.layer[sz(l)].att.begin() + static_cast<std::ptrdiff_t>(sz(h) * sz(T) * sz(T));
      reading.att[sz(l)].emplace_back(first, first + static_cast<std::ptrdiff_t>(sz(T) * sz(T)));
    }
  reading.probs = std::move(ws.probs);
  return reading;
}

}  // namespace

PoemReading read_tokens(const PoemModel& model, const std::vector<int>& tokens, Path path) {
  return read_with(model, tokens, path, false);
}

PoemReading read_attention(const PoemModel& model, const std::vector<int>& tokens) {
  return read_with(model, tokens, Path::Fast, true);
}

PoemScore score_poems(const PoemModel& model, const std::vector<std::vector<int>>& poems) {
  const int T = model.config.context, V = model.config.vocab;
  PoemScore score;
  double total = 0;
  GptWorkspace<float> ws;
  for (const std::vector<int>& poem : poems) {
    const int n = static_cast<int>(poem.size());
    int counted = 0;  // targets 1..counted are scored
    for (int s = 0; counted < n - 1; s += std::max(1, T / 2)) {
      const int end = std::min(s + T, n - 1);  // inputs s..end-1 predict s+1..end
      if (end <= counted) continue;
      std::vector<int> inputs(poem.begin() + s, poem.begin() + end), targets(inputs.size(), -1);
      for (int i = s; i < end; ++i)
        if (i + 1 > counted) targets[sz(i - s)] = poem[sz(i + 1)];
      gpt_forward(ws, model.config, model.params.data(), inputs.data(), targets.data(), 1, end - s, Path::Fast);
      for (int i = 0; i < end - s; ++i) {
        const int target = targets[sz(i)];
        if (target < 0) continue;
        total += ws.losses[sz(i)];
        ++score.predicted;
        if (!model.vocab.punctuation(target)) continue;
        ++score.punctuation;
        const float* p = ws.probs.data() + sz(i) * sz(V);
        const int top = static_cast<int>(std::max_element(p, p + V) - p);
        score.punctuation_hits += model.vocab.punctuation(top);
      }
      counted = end;
    }
  }
  score.loss = score.predicted ? total / double(score.predicted) : 0.0;
  return score;
}

int sample_next(const PoemModel& model, const std::vector<int>& ids, float temperature, Rng& rng,
                GptWorkspace<float>& ws) {
  const int T = model.config.context, V = model.config.vocab;
  const std::size_t from = ids.size() > sz(T) ? ids.size() - sz(T) : 0;
  const std::vector<int> window(ids.begin() + static_cast<std::ptrdiff_t>(from), ids.end());
  const int W = static_cast<int>(window.size());
  gpt_forward(ws, model.config, model.params.data(), window.data(), nullptr, 1, W, Path::Fast);
  const float* logits = ws.logits.data() + sz(W - 1) * sz(V);
  if (temperature <= 0.0f)
    return static_cast<int>(std::max_element(logits + 1, logits + V) - logits);  // never kUnknown (0)
  // The unknown token is never written: it stands for "a character not learned".
  double max = -INFINITY, sum = 0;
  for (int v = 1; v < V; ++v) max = std::max(max, double(logits[v]));
  std::vector<double> p(sz(V));
  for (int v = 0; v < V; ++v) sum += p[sz(v)] = v == Vocab::kUnknown ? 0.0 : std::exp((logits[v] - max) / temperature);
  double u = rng.uniform_double() * sum;
  for (int v = 0; v < V; ++v)
    if ((u -= p[sz(v)]) < 0) return v;
  return V - 1;
}

std::vector<int> sample(const PoemModel& model, std::vector<int> prompt, int length, float temperature, Rng& rng) {
  std::vector<int> out = std::move(prompt);
  if (out.empty()) out.push_back(Vocab::kPoemStart);
  GptWorkspace<float> ws;
  for (int n = 0; n < length; ++n) {
    const int next = sample_next(model, out, temperature, rng, ws);
    if (next == Vocab::kPoemStart) break;
    out.push_back(next);
  }
  return out;
}

Baselines baselines(const std::vector<int>& poem_tokens, const std::vector<int>& modern_tokens, float modern_share,
                    const std::vector<std::vector<int>>& held_out, int V) {
  // Each occurrence counts `weight` of its stream, so the two streams weigh
  // as the batches draw them; the weights keep the total count at the ids'
  // number (add-one smoothing stays on the same scale).
  const double total_ids = double(poem_tokens.size() + modern_tokens.size());
  const bool mixed = !modern_tokens.empty();
  const double poem_weight = mixed ? (1.0 - modern_share) * total_ids / double(poem_tokens.size()) : 1.0;
  const double modern_weight = mixed ? modern_share * total_ids / double(modern_tokens.size()) : 0.0;
  std::vector<double> unigram(sz(V), 0.0), row_total(sz(V), 0.0);
  std::unordered_map<uint64_t, double> bigram;  // prev * V + next -> weighted count
  const auto key = [V](int prev, int next) { return uint64_t(prev) * uint64_t(V) + uint64_t(next); };
  auto count = [&](int prev, int next) {
    const auto it = bigram.find(key(prev, next));
    return it == bigram.end() ? 0.0 : it->second;
  };
  double N = 0;
  for (const auto& [stream, weight] : {std::pair{&poem_tokens, poem_weight}, std::pair{&modern_tokens, modern_weight}})
    for (std::size_t i = 0; i < stream->size(); ++i) {
      unigram[sz((*stream)[i])] += weight;
      N += weight;
      if (i > 0) bigram[key((*stream)[i - 1], (*stream)[i])] += weight, row_total[sz((*stream)[i - 1])] += weight;
    }
  // P(next | prev)'s two parts with `leave` taken off the counts (an
  // occurrence's own weight): the add-one unigram, and the bigram when prev's
  // row keeps a count. mixed() interpolates them with lambda.
  struct Parts {
    double p1, p2;
    bool has_row;
    double mixed(double lambda) const { return has_row ? lambda * p2 + (1 - lambda) * p1 : p1; }
  };
  auto parts = [&](int prev, int next, double leave) {
    const double total = row_total[sz(prev)] - leave;
    const bool has_row = total > 1e-9;
    return Parts{(unigram[sz(next)] - leave + 1) / (N - leave + V),
                 has_row ? std::max(0.0, count(prev, next) - leave) / total : 0.0, has_row};
  };
  // Each training pair's parts, left out, are looked up once: the search over
  // lambda is then 19 sums over the same numbers, in the pairs' order.
  struct Pair {
    double weight;
    Parts parts;
  };
  std::vector<Pair> pairs;
  pairs.reserve(poem_tokens.size() + modern_tokens.size());
  for (const auto& [stream, weight] : {std::pair{&poem_tokens, poem_weight}, std::pair{&modern_tokens, modern_weight}})
    for (std::size_t i = 1; i < stream->size(); ++i)
      pairs.push_back({weight, parts((*stream)[i - 1], (*stream)[i], weight)});
  Baselines b;
  double best = -INFINITY;
  for (int k = 1; k <= 19; ++k) {
    const double lambda = 0.05 * k;
    double ll = 0;
    for (const Pair& p : pairs) ll += p.weight * std::log(p.parts.mixed(lambda));
    if (ll > best) best = ll, b.lambda = lambda;
  }
  long long n = 0;
  for (const std::vector<int>& poem : held_out)
    for (std::size_t i = 1; i < poem.size(); ++i) {
      b.unigram -= std::log((unigram[sz(poem[i])] + 1) / (N + V));
      b.bigram -= std::log(parts(poem[i - 1], poem[i], 0).mixed(b.lambda));
      ++n;
    }
  if (n) b.unigram /= double(n), b.bigram /= double(n);
  return b;
}

}  // namespace attn::poem
