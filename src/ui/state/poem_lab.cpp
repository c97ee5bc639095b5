// The learned-heads view's state; see poem_lab.hpp.
#include "ui/state/poem_lab.hpp"

#include <algorithm>
#include <cstdio>


#include "ui/state/app_state.hpp"

namespace attn::ui {
namespace {

// One request to the session; "" and the answer's reader positioned after
// its error, or the error.
std::string ask(const PoemLab& lab, const api::WireWriter& request, std::vector<uint8_t>& answer) {
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

// The model's reading of lab.read_text (or the error) becomes the one on screen.
void take_reading(AppState& state, const std::vector<uint8_t>& answer, const std::string& error) {
  PoemLab& lab = state.poem;
  lab.read_error = error;
  if (lab.read_error.empty()) {
    api::WireReader in = after_error(answer);
    api::PoemReadingData reading = api::read_reading(in);
    if (reading.tokens.empty()) lab.read_error = "the poem model's answer was cut short";
    else lab.reading = std::move(reading);
  }
  // A text the model cannot read (empty) keeps the last reading on screen, with the message.
  lab.weights.clear();
  lab.weights_hi.clear();
  if (lab.reading) {
    const api::PoemReadingData& r = *lab.reading;
    const int T = r.size();
    for (int l = 0; l < r.layers; ++l)
      for (int h = 0; h < r.heads; ++h) {
        const Matrix& w = lab.weights.emplace_back(Eigen::Map<const Matrix>(r.weights(l, h), T, T));
        lab.weights_hi.push_back(std::max(T > 1 ? w.bottomRows(T - 1).maxCoeff() : 1.0f, 1e-6f));
      }
    lab.layer = std::clamp(lab.layer, 0, r.layers - 1);
    lab.head = std::clamp(lab.head, 0, r.heads - 1);
    if (lab.query >= T) lab.query = -1;
  }
  static uint64_t generations = 0;
  lab.reading_generation = ++generations;
  mark_state_changed(state);
}

// The trainer's answer: its progress, or an error that stops it.
void take_training(AppState& state, const std::vector<uint8_t>& answer, const std::string& error) {
  PoemLab& lab = state.poem;
  if (!error.empty()) {
    lab.corpus_error = error;
    lab.training_running = false;
    return;
  }
  api::WireReader in = after_error(answer);
  api::PoemTraining t = api::read_training(in);
  if (!in.ok()) return;
  lab.training = std::move(t);
  mark_state_changed(state);
}

// After a TrainRun's answer: stop at the target (or the Step's), and let the
// heatmaps follow the model being trained, read again at most 4 times a second.
void after_training_run(AppState& state) {
  PoemLab& lab = state.poem;
  if (!lab.training) return;
  const api::PoemTraining& t = *lab.training;
  if (t.finished || (lab.training_step_target && t.steps >= lab.training_step_target)) {
    lab.training_running = false;
    lab.training_step_target = 0;
  }
  if (lab.show_trained && t.steps != lab.trained_read_steps && (state.clock.ms_since(lab.trained_read_ms) > 250 || !lab.training_running))
    lab.read_again = true;
}

void keep_training(AppState& state);

// The trainer's answer to `op`, whenever it arrives.
void take_trainer_answer(AppState& state, api::PoemOp op, const std::vector<uint8_t>& answer) {
  PoemLab& lab = state.poem;
  api::WireReader error_in(answer.data(), answer.size());
  std::string error = error_in.str();
  if (!error_in.ok()) error = "the poem model gave no answer";
  switch (op) {
    case api::PoemOp::TrainReset:
      take_training(state, answer, error);
      lab.read_again = true;  // by the new model
      break;
    case api::PoemOp::TrainRun:
      take_training(state, answer, error);
      after_training_run(state);
      keep_training(state);
      break;
    case api::PoemOp::TrainRead:
      lab.read_posted = false;
      take_reading(state, answer, error);
      break;
    default:
      break;
  }
}

// A request for the model being trained: posted to the trainer's thread
// (answered later, in order), or answered now.
void to_trainer(AppState& state, const api::WireWriter& request, api::PoemOp op) {
  PoemLab& lab = state.poem;
  if (lab.post) {
    ++lab.posted;
    lab.post(request.bytes);
    return;
  }
  std::vector<uint8_t> answer;
  const std::string error = ask(lab, request, answer);
  take_trainer_answer(state, op, error.empty() ? answer : api::answer_error(error));
}

void read_text(AppState& state, const std::string& text) {
  PoemLab& lab = state.poem;
  lab.read_text = text;
  lab.read_trained = lab.show_trained && lab.training;
  lab.read_again = false;
  api::WireWriter request;
  if (lab.read_trained) {  // the model being trained, on its fixed poem
    request.u32(uint32_t(api::PoemOp::TrainRead));
    request.str(text);
    lab.trained_read_ms = state.clock.now_ms();
    lab.trained_read_steps = lab.training->steps;
    lab.read_posted = bool(lab.post);  // until the answer, the last reading stays on screen
    to_trainer(state, request, api::PoemOp::TrainRead);
    return;
  }
  request.u32(uint32_t(api::PoemOp::Read));
  request.str(text);
  std::vector<uint8_t> answer;
  const std::string error = ask(lab, request, answer);
  take_reading(state, answer, error);
}

// The attention-sink probe's reading of the text (lab.sink_start), once per
// text and start, by the shipped model (a model being trained is not probed).
void read_sink(AppState& state, const std::string& text) {
  PoemLab& lab = state.poem;
  if (lab.sink_start.empty() || lab.read_trained) {
    lab.sink_reading.reset();
    lab.sink_error.clear();
    lab.sink_read_key.clear();
    return;
  }
  const std::string key = text + '\x1f' + lab.sink_start;
  if (key == lab.sink_read_key) return;
  lab.sink_read_key = key;
  lab.sink_reading.reset();
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::ReadStart));
  request.str(text);
  request.str(lab.sink_start);
  std::vector<uint8_t> answer;
  lab.sink_error = ask(lab, request, answer);
  if (lab.sink_error.empty()) {
    api::WireReader in = after_error(answer);
    api::PoemReadingData reading = api::read_reading(in);
    if (reading.tokens.empty()) lab.sink_error = "the poem model's answer was cut short";
    else lab.sink_reading = std::move(reading);
  }
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
  lab.poem = PoemLab::kOwnText;
  lab.probe = 0;
  lab.text = lab.sample_prompt + continuation;
  lab.query = -1;
  if (done) lab.sampling = false;
  mark_state_changed(state);
}

void reset_training(AppState& state) {
  PoemLab& lab = state.poem;
  lab.trained_poem = lab.poem >= 0 ? lab.poem : lab.summary ? lab.summary->default_poem : 0;
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::TrainReset));
  request.u32(1);  // the seed
  request.u32(uint32_t(lab.trained_poem));
  request.u32(0);  // this thread's trainer is the first replica; the platform starts the others
  request.u32(uint32_t(std::max(1, lab.replicas)));
  to_trainer(state, request, api::PoemOp::TrainReset);
}

