// The learned-heads view's state; see poem_lab.hpp.
#include "ui/state/poem_lab.hpp"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "ui/state/app_state.hpp"

namespace attn::ui {
namespace {

// One request to the session; "" and the answer's reader positioned after
// its error, or the error.
std::string ask(PoemLab& lab, const api::WireWriter& request, std::vector<uint8_t>& answer) {
  if (!lab.call) return "the poem model is not loaded";
  answer = lab.call(request.bytes);
  api::WireReader error(answer.data(), answer.size());
  std::string e = error.str();
  if (!error.ok()) return "the poem model gave no answer";
  return e;
}

// The answer after its error string.
api::WireReader after_error(const std::vector<uint8_t>& answer) {
  api::WireReader in(answer.data(), answer.size());
  in.str();
  return in;
}

void read_text(AppState& state, const std::string& text) {
  PoemLab& lab = state.poem;
  lab.read_text = text;
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::Read));
  request.str(text);
  std::vector<uint8_t> answer;
  lab.read_error = ask(lab, request, answer);
  if (lab.read_error.empty()) {
    api::WireReader in = after_error(answer);
    api::PoemReadingData reading = api::read_reading(in);
    if (reading.tokens.empty()) lab.read_error = "the poem model's answer was cut short";
    else lab.reading = std::move(reading);
  }
  // A text the model cannot read (empty) keeps the last reading on screen, with the message.
  lab.weights.clear();
  if (lab.reading) {
    const api::PoemReadingData& r = *lab.reading;
    const int T = r.size();
    for (int l = 0; l < r.layers; ++l)
      for (int h = 0; h < r.heads; ++h) lab.weights.push_back(Eigen::Map<const Matrix>(r.weights(l, h), T, T));
    lab.layer = std::clamp(lab.layer, 0, r.layers - 1);
    lab.head = std::clamp(lab.head, 0, r.heads - 1);
    if (lab.query >= T) lab.query = -1;
  }
  static uint64_t generations = 0;
  lab.reading_generation = ++generations;
  mark_state_changed(state);
}

void sample_step(AppState& state) {
  PoemLab& lab = state.poem;
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::SampleStep));
  request.u32(2);  // ~2 forward passes: a few ms, so the frame stays short
  std::vector<uint8_t> answer;
  lab.sample_error = ask(lab, request, answer);
  api::WireReader in = after_error(answer);
  const std::string continuation = in.str();
  const bool done = in.u32() != 0 || !in.ok() || !lab.sample_error.empty();
  if (!lab.sample_error.empty()) {
    lab.sampling = false;
    mark_state_changed(state);
    return;
  }
  // The continuation so far becomes the reader's text, read like typed text.
  lab.poem = -1;
  lab.text = lab.sample_prompt + continuation;
  lab.query = -1;
  if (done) lab.sampling = false;
  mark_state_changed(state);
}

}  // namespace

bool poem_open(const AppState& state) { return open_view(state).source == ViewSource::Poem; }

std::string poem_text_in_use(const PoemLab& lab) {
  if (lab.poem >= 0 && lab.summary && lab.poem < int(lab.summary->held_out.size()))
    return lab.summary->held_out[std::size_t(lab.poem)];
  return lab.poem >= 0 ? std::string() : lab.text;
}

std::string poem_first_line(const std::string& poem) { return poem.substr(0, poem.find('\n')); }

void poem_update(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.load == PoemLoad::Idle) lab.load = PoemLoad::Requested;  // the platform loads it (once)
  if (lab.load != PoemLoad::Ready) return;
  if (lab.sampling) sample_step(state);
  const std::string text = poem_text_in_use(lab);
  if ((!lab.reading && lab.read_error.empty()) || text != lab.read_text) read_text(state, text);
}

bool poem_busy(const PoemLab& lab) { return lab.load == PoemLoad::Requested || lab.sampling; }

void poem_continue(AppState& state) {
  PoemLab& lab = state.poem;
  lab.sample_prompt = poem_text_in_use(lab);
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::SampleBegin));
  request.str(lab.sample_prompt);
  request.u32(uint32_t(lab.sample_length));
  request.f32(lab.sample_temperature);
  request.u32(uint32_t(lab.sample_seed));
  std::vector<uint8_t> answer;
  lab.sample_error = ask(lab, request, answer);
  lab.sampling = lab.sample_error.empty();
  mark_state_changed(state);
}

