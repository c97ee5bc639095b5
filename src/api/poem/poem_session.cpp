// The poem model's session; see poem_session.hpp.
#include "api/poem/poem_session.hpp"

#include <algorithm>

#include "api/poem/page_training.hpp"
#include "api/poem/poem_export.hpp"
#include "api/poem/poem_json.hpp"
#include "core/poem/head_detectors.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/base/tokenizer.hpp"

namespace attn::api {

namespace {

// The cells each detector counts on ids (PoemReadingData::counted): a
// sequence that is one run repeated twice, as the view's probe makes it, by
// induction only; any other by the poem's roles.
void counted_cells(const poem::PoemModel& model, const std::vector<int>& ids, PoemReadingData& d) {
  const int T = int(ids.size());
  const int half = (T - 1) / 2;
  const bool repeated = T >= 5 && (T - 1) % 2 == 0 && ids[0] == poem::Vocab::kPoemStart &&
                        std::equal(ids.begin() + 1, ids.begin() + 1 + half, ids.begin() + 1 + half);
  d.period = repeated ? half : 0;
  const poem::SequenceRoles roles =
      repeated ? poem::repeat_roles(ids, half) : poem::poem_roles(ids, [&](int id) {
        return id == poem::Vocab::kLineBreak || model.vocab.punctuation(id);
      });
  d.counted.assign(std::size_t(kPoemDetectors) * std::size_t(T) * std::size_t(T), 0);
  std::vector<int> keys;
  for (int det = 0; det < kPoemDetectors; ++det)
    for (int t = 0; t < T; ++t) {
      poem::detector_keys(poem::Detector(det), roles, t, keys);
      for (int k : keys) d.counted[(std::size_t(det) * std::size_t(T) + std::size_t(t)) * std::size_t(T) + std::size_t(k)] = 1;
    }
}

// model read on text, as the view draws it.
std::string read_with(const poem::PoemModel& model, const std::string& text, PoemReadingData& out,
                      const std::string& start = "") {
  if (text.size() > PoemLimits::kMaxTextBytes)
    return "text: " + std::to_string(text.size()) + " bytes; at most " + std::to_string(PoemLimits::kMaxTextBytes);
  PoemWindow window;
  if (std::string e = poem_window(model, text, window); !e.empty()) return e;
  if (!start.empty()) {  // the attention-sink probe: <poem> left out, or another token in its place
    if (window.cut > 0) return "start: the text is longer than the model's context, so <poem> is left out already";
    if (start == "none") {  // (poem_window refused an empty text: a character is left)
      window.ids.erase(window.ids.begin());
      window.shown.erase(window.shown.begin());
    } else {
      if (std::string e = utf8_error(start); !e.empty() || poem::utf8_chars(start).size() != 1)
        return "start: \"none\" or one character, got \"" + (e.empty() ? start : e) + "\"";
      window.ids[0] = model.vocab.id(start);
      window.shown[0] = start;
    }
  }
  const poem::PoemReading reading = poem::read_tokens(model, window.ids);
  const std::size_t T = window.ids.size(), V = std::size_t(model.config.vocab);
  PoemReadingData d;
  d.tokens = std::move(window.shown);
  for (int id : window.ids) d.unknown.push_back(id == poem::Vocab::kUnknown);
  d.cut = window.cut;
  d.layers = model.config.layers;
  d.heads = model.config.heads;
  d.att.reserve(std::size_t(d.layers * d.heads) * T * T);
  for (const auto& layer : reading.att)
    for (const std::vector<float>& w : layer) d.att.insert(d.att.end(), w.begin(), w.end());
  d.losses = reading.losses;
  counted_cells(model, window.ids, d);
  for (std::size_t t = 0; t < T; ++t) {
    const float* p = reading.probs.data() + t * V;
    for (int id : top_ids(p, V, kPoemTop)) {
      d.top_chars.push_back(model.vocab.text(id));
      d.top_p.push_back(p[id]);
    }
  }
  out = std::move(d);
  return "";
}

// The detectors' kinds and order, as the wire names them.
static_assert(kPoemDetectors == poem::kDetectors, "api/poem/poem_wire.hpp lists the core's detectors");
static_assert(kPoemInduction == int(poem::Detector::kInduction), "api/poem/poem_wire.hpp: induction's place");

std::vector<PoemHead> heads_of(const std::vector<poem::HeadStats>& stats) {
  std::vector<PoemHead> out;
  for (const poem::HeadStats& h : stats) {
    PoemHead head;
    head.layer = h.layer;
    head.head = h.head;
    for (std::size_t d = 0; d < head.by_offset.size(); ++d) head.by_offset[d] = float(h.by_offset[d]);
    for (std::size_t d = 0; d < head.weight.size(); ++d) {
      head.weight[d] = float(h.detectors[d].mean_weight());
      head.ratio[d] = float(h.detectors[d].ratio());
    }
    head.strongest = h.strongest;
    head.entropy = float(h.entropy);
    head.uniform_entropy = float(h.uniform_entropy);
    out.push_back(head);
  }
  return out;
}

// Induction is measured on this many random sequences repeated twice (core's
// analyse_heads); while a model trains, on none: a step's heads cost one
// forward pass.
constexpr int kRepeats = 8, kNoRepeats = 0;

// The held-out poem the view opens on (PoemSummary::default_poem).
void choose_default(const std::vector<std::vector<int>>& poems, const poem::PoemDetectorScores& by_poem,
                    const std::vector<PoemHead>& heads, int context, PoemSummary& s) {
  s.default_poem = 0;
  s.default_weight = -1;
  s.whole_poems = 0;
  for (std::size_t p = 0; p < poems.size(); ++p) {
    if (int(poems[p].size()) > context) continue;
    ++s.whole_poems;
    double sum = 0;
    int named = 0;
    for (std::size_t i = 0; i < heads.size(); ++i) {
      const int d = heads[i].strongest;
      if (d < 0 || d == kPoemInduction) continue;  // induction is not measured on poems
      sum += by_poem[p][i][std::size_t(d)].mean_weight();
      ++named;
    }
    const float weight = named ? float(sum / named) : 0.0f;
    if (weight > s.default_weight) s.default_weight = weight, s.default_poem = int(p);
  }
  s.default_weight = std::max(0.0f, s.default_weight);
}

}  // namespace

std::string PoemSession::load(const uint8_t* model_file, std::size_t size, std::string_view tang300) {
  poem::ModelFile file = poem::read_model(model_file, size);
  if (!file.error.empty()) {  // "poem model file: truncated ...": named by its file
    const std::string prefix = "poem model file: ";
    return "poem_model.bin: " + (file.error.rfind(prefix, 0) == 0 ? file.error.substr(prefix.size()) : file.error);
  }
  std::vector<poem::FortuneEntry> entries = poem::parse_fortune_entries(tang300);
  if (entries.size() < 20) return "tang300: not the Tang poems of fortunes-zh (" + std::to_string(entries.size()) + " entries)";
  if (entries.size() > std::size_t(PoemLimits::kHeldOutPoems)) entries.resize(std::size_t(PoemLimits::kHeldOutPoems));
  PoemSummary s;
  const poem::GptConfig& c = file.model.config;
  s.vocab = c.vocab;
  s.context = c.context;
  s.layers = c.layers;
  s.heads = c.heads;
  s.d_model = c.d_model;
  s.parameters = static_cast<long long>(file.model.params.size());
  s.info = file.info;
  std::vector<std::vector<int>> poems, eval;
  tang300_.clear();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    poems.push_back(file.model.vocab.encode_poem(entries[i].text));
    if (poem_eval_poem(int(i))) eval.push_back(poems.back());
    tang300_.push_back(entries[i].text);
    s.held_out.push_back(std::move(entries[i].text));
    s.titles.push_back(std::move(entries[i].title));
    s.authors.push_back(std::move(entries[i].author));
  }
  poem::PoemDetectorScores by_poem;
  s.heads_found = heads_of(poem::analyse_heads(file.model, poems, kRepeats, &by_poem));
  choose_default(poems, by_poem, s.heads_found, c.context, s);
  s.eval_loss = float(poem::score_poems(file.model, eval).loss);
  model_ = std::move(file.model);
  summary_ = std::move(s);
  sample_.reset();
  trainer_.reset();
  training_ = PoemTraining{};
  return "";
}

