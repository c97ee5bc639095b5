// The learned-heads view's state (ui/state/poem_lab.hpp) without a window:
// poem_update, poem_continue and the exports, with lab.call set to an
// api::PoemSession's serve(), as the desktop sets it, on the trained model.
//
// Needs the model the native build trains (src/cli/CMakeLists.txt: target
// poem_model, ${build}/poem_model.bin) and Debian's fortunes-zh tang300:
// tests/ui/CMakeLists.txt passes both paths (ATTN_POEM_MODEL_FILE in the
// environment, ATTN_TANG300_FILE) where the tree trains the model, and the checks fail,
// naming the file, when it is not there (as cli_poem does). What the view
// shows is held to the session's direct answers and to the core's own
// poem::sample; the session itself is checked in tests/unit/test_poem_session.cpp.
#include <doctest/doctest.h>

#include <string>

#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/state/poem_lab.hpp"

// Needs no model: what the view says while one is trained behind the page (scripts/run.sh).
TEST_CASE("poem lab: a model still being trained behind the page: its step of the steps and the time left") {
  using attn::ui::PoemLab;
  PoemLab lab;
  lab.load = attn::ui::ModuleLoad::Loading;
  lab.model_training = PoemLab::ModelTraining{0, 14000, 0};
  // Before a step has been timed there is no pace to go by.
  CHECK(attn::ui::poem_training_seconds_left(*lab.model_training) == -1);
  // 3,000 steps in 40 s: 11,000 to go at the same pace.
  lab.model_training = PoemLab::ModelTraining{3000, 14000, 40};
  CHECK(attn::ui::poem_training_seconds_left(*lab.model_training) == doctest::Approx(40.0 / 3000 * 11000));
  REQUIRE(attn::ui::set_language("zh"));
  CHECK(attn::ui::poem_load_text(lab).find("第 3,000 / 14,000 步，还需约 2 分钟") != std::string::npos);
  REQUIRE(attn::ui::set_language("en"));
  CHECK(attn::ui::poem_load_text(lab).find("step 3,000 of 14,000, about 2 minutes left") != std::string::npos);
  // Under a minute to go, and the corpus still being prepared (step 0).
  lab.model_training = PoemLab::ModelTraining{13900, 14000, 100};
  CHECK(attn::ui::poem_load_text(lab).find("under a minute left") != std::string::npos);
  lab.model_training = PoemLab::ModelTraining{0, 14000, 0};
  CHECK(attn::ui::poem_load_text(lab) == attn::ui::tr("poem.load.preparing"));
  // The weights arriving afterwards: the download's own progress again.
  lab.model_training.reset();
  lab.received = 1e5, lab.total = 4.8e5;
  CHECK(attn::ui::poem_load_text(lab).find("0.1 of 0.5 MB") != std::string::npos);
}

#ifdef ATTN_HAS_POEM_MODEL

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/poem/poem_session.hpp"
#include "api/poem/sink_probe.hpp"
#include "core/poem/corpus.hpp"
#include "core/poem/poem_model.hpp"
#include "core/base/rng.hpp"
#include "ui/shell/app.hpp"
#include "ui/state/export_requests.hpp"
#include "ui/state/lab_state.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/poem/poem.hpp"
#include "ui/state/poem_lab.hpp"
#include "ui/state/records.hpp"
#include "ui/state/text_in_use.hpp"
#include "../test_files.hpp"

namespace attn::ui {
namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  out = bytes.str();
  return !in.bad();
}

std::string poem_model_file() { return test::file_from_env("ATTN_POEM_MODEL_FILE"); }

