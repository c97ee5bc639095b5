// The "why attention" view's state: the reader's choices for its two panels
// (recurrence against attention; why Q, K and V are three), each panel's run
// and what its models last reported.
//
// The models are not here: they train in the experiments' module
// (api/why/why_calls.hpp), which the platform provides once the view asks for it
// (ModuleLoad::Requested). The browser loads it as a wasm module of its own
// (web/why.js), so the lab's first download does not carry it; the desktop
// and the UI tests call it in-process. Either way the view speaks to it
// through WhyCalls, in attention_cli why's JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/why/why_limits.hpp"
#include "core/types.hpp"
#include "core/why/why_lab.hpp"
#include "ui/state/module_load.hpp"

namespace attn::ui {

struct AppState;

// The experiments' module (api/why/why_calls.hpp's functions), set by the
// platform. In the browser the runs train on a thread of their own (web/why.js):
// advance then starts, steps or stops that thread's run and answers the steps
// as last heard, and report answers {"pending": true} until the thread's
// report comes (then with "report_ms": what it cost there); either answers
// later frames. The desktop answers at once.
struct WhyCalls {
  std::string (*reset)(const std::string& settings_json) = nullptr;  // "" or what is wrong
  // The run's steps after those budget_ms allows (0: one step, < 0: none, a
  // trainer elsewhere stops); -1 without a run.
  int (*advance)(int panel, double budget_ms) = nullptr;
  std::string (*report)(int panel) = nullptr;                   // the run's JSON at its step
  std::string (*timing)(double seconds_each, int n) = nullptr;  // {"forward": rows}
  // Whether the runs train on a thread of their own, which asks for a frame
  // when it has news: a running run then needs no frame of its own. Null: no.
  bool (*threaded)() = nullptr;
};

enum class WhyPanel { Recurrence, Qkv };
inline constexpr int kWhyPanels = 2;

// One model as the last report gave it (api/why/why_json.hpp's MODEL).
struct WhyModel {
  std::string key;  // "rnn", "gru", "attention"; "none", "tied", "separate"
  double accuracy = 0, loss = 0;
  std::vector<float> by_distance;  // copy task: at why::kReportDistances
  std::vector<float> gradient;     // ‖∂L/∂x_t‖ for each input position t
  Matrix attention;                // the attention weights on held-out sequence 0 (attention models)
  double asymmetry = -1, self_strongest = -1;  // Q/K/V: the score matrix's symmetry
  std::vector<float> curve_loss, curve_accuracy;  // each training step's batch
};

// One panel's run in the module.
struct WhyRunView {
  nlohmann::json settings;   // what the run was started with (why_settings_json): a change starts it again
  bool reset_needed = true;  // Reset was pressed: a fresh run before anything else
  bool running = false;
  int step = 0;              // the run's steps so far
  bool finished = false;     // it took the last of its steps
  std::string error;         // why the run could not start, or its report failed
  nlohmann::json report;     // the last report as the module sent it (state().why)
  int reported_step = -1;    // ... and the step it belongs to
  bool confirm = false;      // Pause or Step: a report after the trainer's last step, however late
  double reported_ms = 0;    // when it came (AppState::clock, ms) ...
  double report_ms = 0;      // ... and how long it took
  std::vector<WhyModel> models;  // report's models, in the module's order
  uint64_t generation = 0;   // new with each report: the heatmaps' textures follow it
};

struct WhyLab {
  // ---- the reader's choices (state fields: lab_state.cpp) -------------------
  WhyPanel panel = WhyPanel::Recurrence;
  int distance = why::ExperimentSettings{}.distance;  // the recurrence task's k (1..why::kMaxDistance), 0: a mix
  bool gru = false;    // the recurrent model shown: the tanh RNN, or the GRU
  bool lookup = false; // the Q/K/V task: the previous symbol, or key-value lookup
  int steps = api::WhyLimits::kDefaultSteps;  // where training stops (1..api::WhyLimits::kPageMaxSteps)
  int seed = int(why::ExperimentSettings{}.seed);

  // ---- the module and the runs -------------------------------------------------
  ModuleLoad load = ModuleLoad::Idle;
  std::string load_error;
  WhyCalls calls;
  WhyRunView runs[kWhyPanels];
  double trained_until_ms = -1;  // when the last frame's training ended (AppState::clock), -1: it trained none

  // ---- parallel against sequential: forward passes timed here ------------------
  nlohmann::json timing = nlohmann::json::array();  // rows {"layer", "n", "ms", "gflops", "dependent_steps"}
  int timing_next = -1;  // the next length to time (index into why_timing_lengths()), -1: not measuring
};

enum class WhyAction { Start, Pause, Step, Reset };
void why_train(AppState& state, WhyAction action);
// The lengths the timing table measures, one a frame.
const std::vector<int>& why_timing_lengths();
void why_measure_timing(WhyLab& lab);

// The view is open (its module loads and its runs train only then).
bool why_open(const AppState& state);
// A panel's settings in read_why_settings' JSON; steps: where its run stops.
nlohmann::json why_settings_json(const WhyLab& lab, WhyPanel panel, int steps);
// The panel's run is not (or no longer) the one its settings ask for: Reset
// was pressed, or a choice its settings hold changed. The next why_update
// starts it again while the panel is shown.
bool why_needs_fresh_run(const WhyLab& lab, WhyPanel panel);

// Once a frame while the view is open: asks for the module, starts fresh
// runs, trains the running panels within the frame's budget, fetches reports.
void why_update(AppState& state);
bool why_busy(const WhyLab& lab);     // training or measuring
bool why_pending(const WhyLab& lab);  // work this frame asked for (a load, a report, a fresh run)

// The shown panel's run and its model by key (null before its report).
const WhyRunView& why_run_shown(const WhyLab& lab);
const WhyModel* why_model(const WhyRunView& run, const std::string& key);

nlohmann::json why_state_json(const WhyLab& lab);

}  // namespace attn::ui