std::string PoemSession::read(const std::string& text, PoemReadingData& out, const std::string& start) const {
  if (!model_) return "the poem model is not loaded";
  return read_with(*model_, text, out, start);
}

std::string PoemSession::train_read(const std::string& text, PoemReadingData& out) const {
  if (!trainer_) return "no model is being trained";
  return read_with(trainer_->model(), text, out);
}

const poem::PoemModel* PoemSession::trained_model() const { return trainer_ ? &trainer_->model() : nullptr; }

std::string PoemSession::train_corpus(std::string_view slice) {
  slice_ = poem::parse_fortunes(slice);
  if (slice_.size() < 1000)
    return "tang_train: " + std::to_string(slice_.size()) + " poems; the page's slice of the Tang training poems has some 13,700";
  return "";
}

std::string PoemSession::train_reset(uint64_t seed, int fixed_poem, int replica, int replicas) {
  if (!model_) return "the poem model is not loaded";
  if (slice_.empty()) return "the training slice is not loaded (tang_train)";
  if (replicas < 1 || replicas > 8 || replica < 0 || replica >= replicas)
    return "replica " + std::to_string(replica) + " of " + std::to_string(replicas) + ": not one of 1 to 8";
  const poem::PoemTrainConfig config = page_train_config(
      poem::GptConfig{0, model_->config.context, model_->config.layers, model_->config.heads, model_->config.d_model},
      seed);
  poem::Vocab vocab = poem::Vocab::from_texts(slice_, kPageMinCount);
  std::vector<int> ids = poem::encode_all(vocab, slice_);
  train_held_out_.clear();
  for (std::size_t i = 0; i < tang300_.size(); ++i)
    if (poem_eval_poem(int(i))) train_held_out_.push_back(vocab.encode_poem(tang300_[i]));
  fixed_poem_ = std::clamp(fixed_poem, 0, int(tang300_.size()) - 1);
  fixed_ids_ = vocab.encode_poem(tang300_[std::size_t(fixed_poem_)]);
  training_ = PoemTraining{};
  training_.vocab = vocab.size();
  for (int id = poem::Vocab::kSpecials; id < vocab.size(); ++id) training_.characters += vocab.text(id);
  training_.slice_poems = int(slice_.size());
  trainer_ = std::make_unique<poem::PoemTrainer>(config, std::move(vocab), std::move(ids));
  trainer_->set_replica(replica, replicas);
  training_.target = config.steps;
  training_.batch = config.batch;
  training_.replica = trainer_->replica();
  training_.replicas = trainer_->replicas();
  training_.shipped_loss = summary_.eval_loss;
  // The untrained model is scored first: the curve starts where learning starts.
  training_.held_out = replica == 0 ? int(train_held_out_.size()) : 0;
  eval_loss_ = 0;
  eval_predicted_ = 0;
  heads_step_ = -1;
  return "";
}