// The session on the trained model, loaded once for the run (the lab's call shares it).
std::shared_ptr<api::PoemSession> session() {
  static std::shared_ptr<api::PoemSession> once;
  static std::string error;
  static bool tried = false;
  if (!tried) {
    tried = true;
    std::string model, tang300;
    if (!read_file(poem_model_file(), model)) {
      error = "needs the trained poem model " + poem_model_file() +
              " (the native build trains it: cmake --build --preset native --target poem_model)";
    } else if (!read_file(ATTN_TANG300_FILE, tang300)) {
      error = "needs tang300 from Debian's fortunes-zh at " ATTN_TANG300_FILE " (scripts/setup.sh installs it)";
    } else {
      auto s = std::make_shared<api::PoemSession>();
      error = s->load(reinterpret_cast<const uint8_t*>(model.data()), model.size(), tang300);
      if (error.empty()) once = s;
    }
  }
  INFO(error);
  REQUIRE(once);
  return once;
}

// An app state with the poem view open and the model ready, as the desktop's
// platform leaves it once it has loaded the files.
void make_ready(AppState& state) {
  const std::shared_ptr<api::PoemSession> s = session();
  state.poem.call = [s](const std::vector<uint8_t>& request) { return s->serve(request.data(), request.size()); };
  poem_take_summary(state.poem, s->summary());
  CHECK(state.poem.poem == s->summary().default_poem);  // the view opens on the poem the numbers chose
  state.poem.poem = 0;  // the checks below read held-out poem 0
  state.poem.load = ModuleLoad::Ready;
  REQUIRE(view_from_id("poem", &state.view));
  REQUIRE(poem_open(state));
}

void check_same_reading(const api::PoemReadingData& a, const api::PoemReadingData& b) {
  CHECK(a.tokens == b.tokens);
  CHECK(a.unknown == b.unknown);
  CHECK(a.cut == b.cut);
  CHECK(a.layers == b.layers);
  CHECK(a.heads == b.heads);
  CHECK(a.att == b.att);
  CHECK(a.losses == b.losses);
  CHECK(a.top_chars == b.top_chars);
  CHECK(a.top_p == b.top_p);
}

// The session's own reading of text (not through the lab or the bytes).
api::PoemReadingData direct_reading(const std::string& text) {
  api::PoemReadingData d;
  REQUIRE(session()->read(text, d) == "");
  return d;
}

// The lab's reading, and its weights as matrices, are the session's on text.
void check_lab_reads(const PoemLab& lab, const std::string& text) {
  CHECK(lab.read_text == text);
  CHECK(lab.read_error.empty());
  REQUIRE(lab.reading);
  const api::PoemReadingData expected = direct_reading(text);
  check_same_reading(*lab.reading, expected);
  const int T = expected.size();
  REQUIRE(lab.weights.size() == std::size_t(expected.layers * expected.heads));
  int differ = 0;
  for (int l = 0; l < expected.layers; ++l)
    for (int h = 0; h < expected.heads; ++h) {
      const Matrix& m = lab.weights[std::size_t(l * expected.heads + h)];
      REQUIRE(m.rows() == T);
      REQUIRE(m.cols() == T);
      for (int q = 0; q < T; ++q)
        for (int k = 0; k < T; ++k) differ += m(q, k) != expected.att[std::size_t(((l * expected.heads + h) * T + q) * T + k)];
    }
  CHECK(differ == 0);  // row = query, column = key
}

// What `attention_cli poem sample` writes after the prompt: poem::sample from
// <poem> and the prompt's ids with Rng(seed, 77) (src/cli/poem.cpp).
std::string cli_sample(const std::string& prompt, int length, float temperature, uint64_t seed) {
  const poem::PoemModel& m = *session()->model();
  std::vector<int> ids = {poem::Vocab::kPoemStart};
  for (int id : m.vocab.encode(prompt)) ids.push_back(id);
  Rng rng(seed, 77);
  const std::vector<int> out = poem::sample(m, ids, length, temperature, rng);
  std::string text;
  for (std::size_t i = ids.size(); i < out.size(); ++i) text += m.vocab.text(out[i]);
  return text;
}

// Frames until the continuation is drawn (bounded); how many it took.
int run_continuation(AppState& state) {
  int frames = 0;
  while (state.poem.sampling && frames < 500) {
    poem_update(state);
    ++frames;
  }
  CHECK(!state.poem.sampling);
  return frames;
}