// A TrainRun of `units` (a sequence of a step's batch, or a held-out poem, each).
void train_units(AppState& state, int units) {
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::TrainRun));
  request.u32(uint32_t(units));
  to_trainer(state, request, api::PoemOp::TrainRun);
}

// Training requests (TrainReset, TrainRun) posted and not answered yet.
int training_in_flight(const PoemLab& lab) { return lab.posted - int(lab.read_posted); }

// A trainer's thread holds two training requests at once while it runs: as
// it answers one, the next is already there, so it never waits for the page
// to take the answer (behind a long frame) and post again. A Step holds one,
// so it takes exactly one step; Pause waits for at most two.
constexpr int kTrainAhead = 2;

// A share of training. In the trainer's own thread: requests for the rest of
// the step under way (or of the held-out scoring), up to kTrainAhead of them;
// a reading of the model being trained waits behind at most those. In this
// thread: units until about 7 ms of the frame have gone (at least one).
void train_slice(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.post) {
    const int ahead = lab.training_step_target ? 1 : kTrainAhead;
    while (training_in_flight(lab) < ahead) {
      const api::PoemTraining& t = *lab.training;
      const int evaluation = t.held_out - t.evaluated;  // held-out poems still to score
      // Behind another request `t` is stale: ask for one step's worth, never more.
      const int units = training_in_flight(lab) > 0 ? t.batch
                        : evaluation > 0           ? evaluation
                                                   : std::max(1, t.batch - t.sequences);
      train_units(state, units);
    }
    return;
  }
  const double start = state.clock.now_ms();
  do {
    train_units(state, 1);
  } while (lab.training && !lab.training->finished && lab.training_running && state.clock.ms_since(start) < 7.0);
}

// With the trainer in a thread of its own, the next request is posted as soon
// as an answer arrives, not in the next frame: the page draws only to show
// what arrived.
void keep_training(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.post && lab.training_running && lab.corpus == ModuleLoad::Ready && lab.training && !lab.training->finished)
    train_slice(state);
}

}  // namespace

