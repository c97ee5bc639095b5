// The poem model's session and its bytes (api/poem/poem_wire, api/poem/poem_session),
// which the learned-heads view speaks to.
//
// The wire checks need nothing but the code: the bytes against a layout
// written out here by hand, round trips, every truncation, counts too large
// for the bytes, shapes that disagree. They run in both builds (the browser's
// two wasm modules exchange exactly these bytes).
//
// The session checks need the model the native build trains
// (src/cli/CMakeLists.txt: target poem_model, ${build}/poem_model.bin) and
// Debian's fortunes-zh tang300; tests/unit/CMakeLists.txt passes both paths
// (ATTN_POEM_MODEL_FILE in the environment, ATTN_TANG300_FILE) where the tree trains the model,
// and they fail, naming the file, when it is not there (as cli_poem does).
// Their numbers are held to what the core computes on its own: the plain-loop
// forward pass (poem::read_tokens with Path::Reference), the corpus split
// done here, the head statistics recomputed here, poem::sample with the CLI's
// Rng(seed, 77).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "api/poem/poem_session.hpp"
#include "api/poem/poem_wire.hpp"
#include "core/poem/corpus.hpp"
#include "core/poem/gpt.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/poem/poem_model.hpp"
#include "core/base/rng.hpp"
#include "../test_files.hpp"

using namespace attn;
using namespace attn::api;

namespace {

// ---- bytes by hand: poem_wire.hpp's layout (little-endian u32, float32, u32-length strings)
struct Bytes {
  std::vector<uint8_t> b;
  Bytes& u32(uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t((v >> (8 * i)) & 0xFFu));
    return *this;
  }
  Bytes& f32(float v) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    return u32(bits);
  }
  Bytes& str(const std::string& s) {
    u32(uint32_t(s.size()));
    b.insert(b.end(), s.begin(), s.end());
    return *this;
  }
  Bytes& floats(const std::vector<float>& v) {
    u32(uint32_t(v.size()));
    for (float x : v) f32(x);
    return *this;
  }
  Bytes& strings(const std::vector<std::string>& v) {
    u32(uint32_t(v.size()));
    for (const std::string& s : v) str(s);
    return *this;
  }
};

uint32_t bits_of(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  return bits;
}

// Bit for bit (NaN, -0 and denormals included).
bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (bits_of(a[i]) != bits_of(b[i])) return false;
  return true;
}

void check_same_reading(const PoemReadingData& a, const PoemReadingData& b) {
  CHECK(a.tokens == b.tokens);
  CHECK(a.unknown == b.unknown);
  CHECK(a.cut == b.cut);
  CHECK(a.layers == b.layers);
  CHECK(a.heads == b.heads);
  CHECK(same_floats(a.att, b.att));
  CHECK(same_floats(a.losses, b.losses));
  CHECK(a.top_chars == b.top_chars);
  CHECK(same_floats(a.top_p, b.top_p));
  CHECK(a.counted == b.counted);
  CHECK(a.period == b.period);
}

void check_same_summary(const PoemSummary& a, const PoemSummary& b) {
  CHECK(a.vocab == b.vocab);
  CHECK(a.context == b.context);
  CHECK(a.layers == b.layers);
  CHECK(a.heads == b.heads);
  CHECK(a.d_model == b.d_model);
  CHECK(a.parameters == b.parameters);
  CHECK(a.info == b.info);
  CHECK(a.held_out == b.held_out);
  CHECK(a.titles == b.titles);
  CHECK(a.authors == b.authors);
  CHECK(a.default_poem == b.default_poem);
  CHECK(a.whole_poems == b.whole_poems);
  CHECK(same_floats({a.default_weight, a.eval_loss}, {b.default_weight, b.eval_loss}));
  REQUIRE(a.heads_found.size() == b.heads_found.size());
  for (std::size_t i = 0; i < a.heads_found.size(); ++i) {
    const PoemHead &x = a.heads_found[i], &y = b.heads_found[i];
    CHECK(x.layer == y.layer);
    CHECK(x.head == y.head);
    CHECK(same_floats({x.by_offset.begin(), x.by_offset.end()}, {y.by_offset.begin(), y.by_offset.end()}));
    CHECK(same_floats({x.weight.begin(), x.weight.end()}, {y.weight.begin(), y.weight.end()}));
    CHECK(same_floats({x.ratio.begin(), x.ratio.end()}, {y.ratio.begin(), y.ratio.end()}));
    CHECK(same_floats({x.entropy, x.uniform_entropy}, {y.entropy, y.uniform_entropy}));
    CHECK(x.strongest == y.strongest);
  }
}

// A reading of any shape, its numbers and strings drawn from rng (odd floats
// and strings among them: the bytes must carry them unchanged).
PoemReadingData random_reading(int T, int layers, int heads, Rng& rng) {
  const std::vector<std::string> chars = {"<poem>", "床", "\n", "，", "", std::string("a\0b", 3), "😀", "\"", ","};
  const std::vector<float> odd = {-0.0f, 1e-40f, std::numeric_limits<float>::infinity(),
                                  std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::max(), 1.0f};
  auto pick = [&](std::size_t n) { return std::size_t(rng.next_u32() % uint32_t(n)); };
  auto number = [&] { return pick(5) == 0 ? odd[pick(odd.size())] : rng.uniform(); };
  PoemReadingData d;
  for (int t = 0; t < T; ++t) {
    d.tokens.push_back(chars[pick(chars.size())]);
    d.unknown.push_back(uint8_t(pick(2)));
  }
  d.cut = int(pick(100));
  d.layers = layers;
  d.heads = heads;
  for (int i = 0; i < layers * heads * T * T; ++i) d.att.push_back(number());
  for (int i = 0; i + 1 < T; ++i) d.losses.push_back(number());
  for (int i = 0; i < T * kPoemTop; ++i) {
    d.top_chars.push_back(chars[pick(chars.size())]);
    d.top_p.push_back(number());
  }
  for (int i = 0; i < kPoemDetectors * T * T; ++i) d.counted.push_back(uint8_t(pick(2)));
  d.period = int(pick(std::size_t(T)));
  return d;
}

std::vector<uint8_t> reading_bytes(const PoemReadingData& d) {
  WireWriter w;
  write_reading(w, d);
  return w.bytes;
}

// Reads from a heap copy of exactly n bytes: a read past them is a sanitizer's error, not luck.
PoemReadingData reading_from(const std::vector<uint8_t>& bytes, std::size_t n, bool* ok = nullptr) {
  const std::unique_ptr<uint8_t[]> copy(new uint8_t[n ? n : 1]);
  if (n) std::memcpy(copy.get(), bytes.data(), n);
  WireReader r(copy.get(), n);
  PoemReadingData d = read_reading(r);
  if (ok) *ok = r.ok();
  return d;
}

bool reading_empty(const PoemReadingData& d) {
  return d.tokens.empty() && d.unknown.empty() && d.att.empty() && d.losses.empty() && d.top_chars.empty() &&
         d.top_p.empty() && d.counted.empty() && d.layers == 0 && d.heads == 0 && d.cut == 0 && d.period == 0;
}