using Rows = std::vector<std::vector<std::string>>;

// RFC 4180: fields split by commas, quoted fields may hold commas, quotes ("") and line breaks.
Rows parse_csv(const std::string& text) {
  Rows rows(1, std::vector<std::string>(1));
  bool quoted = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    std::string& field = rows.back().back();
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') field += text[++i];
      else if (ch == '"') quoted = false;
      else field += ch;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == ',') {
      rows.back().emplace_back();
    } else if (ch == '\n') {
      rows.emplace_back(1);
    } else {
      field += ch;
    }
  }
  if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();  // the final line break
  return rows;
}

float as_float(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  CHECK(end == text.c_str() + text.size());
  return float(v);
}

int as_int(const std::string& text) { return std::atoi(text.c_str()); }

TEST_CASE("poem lab: opened, it asks for the model; ready, it reads held-out poem 0 as the session does") {
  AppState state;
  REQUIRE(view_from_id("poem", &state.view));
  CHECK(state.poem.load == ModuleLoad::Idle);
  poem_update(state);
  CHECK(state.poem.load == ModuleLoad::Requested);  // the platform loads it
  CHECK(poem_busy(state.poem));
  CHECK(!state.poem.reading);
  poem_update(state);
  CHECK(state.poem.load == ModuleLoad::Requested);
  CHECK(!state.poem.reading);

  make_ready(state);
  CHECK(state.poem.poem == 0);
  poem_update(state);
  const std::string poem0 = state.poem.summary->held_out[0];
  CHECK(poem_text_in_use(state.poem) == poem0);
  check_lab_reads(state.poem, poem0);
  CHECK(!poem_busy(state.poem));
  CHECK(poem_first_line(poem0) == poem0.substr(0, poem0.find('\n')));
  CHECK(poem_first_line(poem0).find('\n') == std::string::npos);
  // Nothing changed: no new reading.
  const uint64_t generation = state.poem.reading_generation;
  poem_update(state);
  CHECK(state.poem.reading_generation == generation);
  // Another held-out poem.
  state.poem.poem = 31;
  poem_update(state);
  check_lab_reads(state.poem, state.poem.summary->held_out[31]);
  CHECK(state.poem.reading_generation != generation);
  // The heads found, by layer and head.
  const api::PoemHead* h = poem_head_found(state.poem, 1, 2);
  REQUIRE(h);
  CHECK(h->layer == 1);
  CHECK(h->head == 2);
  CHECK(poem_head_found(state.poem, 9, 0) == nullptr);
}

TEST_CASE("poem lab: the reader's own text is read when it changes; a text it cannot read keeps the last reading") {
  AppState state;
  make_ready(state);
  poem_update(state);
  state.poem.poem = -1;
  state.poem.text = "床前明月光";
  const uint64_t before = state.state_generation;
  poem_update(state);
  check_lab_reads(state.poem, "床前明月光");
  CHECK(state.poem.reading->tokens == std::vector<std::string>{"<poem>", "床", "前", "明", "月", "光"});
  CHECK(state.state_generation != before);  // the URL and the frame follow
  // The selected position: -1 and past the end are the last.
  CHECK(poem_query(state.poem) == 5);
  state.poem.query = 2;
  CHECK(poem_query(state.poem) == 2);
  state.poem.query = 40;
  CHECK(poem_query(state.poem) == 5);
  // A layer and head past the model's are its last; a query past the new text is the last.
  state.poem.layer = 99;
  state.poem.head = 99;
  state.poem.query = 40;
  state.poem.text = "床前明月光，\n疑是地上霜。";
  poem_update(state);
  check_lab_reads(state.poem, state.poem.text);
  CHECK(state.poem.layer == state.poem.summary->layers - 1);
  CHECK(state.poem.head == state.poem.summary->heads - 1);
  CHECK(state.poem.query == -1);
  // Empty text: the message, and the last reading stays on screen.
  const api::PoemReadingData last = *state.poem.reading;
  state.poem.text = "";
  poem_update(state);
  CHECK(!state.poem.read_error.empty());
  REQUIRE(state.poem.reading);
  check_same_reading(*state.poem.reading, last);
  CHECK(state.poem.read_text == "");
  // Back to a readable text: read, the message gone.
  state.poem.text = "月";
  poem_update(state);
  check_lab_reads(state.poem, "月");
  // The session gone (no call): said, not a crash.
  state.poem.call = nullptr;
  state.poem.text = "月光";
  poem_update(state);
  CHECK(!state.poem.read_error.empty());
}