namespace {

// A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", double(v));
  return text;
}

}  // namespace

bool poem_export_file(const PoemLab& lab, const std::string& what, api::ExportFile* out) {
  if (!lab.reading) return false;
  const api::PoemReadingData& r = *lab.reading;
  const std::size_t dot = what.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string id = what.substr(0, dot), ext = what.substr(dot);
  const bool csv = ext == ".csv";
  if ((!csv && ext != ".json") || (id != "poem_weights" && id != "poem_next")) return false;
  const int T = r.size();
  std::string bytes;
  if (id == "poem_weights" && csv) {
    bytes = "layer,head,query,key,query_char,key_char,weight\n";
    for (int l = 0; l < r.layers; ++l)
      for (int h = 0; h < r.heads; ++h)
        for (int q = 0; q < T; ++q)
          for (int k = 0; k < T; ++k)
            bytes += std::to_string(l) + "," + std::to_string(h) + "," + std::to_string(q) + "," + std::to_string(k) +
                     "," + csv_field(r.tokens[std::size_t(q)]) + "," + csv_field(r.tokens[std::size_t(k)]) + "," +
                     number(r.weights(l, h)[std::size_t(q * T + k)]) + "\n";
  } else if (id == "poem_next" && csv) {
    bytes = "position,char,loss,rank,next_char,p\n";
    for (int t = 0; t < T; ++t)
      for (int i = 0; i < api::kPoemTop; ++i) {
        const std::size_t at = std::size_t(t) * api::kPoemTop + std::size_t(i);
        bytes += std::to_string(t) + "," + csv_field(r.tokens[std::size_t(t)]) + "," +
                 (t > 0 ? number(r.losses[std::size_t(t - 1)]) : std::string()) + "," + std::to_string(i + 1) + "," +
                 csv_field(r.top_chars[at]) + "," + number(r.top_p[at]) + "\n";
      }
  } else {
    // As compute({poem: {text}}) names things: tokens, layers[l].heads[h][q][k], loss.
    nlohmann::json doc = {{"text", lab.read_text}, {"tokens", r.tokens}};
    if (id == "poem_weights") {
      nlohmann::json layers = nlohmann::json::array();
      for (int l = 0; l < r.layers; ++l) {
        nlohmann::json heads = nlohmann::json::array();
        for (int h = 0; h < r.heads; ++h) {
          nlohmann::json rows = nlohmann::json::array();
          for (int q = 0; q < T; ++q)
            rows.push_back(std::vector<float>(r.weights(l, h) + q * T, r.weights(l, h) + (q + 1) * T));
          heads.push_back(std::move(rows));
        }
        layers.push_back({{"heads", std::move(heads)}});
      }
      doc["layers"] = std::move(layers);
    } else {
      nlohmann::json next = nlohmann::json::array();
      for (int t = 0; t < T; ++t) {
        nlohmann::json top = nlohmann::json::array();
        for (int i = 0; i < api::kPoemTop; ++i) {
          const std::size_t at = std::size_t(t) * api::kPoemTop + std::size_t(i);
          top.push_back({{"char", r.top_chars[at]}, {"p", r.top_p[at]}});
        }
        next.push_back(std::move(top));
      }
      doc["next"] = std::move(next);
      doc["loss"] = r.losses;
    }
    bytes = doc.dump() + "\n";
  }
  *out = {what, csv ? "text/csv" : "application/json", std::move(bytes)};
  return true;
}

int poem_query(const PoemLab& lab) {
  if (!lab.reading) return 0;
  const int T = lab.reading->size();
  return lab.query < 0 || lab.query >= T ? T - 1 : lab.query;
}

const api::PoemHead* poem_head_found(const PoemLab& lab, int layer, int head) {
  if (!lab.summary) return nullptr;
  for (const api::PoemHead& h : lab.summary->heads_found)
    if (h.layer == layer && h.head == head) return &h;
  return nullptr;
}

}  // namespace attn::ui