PoemSummary random_summary(Rng& rng) {
  PoemSummary s;
  s.vocab = 2389;
  s.context = 64;
  s.layers = 2;
  s.heads = 4;
  s.d_model = 128;
  s.parameters = 494464;
  s.info = "{\"steps\":1100,\"note\":\"训练\"}";
  s.held_out = {"床前明月光，疑是地上霜。\n举头望明月，低头思故乡。", "", "a\nb\n"};
  s.titles = {"静夜思", "", "《》"};
  s.authors = {"李白", "作者", ""};
  s.default_poem = 2;
  s.whole_poems = 3;
  s.default_weight = 0.41f;
  s.eval_loss = 4.25f;
  for (int l = 0; l < 2; ++l)
    for (int h = 0; h < 3; ++h) {
      PoemHead head;
      head.layer = l;
      head.head = h;
      for (float& x : head.by_offset) x = rng.uniform();
      for (float& x : head.weight) x = rng.uniform();
      for (float& x : head.ratio) x = rng.uniform() * 10;
      head.weight[1] = -0.0f;
      head.ratio[2] = 1e-40f;
      head.strongest = (l * 3 + h) % (kPoemDetectors + 1) - 1;  // -1 (none) among them
      head.entropy = 3.5f;
      head.uniform_entropy = 3.1f;
      s.heads_found.push_back(head);
    }
  return s;
}

}  // namespace

// ============================================================================
// The bytes
// ============================================================================

TEST_CASE("poem wire: the primitives are the documented little-endian bytes, and read back") {
  WireWriter w;
  w.u32(0x04030201u);
  w.f32(1.0f);
  w.f32(-2.5f);
  w.str("月");
  w.floats({0.5f});
  w.strings({"", "ab"});
  const std::vector<uint8_t> expected = {1, 2, 3, 4,                  // u32
                                         0x00, 0x00, 0x80, 0x3F,      // 1.0f
                                         0x00, 0x00, 0x20, 0xC0,      // -2.5f
                                         3, 0, 0, 0, 0xE6, 0x9C, 0x88,  // "月"
                                         1, 0, 0, 0, 0x00, 0x00, 0x00, 0x3F,  // [0.5f]
                                         2, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 'a', 'b'};
  CHECK(w.bytes == expected);
  WireReader r(expected.data(), expected.size());
  CHECK(r.u32() == 0x04030201u);
  CHECK(r.f32() == 1.0f);
  CHECK(r.f32() == -2.5f);
  CHECK(r.str() == "月");
  CHECK(r.floats() == std::vector<float>{0.5f});
  CHECK(r.strings() == std::vector<std::string>{"", "ab"});
  CHECK(r.ok());
  // Past the end: 0, "" and empty lists, and ok() stays false.
  CHECK(r.u32() == 0);
  CHECK(!r.ok());
  CHECK(r.str().empty());
  CHECK(r.f32() == 0.0f);
  CHECK(!r.ok());
}

TEST_CASE("poem wire: a reading's bytes are the documented layout; a round trip gives it back bit for bit") {
  // A small reading, written by hand in poem_wire.hpp's order.
  PoemReadingData d;
  d.tokens = {"<poem>", "月"};
  d.unknown = {0, 1};
  d.cut = 3;
  d.layers = 1;
  d.heads = 1;
  d.att = {1.0f, 0.0f, 0.25f, 0.75f};
  d.losses = {2.5f};
  for (int i = 0; i < 2 * kPoemTop; ++i) {
    d.top_chars.push_back(i % 3 == 0 ? "\n" : "光");
    d.top_p.push_back(float(i) / 32.0f);
  }
  // The counted cells: each detector's T x T bytes (here previous character's (1, 0)).
  d.counted.assign(std::size_t(kPoemDetectors) * 4, 0);
  d.counted[2] = 1;
  d.period = 1;
  Bytes expected;
  expected.strings(d.tokens).str(std::string("\0\1", 2)).u32(3).u32(1).u32(1).floats(d.att).floats(d.losses);
  expected.strings(d.top_chars).floats(d.top_p).str(std::string(d.counted.begin(), d.counted.end())).u32(1);
  CHECK(reading_bytes(d) == expected.b);
  bool ok = false;
  check_same_reading(reading_from(expected.b, expected.b.size(), &ok), d);
  CHECK(ok);

  Rng rng(2026, 12);
  for (const std::array<int, 3>& shape : {std::array<int, 3>{1, 1, 1}, {2, 1, 3}, {7, 2, 4}, {13, 3, 2}}) {
    const int T = shape[0];
    CAPTURE(T);
    const PoemReadingData random = random_reading(T, shape[1], shape[2], rng);
    const std::vector<uint8_t> bytes = reading_bytes(random);
    WireReader r(bytes.data(), bytes.size());
    check_same_reading(read_reading(r), random);
    CHECK(r.ok());
    CHECK(r.u32() == 0);  // every byte was read: nothing is left over
    CHECK(!r.ok());
  }
}

TEST_CASE("poem wire: every truncation of a reading gives an empty reading, never a crash") {
  Rng rng(7, 1);
  const PoemReadingData d = random_reading(6, 2, 3, rng);
  const std::vector<uint8_t> bytes = reading_bytes(d);
  REQUIRE(bytes.size() > 1000);
  int empty = 0;
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    bool ok = true;
    const PoemReadingData cut = reading_from(bytes, n, &ok);
    if (reading_empty(cut) && !ok) ++empty;
    else FAIL_CHECK("a reading cut to " << n << " of " << bytes.size() << " bytes was read");
  }
  CHECK(empty == int(bytes.size()));
  check_same_reading(reading_from(bytes, bytes.size()), d);
}

TEST_CASE("poem wire: a count larger than the bytes is refused before anything is allocated") {
  // Exactly what fits is read; one more is refused (a list of 2^32 - 1 floats
  // would be 16 GB: allocating it first would fail this test by itself).
  const Bytes fits = Bytes().u32(2).f32(1).f32(2);
  WireReader a(fits.b.data(), fits.b.size());
  CHECK(a.floats() == std::vector<float>{1, 2});
  CHECK(a.ok());
  const Bytes one_more = Bytes().u32(3).f32(1).f32(2);
  WireReader b(one_more.b.data(), one_more.b.size());
  CHECK(b.floats().empty());
  CHECK(!b.ok());
  for (uint32_t huge : {0xFFFFFFFFu, 0x80000000u, 0x40000001u}) {
    CAPTURE(huge);
    const Bytes h = Bytes().u32(huge).u32(0).u32(0);
    WireReader f(h.b.data(), h.b.size());
    CHECK(f.floats().empty());
    CHECK(!f.ok());
    WireReader s(h.b.data(), h.b.size());
    CHECK(s.str().empty());
    CHECK(!s.ok());
    WireReader l(h.b.data(), h.b.size());
    CHECK(l.strings().empty());
    CHECK(!l.ok());
  }
  // A list of strings needs 4 bytes a string at least: n empty strings in 4n bytes are read, n + 1 are not.
  const Bytes three = Bytes().u32(3).u32(0).u32(0).u32(0);
  WireReader c(three.b.data(), three.b.size());
  CHECK(c.strings() == std::vector<std::string>(3));
  CHECK(c.ok());
  const Bytes four = Bytes().u32(4).u32(0).u32(0).u32(0);
  WireReader e(four.b.data(), four.b.size());
  CHECK(e.strings().empty());
  CHECK(!e.ok());

  // In a reading: a huge token count, a huge att count.
  Bytes tokens;
  tokens.u32(0xFFFFFFFFu).u32(0);
  CHECK(reading_empty(reading_from(tokens.b, tokens.b.size())));
  Bytes att;
  att.strings({"<poem>"}).str(std::string(1, '\0')).u32(0).u32(1).u32(1).u32(0xFFFFFFF0u).f32(1);
  CHECK(reading_empty(reading_from(att.b, att.b.size())));
  // And in a summary: the held-out poems' count, the heads' count.
  Bytes held;
  for (int i = 0; i < 6; ++i) held.u32(1);
  held.str("{}").u32(0xFFFFFFFFu).u32(0).u32(0);
  WireReader hr(held.b.data(), held.b.size());
  CHECK(read_summary(hr).held_out.empty());
  CHECK(!hr.ok());
  Bytes heads;
  for (int i = 0; i < 6; ++i) heads.u32(1);
  heads.str("{}").strings({}).u32(0xFFFFFFFFu).u32(0);
  WireReader hh(heads.b.data(), heads.b.size());
  CHECK(read_summary(hh).heads_found.size() <= 1);
  CHECK(!hh.ok());
}