// The attention-sink probe from a URL field: the text read again without
// <poem> (as the session reads it), the selected head's numbers from the two
// readings (api/poem/sink_probe.hpp), in state() and in the sentence; off
// again, nothing more is read.
TEST_CASE("poem lab: the sink probe reads the text without <poem> and says where the head's weight went") {
  AppState state;
  make_ready(state);
  state.poem.poem = -1;
  state.poem.text = "床前明月光，疑是地上霜。";
  CHECK(apply_url_query(state, "poem_start=none&poem_layer=0&poem_head=0").empty());
  poem_update(state);
  REQUIRE(state.poem.reading);
  REQUIRE(state.poem.sink_reading);
  CHECK(state.poem.sink_error.empty());
  api::PoemReadingData expected;
  REQUIRE(session()->read(state.poem.text, expected, "none") == "");
  check_same_reading(*state.poem.sink_reading, expected);
  api::SinkProbe p;
  REQUIRE(api::sink_probe(*state.poem.reading, expected, true, 0, 0, p) == "");
  const nlohmann::json s = poem_state_json(state.poem);
  CHECK(s["start"] == "none");
  CHECK(s["sink"]["first_before"].get<double>() == doctest::Approx(p.first_before));
  CHECK(s["sink"]["loss_after"].get<double>() == doctest::Approx(p.loss_after));
  const std::string sentence = poem_sink_text(state.poem);
  char before[64];
  std::snprintf(before, sizeof before, "Layer 1, head 1 puts %.0f %% of its weight on <poem>", p.first_before * 100);
  CHECK(sentence.find(before) == 0);
  CHECK(sentence.find("attention sink") != std::string::npos);
  CHECK(apply_url_query(state, "poem_start=bad%20start").size() == 1);  // a note; the probe stays
  CHECK(state.poem.sink_start == "none");
  CHECK(apply_url_query(state, "poem_start=poem").empty());
  poem_update(state);
  CHECK_FALSE(state.poem.sink_reading);
  CHECK(poem_sink_text(state.poem).empty());
}

TEST_CASE("poem lab: 续写 drawn a few characters a frame gives what attention_cli poem sample gives") {
  struct Case {
    int poem;
    const char* text;
    int length;
    float temperature;
    int seed;
  };
  const Case cases[] = {{-1, "床前明月光", 12, 0.8f, 5}, {-1, "春", 20, 0.0f, 1}, {-1, "江南", 9, 0.8f, 77},
                        {0, "", 16, 0.8f, 3}};
  for (const Case& c : cases) {
    AppState state;
    make_ready(state);
    state.poem.poem = c.poem;
    state.poem.text = c.text;
    state.poem.sample_length = c.length;
    state.poem.sample_temperature = c.temperature;
    state.poem.sample_seed = c.seed;
    poem_update(state);
    const std::string prompt = poem_text_in_use(state.poem);
    CAPTURE(prompt);
    CHECK(!prompt.empty());
    poem_continue(state);
    CHECK(state.poem.sample_error.empty());
    CHECK(state.poem.sampling);
    CHECK(poem_busy(state.poem));
    CHECK(state.poem.sample_prompt == prompt);
    const int frames = run_continuation(state);
    const std::string expected = cli_sample(prompt, c.length, c.temperature, uint64_t(c.seed));
    CHECK(state.poem.sample_error.empty());
    CHECK(state.poem.poem == -1);  // the continuation became the reader's text
    CHECK(state.poem.text == prompt + expected);
    // Two characters a frame: a continuation of the full length takes length / 2 frames (rounded up).
    const int drawn = int(poem::utf8_chars(expected).size());
    CHECK(drawn <= c.length);
    if (drawn == c.length) CHECK(frames == (c.length + 1) / 2);
    else CHECK(frames == drawn / 2 + 1);  // the model ended the poem (<poem>) in the last frame
    // The last frame read the whole continued text.
    check_lab_reads(state.poem, state.poem.text);
  }
}

