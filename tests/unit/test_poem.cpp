// The poem model (core/poem): backward against finite differences for every
// parameter tensor, the kernels' fast path against the plain loops, the
// causal mask, determinism, learning, the corpus reader, the model file and
// the head rules. The same tests run natively and in wasm (unit_wasm): each
// build's fast float forward pass is held to the double-precision plain
// loops, so the two builds agree with each other within twice that bound.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "core/poem/corpus.hpp"
#include "core/poem/gpt.hpp"
#include "core/poem/head_detectors.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/poem/poem_model.hpp"
#include "core/base/rng.hpp"
#include "helpers.hpp"

using namespace attn;
using namespace attn::poem;

namespace {

// A model small enough to difference every parameter: 2 layers, 2 heads.
GptConfig tiny_config() { return GptConfig{7, 5, 2, 2, 8}; }

// Parameters far from GPT-2's small init, so the softmaxes are not flat and
// the LayerNorm gains are not all 1: every path through the model carries weight.
std::vector<double> random_params(const GptConfig& c, uint64_t seed, double stddev) {
  std::vector<double> p(param_count(c));
  Rng rng(seed);
  for (double& x : p) x = stddev * rng.normal();
  return p;
}

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

const std::vector<int> kTokens = {1, 3, 6, 2, 0, 4, 5, 1, 2, 3};   // B 2 x T 5
const std::vector<int> kTargets = {3, 6, 2, 0, 4, 5, 1, -1, 3, 6};  // one without a loss

// Backward against central differences for every parameter tensor, with
// dropout when asked (its seed fixed, so every forward pass draws the same masks).
void check_backward(float dropout) {
  const GptConfig c = tiny_config();
  std::vector<double> params = random_params(c, 5, 0.3);
  GptWorkspace<double> ws;
  ws.dropout = dropout;
  ws.dropout_seed = 17;
  auto loss = [&] {
    return gpt_forward(ws, c, params.data(), kTokens.data(), kTargets.data(), 2, 5, Path::Reference);
  };
  loss();
  std::vector<double> grads(params.size(), 0.0);
  gpt_backward(ws, c, params.data(), grads.data(), Path::Reference);
  for (const ParamTensor& t : param_tensors(c)) {
    double worst = 0;
    for (std::size_t i = t.offset; i < t.offset + t.size; ++i) {
      const double numeric = test::central_difference(params, i, 1e-6, loss);
      worst = std::max(worst, std::abs(grads[i] - numeric) / (1e-7 + 1e-5 * std::abs(numeric)));
    }
    INFO(t.name << " (dropout " << dropout << "): worst |analytic - numeric| / (1e-7 + 1e-5 |numeric|) = " << worst);
    CHECK(worst <= 1.0);
  }
}

}  // namespace

TEST_CASE("poem model: backward matches central differences for every parameter tensor") { check_backward(0.0f); }

TEST_CASE("poem model: with dropout too; its masks follow the seed and drop their share") {
  check_backward(0.25f);
  const GptConfig c{11, 16, 2, 4, 32};
  const std::vector<float> params = to_float(random_params(c, 9, 0.2));
  std::vector<int> tokens(4 * 16, 3);
  GptWorkspace<float> a, b, none;
  a.dropout = b.dropout = 0.2f;
  a.dropout_seed = b.dropout_seed = 5;
  const float la = gpt_forward(a, c, params.data(), tokens.data(), tokens.data(), 4, 16, Path::Fast);
  const float lb = gpt_forward(b, c, params.data(), tokens.data(), tokens.data(), 4, 16, Path::Fast);
  const float l0 = gpt_forward(none, c, params.data(), tokens.data(), tokens.data(), 4, 16, Path::Fast);
  CHECK(la == lb);
  CHECK(la != l0);
  CHECK(none.encoded_mask.empty());
  // 3 masks of 4 x 16 x 32 = 6,144 draws: the dropped share is 0.2 within 4 standard deviations (0.02).
  std::size_t dropped = 0, kept = 0, other = 0;
  for (const auto* m : {&a.encoded_mask, &a.layer[0].attproj_mask, &a.layer[1].fcproj_mask})
    for (float x : *m) {
      if (x == 0.0f) ++dropped;
      else if (x == 1.0f / 0.8f) ++kept;
      else ++other;
    }
  CHECK(other == 0);
  CHECK(std::abs(double(dropped) / double(dropped + kept) - 0.2) < 0.02);
  b.dropout_seed = 6;
  gpt_forward(b, c, params.data(), tokens.data(), tokens.data(), 4, 16, Path::Fast);
  CHECK(a.encoded_mask != b.encoded_mask);
}


