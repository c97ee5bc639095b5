// The poem model's session; see poem_session.hpp.
#include "api/poem_session.hpp"

#include <algorithm>

#include "api/poem_export.hpp"
#include "api/poem_json.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/tokenizer.hpp"

namespace attn::api {

namespace {

// model read on text, as the view draws it.
std::string read_with(const poem::PoemModel& model, const std::string& text, PoemReadingData& out) {
  if (text.size() > PoemLimits::kMaxTextBytes)
    return "text: " + std::to_string(text.size()) + " bytes; at most " + std::to_string(PoemLimits::kMaxTextBytes);
  PoemWindow window;
  if (std::string e = poem_window(model, text, window); !e.empty()) return e;
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

// heads_of keeps the patterns' numbers, not the detectors', so the session
// reads no repeated sequences for induction: 8 forward passes saved on load
// and on every training step in the page.
constexpr int kNoRepeats = 0;

std::vector<PoemHead> heads_of(const std::vector<poem::HeadStats>& stats) {
  std::vector<PoemHead> out;
  for (const poem::HeadStats& h : stats) {
    PoemHead head;
    head.layer = h.layer;
    head.head = h.head;
    for (std::size_t d = 0; d < head.by_offset.size(); ++d) head.by_offset[d] = float(h.by_offset[d]);
    head.punctuation_weight = float(h.punctuation_weight);
    head.punctuation_share = float(h.punctuation_share);
    head.first_weight = float(h.first_weight);
    head.previous_line_weight = float(h.previous_line_weight);
    head.entropy = float(h.entropy);
    head.pattern = h.pattern;
    out.push_back(std::move(head));
  }
  return out;
}

}  // namespace

std::string PoemSession::load(const uint8_t* model_file, std::size_t size, std::string_view tang300) {
  poem::ModelFile file = poem::read_model(model_file, size);
  if (!file.error.empty()) {  // "poem model file: truncated ...": named by its file
    const std::string prefix = "poem model file: ";
    return "poem_model.bin: " + (file.error.rfind(prefix, 0) == 0 ? file.error.substr(prefix.size()) : file.error);
  }
  const std::vector<std::string> poems = poem::parse_fortunes(tang300);
  if (poems.size() < 20) return "tang300: not the Tang poems of fortunes-zh (" + std::to_string(poems.size()) + " entries)";
  PoemSummary s;
  const poem::GptConfig& c = file.model.config;
  s.vocab = c.vocab;
  s.context = c.context;
  s.layers = c.layers;
  s.heads = c.heads;
  s.d_model = c.d_model;
  s.parameters = static_cast<long long>(file.model.params.size());
  s.info = file.info;
  std::vector<std::vector<int>> held_out;
  for (std::size_t i = 0; i < poems.size(); ++i)
    if (poem::held_out(int(i))) {
      s.held_out.push_back(poems[i]);
      held_out.push_back(file.model.vocab.encode_poem(poems[i]));
    }
  s.heads_found = heads_of(poem::analyse_heads(file.model, held_out, kNoRepeats));
  s.held_out_loss = float(poem::score_poems(file.model, held_out).loss);
  model_ = std::move(file.model);
  summary_ = std::move(s);
  tang300_ = poems;
  sample_.reset();
  trainer_.reset();
  training_ = PoemTraining{};
  return "";
}


std::string PoemSession::read(const std::string& text, PoemReadingData& out) const {
  if (!model_) return "the poem model is not loaded";
  return read_with(*model_, text, out);
}

std::string PoemSession::train_read(const std::string& text, PoemReadingData& out) const {
  if (!trainer_) return "no model is being trained";
  return read_with(trainer_->model(), text, out);
}

const poem::PoemModel* PoemSession::trained_model() const { return trainer_ ? &trainer_->model() : nullptr; }

std::string PoemSession::train_corpus(std::string_view song100, std::string_view modern) {
  song100_ = poem::parse_fortunes(song100);
  modern_ = poem::parse_fortunes(modern);
  if (song100_.size() < 20) return "song100: not the Song poems of fortunes-zh";
  if (modern_.size() < 100) return "chinese: not the modern passages of fortunes-zh";
  corpus_ = true;
  return "";
}

std::string PoemSession::train_reset(uint64_t seed, int fixed_poem) {
  if (!model_) return "the poem model is not loaded";
  if (!corpus_) return "the corpus is not loaded (song100, chinese)";
  poem::PoemCorpus corpus{tang300_, song100_, modern_, {}};
  poem::PoemTrainConfig config;  // the fortunes-zh recipe (docs/poem-model.md: training in the page)
  config.model.context = model_->config.context;
  config.model.layers = model_->config.layers;
  config.model.heads = model_->config.heads;
  config.model.d_model = model_->config.d_model;
  config.seed = seed;
  const poem::PoemSplit split = poem::split_corpus(corpus, config.use_modern);
  poem::Vocab vocab = poem::Vocab::from_texts(split.train());
  std::vector<int> poem_ids = poem::encode_all(vocab, split.poems);
  std::vector<int> modern_ids = poem::encode_all(vocab, split.modern, poem::Vocab::kTextStart);
  train_held_out_.clear();
  for (const std::string& p : split.held_out) train_held_out_.push_back(vocab.encode_poem(p));
  fixed_poem_ = std::clamp(fixed_poem, 0, int(train_held_out_.size()) - 1);
  trainer_ = std::make_unique<poem::PoemTrainer>(config, std::move(vocab), std::move(poem_ids), std::move(modern_ids));
  training_ = PoemTraining{};
  training_.target = config.steps;
  training_.batch = config.batch;
  // The untrained model is scored first: the curve starts where learning starts.
  training_.held_out = int(train_held_out_.size());
  eval_loss_ = 0;
  eval_predicted_ = 0;
  heads_step_ = -1;
  return "";
}

void PoemSession::finish_training() {
  // Both models on every held-out poem, by the same code (the shipped one's at load).
  training_.shipped_loss = summary_.held_out_loss;
  training_.heads = heads_of(poem::analyse_heads(trainer_->model(), train_held_out_, kNoRepeats));
  training_.finished = true;
}

const PoemTraining& PoemSession::train_run(int units) {
  if (!trainer_ || training_.finished) return training_;
  PoemTraining& t = training_;
  for (int u = 0; u < units && !t.finished; ++u) {
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
    const poem::PoemStepStats stats = trainer_->step_part(1);
    t.sequences = trainer_->sequences_done();
    u += (stats.step ? trainer_->config().batch : t.sequences) - before - 1;
    if (stats.step == 0) continue;
    t.steps = stats.step;
    t.train_steps.push_back(float(stats.step));
    t.train_loss.push_back(stats.loss);
    if (t.steps % kPoemEvalEvery == 0 || t.steps >= t.target) {
      t.held_out = int(train_held_out_.size());
      t.evaluated = 0;
      eval_loss_ = 0;
      eval_predicted_ = 0;
    }
  }
  // While it trains: the heads on the fixed poem, once a step (one forward pass).
  if (!t.finished && heads_step_ != t.steps) {
    t.heads = heads_of(poem::analyse_heads(trainer_->model(), {train_held_out_[std::size_t(fixed_poem_)]}, kNoRepeats));
    heads_step_ = t.steps;
  }
  return t;
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
      const std::string song100 = in.str(), modern = in.str();
      if (!in.ok()) break;
      return answer_error(train_corpus(song100, modern));
    }
    case PoemOp::TrainReset: {
      const uint32_t seed = in.u32();
      const int fixed = int(in.u32());
      if (!in.ok()) break;
      if (std::string e = train_reset(seed, fixed); !e.empty()) return answer_error(e);
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