TEST_CASE("poem lab: a continuation the session refuses says why and does not start") {
  AppState state;
  make_ready(state);
  state.poem.poem = -1;
  state.poem.text = "月";
  poem_update(state);
  for (const auto& [length, temperature] : {std::pair<int, float>{0, 0.8f}, {api::PoemLimits::kMaxSampleLength + 1, 0.8f},
                                            {10, -1.0f}, {10, std::nanf("")}}) {
    state.poem.sample_length = length;
    state.poem.sample_temperature = temperature;
    poem_continue(state);
    CHECK(!state.poem.sample_error.empty());
    CHECK(!state.poem.sampling);
    poem_update(state);
    CHECK(state.poem.text == "月");
  }
}

TEST_CASE("poem lab: the exports hold the reading's numbers (CSV and JSON), the tokens as labels") {
  AppState state;
  make_ready(state);
  api::ExportFile file;
  CHECK(!poem_export_file(state.poem, "poem_weights.csv", &file));  // nothing read yet
  // A held-out poem (line breaks: quoted CSV fields), then a text with a comma and a quote.
  for (const std::string& text : {std::string(), std::string("床,前\"明月\n光")}) {
    state.poem.poem = text.empty() ? 0 : -1;
    state.poem.text = text;
    poem_update(state);
    REQUIRE(state.poem.reading);
    const api::PoemReadingData& r = *state.poem.reading;
    const int T = r.size(), L = r.layers, H = r.heads;
    CAPTURE(state.poem.read_text);

    REQUIRE(poem_export_file(state.poem, "poem_weights.csv", &file));
    CHECK(file.name == "poem_weights.csv");
    CHECK(file.mime == "text/csv");
    const Rows weights = parse_csv(file.bytes);
    REQUIRE(weights.size() == std::size_t(1 + L * H * T * T));
    CHECK(weights[0] == std::vector<std::string>{"layer", "head", "query", "key", "query_char", "key_char", "weight"});
    int wrong = 0;
    std::size_t row = 1;
    for (int l = 0; l < L; ++l)
      for (int h = 0; h < H; ++h)
        for (int q = 0; q < T; ++q)
          for (int k = 0; k < T; ++k, ++row) {
            const std::vector<std::string>& f = weights[row];
            const float expected = r.att[std::size_t(((l * H + h) * T + q) * T + k)];
            if (f.size() != 7 || as_int(f[0]) != l || as_int(f[1]) != h || as_int(f[2]) != q || as_int(f[3]) != k ||
                f[4] != r.tokens[std::size_t(q)] || f[5] != r.tokens[std::size_t(k)] || as_float(f[6]) != expected)
              ++wrong;
          }
    CHECK(wrong == 0);

    REQUIRE(poem_export_file(state.poem, "poem_weights.json", &file));
    CHECK(file.mime == "application/json");
    const nlohmann::json wj = nlohmann::json::parse(file.bytes);
    CHECK(wj["text"] == state.poem.read_text);
    CHECK(wj["tokens"] == r.tokens);
    REQUIRE(wj["layers"].size() == std::size_t(L));
    wrong = 0;
    for (int l = 0; l < L; ++l) {
      REQUIRE(wj["layers"][std::size_t(l)]["heads"].size() == std::size_t(H));
      for (int h = 0; h < H; ++h) {
        const nlohmann::json& rows = wj["layers"][std::size_t(l)]["heads"][std::size_t(h)];
        REQUIRE(rows.size() == std::size_t(T));
        for (int q = 0; q < T; ++q) {
          REQUIRE(rows[std::size_t(q)].size() == std::size_t(T));
          for (int k = 0; k < T; ++k)
            wrong += rows[std::size_t(q)][std::size_t(k)].get<float>() != r.att[std::size_t(((l * H + h) * T + q) * T + k)];
        }
      }
    }
    CHECK(wrong == 0);

    REQUIRE(poem_export_file(state.poem, "poem_next.json", &file));
    const nlohmann::json nj = nlohmann::json::parse(file.bytes);
    CHECK(nj["tokens"] == r.tokens);
    REQUIRE(nj["next"].size() == std::size_t(T));
    wrong = 0;
    for (int t = 0; t < T; ++t) {
      REQUIRE(nj["next"][std::size_t(t)].size() == std::size_t(api::kPoemTop));
      for (int i = 0; i < api::kPoemTop; ++i) {
        const nlohmann::json& e = nj["next"][std::size_t(t)][std::size_t(i)];
        const std::size_t at = std::size_t(t * api::kPoemTop + i);
        wrong += e["char"] != r.top_chars[at] || e["p"].get<float>() != r.top_p[at];
      }
    }
    CHECK(wrong == 0);
    REQUIRE(nj["loss"].size() == std::size_t(T - 1));
    for (int t = 0; t + 1 < T; ++t) CHECK(nj["loss"][std::size_t(t)].get<float>() == r.losses[std::size_t(t)]);

    REQUIRE(poem_export_file(state.poem, "poem_next.csv", &file));
    const Rows next = parse_csv(file.bytes);
    REQUIRE(next.size() == std::size_t(1 + T * api::kPoemTop));
    CHECK(next[0] == std::vector<std::string>{"position", "char", "loss", "rank", "next_char", "p"});
    wrong = 0;
    row = 1;
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < api::kPoemTop; ++i, ++row) {
        const std::vector<std::string>& f = next[row];
        const std::size_t at = std::size_t(t * api::kPoemTop + i);
        const bool loss_ok = t == 0 ? f[2].empty() : as_float(f[2]) == r.losses[std::size_t(t - 1)];
        if (f.size() != 6 || as_int(f[0]) != t || f[1] != r.tokens[std::size_t(t)] || !loss_ok ||
            as_int(f[3]) != i + 1 || f[4] != r.top_chars[at] || as_float(f[5]) != r.top_p[at])
          ++wrong;
      }
    CHECK(wrong == 0);
  }
  // What the view does not export.
  for (const char* bad : {"poem_weights", "poem_weights.png", "poem_other.csv", "weights_head0.csv", ".csv"})
    CHECK(!poem_export_file(state.poem, bad, &file));
  // Through the export popup's path: the open view's exports.
  state.export_requests.clear();
  CHECK(request_export(state, "poem_next.json"));
  REQUIRE(state.export_requests.size() == 1);
  CHECK(state.export_requests[0].name == "poem_next.json");
  CHECK(!request_export(state, "poem_nonsense.json"));
}

