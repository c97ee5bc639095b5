// The learned-heads view's state: the poem model's loading, the reader's
// choices (which poem or text, which layer, head and position, how to
// continue) and what the model answered.
//
// The model itself is not here: it lives in an api::PoemSession that the
// platform provides once the view asks for it (ModuleLoad::Requested). The
// desktop loads the files and calls the session in-process; the browser
// loads a second wasm module with the weights (web/poem.js), so the lab's
// first download does not grow. Either way the view speaks to it through
// `call`, in api/poem/poem_wire.hpp's bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/explorer/export_tables.hpp"
#include "api/poem/poem_wire.hpp"
#include "core/types.hpp"
#include "ui/state/module_load.hpp"

namespace attn::ui {

struct AppState;

struct PoemLab {
  // ---- the reader's choices (state fields: lab_state.cpp) -------------------
  static constexpr int kOwnText = -1;
  static constexpr int kDefaultPoem = -2;  // until the model is loaded: then its summary's default_poem
  int poem = kDefaultPoem;  // the held-out poem shown; kOwnText: the reader's own text
  std::string text;      // the reader's own text (when poem is kOwnText)
  // The induction probe (a seed, 0: none): the text is then poem_probe_text's
  // random characters, repeated once. Editing the text or picking a poem ends it.
  int probe = 0;
  // The selected head's pattern shown on its heatmap: the cells its detector
  // counts outlined (clicking a head's title turns it on and off).
  bool outline = true;
  int layer = 0, head = 0;
  int query = -1;        // the selected position; -1: the last
  int sample_length = 28;
  float sample_temperature = 0.8f;  // the T of softmax(z / T), as the explorer's temperature
  int sample_seed = 1;

  // ---- the model ----------------------------------------------------------
  ModuleLoad load = ModuleLoad::Idle;
  double received = 0, total = 0;  // bytes of the weights so far, in all (0: not known yet)
  std::string load_error;
  // While Loading: the page is served before its model is trained
  // (scripts/run.sh), and the training behind it has come this far
  // (poem_training.json: step 0 while the corpus is prepared).
  struct ModelTraining {
    int step = 0, steps = 0;
    double seconds = 0;  // since the first step
  };
  std::optional<ModelTraining> model_training;
  // The session (set by the platform when the model is ready): a request's
  // bytes in, the answer's bytes out (api/poem/poem_wire.hpp).
  std::function<std::vector<uint8_t>(const std::vector<uint8_t>&)> call;
  // The trainer's own thread, when the platform has one (the browser: a Web
  // Worker, web/poem.js): the model being trained gets its requests there
  // and answers through poem_take_answer, later and in order, so no frame
  // waits for a step. Without it (the desktop) they go through `call`, a
  // few milliseconds a frame. (A plain pointer: each std::function type
  // costs the first download.)
  void (*post)(const std::vector<uint8_t>& request) = nullptr;
  int posted = 0;  // requests posted and not answered yet
  int replicas = 1;  // the trainer's threads, each taking a part of every batch (the browser: one per worker)
  std::optional<api::PoemSummary> summary;

  // ---- what the model answered for the text in use -----------------------------
  std::string read_text;     // the text the reading (or read_error) belongs to
  bool read_trained = false; // ... and whether the model being trained read it
  bool read_posted = false;  // that reading is on its way from the trainer's thread (the last stays on screen)
  bool read_again = false;   // the model changed: read the text again
  std::optional<api::PoemReadingData> reading;
  std::string read_error;    // e.g. the text is empty
  // The attention-sink probe (api/poem/sink_probe.hpp): "" reads nothing more;
  // "none" reads the text again without <poem>, one character with it in
  // <poem>'s place, by the shipped model, beside `reading`.
  std::string sink_start;
  std::string sink_read_key;  // the text and start sink_reading (or sink_error) belong to
  std::optional<api::PoemReadingData> sink_reading;
  std::string sink_error;
  std::vector<Matrix> weights;  // reading's heads as matrices, [layer * heads + head]
  // Each head's largest weight after the first row (always 1 on <poem>): the top of its colour scale.
  std::vector<float> weights_hi;
  uint64_t reading_generation = 0;  // new with each reading: the heatmaps' textures follow it

  // ---- a continuation in progress (续写) -----------------------------------
  bool sampling = false;
  std::string sample_prompt;  // the text it continues
  std::string sample_error;