TEST_CASE("poem wire: a reading whose shapes disagree is refused (the view would read past its arrays)") {
  Rng rng(3, 3);
  const PoemReadingData good = random_reading(4, 2, 2, rng);
  REQUIRE(!reading_empty(reading_from(reading_bytes(good), reading_bytes(good).size())));
  auto refused = [](const PoemReadingData& d) {
    const std::vector<uint8_t> bytes = reading_bytes(d);
    return reading_empty(reading_from(bytes, bytes.size()));
  };
  PoemReadingData d = good;
  d.unknown.pop_back();
  CHECK(refused(d));
  d = good;
  d.att.pop_back();
  CHECK(refused(d));
  d = good;
  d.att.push_back(0.5f);
  CHECK(refused(d));
  d = good;
  d.layers = 1;  // the numbers are 2 layers' worth
  CHECK(refused(d));
  d = good;
  d.losses.push_back(1);
  CHECK(refused(d));
  d = good;
  d.top_chars.pop_back();
  d.top_p.pop_back();
  CHECK(refused(d));
  d = good;
  d.top_p.pop_back();
  CHECK(refused(d));

  // Counts whose product wraps around 2^64 must not pass for the array's size:
  // layers = heads = 2^32 - 1 (-1 as int) times T x T = 1 is 1 (mod 2^64) ...
  Bytes wrap;
  wrap.strings({"<poem>"}).str(std::string(1, '\0')).u32(0).u32(0xFFFFFFFFu).u32(0xFFFFFFFFu).floats({1.0f});
  wrap.floats({}).strings(std::vector<std::string>(kPoemTop, "月")).floats(std::vector<float>(kPoemTop, 0.1f));
  CHECK(reading_empty(reading_from(wrap.b, wrap.b.size())));
  // ... 2^30 x 2^30 x 4 x 4 is 0 (mod 2^64) ...
  Bytes zero;
  zero.strings({"<poem>", "a", "b", "c"}).str(std::string(4, '\0')).u32(0).u32(1u << 30).u32(1u << 30).floats({});
  zero.floats({1, 2, 3}).strings(std::vector<std::string>(4 * kPoemTop, "月")).floats(std::vector<float>(4 * kPoemTop, 0.1f));
  CHECK(reading_empty(reading_from(zero.b, zero.b.size())));
  // ... and a reading of no layers or no heads has no weights to show.
  d = good;
  d.layers = 0;
  d.att.clear();
  CHECK(refused(d));
  d = good;
  d.heads = 0;
  d.att.clear();
  CHECK(refused(d));
}

TEST_CASE("poem wire: a summary's round trip, and every truncation of it refused") {
  Rng rng(11, 2);
  const PoemSummary s = random_summary(rng);
  WireWriter w;
  write_summary(w, s);
  // The layout's head: five u32 sizes, the parameters (u32), the info string,
  // the poems, their titles and authors, the heads' count.
  Bytes head;
  head.u32(2389).u32(64).u32(2).u32(4).u32(128).u32(494464).str(s.info).strings(s.held_out).strings(s.titles);
  head.strings(s.authors).u32(6);
  REQUIRE(w.bytes.size() > head.b.size());
  CHECK(std::vector<uint8_t>(w.bytes.begin(), w.bytes.begin() + std::ptrdiff_t(head.b.size())) == head.b);
  // Then each head: layer, head, 17 offsets, 8 detectors' weights and
  // ratios, the strongest + 1, the entropies; then the default poem.
  Bytes heads = head;
  for (const PoemHead& h : s.heads_found) {
    heads.u32(uint32_t(h.layer)).u32(uint32_t(h.head));
    for (float x : h.by_offset) heads.f32(x);
    for (float x : h.weight) heads.f32(x);
    for (float x : h.ratio) heads.f32(x);
    heads.u32(uint32_t(h.strongest + 1)).f32(h.entropy).f32(h.uniform_entropy);
  }
  heads.u32(2).u32(3).f32(0.41f).f32(4.25f);
  CHECK(w.bytes == heads.b);
  {
    WireReader r(w.bytes.data(), w.bytes.size());
    check_same_summary(read_summary(r), s);
    CHECK(r.ok());
    CHECK(r.u32() == 0);
    CHECK(!r.ok());
  }
  for (std::size_t n = 0; n < w.bytes.size(); ++n) {
    const std::unique_ptr<uint8_t[]> copy(new uint8_t[n ? n : 1]);
    if (n) std::memcpy(copy.get(), w.bytes.data(), n);
    WireReader r(copy.get(), n);
    const PoemSummary cut = read_summary(r);
    if (r.ok()) FAIL_CHECK("a summary cut to " << n << " of " << w.bytes.size() << " bytes was read as whole");
    if (cut.heads_found.size() > s.heads_found.size()) FAIL_CHECK("a summary cut to " << n << " grew heads");
  }
}

TEST_CASE("poem wire: answer_error is the error string, then nothing") {
  const std::vector<uint8_t> a = answer_error("text: empty");
  CHECK(a == Bytes().str("text: empty").b);
  CHECK(answer_error("") == std::vector<uint8_t>{0, 0, 0, 0});
}

// ============================================================================
// The session, on the trained model
// ============================================================================

#ifdef ATTN_HAS_POEM_MODEL

namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  out = bytes.str();
  return !in.bad();
}

struct Loaded {
  std::string model_bytes, tang300;
  bool have_model = false, have_corpus = false;
  std::string error;
  PoemSession session;
};

// The session on the trained model, loaded once for the whole run.
Loaded& loaded() {
  static const std::unique_ptr<Loaded> once = [] {
    auto l = std::make_unique<Loaded>();
    l->have_model = read_file(test::file_from_env("ATTN_POEM_MODEL_FILE"), l->model_bytes);
    l->have_corpus = read_file(ATTN_TANG300_FILE, l->tang300);
    if (l->have_model && l->have_corpus)
      l->error = l->session.load(reinterpret_cast<const uint8_t*>(l->model_bytes.data()), l->model_bytes.size(),
                                 l->tang300);
    return l;
  }();
  INFO("needs the trained poem model " << test::file_from_env("ATTN_POEM_MODEL_FILE")
       << " (the native build trains it: cmake --build --preset native --target poem_model)");
  REQUIRE(once->have_model);
  INFO("needs tang300 from Debian's fortunes-zh at " ATTN_TANG300_FILE " (scripts/setup.sh installs it)");
  REQUIRE(once->have_corpus);
  INFO(once->error);
  REQUIRE(once->error.empty());
  REQUIRE(once->session.loaded());
  return *once;
}

std::vector<std::string> chars_of(const std::string& text) { return poem::utf8_chars(text); }

// <poem>, then each character's id (what the session says it reads).
std::vector<int> ids_of(const poem::PoemModel& m, const std::vector<std::string>& chars) {
  std::vector<int> ids = {poem::Vocab::kPoemStart};
  for (const std::string& c : chars) ids.push_back(m.vocab.id(c));
  return ids;
}