// The training slice (beside the weights: scripts/poem_model.sh) into the
// session, as the platform does once Start asked for it.
void give_session_corpus() {
  std::string slice;
  REQUIRE(read_file(test::file_from_env("ATTN_POEM_SLICE_FILE"), slice));
  REQUIRE(session()->train_corpus(slice).empty());
}

// The heatmaps show the model being trained on its fixed poem (held-out poem
// 0), with the weights the session's trainer gives for it.
void check_shows_trained_poem(const AppState& state) {
  REQUIRE(state.poem.reading);
  CHECK(state.poem.read_trained);
  CHECK(state.poem.read_text == state.poem.summary->held_out[0]);
  api::PoemReadingData direct;
  REQUIRE(session()->train_read(state.poem.summary->held_out[0], direct).empty());
  CHECK(direct.att == state.poem.reading->att);
}

TEST_CASE("poem lab: training in the page (Step, Start, Pause) lowers the held-out loss") {
  AppState state;
  make_ready(state);
  poem_update(state);
  // Start asks for the rest of the corpus; the platform hands it to the session (as poem_native.cpp does).
  poem_train(state, PoemTrainAction::Step);
  CHECK(state.poem.corpus == ModuleLoad::Requested);
  give_session_corpus();
  state.poem.corpus = ModuleLoad::Ready;
  // Step: exactly one step (its 16 sequences over several frames), then it pauses.
  for (int frame = 0; frame < 400 && state.poem.training_running; ++frame) poem_update(state);
  REQUIRE(state.poem.training);
  CHECK(state.poem.training->steps == 1);
  CHECK(!state.poem.training_running);
  CHECK(state.poem.show_trained);
  // The untrained model was scored first: about ln(vocabulary) nats a character.
  REQUIRE(state.poem.training->eval_steps.size() == 1);
  CHECK(state.poem.training->eval_steps[0] == 0.0f);
  CHECK(state.poem.training->vocab > 1000);
  CHECK(state.poem.training->vocab < state.poem.summary->vocab);
  CHECK(std::fabs(state.poem.training->eval_loss[0] - std::log(float(state.poem.training->vocab))) < 0.3f);
  // Every character the trained model can predict is in the font atlas's
  // set from the first step on: none of its predictions rebuilds the atlas.
  std::vector<uint32_t> vocabulary;
  append_code_points(state.poem.training->characters, &vocabulary);
  CHECK(int(vocabulary.size()) == state.poem.training->vocab - poem::Vocab::kSpecials);
  const std::vector<uint32_t> in_use = characters_in_use(state);
  std::sort(vocabulary.begin(), vocabulary.end());
  CHECK(std::includes(in_use.begin(), in_use.end(), vocabulary.begin(), vocabulary.end()));
  // Paused, the accessible copy has the selected head's table.
  A11yView paused;
  describe_poem(state, paused);
  CHECK(paused.only_heatmap == "poem_l0h0");
  CHECK(paused.summary.rfind(poem_label(*state.poem.summary, state.poem.poem), 0) == 0);  // the poem's title first
  // Start, until the held-out poems are scored again at step 50; Pause holds it there.
  poem_train(state, PoemTrainAction::Start);
  for (int frame = 0; frame < 20000 && state.poem.training->eval_steps.size() < 2; ++frame) poem_update(state);
  // Running, it says the table follows when training pauses, and holds none.
  A11yView running;
  describe_poem(state, running);
  CHECK(running.only_heatmap == A11yView::kNoHeatmap);
  CHECK(running.summary.find(tr("poem.a11y.training_table")) != std::string::npos);
  poem_train(state, PoemTrainAction::Pause);
  const int steps = state.poem.training->steps;
  poem_update(state);
  CHECK(state.poem.training->steps == steps);
  REQUIRE(state.poem.training->eval_steps.size() == 2);
  CHECK(state.poem.training->eval_steps[1] == 50.0f);
  CHECK(state.poem.training->eval_loss[1] < state.poem.training->eval_loss[0] - 1.0f);
  // The heatmaps show the model being trained, on the fixed poem (held-out poem 0).
  check_shows_trained_poem(state);
  // Reset: a fresh model, scored again from step 0.
  poem_train(state, PoemTrainAction::Reset);
  CHECK(state.poem.training->steps == 0);
}

