// The poem model's session; see poem_session.hpp.
#include "api/poem_session.hpp"

#include <algorithm>

#include "api/poem_json.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/tokenizer.hpp"

namespace attn::api {

std::string PoemSession::load(const uint8_t* model_file, std::size_t size, std::string_view tang300) {
  poem::ModelFile file = poem::read_model(model_file, size);
  if (!file.error.empty()) return "poem_model.bin: " + file.error;
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
  for (const poem::HeadStats& h : poem::analyse_heads(file.model, held_out)) {
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
    s.heads_found.push_back(std::move(head));
  }
  model_ = std::move(file.model);
  summary_ = std::move(s);
  sample_.reset();
  return "";
}

std::string PoemSession::read(const std::string& text, PoemReadingData& out) const {
  if (!model_) return "the poem model is not loaded";
  if (text.size() > PoemLimits::kMaxTextBytes)
    return "text: " + std::to_string(text.size()) + " bytes; at most " + std::to_string(PoemLimits::kMaxTextBytes);
  PoemWindow window;
  if (std::string e = poem_window(*model_, text, window); !e.empty()) return e;
  const poem::PoemReading reading = poem::read_tokens(*model_, window.ids);
  const std::size_t T = window.ids.size(), V = std::size_t(model_->config.vocab);
  PoemReadingData d;
  d.tokens = std::move(window.shown);
  for (int id : window.ids) d.unknown.push_back(id == poem::Vocab::kUnknown);
  d.cut = window.cut;
  d.layers = model_->config.layers;
  d.heads = model_->config.heads;
  d.att.reserve(std::size_t(d.layers * d.heads) * T * T);
  for (const auto& layer : reading.att)
    for (const std::vector<float>& w : layer) d.att.insert(d.att.end(), w.begin(), w.end());
  d.losses = reading.losses;
  for (std::size_t t = 0; t < T; ++t) {
    const float* p = reading.probs.data() + t * V;
    for (int id : top_ids(p, V, kPoemTop)) {
      d.top_chars.push_back(model_->vocab.text(id));
      d.top_p.push_back(p[id]);
    }
  }
  out = std::move(d);
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
  }
  return answer_error("poem session: a request it cannot read (op " + std::to_string(uint32_t(op)) + ")");
}

}  // namespace attn::api
