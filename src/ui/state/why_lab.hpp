// The "why attention" view's state: the reader's choices for its two panels
// (recurrence against attention; why Q, K and V are three), each panel's run
// and what its models last reported.
//
// The models are not here: they train in the experiments' module
// (api/why/why_calls.hpp), which the platform provides once the view asks for
// it (ModuleLoad::Requested). The browser loads it as a wasm module of its own
// (web/why.js), so the lab's first download does not carry it, and trains the
// runs in a Web Worker; the desktop and the UI tests call it in-process.
// Either way the view speaks to it in api/why/why_wire.hpp's bytes, as the
// learned-heads view speaks to its poem model, and reads typed reports.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/why/why_wire.hpp"
#include "core/types.hpp"
#include "ui/state/module_load.hpp"

namespace attn::ui {

struct AppState;

using api::kWhyPanels;
using api::WhyPanel;

// One model of the last report, as the view draws it (floats for the plots).
struct WhyModel {
  std::string key;  // "rnn", "gru", "attention", "cnn"; "none", "tied", "separate"
  double accuracy = 0, loss = 0;
  std::vector<float> by_distance;  // copy task: at why::kReportDistances
  std::vector<float> gradient;     // ‖∂L/∂x_t‖ for each input position t
  Matrix attention;                // the attention weights on held-out sequence 0 (attention models)
  double asymmetry = -1, self_strongest = -1;  // Q/K/V: the score matrix's symmetry
  std::vector<float> curve_loss, curve_accuracy;  // each training step's batch
};

// One panel's run in the module.
struct WhyRunView {
  api::WhyRunSettings settings;  // what the run was started with: a change starts it again
  uint32_t id = 0;           // the module's run (new with each start): answers about older ones are dropped
  bool reset_needed = true;  // Reset was pressed: a fresh run before anything else
  bool running = false;
  int step = 0;              // the run's steps so far
  bool finished = false;     // it took the last of its steps
  std::string error;         // why the run could not start, or its report failed
  std::optional<api::WhyReport> report;  // the last report
  std::string document;      // ... as attention_cli why prints it (state().why)
  int reported_step = -1;    // ... and the step it belongs to
  bool confirm = false;      // Pause or Step: a report after the trainer's last step, however late
  double reported_ms = 0;    // when it came (AppState::clock, ms) ...
  double report_ms = 0;      // ... and what it cost the module
  int advancing = 0;         // Advance requests on their way to the trainer's thread
  bool report_asked = false; // a Reset or Report on its way
  std::vector<WhyModel> models;  // report's models, in the module's order
  uint64_t generation = 0;   // new with each report: the heatmaps' textures follow it
};

struct WhyLab {
  // ---- the reader's choices (state fields: lab_state.cpp) -------------------
  WhyPanel panel = WhyPanel::Recurrence;
  int distance = why::ExperimentSettings{}.distance;  // the recurrence task's k (1..why::kMaxDistance), 0: a mix
  bool gru = false;    // the recurrent model shown: the tanh RNN, or the GRU
  int conv_layers = why::kDefaultConvLayers;  // the convolution's depth (1..why::kMaxConvLayers): it reaches 2 x that back
  bool lookup = false; // the Q/K/V task: the previous symbol, or key-value lookup
  int steps = api::WhyLimits::kDefaultSteps;  // where training stops (1..api::WhyLimits::kPageMaxSteps)
  int seed = int(why::ExperimentSettings{}.seed);

  // ---- the module and the runs -------------------------------------------------
  ModuleLoad load = ModuleLoad::Idle;
  std::string load_error;
  // The module (set by the platform when it is ready): a request's bytes in,
  // the answer's bytes out (api/why/why_wire.hpp).
  std::function<std::vector<uint8_t>(const std::vector<uint8_t>&)> call;
  // The trainer's own thread, when the platform has one (the browser: a Web
  // Worker, web/why.js): requests go there and answer through
  // why_take_answer, later and in order, so no frame waits for a step.
  void (*post)(const std::vector<uint8_t>& request) = nullptr;
  WhyRunView runs[kWhyPanels];
  double trained_until_ms = -1;  // when the last frame's training ended (AppState::clock), -1: it trained none

  // ---- parallel against sequential: forward passes timed here ------------------
  std::vector<why::ForwardTiming> timing;  // the rows measured so far
  std::vector<std::string> timing_documents;  // ... as attention_cli why prints them (state().why)
  int timing_next = -1;  // the next length to time (index into why_timing_lengths()), -1: not measuring
  bool timing_asked = false;  // ... and its request is on its way
};

enum class WhyAction { Start, Pause, Step, Reset };
void why_train(AppState& state, WhyAction action);
// The lengths the timing table measures, one a frame.
const std::vector<int>& why_timing_lengths();
void why_measure_timing(WhyLab& lab);

// The view is open (its module loads and its runs train only then).
bool why_open(const AppState& state);
// A panel's run settings; steps: where its run stops.
api::WhyRunSettings why_settings(const WhyLab& lab, WhyPanel panel, int steps);
// ... in read_why_settings' JSON (compute()'s {"why": ...}).
nlohmann::json why_settings_json(const WhyLab& lab, WhyPanel panel, int steps);
// The panel's run is not (or no longer) the one its settings ask for: Reset
// was pressed, or a choice its settings hold changed. The next why_update
// starts it again while the panel is shown.
bool why_needs_fresh_run(const WhyLab& lab, WhyPanel panel);

// Once a frame while the view is open: asks for the module, starts fresh
// runs, trains the running panels within the frame's budget (or keeps the
// trainer's thread going), fetches reports.
void why_update(AppState& state);
// The answer to a request posted to the trainer's thread (`post`); op: the request's.
void why_take_answer(AppState& state, api::WhyOp op, const std::vector<uint8_t>& answer);
bool why_busy(const WhyLab& lab);     // training or measuring
bool why_pending(const WhyLab& lab);  // work this frame asked for (a load, a report, a fresh run)

// The shown panel's run and its model by key (null before its report).
const WhyRunView& why_run_shown(const WhyLab& lab);
const WhyModel* why_model(const WhyRunView& run, const std::string& key);

nlohmann::json why_state_json(const WhyLab& lab);

}  // namespace attn::ui