void poem_train(AppState& state, PoemTrainAction action) {
  PoemLab& lab = state.poem;
  mark_state_changed(state);
  if (lab.load != ModuleLoad::Ready) return;
  switch (action) {
    case PoemTrainAction::Start:
    case PoemTrainAction::Step:
      if (lab.corpus != ModuleLoad::Ready) {
        if (lab.corpus != ModuleLoad::Loading) lab.corpus = ModuleLoad::Requested;  // the platform fetches it
      }
      lab.training_running = true;
      lab.show_trained = true;
      if (action == PoemTrainAction::Step)
        lab.training_step_target = (lab.training ? lab.training->steps : 0) + 1;
      break;
    case PoemTrainAction::Pause:
      lab.training_running = false;
      if (lab.show_trained) lab.read_again = true;  // the heatmaps show where it stopped
      break;
    case PoemTrainAction::Reset:
      lab.training_running = false;
      lab.training_step_target = 0;
      if (lab.corpus == ModuleLoad::Ready) reset_training(state);
      else lab.training.reset();
      break;
  }
}

double poem_training_seconds_left(const PoemLab::ModelTraining& training) {
  if (training.step <= 0 || training.steps <= 0 || !(training.seconds > 0)) return -1;
  return training.seconds / training.step * std::max(0, training.steps - training.step);
}

bool poem_open(const AppState& state) { return open_view(state).source == ViewSource::Poem; }

std::string poem_text_in_use(const PoemLab& lab) {
  if (lab.probe > 0) return poem_probe_text(lab, lab.probe);
  if (lab.poem >= 0 && lab.summary && lab.poem < int(lab.summary->held_out.size()))
    return lab.summary->held_out[std::size_t(lab.poem)];
  return lab.poem == PoemLab::kOwnText ? lab.text : std::string();
}

bool poem_shows_trained(const PoemLab& lab) { return lab.show_trained && lab.training && lab.summary; }

std::string poem_text_shown(const PoemLab& lab) {
  if (!poem_shows_trained(lab)) return poem_text_in_use(lab);
  const int poems = int(lab.summary->held_out.size());
  return poems ? lab.summary->held_out[std::size_t(std::clamp(lab.trained_poem, 0, poems - 1))] : std::string();
}

std::string poem_probe_text(const PoemLab& lab, int seed) {
  if (!lab.summary) return {};
  // The held-out poems' characters once each, in the order met: every one
  // is in the model's vocabulary or close to it, and none is punctuation.
  std::vector<std::string> chars;
  std::string seen;
  for (const std::string& poem : lab.summary->held_out)
    for (std::size_t i = 0; i < poem.size();) {
      std::size_t n = 1;
      const unsigned char lead = static_cast<unsigned char>(poem[i]);
      if (lead >= 0xF0) n = 4;
      else if (lead >= 0xE0) n = 3;
      else if (lead >= 0xC0) n = 2;
      const std::string ch = poem.substr(i, n);
      i += n;
      // Ideographs only (three bytes from U+4E00): no marks, no line breaks.
      if (n != 3 || ch < "\xE4\xB8\x80" || ch > "\xE9\xBF\xBF" || seen.find(ch) != std::string::npos) continue;
      seen += ch;
      chars.push_back(ch);
    }
  if (chars.empty()) return {};
  // splitmix64 from the seed: the same seed, the same probe, on every platform.
  uint64_t x = uint64_t(seed);
  const auto next = [&x] {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  };
  std::string run;
  for (int i = 0; i < api::PoemLimits::kProbePeriod; ++i) run += chars[std::size_t(next() % chars.size())];
  return run + run;
}

void poem_take_summary(PoemLab& lab, api::PoemSummary summary) {
  lab.summary = std::move(summary);
  const int poems = int(lab.summary->held_out.size());
  if (lab.poem == PoemLab::kDefaultPoem || lab.poem >= poems) lab.poem = poems ? lab.summary->default_poem : PoemLab::kOwnText;
}

std::string poem_label(const api::PoemSummary& s, int poem) {
  if (poem < 0 || poem >= int(s.held_out.size())) return {};
  const std::string& title = s.titles[std::size_t(poem)];
  const std::string& author = s.authors[std::size_t(poem)];
  std::string label = title.empty() ? poem_first_line(s.held_out[std::size_t(poem)]) : "\xE3\x80\x8A" + title + "\xE3\x80\x8B";
  if (!author.empty()) label += " " + author;
  return label;
}