// The session's reading against the plain loops (Path::Reference) on ids.
void check_reading_against_reference(const poem::PoemModel& m, const PoemReadingData& r, const std::vector<int>& ids) {
  const int T = int(ids.size()), V = m.config.vocab;
  REQUIRE(r.size() == T);
  REQUIRE(r.layers == m.config.layers);
  REQUIRE(r.heads == m.config.heads);
  REQUIRE(r.att.size() == std::size_t(r.layers * r.heads * T * T));
  const poem::PoemReading ref = poem::read_tokens(m, ids, poem::Path::Reference);
  for (int t = 0; t < T; ++t) CHECK(bool(r.unknown[std::size_t(t)]) == (ids[std::size_t(t)] == poem::Vocab::kUnknown));
  double worst = 0, worst_sum = 0;
  int above = 0;
  for (int l = 0; l < r.layers; ++l)
    for (int h = 0; h < r.heads; ++h) {
      const float* w = r.weights(l, h);
      const std::vector<float>& expected = ref.att[std::size_t(l)][std::size_t(h)];
      for (int q = 0; q < T; ++q) {
        double sum = 0;
        for (int k = 0; k < T; ++k) {
          const float x = w[q * T + k];
          sum += x;
          if (k > q && x != 0.0f) ++above;
          CHECK(x >= 0.0f);
          worst = std::max(worst, std::abs(double(x) - double(expected[std::size_t(q * T + k)])));
        }
        worst_sum = std::max(worst_sum, std::abs(sum - 1.0));
      }
    }
  INFO("worst weight difference from the plain loops " << worst << ", worst row sum error " << worst_sum);
  CHECK(above == 0);  // the causal mask: exactly 0 above the diagonal
  CHECK(worst_sum <= 1e-5);
  CHECK(worst <= 1e-4);

  // The ten likeliest next characters after each position, against the plain loops' probabilities.
  REQUIRE(r.top_chars.size() == std::size_t(T * kPoemTop));
  REQUIRE(r.top_p.size() == std::size_t(T * kPoemTop));
  // A listed character's id: by its text in the vocabulary's list (the specials
  // "<unk>", "<poem>", "<text>" too, which Vocab::id leaves to the reader's own text).
  std::map<std::string, int> id_of;
  for (int v = 0; v < V; ++v) id_of.emplace(m.vocab.text(v), v);
  REQUIRE(id_of.size() == std::size_t(V));
  for (int t = 0; t < T; ++t) {
    CAPTURE(t);
    const float* p = ref.probs.data() + std::size_t(t) * std::size_t(V);
    std::set<int> listed;
    for (int i = 0; i < kPoemTop; ++i) {
      const std::size_t at = std::size_t(t * kPoemTop + i);
      REQUIRE(id_of.count(r.top_chars[at]) == 1);
      const int id = id_of[r.top_chars[at]];
      listed.insert(id);
      CHECK(std::abs(r.top_p[at] - p[id]) <= 1e-4f);
      if (i > 0) CHECK(r.top_p[at] <= r.top_p[at - 1]);  // likeliest first
    }
    CHECK(listed.size() == std::size_t(kPoemTop));
    // Nothing left out is likelier than the tenth.
    const float tenth = r.top_p[std::size_t(t * kPoemTop + kPoemTop - 1)];
    int likelier_left_out = 0;
    for (int v = 0; v < V; ++v)
      if (!listed.count(v) && p[v] > tenth + 1e-4f) ++likelier_left_out;
    CHECK(likelier_left_out == 0);
  }
  // losses[t] = -ln p(ids[t+1] | ids[0..t]).
  REQUIRE(r.losses.size() == std::size_t(T - 1));
  for (int t = 0; t + 1 < T; ++t) {
    const double p = ref.probs[std::size_t(t) * std::size_t(V) + std::size_t(ids[std::size_t(t + 1)])];
    const double expected = -std::log(p);
    CHECK(std::abs(double(r.losses[std::size_t(t)]) - expected) <= 1e-4 * std::max(1.0, expected));
  }
}

// What `attention_cli poem sample` writes after the prompt (src/cli/poem.cpp):
// poem::sample from <poem> and the prompt's ids, with Rng(seed, 77).
std::string cli_sample(const poem::PoemModel& m, const std::string& prompt, int length, float temperature,
                       uint64_t seed) {
  std::vector<int> ids = {poem::Vocab::kPoemStart};
  for (int id : m.vocab.encode(prompt)) ids.push_back(id);
  Rng rng(seed, 77);
  const std::vector<int> out = poem::sample(m, ids, length, temperature, rng);
  std::string text;
  for (std::size_t i = ids.size(); i < out.size(); ++i) text += m.vocab.text(out[i]);
  return text;
}

// sample_begin, then sample_step(2) until done (bounded): the text drawn.
std::string session_sample(PoemSession& s, const std::string& prompt, int length, float temperature, uint64_t seed) {
  REQUIRE(s.sample_begin(prompt, length, temperature, seed) == "");
  CHECK(s.sample_text().empty());
  std::size_t before = 0;
  for (int calls = 0; calls <= length; ++calls) {
    const bool done = s.sample_step(2);
    const std::size_t now = chars_of(s.sample_text()).size();
    CHECK(now >= before);
    CHECK(now <= before + 2);  // two characters a call (fewer only at the end)
    if (!done) CHECK(now == before + 2);
    before = now;
    if (done) return s.sample_text();
  }
  FAIL("the continuation never finished");
  return {};
}

// One request's bytes, written by hand.
std::vector<uint8_t> serve(PoemSession& s, const Bytes& request) { return s.serve(request.b.data(), request.b.size()); }

}  // namespace