TEST_CASE("poem model: the fast float path equals the plain loops in double") {
  const GptConfig c{11, 16, 2, 4, 32};
  const std::vector<double> params = random_params(c, 9, 0.2);
  const std::vector<float> params_f = to_float(params);
  Rng rng(4);
  std::vector<int> tokens(3 * 16), targets(3 * 16);
  for (std::size_t i = 0; i < tokens.size(); ++i) tokens[i] = int(rng.next_u32() % 11), targets[i] = int(rng.next_u32() % 11);
  GptWorkspace<double> ref;
  GptWorkspace<float> fast;
  const double loss_ref = gpt_forward(ref, c, params.data(), tokens.data(), targets.data(), 3, 16, Path::Reference);
  const float loss_fast = gpt_forward(fast, c, params_f.data(), tokens.data(), targets.data(), 3, 16, Path::Fast);
  CHECK(std::abs(loss_fast - loss_ref) <= 1e-5 * std::abs(loss_ref));
  double worst_logit = 0, worst_weight = 0;
  for (std::size_t i = 0; i < ref.logits.size(); ++i) worst_logit = std::max(worst_logit, std::abs(fast.logits[i] - ref.logits[i]));
  for (int l = 0; l < c.layers; ++l)
    for (std::size_t i = 0; i < ref.layer[std::size_t(l)].att.size(); ++i)
      worst_weight = std::max(worst_weight, std::abs(fast.layer[std::size_t(l)].att[i] - ref.layer[std::size_t(l)].att[i]));
  INFO("worst logit difference " << worst_logit << ", worst attention weight difference " << worst_weight);
  CHECK(worst_logit <= 1e-5);
  CHECK(worst_weight <= 1e-5);

  std::vector<double> g_ref(params.size(), 0.0);
  std::vector<float> g_fast(params.size(), 0.0f);
  gpt_backward(ref, c, params.data(), g_ref.data(), Path::Reference);
  gpt_backward(fast, c, params_f.data(), g_fast.data(), Path::Fast);
  double scale = 0, worst = 0;
  for (double g : g_ref) scale = std::max(scale, std::abs(g));
  for (std::size_t i = 0; i < g_ref.size(); ++i) worst = std::max(worst, std::abs(g_fast[i] - g_ref[i]));
  INFO("worst gradient difference " << worst << " (largest gradient " << scale << ")");
  CHECK(worst <= 1e-4 * scale);
}

TEST_CASE("poem model: the causal mask gives future positions exactly 0 weight, in both paths") {
  const GptConfig c{11, 12, 2, 3, 12};
  const std::vector<double> params = random_params(c, 2, 0.5);
  const std::vector<float> params_f = to_float(params);
  std::vector<int> tokens(12);
  for (int t = 0; t < 12; ++t) tokens[std::size_t(t)] = (t * 5) % 11;
  GptWorkspace<double> ref;
  GptWorkspace<float> fast;
  gpt_forward(ref, c, params.data(), tokens.data(), nullptr, 1, 12, Path::Reference);
  gpt_forward(fast, c, params_f.data(), tokens.data(), nullptr, 1, 12, Path::Fast);
  int future = 0, nonzero = 0;
  for (int l = 0; l < c.layers; ++l)
    for (int h = 0; h < c.heads; ++h)
      for (int t = 0; t < 12; ++t)
        for (int t2 = t + 1; t2 < 12; ++t2) {
          const std::size_t i = (std::size_t(h) * 12 + std::size_t(t)) * 12 + std::size_t(t2);
          ++future;
          nonzero += ref.layer[std::size_t(l)].att[i] != 0.0 || fast.layer[std::size_t(l)].att[i] != 0.0f;
        }
  CHECK(future == 2 * 3 * 66);
  CHECK(nonzero == 0);
  // And the past is used: changing the last token changes no earlier position's logits.
  std::vector<int> changed = tokens;
  changed.back() = (changed.back() + 1) % 11;
  GptWorkspace<float> other;
  gpt_forward(other, c, params_f.data(), changed.data(), nullptr, 1, 12, Path::Fast);
  bool earlier_same = true;
  for (std::size_t i = 0; i < std::size_t(11 * 11); ++i) earlier_same = earlier_same && other.logits[i] == fast.logits[i];
  CHECK(earlier_same);
}