  // ---- a model trained from scratch in the page (Start / Pause / Step / Reset) ----
  ModuleLoad corpus = ModuleLoad::Idle;  // the rest of the corpus (song100, chinese): asked for by Start
  std::string corpus_error;
  std::optional<api::PoemTraining> training;  // its progress, curves and heads (none before Start)
  bool training_running = false;
  int training_step_target = 0;  // Step: run until this step, then pause (0: none)
  bool show_trained = false;     // the heatmaps show the model being trained, on its fixed poem
  int trained_poem = 0;          // that poem (a held-out index), fixed at Start / Reset
  double trained_read_ms = 0;    // when the trained model's reading was last asked for (AppState::clock, ms)
  int trained_read_steps = -1;   // ... and at which step
  // The held-out picker is open or under the pointer: every poem's title and
  // author goes into the font atlas (text_in_use.cpp), else only the shown ones.
  bool labels_shown = false;
};

// The training panel's buttons (the view's panel and the accessible copy).
enum class PoemTrainAction { Start, Pause, Step, Reset };
void poem_train(AppState& state, PoemTrainAction action);

// The answer to a request posted to the trainer's thread (`post`); op: the request's.
void poem_take_answer(AppState& state, api::PoemOp op, const std::vector<uint8_t>& answer);

// The seconds the model's training behind the page still needs, from its pace
// so far (-1 before a step has been timed).
double poem_training_seconds_left(const PoemLab::ModelTraining& training);

// The poem view is open (its statistics and requests run only then).
bool poem_open(const AppState& state);

// The text the view reads: the held-out poem chosen, the probe, or the reader's own.
std::string poem_text_in_use(const PoemLab& lab);
// The heatmaps show the model being trained: it reads the poem its heads are
// measured on (fixed at Start), whatever the picker says meanwhile.
bool poem_shows_trained(const PoemLab& lab);
// The text on screen: the trained model's poem while it is shown, else the text in use.
std::string poem_text_shown(const PoemLab& lab);
// The probe's text for a seed: PoemLimits::kProbePeriod characters drawn
// from the held-out poems' (not punctuation), then the same again.
std::string poem_probe_text(const PoemLab& lab, int seed);
// The model is loaded: its summary, and the poem the view opens on.
void poem_take_summary(PoemLab& lab, api::PoemSummary summary);
// The held-out poem's label: "《title》 author" (its first line when it has no title).
std::string poem_label(const api::PoemSummary& summary, int poem);
// The held-out poem's first line (the label of a poem without a title).
std::string poem_first_line(const std::string& poem);

// Once a frame while the view is open: asks for the model, reads the text in
// use when it changed, draws the next characters of a continuation.
void poem_update(AppState& state);
// Work of its own: the model or the corpus asked for (the platform loads
// them between frames), a continuation being drawn (poem_pending), training.
bool poem_busy(const PoemLab& lab);
bool poem_pending(const PoemLab& lab);

// The induction probe: the text becomes a new random run repeated once (the seed after the last).
void poem_probe(AppState& state);

// Starts a continuation of the text in use (the view's 续写 button).
void poem_continue(AppState& state);

// The files the export popup offers for the view: "poem_weights" (every
// layer's and head's weights, one row per query and key) and "poem_next"
// (each position's ten likeliest next characters and the loss), as .csv or
// .json. False when `what` is none of them or nothing was read yet.
bool poem_export_file(const PoemLab& lab, const std::string& what, api::ExportFile* out);
inline const char* const kPoemExports[] = {"poem_weights", "poem_next"};

// The selected position, clamped to the reading (the last when query is -1).
int poem_query(const PoemLab& lab);
// The heads' patterns shown: the model being trained's (on its fixed poem,
// or all held-out poems once finished) or the shipped model's.
const std::vector<api::PoemHead>* poem_heads_shown(const PoemLab& lab);
// The head the selection names, from those (null before it is loaded).
const api::PoemHead* poem_head_found(const PoemLab& lab, int layer, int head);
// The detector whose cells a head's outline shows on the reading: on the
// probe's repeated text, induction; else the head's pattern, or for a head
// without one the detector it comes closest to (the largest ratio). -1: none.
int poem_outline_detector(const PoemLab& lab, const api::PoemHead& head);

}  // namespace attn::ui