TEST_CASE("poem session: the held-out poems are all of tang300, titled; the heads' detectors recomputed") {
  Loaded& l = loaded();
  const PoemSession& s = l.session;
  const poem::PoemModel& m = *s.model();
  const PoemSummary& sum = s.summary();
  // Every poem of the file, in its order, with the title and author lines it carries.
  const std::vector<std::string> poems = poem::parse_fortunes(l.tang300);
  CHECK(poems.size() == 313);
  CHECK(sum.held_out == poems);
  REQUIRE(sum.titles.size() == 313);
  REQUIRE(sum.authors.size() == 313);
  CHECK(sum.titles.front() == "感遇・其一");
  CHECK(sum.authors.front() == "张九龄");
  CHECK(sum.titles.back() == "金缕衣");
  CHECK(sum.authors.back() == "杜秋娘");
  for (std::size_t i = 0; i < poems.size(); ++i) {
    CAPTURE(i);
    CHECK(!sum.titles[i].empty());
    CHECK(!sum.authors[i].empty());
    CHECK(sum.titles[i].find("《") == std::string::npos);
    CHECK(sum.authors[i].find("作者") == std::string::npos);
  }
  // The sizes are the model's.
  CHECK(sum.vocab == m.config.vocab);
  CHECK(sum.vocab == m.vocab.size());
  CHECK(sum.context == m.config.context);
  CHECK(sum.layers == m.config.layers);
  CHECK(sum.heads == m.config.heads);
  CHECK(sum.d_model == m.config.d_model);
  CHECK(sum.parameters == static_cast<long long>(poem::param_count(m.config)));
  CHECK(sum.info.rfind("{", 0) == 0);
  // Every head once, layer by layer.
  REQUIRE(sum.heads_found.size() == std::size_t(sum.layers * sum.heads));
  for (std::size_t i = 0; i < sum.heads_found.size(); ++i) {
    CHECK(sum.heads_found[i].layer == int(i) / sum.heads);
    CHECK(sum.heads_found[i].head == int(i) % sum.heads);
  }

  // Four detectors, the offsets and the entropy recomputed with plain loops
  // on each poem's first window (means over the queries t >= 1): previous
  // character, same character, first position and punctuation, each weight
  // and its ratio to uniform attention's (keys / (t + 1) summed likewise).
  const int H = m.config.heads, C = m.config.context;
  const std::size_t n = sum.heads_found.size();
  std::vector<std::array<double, kPoemMaxOffset + 1>> by_offset(n);
  std::vector<double> previous(n), self(n), first(n), punctuation(n), entropy(n);
  double uniform_one = 0, uniform_marks = 0;
  long long queries = 0, mark_queries = 0;
  std::vector<std::vector<int>> encoded;
  for (const std::string& p : poems) {
    // <poem>, each line's characters, a line break after each line.
    std::vector<int> ids = {poem::Vocab::kPoemStart};
    for (const std::string& ch : chars_of(!p.empty() && p.back() == '\n' ? p : p + "\n"))
      ids.push_back(ch == "\n" ? poem::Vocab::kLineBreak : m.vocab.id(ch));
    encoded.push_back(ids);
    const int T = std::min(int(ids.size()), C);
    ids.resize(std::size_t(T));
    const poem::PoemReading ref = poem::read_tokens(m, ids);
    const auto mark = [&](int k) { return ids[std::size_t(k)] == poem::Vocab::kLineBreak || m.vocab.punctuation(ids[std::size_t(k)]); };
    for (int t = 1; t < T; ++t) {
      ++queries;
      uniform_one += 1.0 / (t + 1);
      int marks = 0;
      for (int k = 0; k <= t; ++k) marks += mark(k);
      if (marks) ++mark_queries, uniform_marks += double(marks) / (t + 1);
      for (std::size_t i = 0; i < n; ++i) {
        const float* w = ref.att[i / std::size_t(H)][i % std::size_t(H)].data() + std::size_t(t * T);
        for (int d = 0; d <= std::min(t, kPoemMaxOffset); ++d) by_offset[i][std::size_t(d)] += w[t - d];
        previous[i] += w[t - 1];
        self[i] += w[t];
        first[i] += w[0];
        for (int k = 0; k <= t; ++k) {
          if (mark(k)) punctuation[i] += w[k];
          if (w[k] > 0) entropy[i] -= double(w[k]) * std::log(double(w[k]));
        }
      }
    }
  }
  REQUIRE(queries > 5000);
  const auto near = [](double a, double b, double tolerance) { return std::abs(a - b) <= tolerance * std::max(1.0, std::abs(b)); };
  for (std::size_t i = 0; i < n; ++i) {
    const PoemHead& h = sum.heads_found[i];
    CAPTURE(i);
    for (std::size_t d = 0; d < by_offset[i].size(); ++d) CHECK(near(h.by_offset[d], by_offset[i][d] / double(queries), 1e-4));
    CHECK(near(h.weight[0], previous[i] / double(queries), 1e-4));
    CHECK(near(h.ratio[0], previous[i] / uniform_one, 1e-3));
    CHECK(near(h.weight[1], self[i] / double(queries), 1e-4));
    CHECK(near(h.ratio[1], self[i] / uniform_one, 1e-3));
    CHECK(near(h.weight[2], first[i] / double(queries), 1e-4));
    CHECK(near(h.ratio[2], first[i] / uniform_one, 1e-3));
    CHECK(near(h.weight[3], punctuation[i] / double(mark_queries), 1e-4));
    CHECK(near(h.ratio[3], punctuation[i] / uniform_marks, 1e-3));
    CHECK(near(h.entropy, entropy[i] / double(queries), 1e-3));
    // The name: the detector with the largest ratio among those at 3x uniform
    // and 20 % of the weight (head_detectors.hpp), or none.
    int expected = -1;
    for (int d = 0; d < kPoemDetectors; ++d)
      if (h.ratio[std::size_t(d)] >= 3.0f && h.weight[std::size_t(d)] >= 0.2f &&
          (expected < 0 || h.ratio[std::size_t(d)] > h.ratio[std::size_t(expected)]))
        expected = d;
    CHECK(h.strongest == expected);
  }
  // The built model names at least the previous character and punctuation
  // (docs/poem-model.md): what the view's titles show.
  const auto named = [&](int d) {
    return std::any_of(sum.heads_found.begin(), sum.heads_found.end(), [d](const PoemHead& h) { return h.strongest == d; });
  };
  CHECK(named(0));
  CHECK(named(3));

  // The default poem: of those that fit the context whole, the one where the
  // named heads' mean weight on their patterns is largest.
  int whole = 0, best = -1;
  double best_weight = -1;
  for (std::size_t p = 0; p < encoded.size(); ++p) {
    if (int(encoded[p].size()) > C) continue;
    ++whole;
    const std::vector<poem::HeadStats> stats = poem::analyse_heads(m, {encoded[p]}, 0);
    double sum_weight = 0;
    int heads = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const int d = sum.heads_found[i].strongest;
      if (d < 0 || d == kPoemInduction) continue;
      sum_weight += stats[i].detectors[std::size_t(d)].mean_weight();
      ++heads;
    }
    const double weight = heads ? sum_weight / heads : 0.0;
    if (weight > best_weight) best_weight = weight, best = int(p);
  }
  CHECK(sum.whole_poems == whole);
  CHECK(whole > 100);
  CHECK(sum.default_poem == best);
  CHECK(near(sum.default_weight, best_weight, 1e-5));
  // The shipped model's loss on the poems the page's training evaluates on.
  std::vector<std::vector<int>> eval;
  for (std::size_t p = 0; p < encoded.size(); p += 10) eval.push_back(encoded[p]);
  CHECK(eval.size() == 32);
  CHECK(near(sum.eval_loss, poem::score_poems(m, eval).loss, 1e-5));
}

TEST_CASE("poem session: counted cells are each detector's keys (the view's outline), and the probe's period") {
  const PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  PoemReadingData r;
  // Two lines of five: marks at 6 ("，"), 12 ("。"), 13 (the line break).
  REQUIRE(s.read("床前明月光，疑是地上霜。\n", r) == "");
  const int T = r.size();
  REQUIRE(T == 14);
  CHECK(r.period == 0);
  REQUIRE(r.counted.size() == std::size_t(kPoemDetectors * T * T));
  const auto keys = [&](int d, int q) {
    std::vector<int> out;
    for (int k = 0; k < T; ++k)
      if (r.counts(d, q, k)) out.push_back(k);
    return out;
  };
  CHECK(keys(0, 5) == std::vector<int>{4});             // previous character
  CHECK(keys(1, 5) == std::vector<int>{5});             // itself
  CHECK(keys(2, 9) == std::vector<int>{0});             // the first position
  CHECK(keys(3, 12) == std::vector<int>{6, 12});        // punctuation up to the query
  CHECK(keys(4, 8) == std::vector<int>{2});             // couplet: 是 (line 2, column 1) -> 前
  CHECK(keys(7, 8) == std::vector<int>{3});             // one ahead of it: 明
  CHECK(keys(0, 0).empty());                            // <poem> is never a counted query
  for (int q = 0; q < T; ++q) CHECK(keys(6, q).empty());  // no induction on a poem
  (void)m;

  // The probe: 31 characters twice. Only induction counts: the key after the earlier copy.
  std::string run;
  for (const char* ch : {"山", "水", "云", "月", "花"}) run += ch;
  REQUIRE(s.read(run + run, r) == "");
  CHECK(r.period == 5);
  REQUIRE(r.size() == 11);
  for (int q = 0; q < 11; ++q)
    for (int k = 0; k < 11; ++k) {
      CAPTURE(q);
      CAPTURE(k);
      CHECK(r.counts(kPoemInduction, q, k) == (q >= 6 && k == q - 5 + 1));
      for (int d = 0; d < kPoemDetectors; ++d)
        if (d != kPoemInduction) CHECK(!r.counts(d, q, k));
    }
}