namespace {

// A stream with structure to learn: "poems" of 5-character lines over 20 characters.
std::vector<int> synthetic_stream(int n, uint64_t seed) {
  Rng rng(seed);
  std::vector<int> ids;
  while (static_cast<int>(ids.size()) < n) {
    ids.push_back(Vocab::kPoemStart);
    for (int line = 0; line < 4; ++line) {
      for (int k = 0; k < 5; ++k) ids.push_back(6 + int(rng.next_u32() % 20));
      ids.push_back(line % 2 ? 5 : 4);  // "，" then "。"
      if (line % 2) ids.push_back(Vocab::kLineBreak);
    }
  }
  return ids;
}

Vocab synthetic_vocab() {
  Vocab v;
  v.chars = {"<unk>", "<poem>", "\n", "<text>", "，", "。"};
  for (int i = 0; i < 20; ++i) v.chars.push_back(std::string(1, char('a' + i)));
  REQUIRE(v.index());
  return v;
}

PoemTrainConfig small_training(uint64_t seed) {
  PoemTrainConfig t;
  t.model = GptConfig{0, 16, 1, 2, 16};
  t.steps = 60;
  t.batch = 8;
  t.warmup = 5;
  t.learning_rate = 1e-2f;
  t.seed = seed;
  return t;
}

}  // namespace

TEST_CASE("poem model: the same seed trains byte-identical weights; training lowers the loss") {
  const std::vector<int> stream = synthetic_stream(4000, 1);
  PoemTrainer a(small_training(3), synthetic_vocab(), stream), b(small_training(3), synthetic_vocab(), stream);
  float first = 0, last = 0;
  for (int s = 0; s < 60; ++s) {
    const float loss = a.step().loss;
    b.step();
    if (s == 0) first = loss;
    last = loss;
  }
  CHECK(std::memcmp(a.model().params.data(), b.model().params.data(), a.model().params.size() * 4) == 0);
  INFO("loss " << first << " -> " << last);
  // At the start about ln 26 = 3.26. The stream's own entropy is 20 ln 20 /
  // 27 = 2.22 nats a token (a poem: 27 tokens, 20 of them random among 20;
  // punctuation, line breaks and <poem> follow from the position).
  CHECK(first > 3.0f);
  CHECK(last < first - 0.4f);
  PoemTrainer c(small_training(4), synthetic_vocab(), stream);
  c.step();
  CHECK(std::memcmp(a.model().params.data(), c.model().params.data(), 64) != 0);
}

TEST_CASE("poem model: the same bits with 1, 2 or 3 threads, and step by step in parts") {
  const std::vector<int> stream = synthetic_stream(4000, 1);
  PoemTrainConfig config = small_training(5);
  config.batch = 7;  // an odd batch: the last shard holds one sequence
  config.dropout = 0.2f;
  std::vector<std::vector<float>> weights;
  std::vector<float> losses;
  for (int threads : {1, 2, 3}) {
    config.threads = threads;
    PoemTrainer trainer(config, synthetic_vocab(), stream);
    float loss = 0;
    for (int s = 0; s < 8; ++s) loss = trainer.step().loss;
    weights.push_back(trainer.model().params);
    losses.push_back(loss);
  }
  PoemTrainer parts(config, synthetic_vocab(), stream);
  float loss = 0;
  for (int s = 0; s < 8;) {
    const PoemStepStats stats = parts.step_part(1);  // a shard a call: 4 calls a step
    if (stats.step) ++s, loss = stats.loss;
  }
  weights.push_back(parts.model().params);
  losses.push_back(loss);
  for (std::size_t i = 1; i < weights.size(); ++i) {
    CHECK(std::memcmp(weights[0].data(), weights[i].data(), weights[0].size() * 4) == 0);
    CHECK(losses[i] == losses[0]);
  }
}

