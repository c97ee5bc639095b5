// The poem session's bytes; see poem_wire.hpp.
#include "api/poem/poem_wire.hpp"

#include <algorithm>

namespace attn::api {

namespace {

void write_heads(WireWriter& w, const std::vector<PoemHead>& heads) {
  w.u32(uint32_t(heads.size()));
  for (const PoemHead& h : heads) {
    w.u32(uint32_t(h.layer));
    w.u32(uint32_t(h.head));
    for (float x : h.by_offset) w.f32(x);
    for (float x : h.weight) w.f32(x);
    for (float x : h.ratio) w.f32(x);
    w.u32(uint32_t(h.strongest + 1));
    w.f32(h.entropy);
    w.f32(h.uniform_entropy);
  }
}

std::vector<PoemHead> read_heads(WireReader& r) {
  std::vector<PoemHead> heads;
  const uint32_t n = r.u32();
  for (uint32_t i = 0; i < n && r.ok(); ++i) {
    PoemHead h;
    h.layer = int(r.u32());
    h.head = int(r.u32());
    for (float& x : h.by_offset) x = r.f32();
    for (float& x : h.weight) x = r.f32();
    for (float& x : h.ratio) x = r.f32();
    h.strongest = int(std::min<uint32_t>(r.u32(), kPoemDetectors)) - 1;
    h.entropy = r.f32();
    h.uniform_entropy = r.f32();
    heads.push_back(h);
  }
  return heads;
}

}  // namespace

void write_summary(WireWriter& w, const PoemSummary& s) {
  for (int v : {s.vocab, s.context, s.layers, s.heads, s.d_model}) w.u32(uint32_t(v));
  w.u32(uint32_t(s.parameters));
  w.str(s.info);
  for (const std::vector<std::string>* v : {&s.held_out, &s.titles, &s.authors}) w.strings(*v);
  write_heads(w, s.heads_found);
  for (int v : {s.default_poem, s.whole_poems}) w.u32(uint32_t(v));
  w.f32(s.default_weight);
  w.f32(s.eval_loss);
}

PoemSummary read_summary(WireReader& r) {
  PoemSummary s;
  for (int* v : {&s.vocab, &s.context, &s.layers, &s.heads, &s.d_model}) *v = int(r.u32());
  s.parameters = r.u32();
  s.info = r.str();
  for (std::vector<std::string>* v : {&s.held_out, &s.titles, &s.authors}) *v = r.strings();
  s.heads_found = read_heads(r);
  for (int* v : {&s.default_poem, &s.whole_poems}) *v = int(r.u32());
  s.default_weight = r.f32();
  s.eval_loss = r.f32();
  // Every poem has its title and author (maybe ""), and the default is one of them.
  const bool shaped = s.titles.size() == s.held_out.size() && s.authors.size() == s.held_out.size() &&
                      (s.held_out.empty() || (s.default_poem >= 0 && std::size_t(s.default_poem) < s.held_out.size()));
  if (!r.ok() || !shaped) return {};
  return s;
}

void write_training(WireWriter& w, const PoemTraining& t) {
  for (int v : {t.steps, t.target, t.sequences, t.batch, t.evaluated, t.held_out, int(t.finished), t.replica,
                t.replicas, int(t.waiting), t.vocab, t.slice_poems})
    w.u32(uint32_t(v));
  for (const std::vector<float>* v : {&t.train_steps, &t.train_loss, &t.eval_steps, &t.eval_loss}) w.floats(*v);
  w.f32(t.shipped_loss);
  w.str(t.characters);
  write_heads(w, t.heads);
}

PoemTraining read_training(WireReader& r) {
  PoemTraining t;
  int finished = 0, waiting = 0;
  for (int* v : {&t.steps, &t.target, &t.sequences, &t.batch, &t.evaluated, &t.held_out, &finished, &t.replica,
                 &t.replicas, &waiting, &t.vocab, &t.slice_poems})
    *v = int(r.u32());
  t.finished = finished != 0;
  t.waiting = waiting != 0;
  for (std::vector<float>* v : {&t.train_steps, &t.train_loss, &t.eval_steps, &t.eval_loss}) *v = r.floats();
  t.shipped_loss = r.f32();
  t.characters = r.str();
  t.heads = read_heads(r);
  return t;
}

void write_reading(WireWriter& w, const PoemReadingData& d) {
  w.strings(d.tokens);
  w.str(std::string(d.unknown.begin(), d.unknown.end()));
  for (int v : {d.cut, d.layers, d.heads}) w.u32(uint32_t(v));
  w.floats(d.att);
  w.floats(d.losses);
  w.strings(d.top_chars);
  w.floats(d.top_p);
  w.str(std::string(d.counted.begin(), d.counted.end()));
  w.u32(uint32_t(d.period));
}

PoemReadingData read_reading(WireReader& r) {
  PoemReadingData d;
  d.tokens = r.strings();
  const std::string unknown = r.str();
  d.unknown.assign(unknown.begin(), unknown.end());
  for (int* v : {&d.cut, &d.layers, &d.heads}) *v = int(r.u32());
  d.att = r.floats();
  d.losses = r.floats();
  d.top_chars = r.strings();
  d.top_p = r.floats();
  const std::string counted = r.str();
  d.counted.assign(counted.begin(), counted.end());
  d.period = int(r.u32());
  // The shapes must agree, or the view would read past the arrays. layers and
  // heads are at least 1 (the view selects one of each), and the sizes are
  // compared in 64 bits, att's divided rather than multiplied out: counts from
  // the bytes (-1 as an int, 2^30) must not wrap around to an array's size
  // (std::size_t is 32 bits in wasm).
  const uint64_t T = d.tokens.size(), TT = T * T;  // T < 2^32: a u32 count
  const bool shaped = T > 0 && d.layers > 0 && d.heads > 0 && d.unknown.size() == T && d.att.size() % TT == 0 &&
                      d.att.size() / TT == uint64_t(d.layers) * uint64_t(d.heads) && d.losses.size() == T - 1 &&
                      d.top_chars.size() == T * kPoemTop && d.top_p.size() == d.top_chars.size() &&
                      d.counted.size() == uint64_t(kPoemDetectors) * TT && d.period >= 0 && uint64_t(d.period) < T;
  if (!r.ok() || !shaped) return {};
  return d;
}


}  // namespace attn::api