TEST_CASE("poem session: read(\"床前明月光\") is <poem> and 5 characters, as the plain loops compute them") {
  const PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  PoemReadingData r;
  REQUIRE(s.read("床前明月光", r) == "");
  CHECK(r.tokens == std::vector<std::string>{"<poem>", "床", "前", "明", "月", "光"});
  CHECK(r.cut == 0);
  CHECK(r.unknown == std::vector<uint8_t>(6, 0));
  check_reading_against_reference(m, r, ids_of(m, {"床", "前", "明", "月", "光"}));
}

// The attention-sink probe's readings (PoemSession::read's start): <poem>
// left out, or another character in its place, against the plain loops on
// those ids; and what cannot be probed says why.
TEST_CASE("poem session: read with <poem> left out or replaced is the plain loops' reading of those ids") {
  const PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  const std::vector<std::string> chars = {"床", "前", "明", "月", "光"};
  PoemReadingData r;
  REQUIRE(s.read("床前明月光", r, "none") == "");
  CHECK(r.tokens == chars);
  std::vector<int> ids = ids_of(m, chars);
  ids.erase(ids.begin());
  check_reading_against_reference(m, r, ids);
  REQUIRE(s.read("床前明月光", r, "月") == "");
  CHECK(r.tokens == std::vector<std::string>{"月", "床", "前", "明", "月", "光"});
  ids = ids_of(m, chars);
  ids[0] = m.vocab.id("月");
  check_reading_against_reference(m, r, ids);
  REQUIRE(s.read("床", r, "none") == "");
  CHECK(r.tokens == std::vector<std::string>{"床"});
  CHECK(s.read("床前", r, "月光").find("\"none\" or one character") != std::string::npos);
  std::string long_text;
  while (int(chars_of(long_text).size()) < m.config.context + 1) long_text += "春眠不觉晓";
  CHECK(s.read(long_text, r, "none").find("left out already") != std::string::npos);
}

TEST_CASE("poem session: line breaks and characters the model never learned (read as <unk>, flagged)") {
  const PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  for (const char* never : {"😀", "☃", "한"}) REQUIRE(m.vocab.id(never) == poem::Vocab::kUnknown);
  REQUIRE(m.vocab.id("\n") == poem::Vocab::kLineBreak);
  PoemReadingData r;
  REQUIRE(s.read("春😀眠\n☃晓한", r) == "");
  CHECK(r.tokens == std::vector<std::string>{"<poem>", "春", "😀", "眠", "\n", "☃", "晓", "한"});
  CHECK(r.unknown == std::vector<uint8_t>{0, 0, 1, 0, 0, 1, 0, 1});
  const std::vector<int> ids = {poem::Vocab::kPoemStart, m.vocab.id("春"), poem::Vocab::kUnknown, m.vocab.id("眠"),
                                poem::Vocab::kLineBreak, poem::Vocab::kUnknown, m.vocab.id("晓"), poem::Vocab::kUnknown};
  check_reading_against_reference(m, r, ids);
}

TEST_CASE("poem session: a text longer than the context: cut = n - context, the last characters kept") {
  const PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  const int C = m.config.context;
  const std::string verse = "春眠不觉晓，处处闻啼鸟。\n夜来风雨声，花落知多少。\n";
  std::string long_text;
  while (int(chars_of(long_text).size()) < 2 * C + 7) long_text += verse;
  for (int chars : {C - 1, C, C + 1, 2 * C + 7}) {
    CAPTURE(chars);
    const std::vector<std::string> all = chars_of(long_text);
    const std::vector<std::string> text_chars(all.begin(), all.begin() + chars);
    std::string text;
    for (const std::string& c : text_chars) text += c;
    PoemReadingData r;
    REQUIRE(s.read(text, r) == "");
    const int n = chars + 1;  // <poem> and the characters
    CHECK(r.size() == std::min(n, C));
    CHECK(r.cut == std::max(0, n - C));
    std::vector<int> ids = ids_of(m, text_chars);
    std::vector<std::string> shown = {"<poem>"};
    shown.insert(shown.end(), text_chars.begin(), text_chars.end());
    if (n > C) {
      ids.erase(ids.begin(), ids.begin() + (n - C));
      shown.erase(shown.begin(), shown.begin() + (n - C));
      CHECK(r.tokens.back() == text_chars.back());  // the last characters are kept
      CHECK(r.tokens.front() == text_chars[std::size_t(chars - C)]);
    }
    CHECK(r.tokens == shown);
    check_reading_against_reference(m, r, ids);
  }
}

TEST_CASE("poem session: empty text, bad UTF-8 and too many bytes are errors; the reading is left as it was") {
  const PoemSession& s = loaded().session;
  PoemReadingData r;
  REQUIRE(s.read("月", r) == "");
  const PoemReadingData before = r;
  for (const std::string& bad : {std::string(), std::string("床\xff"), std::string("\xe6\x9c"),
                                 std::string(PoemLimits::kMaxTextBytes + 1, 'a')}) {
    CAPTURE(bad.size());
    const std::string e = s.read(bad, r);
    CHECK(!e.empty());
    CHECK(e.find('\n') == std::string::npos);
    check_same_reading(r, before);
  }
  CHECK(s.read("", r).find("empty") != std::string::npos);
  CHECK(s.read("a\xffz", r).find("UTF-8") != std::string::npos);
  // Not loaded: an error, not a crash.
  PoemSession empty;
  CHECK(!empty.loaded());
  CHECK(!empty.read("月", r).empty());
  check_same_reading(r, before);
}

TEST_CASE("poem session: a damaged model file is refused with a message naming poem_model.bin") {
  const Loaded& l = loaded();
  const std::vector<uint8_t> good(l.model_bytes.begin(), l.model_bytes.end());
  auto load = [&](const std::vector<uint8_t>& bytes, std::string_view tang300) {
    PoemSession s;
    const std::string e = s.load(bytes.data(), bytes.size(), tang300);
    CHECK(s.loaded() == e.empty());
    if (!e.empty()) {
      CHECK(s.summary().held_out.empty());
      PoemReadingData r;
      CHECK(!s.read("月", r).empty());
    }
    return e;
  };
  const std::size_t n = good.size();
  for (std::size_t at : {std::size_t(0), std::size_t(9), std::size_t(13), std::size_t(40), n / 2, n - 9, n - 1}) {
    CAPTURE(at);
    std::vector<uint8_t> flipped = good;
    flipped[at] ^= 0x10;
    const std::string e = load(flipped, l.tang300);
    CHECK(e.find("poem_model.bin") != std::string::npos);
  }
  for (std::size_t size : {std::size_t(0), std::size_t(7), std::size_t(32), std::size_t(100), n / 2, n - 8, n - 1}) {
    CAPTURE(size);
    const std::string e = load(std::vector<uint8_t>(good.begin(), good.begin() + std::ptrdiff_t(size)), l.tang300);
    CHECK(e.find("poem_model.bin") != std::string::npos);
  }
  std::vector<uint8_t> longer = good;
  longer.push_back(0);
  CHECK(load(longer, l.tang300).find("poem_model.bin") != std::string::npos);
  // Not tang300: named too.
  CHECK(load(good, "").find("tang300") != std::string::npos);
  CHECK(load(good, "%\n月\n%\n").find("tang300") != std::string::npos);
}