TEST_CASE("poem heads: the couplet key is the same place in the previous line, across 。 and a line break; "
          "the one-ahead key the place after it") {
  // <poem> 床 前 明 ， 疑 是 地 。 \n 举 头 望 明 ；  (ids: 1 <poem>, 2 "\n", 8 "，", 9 "。", 10 "；")
  const std::vector<int> tokens = {1, 20, 21, 22, 8, 23, 24, 25, 9, 2, 26, 27, 28, 22, 10};
  const SequenceRoles r = poem_roles(tokens, [](int id) { return id == 2 || id == 8 || id == 9 || id == 10; });
  const std::vector<int> couplet = {-1, -1, -1, -1, -1, 1, 2, 3, -1, -1, 5, 6, 7, -1, -1};
  CHECK(r.couplet == couplet);
  const std::vector<int> ahead = {-1, -1, -1, -1, -1, 2, 3, -1, -1, -1, 6, 7, -1, -1, -1};
  CHECK(r.couplet_ahead == ahead);
  // Repeated sequences: position t of the second copy points after the first occurrence.
  const SequenceRoles rep = repeat_roles({1, 30, 31, 32, 30, 31, 32}, 3);
  CHECK(rep.induction == std::vector<int>{-1, -1, -1, -1, 2, 3, 4});
  // Attention all on the previous key: weight 1 per query, uniform 1/(t+1).
  std::vector<float> att(49, 0.0f);
  att[0] = 1.0f;
  for (int t = 1; t < 7; ++t) att[std::size_t(t * 7 + t - 1)] = 1.0f;
  DetectorScores scores{};
  add_detectors(att.data(), 7, poem_roles({1, 30, 31, 32, 30, 31, 32}, [](int) { return false; }), scores);
  const DetectorScore& previous = scores[std::size_t(Detector::kPrevious)];
  CHECK(previous.queries == 6);
  CHECK(previous.weight == doctest::Approx(6.0));
  CHECK(previous.uniform == doctest::Approx(1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6 + 1.0 / 7));
  CHECK(strongest_detector(scores) == int(Detector::kPrevious));
  // The repeats 30 31 32 at t = 4, 5, 6 have an earlier copy each (3 queries), and put no
  // weight on it: each attends to the key one back.
  CHECK(scores[std::size_t(Detector::kDuplicate)].queries == 3);
  CHECK(scores[std::size_t(Detector::kDuplicate)].weight == 0.0);
  CHECK(scores[std::size_t(Detector::kDuplicate)].uniform == doctest::Approx(1.0 / 5 + 1.0 / 6 + 1.0 / 7));
}

TEST_CASE("poem corpus: fortunes entries without colours, titles, authors and part numbers; the held-out rule") {
  const std::string file =
      "\x1b[32m《静夜思》\x1b[m\n\x1b[33m作者：李白\x1b[m\n床前明月光，疑是地上霜。\n举头望明月，低头思故乡。\n%\n"
      "\x1b[32m《二》\x1b[m\n白日依山尽，黄河入海流。\n%\n%\n现代的一段话。\n\n    -- Debian 《行为准则》\n";
  const std::vector<std::string> entries = parse_fortunes(file);
  REQUIRE(entries.size() == 3);
  CHECK(entries[0] == "床前明月光，疑是地上霜。\n举头望明月，低头思故乡。");
  CHECK(entries[1] == "白日依山尽，黄河入海流。");
  CHECK(entries[2] == "现代的一段话。");
  // song100's headings: 题目: and 作者: with an ASCII colon, and a part's number
  // on a line of its own; a line that only starts with 其 is verse.
  const std::vector<std::string> song = parse_fortunes(
      "\x1b[32m题目:《春居杂兴》二首\x1b[m\n作者:王禹偁（９５４－１００１）\n\n            其一\n\n"
      "两株桃杏映篱斜，妆点商山副使家。\n            其二\n其人其事有谁知。\n");
  REQUIRE(song.size() == 1);
  CHECK(song[0] == "两株桃杏映篱斜，妆点商山副使家。\n其人其事有谁知。");
  CHECK(held_out(0));
  CHECK(held_out(310));
  CHECK_FALSE(held_out(1));
  CHECK_FALSE(held_out(15));

  const Vocab v = Vocab::from_texts({entries[0]});
  CHECK(v.chars[0] == "<unk>");
  CHECK(v.chars[2] == "\n");
  CHECK(v.size() == 4 + 19);  // 床前明月光疑是地上霜举头望低思故乡 (17 distinct) and ，。
  int unknown = 0;
  const std::vector<int> ids = v.encode("明月\n海", &unknown);
  CHECK(ids.size() == 4);
  CHECK(ids[2] == Vocab::kLineBreak);
  CHECK(ids[3] == Vocab::kUnknown);
  CHECK(unknown == 1);
  CHECK(v.punctuation(v.id("，")));
  CHECK_FALSE(v.punctuation(v.id("明")));
  const std::vector<int> poem = v.encode_poem("明月，");
  CHECK(poem.front() == Vocab::kPoemStart);
  CHECK(poem.back() == Vocab::kLineBreak);
  CHECK(utf8_chars("a\xff").size() == 2);  // a bad byte is one U+FFFD, not lost
}