// The browser's trainer is a Web Worker (web/poem.js): requests posted, the
// answers back later and in order. Here a queue stands for it; the lab must
// keep one training request in flight at a time, keep the last reading on
// screen until the trained model's arrives, and end a Step or a Reset where
// the in-process path ends them.
TEST_CASE("poem lab: training through a posted trainer (the browser's worker) answers in order") {
  AppState state;
  make_ready(state);
  poem_update(state);
  give_session_corpus();
  static std::deque<std::vector<uint8_t>> queue;
  queue.clear();
  state.poem.post = [](const std::vector<uint8_t>& request) { queue.push_back(request); };
  // The worker answers the oldest request (the lab is told which op it was).
  auto answer_one = [&] {
    REQUIRE(!queue.empty());
    const std::vector<uint8_t> request = queue.front();
    queue.pop_front();
    api::WireReader in(request.data(), request.size());
    const auto op = api::PoemOp(in.u32());
    poem_take_answer(state, op, session()->serve(request.data(), request.size()));
    return op;
  };
  poem_train(state, PoemTrainAction::Step);
  state.poem.corpus = ModuleLoad::Ready;
  poem_update(state);
  REQUIRE(queue.size() == 1);  // a fresh model first, and nothing more until it answers
  CHECK(answer_one() == api::PoemOp::TrainReset);
  CHECK(state.poem.training->steps == 0);
  CHECK(state.poem.show_trained);
  int runs = 0;
  for (int frame = 0; frame < 200 && state.poem.training_running; ++frame) {
    poem_update(state);
    CHECK(state.poem.posted == int(queue.size()));
    CHECK(queue.size() <= 2);  // a TrainRun, and perhaps a TrainRead before it
    CHECK(state.poem.reading);  // the last reading stays until the new one comes
    while (!queue.empty()) runs += answer_one() == api::PoemOp::TrainRun;
  }
  CHECK(!state.poem.training_running);
  REQUIRE(state.poem.training);
  CHECK(state.poem.training->steps == 1);
  // The held-out poems scored (32 units), then the step's 16 sequences: two requests.
  CHECK(runs == 2);
  // The trained model's reading of its fixed poem came from the trainer.
  for (int frame = 0; frame < 5; ++frame) {
    poem_update(state);
    while (!queue.empty()) answer_one();
  }
  check_shows_trained_poem(state);
  // Start: the trainer holds two TrainRuns, and as it answers one the next is
  // posted at once, with no frame between (the trainer never waits for the page).
  poem_train(state, PoemTrainAction::Start);
  poem_update(state);
  REQUIRE(queue.size() == 2);
  CHECK(answer_one() == api::PoemOp::TrainRun);
  CHECK(state.poem.training->steps == 2);
  CHECK(queue.size() == 2);
  // Pause and Reset while two TrainRuns are on their way: their answers come
  // first, then the fresh model's; nothing more is posted.
  poem_train(state, PoemTrainAction::Pause);
  poem_train(state, PoemTrainAction::Reset);
  CHECK(queue.size() == 3);
  CHECK(answer_one() == api::PoemOp::TrainRun);
  CHECK(state.poem.training->steps == 3);
  CHECK(answer_one() == api::PoemOp::TrainRun);
  CHECK(state.poem.training->steps == 4);
  CHECK(queue.size() == 1);
  CHECK(answer_one() == api::PoemOp::TrainReset);
  CHECK(state.poem.training->steps == 0);
  for (int frame = 0; frame < 5; ++frame) {
    poem_update(state);
    while (!queue.empty()) CHECK(answer_one() == api::PoemOp::TrainRead);
  }
  CHECK(state.poem.posted == 0);
  CHECK(!state.poem.training_running);
  // A trainer that stopped answers what it owed with why (web/poem.js); training
  // stops and says so, and nothing more is posted.
  poem_train(state, PoemTrainAction::Start);
  poem_update(state);
  REQUIRE(queue.size() == 2);
  queue.clear();
  poem_take_answer(state, api::PoemOp::TrainRun, api::answer_error("the trainer stopped: out of memory"));
  poem_take_answer(state, api::PoemOp::TrainRun, api::answer_error("the trainer stopped: out of memory"));
  poem_update(state);
  CHECK(queue.empty());
  CHECK(!state.poem.training_running);
  CHECK(state.poem.corpus_error == "the trainer stopped: out of memory");
  CHECK(state.poem.posted == 0);
}

}  // namespace
}  // namespace attn::ui

#endif  // ATTN_HAS_POEM_MODEL