TEST_CASE("poem session: continuing a prompt a few characters a call gives what attention_cli poem sample gives") {
  PoemSession& s = loaded().session;
  const poem::PoemModel& m = *s.model();
  struct Case {
    const char* prompt;
    int length;
    float temperature;
    uint64_t seed;
  };
  const Case cases[] = {{"床前", 20, 0.8f, 1},    {"床前", 20, 0.8f, 2},  {"春眠不觉晓，", 17, 0.0f, 3},
                        {"", 30, 0.8f, 12345},     {"月\n", 9, 0.8f, 4},   {"白日依山尽，黄河入海流。\n", 24, 0.0f, 1}};
  int drawn = 0;
  for (const Case& c : cases) {
    const std::string prompt = c.prompt;
    CAPTURE(prompt);
    CAPTURE(c.temperature);
    CAPTURE(c.seed);
    const std::string expected = cli_sample(m, c.prompt, c.length, c.temperature, c.seed);
    if (!expected.empty()) ++drawn;  // (after a whole couplet the model may end the poem at once)
    const std::string got = session_sample(s, c.prompt, c.length, c.temperature, c.seed);
    CHECK(got == expected);
    CHECK(int(chars_of(got).size()) <= c.length);
    CHECK(got.find("<unk>") == std::string::npos);
    // Again, the same: the seed decides.
    CHECK(session_sample(s, c.prompt, c.length, c.temperature, c.seed) == expected);
    CHECK(s.sample_step(2));  // done stays done
    CHECK(s.sample_text() == expected);
  }
  CHECK(drawn >= 5);
  // At temperature 0 the seed does not matter; at 0.8 different seeds usually differ.
  CHECK(session_sample(s, "山", 12, 0.0f, 1) == session_sample(s, "山", 12, 0.0f, 999));
  std::set<std::string> texts;
  for (uint64_t seed = 1; seed <= 6; ++seed) texts.insert(session_sample(s, "山", 16, 0.8f, seed));
  CHECK(texts.size() >= 5);
  // The longest continuation asked for.
  CHECK(int(chars_of(session_sample(s, "", PoemLimits::kMaxSampleLength, 0.8f, 7)).size()) <=
        PoemLimits::kMaxSampleLength);
}

TEST_CASE("poem session: a continuation's limits: length 1..200, temperature 0..10, UTF-8 prompts") {
  PoemSession& s = loaded().session;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::pair<int, float> bad[] = {{0, 0.8f},  {-1, 0.8f},  {PoemLimits::kMaxSampleLength + 1, 0.8f},
                                       {20, nan},  {20, -0.1f}, {20, -inf},
                                       {20, inf},  {20, 10.5f}};
  for (const std::pair<int, float>& limits : bad) {
    const int length = limits.first;
    const float temperature = limits.second;
    CAPTURE(length);
    CAPTURE(temperature);
    // A job in progress is dropped by a refused one.
    REQUIRE(s.sample_begin("月", 5, 0.8f, 1) == "");
    CHECK(!s.sample_step(1));
    CHECK(!s.sample_text().empty());
    CHECK(!s.sample_begin("月", length, temperature, 1).empty());
    CHECK(s.sample_step(2));
    CHECK(s.sample_text().empty());
  }
  CHECK(s.sample_begin("月", 0, 0.8f, 1).find("length") != std::string::npos);
  CHECK(s.sample_begin("月", 5, nan, 1).find("temperature") != std::string::npos);
  CHECK(!s.sample_begin("月\xff", 5, 0.8f, 1).empty());
  CHECK(!s.sample_begin(std::string(PoemLimits::kMaxTextBytes + 1, 'a'), 5, 0.8f, 1).empty());
  CHECK(s.sample_begin("月", 1, 0.0f, 1) == "");
  CHECK(s.sample_begin("月", PoemLimits::kMaxSampleLength, 10.0f, 1) == "");
  PoemSession empty;
  CHECK(!empty.sample_begin("月", 5, 0.8f, 1).empty());
  CHECK(empty.sample_step(2));
  CHECK(empty.sample_text().empty());
}

TEST_CASE("poem session: serve() answers each op in bytes with what the direct calls give") {
  PoemSession& s = loaded().session;
  // Summary.
  {
    const std::vector<uint8_t> answer = serve(s, Bytes().u32(uint32_t(PoemOp::Summary)));
    WireReader in(answer.data(), answer.size());
    CHECK(in.str() == "");
    check_same_summary(read_summary(in), s.summary());
    CHECK(in.ok());
  }
  // Read: a text, and a text it refuses (the same error as read()).
  for (const std::string& text : {std::string("床前明月光，\n疑是地上霜。"), std::string("😀")}) {
    const std::vector<uint8_t> answer = serve(s, Bytes().u32(uint32_t(PoemOp::Read)).str(text));
    WireReader in(answer.data(), answer.size());
    CHECK(in.str() == "");
    PoemReadingData direct;
    REQUIRE(s.read(text, direct) == "");
    check_same_reading(read_reading(in), direct);
    CHECK(in.ok());
  }
  for (const std::string& text : {std::string(), std::string("\xc0\x80")}) {
    const std::vector<uint8_t> answer = serve(s, Bytes().u32(uint32_t(PoemOp::Read)).str(text));
    WireReader in(answer.data(), answer.size());
    PoemReadingData direct;
    const std::string e = s.read(text, direct);
    CHECK(!e.empty());
    CHECK(in.str() == e);
    CHECK(in.ok());
  }
  // SampleBegin, then SampleStep until done: the continuation sample_begin/sample_step give.
  const std::string expected = session_sample(s, "江", 15, 0.8f, 21);
  {
    const std::vector<uint8_t> begun =
        serve(s, Bytes().u32(uint32_t(PoemOp::SampleBegin)).str("江").u32(15).f32(0.8f).u32(21));
    CHECK(begun == answer_error(""));
    std::string text;
    bool done = false;
    for (int calls = 0; calls < 20 && !done; ++calls) {
      const std::size_t before = chars_of(text).size();
      const std::vector<uint8_t> answer = serve(s, Bytes().u32(uint32_t(PoemOp::SampleStep)).u32(3));
      WireReader in(answer.data(), answer.size());
      CHECK(in.str() == "");
      text = in.str();
      const uint32_t flag = in.u32();
      CHECK(flag <= 1);
      done = flag == 1;
      CHECK(in.ok());
      CHECK(text == s.sample_text());
      CHECK(expected.rfind(text, 0) == 0);  // what is drawn so far begins the continuation
      const std::size_t now = chars_of(text).size();
      CHECK(now <= before + 3);  // the request's 3 a call (fewer only at the end)
      if (!done) CHECK(now == before + 3);
    }
    CHECK(done);
    CHECK(text == expected);
  }
  // A refused continuation: the direct call's error.
  {
    const std::string e = s.sample_begin("江", 0, 0.8f, 21);
    CHECK(!e.empty());
    CHECK(serve(s, Bytes().u32(uint32_t(PoemOp::SampleBegin)).str("江").u32(0).f32(0.8f).u32(21)) == answer_error(e));
    const std::vector<uint8_t> nan =
        serve(s, Bytes().u32(uint32_t(PoemOp::SampleBegin)).str("江").u32(5).f32(std::nanf("")).u32(21));
    WireReader in(nan.data(), nan.size());
    CHECK(in.str().find("temperature") != std::string::npos);
  }
}