namespace {
// A model of 7 characters, 1 layer, 2 heads, d_model 4: every tensor small enough to list.
PoemModel tiny_model(uint64_t seed) {
  PoemModel m;
  m.config = GptConfig{7, 4, 1, 2, 4};
  m.vocab.chars = {"<unk>", "<poem>", "\n", "<text>", "，", "月", "光"};
  REQUIRE(m.vocab.index());
  m.params = init_params(m.config, seed);
  return m;
}
}  // namespace

TEST_CASE("poem model file: a round trip, and every kind of damage named") {
  const PoemModel m = tiny_model(1);
  const std::vector<uint8_t> bytes = write_model(m, "{\"steps\":1}");
  const ModelFile back = read_model(bytes.data(), bytes.size());
  REQUIRE(back.error == "");
  CHECK(back.info == "{\"steps\":1}");
  CHECK(back.model.vocab.chars == m.vocab.chars);
  CHECK(std::memcmp(back.model.params.data(), m.params.data(), m.params.size() * 4) == 0);

  const auto error = [](std::vector<uint8_t> b) { return read_model(b.data(), b.size()).error; };
  CHECK(error({}).find("too short") != std::string::npos);
  CHECK(error(std::vector<uint8_t>(bytes.begin(), bytes.end() - 9)).find("truncated") != std::string::npos);
  std::vector<uint8_t> other = bytes;
  other[0] = 'X';
  CHECK(error(other).find("not a poem model") != std::string::npos);
  other = bytes;
  other[8] = 3;
  CHECK(error(other).find("version 3") != std::string::npos);
  other = bytes;
  other[bytes.size() - 20] ^= 0x40;  // a parameter's bit
  CHECK(error(other).find("bad checksum") != std::string::npos);
  other = bytes;
  other.push_back(0);
  CHECK(error(other).find("after the checksum") != std::string::npos);
  other = bytes;
  other[12] = 200;  // vocab 200 > the entries there
  CHECK(!error(other).empty());
}