void PoemSession::finish_training() {
  training_.heads = heads_of(poem::analyse_heads(trainer_->model(), train_held_out_, kNoRepeats));
  training_.finished = true;
}

// A step is complete: its stats into the curves, and an evaluation due (the
// first replica's: the others only train).
void PoemSession::step_done(const poem::PoemStepStats& stats) {
  PoemTraining& t = training_;
  t.steps = stats.step;
  t.sequences = 0;
  t.waiting = false;
  t.train_steps.push_back(float(stats.step));
  t.train_loss.push_back(stats.loss);
  if (t.replica == 0 && (t.steps % kPoemEvalEvery == 0 || t.steps >= t.target)) {
    t.held_out = int(train_held_out_.size());
    t.evaluated = 0;
    eval_loss_ = 0;
    eval_predicted_ = 0;
  }
  if (t.replica != 0 && t.steps >= t.target) t.finished = true;
}

const PoemTraining& PoemSession::train_run(int units) {
  if (!trainer_ || training_.finished) return training_;
  PoemTraining& t = training_;
  for (int u = 0; u < units && !t.finished && !t.waiting; ++u) {
    if (t.held_out > 0) {  // an evaluation under way: one poem a unit
      const poem::PoemScore score = poem::score_poems(trainer_->model(), {train_held_out_[std::size_t(t.evaluated)]});
      eval_loss_ += score.loss * double(score.predicted);
      eval_predicted_ += score.predicted;
      if (++t.evaluated < t.held_out) continue;
      t.eval_steps.push_back(float(t.steps));
      t.eval_loss.push_back(float(eval_loss_ / double(std::max<long long>(1, eval_predicted_))));
      t.held_out = t.evaluated = 0;
      if (t.steps >= t.target) finish_training();
      continue;
    }
    // A unit is a sequence of the batch; the trainer takes a shard of them at
    // a time (PoemTrainer::kShardSequences), which counts as that many units.
    const int before = trainer_->sequences_done();
    if (t.replicas > 1) {
      t.waiting = trainer_->replica_part(1);
      t.sequences = trainer_->sequences_done();
      u += t.sequences - before - 1;
      continue;
    }
    const poem::PoemStepStats stats = trainer_->step_part(1);
    t.sequences = trainer_->sequences_done();
    u += (stats.step ? trainer_->config().batch : t.sequences) - before - 1;
    if (stats.step != 0) step_done(stats);
  }
  // While it trains: the heads on the fixed poem, once a step (one forward pass).
  if (t.replica == 0 && !t.finished && heads_step_ != t.steps) {
    t.heads = heads_of(poem::analyse_heads(trainer_->model(), {fixed_ids_}, kNoRepeats));
    heads_step_ = t.steps;
  }
  return t;
}