TEST_CASE("poem session: an unknown op or a short request is an answer with an error, never a crash") {
  PoemSession& s = loaded().session;
  auto error_of = [](const std::vector<uint8_t>& answer) {
    WireReader in(answer.data(), answer.size());
    std::string e = in.str();
    CHECK(in.ok());
    return e;
  };
  for (uint32_t op : {0u, 5u, 99u, 0xFFFFFFFFu}) {
    CAPTURE(op);
    CHECK(!error_of(serve(s, Bytes().u32(op).str("月"))).empty());
  }
  const Bytes requests[] = {Bytes().u32(uint32_t(PoemOp::Summary)), Bytes().u32(uint32_t(PoemOp::Read)).str("床前明月光"),
                            Bytes().u32(uint32_t(PoemOp::SampleBegin)).str("月").u32(5).f32(0.8f).u32(1),
                            Bytes().u32(uint32_t(PoemOp::SampleStep)).u32(2)};
  for (const Bytes& request : requests) {
    for (std::size_t n = 0; n < request.b.size(); ++n) {
      CAPTURE(n);
      const std::unique_ptr<uint8_t[]> copy(new uint8_t[n ? n : 1]);
      if (n) std::memcpy(copy.get(), request.b.data(), n);
      CHECK(!error_of(s.serve(copy.get(), n)).empty());
    }
    CHECK(error_of(serve(s, request)).empty());  // whole, it works
  }
  // A Read whose string claims more bytes than there are.
  CHECK(!error_of(serve(s, Bytes().u32(uint32_t(PoemOp::Read)).u32(0xFFFFFFF0u))).empty());
  // Not loaded: the ops that need the model say so.
  PoemSession empty;
  CHECK(!error_of(serve(empty, Bytes().u32(uint32_t(PoemOp::Summary)))).empty());
  CHECK(!error_of(serve(empty, Bytes().u32(uint32_t(PoemOp::Read)).str("月"))).empty());
  CHECK(!error_of(serve(empty, Bytes().u32(uint32_t(PoemOp::SampleBegin)).str("月").u32(5).f32(0.8f).u32(1))).empty());
}

// A session ready to train: the shipped model, tang300 and the page's slice.
std::unique_ptr<PoemSession> training_session(int replica, int replicas) {
  const Loaded& l = loaded();
  std::string slice;
  INFO("needs the training slice " << test::file_from_env("ATTN_POEM_SLICE_FILE") << " (scripts/poem_model.sh writes it beside the weights)");
  REQUIRE(read_file(test::file_from_env("ATTN_POEM_SLICE_FILE"), slice));
  auto s = std::make_unique<PoemSession>();
  REQUIRE(s->load(reinterpret_cast<const uint8_t*>(l.model_bytes.data()), l.model_bytes.size(), l.tang300) == "");
  REQUIRE(s->train_corpus(slice) == "");
  REQUIRE(s->train_reset(1, 0, replica, replicas) == "");
  return s;
}

TEST_CASE("poem session: two replicas train one model in halves, to the bits of one trainer") {
  std::unique_ptr<PoemSession> a = training_session(0, 2), b = training_session(1, 2), one = training_session(0, 1);
  const std::size_t n = a->trainer()->model().params.size();
  REQUIRE(n == b->trainer()->model().params.size());
  CHECK(a->training().replicas == 2);
  CHECK(b->training().replica == 1);
  CHECK(a->training().vocab == one->training().vocab);
  CHECK(a->training().slice_poems > 10000);
  // The page's way: each replica's part of the step, its gradient as the wire
  // carries it; the join request is the op, the step, the count and each
  // gradient answer after its error and step (web/poem_worker.js builds it so).
  const auto part_bytes = [](PoemSession& s) {
    const std::vector<uint8_t> answer = serve(s, Bytes().u32(uint32_t(PoemOp::TrainGradient)));
    WireReader in(answer.data(), answer.size());
    REQUIRE(in.str() == "");
    in.u32();
    return std::vector<uint8_t>(answer.begin() + 8, answer.end());
  };
  constexpr int kSteps = 6;
  for (int step = 0; step < kSteps; ++step) {
    CAPTURE(step);
    CHECK(a->train_run(1000).waiting);
    CHECK(b->train_run(1000).waiting);
    CHECK(a->training().sequences == 8);  // half the batch each
    // Not waiting for the others, a replica's step does not move.
    CHECK(b->train_run(1000).steps == step);
    Bytes join;
    join.u32(uint32_t(PoemOp::TrainJoin)).u32(uint32_t(step)).u32(2);
    const std::vector<uint8_t> pa = part_bytes(*a), pb = part_bytes(*b);
    join.b.insert(join.b.end(), pa.begin(), pa.end());
    join.b.insert(join.b.end(), pb.begin(), pb.end());
    for (PoemSession* s : {a.get(), b.get()}) {
      const std::vector<uint8_t> answer = serve(*s, join);
      WireReader in(answer.data(), answer.size());
      REQUIRE(in.str() == "");
      const PoemTraining t = read_training(in);
      CHECK(t.steps == step + 1);
      CHECK(!t.waiting);
    }
    CHECK(std::memcmp(a->trainer()->model().params.data(), b->trainer()->model().params.data(), n * sizeof(float)) == 0);
    while (one->training().steps == step) one->train_run(1);
  }
  // One trainer over the whole batches: the replicas sum the shards in its
  // order, so every step's loss and the weights are its bits (a head forms
  // at the same step with one worker or two).
  REQUIRE(a->training().train_loss.size() == std::size_t(kSteps));
  CHECK(a->training().train_loss == one->training().train_loss);
  CHECK(std::memcmp(a->trainer()->model().params.data(), one->trainer()->model().params.data(), n * sizeof(float)) == 0);
  // Only the first replica scores the held-out poems.
  CHECK(a->training().eval_steps.size() == 1);
  CHECK(b->training().eval_steps.empty());

  // Joins that do not fit are refused, and the replica keeps waiting.
  CHECK(a->train_run(1000).waiting);
  const std::vector<float> g = a->trainer()->part_gradient(), l = a->trainer()->part_losses();
  CHECK(l.size() == 2);  // two shards of four sequences each
  CHECK(g.size() == 2 * n);
  CHECK(a->train_join(kSteps + 1, {g, g}, {l, l}).find("not of") != std::string::npos);
  CHECK(a->train_join(kSteps, {g}, {l}).find("the replicas are 2") != std::string::npos);
  CHECK(a->train_join(kSteps, {g, std::vector<float>(3)}, {l, l}).find("replica 1's part") != std::string::npos);
  CHECK(a->train_join(kSteps, {g, g}, {l, {1}}).find("replica 1's part") != std::string::npos);
  CHECK(a->training().waiting);
  CHECK(a->training().steps == kSteps);
  // Replicas out of range, and a slice that is not one.
  PoemSession s;
  REQUIRE(s.load(reinterpret_cast<const uint8_t*>(loaded().model_bytes.data()), loaded().model_bytes.size(), loaded().tang300) == "");
  CHECK(!s.train_reset(1, 0).empty());  // no slice yet
  CHECK(!s.train_corpus("床前明月光\n%\n").empty());
  std::string slice;
  REQUIRE(read_file(test::file_from_env("ATTN_POEM_SLICE_FILE"), slice));
  REQUIRE(s.train_corpus(slice) == "");
  CHECK(!s.train_reset(1, 0, 2, 2).empty());
  CHECK(!s.train_reset(1, 0, 0, 0).empty());
  CHECK(!s.train_reset(1, 0, 0, 9).empty());
  CHECK(s.train_reset(1, 0, 0, 1).empty());
}

#endif  // ATTN_HAS_POEM_MODEL