TEST_CASE("poem model file version 2: int8 rows and float16, read back as written; version 1 still reads") {
  PoemModel m = tiny_model(2);
  // Values float16 must round by hand: ties to even, underflow, the largest half, a subnormal.
  const ParamTensor wte = param_tensors(m.config).front();
  REQUIRE(wte.rows == 7);
  REQUIRE(wte.cols == 4);
  const float special[] = {1.0f + 1.0f / 2048, 1.0f + 3.0f / 2048, 1e-8f, 70000.0f, 6e-8f, -2.5f};
  for (std::size_t i = 0; i < 6; ++i) m.params[wte.offset + i] = special[i];
  const std::vector<float> half = encode_round_trip(m, WeightEncoding::kFloat16);
  CHECK(half[wte.offset + 0] == 1.0f);                 // a tie: to the even mantissa
  CHECK(half[wte.offset + 1] == 1.0f + 4.0f / 2048);   // a tie: to the even mantissa, upwards
  CHECK(half[wte.offset + 2] == 0.0f);                 // below the smallest subnormal's half
  CHECK(half[wte.offset + 3] == 65504.0f);             // the largest half, not infinity
  CHECK(half[wte.offset + 4] == std::ldexp(1.0f, -24));  // the smallest subnormal
  CHECK(half[wte.offset + 5] == -2.5f);
  for (WeightEncoding e : {WeightEncoding::kInt8Rows, WeightEncoding::kFloat16}) {
    INFO(encoding_name(e));
    const std::vector<uint8_t> bytes = write_model(m, "{}", e);
    const ModelFile back = read_model(bytes.data(), bytes.size());
    REQUIRE(back.error == "");
    CHECK(back.encoding == e);
    const std::vector<float> expected = encode_round_trip(m, e);
    CHECK(std::memcmp(back.model.params.data(), expected.data(), expected.size() * 4) == 0);
    // Vectors stay float32; a matrix row is within half a step of its scale (int8) or 2^-11 relative.
    for (const ParamTensor& t : param_tensors(m.config))
      for (std::size_t r = 0; r < t.rows; ++r) {
        float largest = 0;
        for (std::size_t i = 0; i < t.cols; ++i) largest = std::max(largest, std::fabs(m.params[t.offset + r * t.cols + i]));
        for (std::size_t i = 0; i < t.cols; ++i) {
          const std::size_t at = t.offset + r * t.cols + i;
          const float bound = t.rows <= 1 ? 0.0f
                              : e == WeightEncoding::kInt8Rows ? largest / 127.0f * 0.5f * 1.0001f
                                                               : std::max(std::fabs(m.params[at]) / 2048.0f, 6e-8f);
          if (m.params[at] <= 65504.0f) CHECK(std::fabs(back.model.params[at] - m.params[at]) <= bound);
        }
      }
    CHECK(bytes.size() < write_model(m, "{}").size());
  }
  // Damage: an unknown encoding; a scale that is not finite (the checksum made right again).
  std::vector<uint8_t> bytes = write_model(m, "{}", WeightEncoding::kInt8Rows);
  const std::size_t encoding_at = bytes.size() - 8 - [&] {
    std::size_t body = 0;
    for (const ParamTensor& t : param_tensors(m.config)) body += t.rows <= 1 ? 4 * t.size : t.rows * (4 + t.cols);
    return body;
  }() - 4;
  const auto resealed = [](std::vector<uint8_t> b) {
    const uint64_t sum = stable_hash(reinterpret_cast<const char*>(b.data()), b.size() - 8);
    for (int i = 0; i < 8; ++i) b[b.size() - 8 + std::size_t(i)] = uint8_t(sum >> (8 * i));
    return b;
  };
  std::vector<uint8_t> other = bytes;
  other[encoding_at] = 9;
  other = resealed(other);
  CHECK(read_model(other.data(), other.size()).error.find("encoding 9") != std::string::npos);
  other = bytes;
  for (int i = 0; i < 4; ++i) other[encoding_at + 4 + std::size_t(i)] = i < 2 ? 0 : (i == 2 ? 0xc0 : 0x7f);  // NaN
  other = resealed(other);
  CHECK(read_model(other.data(), other.size()).error.find("scale is not a finite") != std::string::npos);
  // A version 1 file reads as before.
  const std::vector<uint8_t> v1 = write_model(m, "{}");
  CHECK(v1[8] == 1);
  const ModelFile old = read_model(v1.data(), v1.size());
  CHECK(old.error == "");
  CHECK(old.encoding == WeightEncoding::kFloat32);
}

TEST_CASE("poem heads: the naming rules, first match wins") {
  HeadStats s;
  s.punctuation_share = 0.15;
  s.punctuation_weight = 0.61;
  s.entropy = 1.2;
  name_pattern(s);
  CHECK(s.pattern == "line boundary");
  CHECK(s.summary == "line boundary: 61 % of its weight on punctuation, 4.1x their share");
  s.first_weight = 0.7;
  name_pattern(s);
  CHECK(s.pattern == "first position");
  s = HeadStats{};
  s.by_offset[1] = 0.8;
  name_pattern(s);
  CHECK(s.pattern == "previous character");
  s = HeadStats{};
  s.by_offset[0] = 0.2, s.by_offset[1] = 0.3, s.by_offset[2] = 0.2;
  name_pattern(s);
  CHECK(s.pattern == "local");
  CHECK(s.summary == "local: 70 % within the last three characters");
  s = HeadStats{};
  s.entropy = 2.5;
  name_pattern(s);
  CHECK(s.pattern == "broad");
}

TEST_CASE("poem baselines: unigram and bigram by hand") {
  // Training ids 3 4 3 4 3 (V 5): unigram add-one (c + 1) / (5 + 5).
  const std::vector<int> train = {3, 4, 3, 4, 3};
  const Baselines b = baselines(train, {}, 0.0f, {{3, 4}}, 5);
  CHECK(std::abs(b.unigram - -std::log(3.0 / 10.0)) < 1e-12);
  // bigram P(4 | 3) = 2/2 = 1: lambda 1 would be best, the grid's top is 0.95.
  CHECK(b.lambda == doctest::Approx(0.95));
  CHECK(std::abs(b.bigram - -std::log(0.95 * 1.0 + 0.05 * 3.0 / 10.0)) < 1e-12);
}