std::string PoemSession::train_join(int step, const std::vector<std::vector<float>>& parts,
                                    const std::vector<std::vector<float>>& losses) {
  if (!trainer_ || !training_.waiting) return "no replica's part of a step is waiting";
  if (step != training_.steps) return "a part of step " + std::to_string(step) + ", not of " + std::to_string(training_.steps);
  if (int(parts.size()) != training_.replicas || losses.size() != parts.size())
    return std::to_string(parts.size()) + " parts; the replicas are " + std::to_string(training_.replicas);
  const std::size_t n = trainer_->model().params.size();
  std::vector<const float*> gradients, shard_losses;
  for (std::size_t r = 0; r < parts.size(); ++r) {
    const std::size_t shards = std::size_t(trainer_->replica_shards(int(r)));
    if (parts[r].size() != shards * n || losses[r].size() != shards)
      return "replica " + std::to_string(r) + "'s part: " + std::to_string(parts[r].size()) + " numbers and " +
             std::to_string(losses[r].size()) + " losses; its " + std::to_string(shards) + " shards need " +
             std::to_string(shards * n) + " and " + std::to_string(shards);
    gradients.push_back(parts[r].data());
    shard_losses.push_back(losses[r].data());
  }
  step_done(trainer_->finish_replicas(gradients, shard_losses));
  return "";
}

std::string PoemSession::sample_begin(const std::string& prompt, int length, float temperature, uint64_t seed) {
  sample_.reset();
  if (!model_) return "the poem model is not loaded";
  if (length < 1 || length > PoemLimits::kMaxSampleLength)
    return "length: " + std::to_string(length) + "; 1 to " + std::to_string(PoemLimits::kMaxSampleLength);
  if (!(temperature >= 0.0f && temperature <= 10.0f)) return "temperature: 0 to 10";
  if (prompt.size() > PoemLimits::kMaxTextBytes) return "prompt: too long";
  if (std::string e = utf8_error(prompt); !e.empty()) return "prompt: " + e;
  SampleJob job;
  // As `attention_cli poem sample`: <poem>, the prompt's ids, Rng(seed, 77).
  job.ids = {poem::Vocab::kPoemStart};
  for (int id : model_->vocab.encode(prompt)) job.ids.push_back(id);
  job.prompt = job.ids.size();
  job.length = length;
  job.temperature = temperature;
  job.rng = Rng(seed, 77);
  sample_ = std::move(job);
  return "";
}

bool PoemSession::sample_step(int n) {
  if (!sample_ || !model_) return true;
  SampleJob& job = *sample_;
  for (int i = 0; i < n && !job.done; ++i) {
    const int next = poem::sample_next(*model_, job.ids, job.temperature, job.rng, *ws_);
    if (next == poem::Vocab::kPoemStart) job.done = true;
    else job.ids.push_back(next);
    if (int(job.ids.size() - job.prompt) >= job.length) job.done = true;
  }
  return job.done;
}

std::string PoemSession::sample_text() const {
  std::string text;
  if (!sample_ || !model_) return text;
  for (std::size_t i = sample_->prompt; i < sample_->ids.size(); ++i) text += model_->vocab.text(sample_->ids[i]);
  return text;
}