std::string poem_first_line(const std::string& poem) { return poem.substr(0, poem.find('\n')); }

void poem_update(AppState& state) {
  PoemLab& lab = state.poem;
  if (lab.load == ModuleLoad::Idle) lab.load = ModuleLoad::Requested;  // the platform loads it (once)
  if (lab.load != ModuleLoad::Ready) return;
  if (lab.sampling) sample_step(state);
  if (lab.corpus == ModuleLoad::Failed) lab.training_running = false;
  // "Your model" stays chosen while its first answer is on the way.
  const bool in_flight = training_in_flight(lab) > 0;
  if (lab.show_trained && !lab.training && !lab.training_running && !in_flight) lab.show_trained = false;
  const bool trained = poem_shows_trained(lab);
  const std::string text = poem_text_shown(lab);
  const bool stale = lab.read_again || (!lab.reading && lab.read_error.empty()) || text != lab.read_text ||
                     lab.read_trained != trained;
  if (stale && !lab.read_posted) read_text(state, text);
  read_sink(state, text);
  if (lab.training_running && lab.corpus == ModuleLoad::Ready) {
    if (!lab.training) {
      if (!in_flight) reset_training(state);
    } else if (!lab.training->finished) {
      train_slice(state);
    } else if (!in_flight) {
      lab.training_running = false;
    }
  }
}

bool poem_pending(const PoemLab& lab) {
  // A model on its way is pending (settled() waits for the view it opens),
  // except while scripts/run.sh still trains it: that wait is minutes long,
  // and the loader wakes the frames when it has news.
  const bool fetching = lab.load == ModuleLoad::Loading && !lab.model_training;
  return lab.load == ModuleLoad::Requested || fetching || lab.corpus == ModuleLoad::Requested ||
         lab.corpus == ModuleLoad::Loading || lab.sampling;
}

bool poem_busy(const PoemLab& lab) {
  // Training in the trainer's thread is not this page's work: its answers
  // wake the frames (drawing meanwhile would take the CPU it trains on).
  return poem_pending(lab) || (lab.training_running && !lab.post);
}

void poem_probe(AppState& state) {
  PoemLab& lab = state.poem;
  lab.probe = lab.probe > 0 && lab.probe < 2147483647 ? lab.probe + 1 : 1;
  lab.poem = PoemLab::kOwnText;
  lab.text = poem_probe_text(lab, lab.probe);
  lab.query = -1;
  mark_state_changed(state);
}

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

bool poem_export_file(const PoemLab& lab, const std::string& what, api::ExportFile* out) {
  if (!lab.reading) return false;
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::Export));
  request.str(what);
  request.str(lab.read_text);
  api::write_reading(request, *lab.reading);
  std::vector<uint8_t> answer;
  if (!ask(lab, request, answer).empty()) return false;
  api::WireReader in = after_error(answer);
  api::ExportFile file;
  file.name = in.str();
  file.mime = in.str();
  file.bytes = in.str();
  if (!in.ok()) return false;
  *out = std::move(file);
  return true;
}

int poem_query(const PoemLab& lab) {
  if (!lab.reading) return 0;
  const int T = lab.reading->size();
  return lab.query < 0 || lab.query >= T ? T - 1 : lab.query;
}

const std::vector<api::PoemHead>* poem_heads_shown(const PoemLab& lab) {
  if (lab.show_trained && lab.training) return &lab.training->heads;
  return lab.summary ? &lab.summary->heads_found : nullptr;
}

int poem_outline_detector(const PoemLab& lab, const api::PoemHead& head) {
  if (lab.reading && lab.reading->period > 0) return api::kPoemInduction;
  if (head.strongest >= 0) return head.strongest;
  int best = -1;
  for (int d = 0; d < api::kPoemDetectors; ++d)
    if (d != api::kPoemInduction && (best < 0 || head.ratio[std::size_t(d)] > head.ratio[std::size_t(best)])) best = d;
  return best;
}

const api::PoemHead* poem_head_found(const PoemLab& lab, int layer, int head) {
  const std::vector<api::PoemHead>* heads = poem_heads_shown(lab);
  if (!heads) return nullptr;
  for (const api::PoemHead& h : *heads)
    if (h.layer == layer && h.head == head) return &h;
  return nullptr;
}

void poem_take_answer(AppState& state, api::PoemOp op, const std::vector<uint8_t>& answer) {
  PoemLab& lab = state.poem;
  lab.posted = std::max(0, lab.posted - 1);
  take_trainer_answer(state, op, answer);
}

}  // namespace attn::ui