std::vector<uint8_t> PoemSession::serve(const uint8_t* request, std::size_t size) {
  WireReader in(request, size);
  const PoemOp op = PoemOp(in.u32());
  WireWriter out;
  switch (op) {
    case PoemOp::Summary:
      if (!model_) return answer_error("the poem model is not loaded");
      out.str("");
      write_summary(out, summary_);
      return std::move(out.bytes);
    case PoemOp::Read: {
      const std::string text = in.str();
      if (!in.ok()) break;
      PoemReadingData d;
      if (std::string e = read(text, d); !e.empty()) return answer_error(e);
      out.str("");
      write_reading(out, d);
      return std::move(out.bytes);
    }
    case PoemOp::ReadStart: {
      const std::string text = in.str();
      const std::string start = in.str();
      if (!in.ok()) break;
      PoemReadingData d;
      if (std::string e = read(text, d, start); !e.empty()) return answer_error(e);
      out.str("");
      write_reading(out, d);
      return std::move(out.bytes);
    }
    case PoemOp::SampleBegin: {
      const std::string prompt = in.str();
      const int length = int(in.u32());
      const float temperature = in.f32();
      const uint32_t seed = in.u32();
      if (!in.ok()) break;
      return answer_error(sample_begin(prompt, length, temperature, seed));
    }
    case PoemOp::SampleStep: {
      const int n = int(std::min<uint32_t>(in.u32(), 1000));
      if (!in.ok()) break;
      const bool done = sample_step(n);
      out.str("");
      out.str(sample_text());
      out.u32(done);
      return std::move(out.bytes);
    }
    case PoemOp::TrainCorpus: {
      const std::string slice = in.str();
      if (!in.ok()) break;
      return answer_error(train_corpus(slice));
    }
    case PoemOp::TrainReset: {
      const uint32_t seed = in.u32();
      const int fixed = int(in.u32());
      const int replica = int(std::min<uint32_t>(in.u32(), 1000)), replicas = int(std::min<uint32_t>(in.u32(), 1000));
      if (!in.ok()) break;
      if (std::string e = train_reset(seed, fixed, replica, replicas); !e.empty()) return answer_error(e);
      out.str("");
      write_training(out, training_);
      return std::move(out.bytes);
    }
    case PoemOp::TrainRun: {
      const int units = int(std::min<uint32_t>(in.u32(), 1000));
      if (!in.ok()) break;
      if (!trainer_) return answer_error("no model is being trained (TrainReset first)");
      out.str("");
      write_training(out, train_run(units));
      return std::move(out.bytes);
    }
    case PoemOp::TrainRead: {
      const std::string text = in.str();
      if (!in.ok()) break;
      PoemReadingData d;
      if (std::string e = train_read(text, d); !e.empty()) return answer_error(e);
      out.str("");
      write_reading(out, d);
      return std::move(out.bytes);
    }
    case PoemOp::TrainGradient: {
      if (!trainer_ || !training_.waiting) return answer_error("no replica's part of a step is waiting");
      out.str("");
      out.u32(uint32_t(training_.steps));
      out.floats(trainer_->part_gradient());
      out.floats(trainer_->part_losses());
      return std::move(out.bytes);
    }
    case PoemOp::TrainJoin: {
      const int step = int(in.u32());
      const uint32_t n = std::min<uint32_t>(in.u32(), 8);
      std::vector<std::vector<float>> parts, losses;
      for (uint32_t i = 0; i < n && in.ok(); ++i) {
        parts.push_back(in.floats());
        losses.push_back(in.floats());
      }
      if (!in.ok()) break;
      if (std::string e = train_join(step, parts, losses); !e.empty()) return answer_error(e);
      out.str("");
      write_training(out, training_);
      return std::move(out.bytes);
    }
    case PoemOp::Export: {
      // The reading on the reader's screen, by whichever model read it (the
      // model being trained may live in another thread: web/poem.js).
      const std::string what = in.str(), text = in.str();
      const PoemReadingData d = read_reading(in);
      if (!in.ok() || d.tokens.empty()) break;
      ExportFile file;
      if (!poem_export(d, text, what, &file)) return answer_error(what + ": not a file of this view");
      out.str("");
      out.str(file.name);
      out.str(file.mime);
      out.str(file.bytes);
      return std::move(out.bytes);
    }
  }
  return answer_error("poem session: a request it cannot read (op " + std::to_string(uint32_t(op)) + ")");
}

}  // namespace attn::api
