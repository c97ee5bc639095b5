// The "why attention" experiments (core/why; their layers' gradient checks
// are in test_layers.cpp): every model's backward against central
// differences of forward, in double; the tasks' answers; determinism for a
// seed; and the experiment's own claims on a short run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/base/rng.hpp"
#include "core/why/why_lab.hpp"
#include "helpers.hpp"

namespace attn::why {
namespace {

double worst_difference(std::vector<double>& tensor, const std::vector<double>& analytic,
                        const std::function<double()>& loss) {
  double worst = 0;
  for (std::size_t i = 0; i < tensor.size(); ++i) {
    const double numeric = test::central_difference(tensor, i, 1e-6, loss);
    worst = std::max(worst, std::fabs(numeric - analytic[i]) / std::max(1.0, std::fabs(numeric)));
  }
  return worst;
}

// Every model of both experiments, small: its backward against central
// differences of its own forward (the mean cross-entropy), for every weight
// and, through a loss that reads the inputs, the gradient reaching each x_t.
TEST_CASE("why: every model's backward matches central differences (weights and the gradient at each input)") {
  struct Case {
    Layer layer;
    Projections projections;
    Task task;
  };
  const Case cases[] = {{Layer::Rnn, Projections::Separate, Task::Copy},
                        {Layer::Gru, Projections::Separate, Task::Copy},
                        {Layer::Attention, Projections::Separate, Task::Copy},
                        {Layer::Attention, Projections::None, Task::Previous},
                        {Layer::Attention, Projections::Tied, Task::Previous},
                        {Layer::Attention, Projections::Separate, Task::Lookup},
                        {Layer::Cnn, Projections::Separate, Task::Copy}};
  for (const Case& k : cases) {
    const ModelSpec spec{k.layer, k.projections, k.task, 4, 2};
    Model<double> model = make_model<double>(spec, 5, 6);
    Rng rng(9, 2);
    const Batch batch = task_batch(k.task, rng, 2, 3);
    Pass<double> pass;
    forward(model, batch, pass);
    std::vector<double> grads(model.params.size(), 0.0), dx;
    backward(model, batch, pass, grads, dx);
    const auto loss = [&] {
      Pass<double> p;
      forward(model, batch, p);
      return p.loss;
    };
    INFO(layer_name(k.layer) << " " << projections_name(k.projections) << " on " << task_name(k.task));
    CHECK(worst_difference(model.params, grads, loss) < 1e-7);
    // dx: perturb the inputs themselves (the symbol vectors of the batch,
    // each position its own copy) by differencing through a model whose
    // symbol table has one row per position.
    if (k.task != Task::Copy) continue;
    Model<double> own = model;
    Batch unique = batch;
    const int C = spec.width;
    own.vocab = batch.B * batch.T;
    own.symbols.assign(std::size_t(own.vocab) * std::size_t(C), 0.0);
    for (int r = 0; r < own.vocab; ++r) {
      unique.tokens[std::size_t(r)] = r;
      for (int c = 0; c < C; ++c)
        own.symbols[std::size_t(r * C + c)] = model.symbols[std::size_t(batch.tokens[std::size_t(r)] * C + c)];
    }
    const auto own_loss = [&] {
      Pass<double> p;
      forward(own, unique, p);
      return p.loss;
    };
    CHECK(worst_difference(own.symbols, dx, own_loss) < 1e-7);
  }
}

TEST_CASE("why: each task's answer is where its definition says") {
  Rng rng(11, 3);
  const Batch copy = copy_batch(rng, 8, 0);
  for (int b = 0; b < copy.B; ++b) {
    const int* tok = copy.tokens.data() + b * copy.T;
    const int k = copy.distance[std::size_t(b)];
    CHECK(k >= 1);
    CHECK(k <= kMaxDistance);
    CHECK(tok[copy.T - 1] == copy_query_token(k));
    CHECK(copy.targets[std::size_t(b * copy.T + copy.T - 1)] == tok[copy.T - 1 - k]);
    for (int t = 0; t + 1 < copy.T; ++t) CHECK(copy.targets[std::size_t(b * copy.T + t)] == -1);
  }
  const Batch previous = previous_batch(rng, 4);
  for (int b = 0; b < previous.B; ++b)
    for (int t = 0; t < previous.T; ++t)
      CHECK(previous.targets[std::size_t(b * previous.T + t)] == (t ? previous.tokens[std::size_t(b * previous.T + t - 1)] : -1));
  const Batch lookup = lookup_batch(rng, 16);
  for (int b = 0; b < lookup.B; ++b) {
    const int* tok = lookup.tokens.data() + b * lookup.T;
    const int asked = tok[lookup.T - 1] - kLookupKeys * kAlphabet;
    int found = 0;
    for (int i = 0; i < kLookupPairs; ++i)
      if (tok[i] / kAlphabet == asked) {
        ++found;
        CHECK(lookup.targets[std::size_t(b * lookup.T + lookup.T - 1)] == tok[i] % kAlphabet);
      }
    CHECK(found == 1);  // the keys are distinct, and the asked one is among them
  }
  CHECK(check_distance(0) != "");
  CHECK(check_distance(65) != "");
  CHECK(check_distance(64) == "");
}

TEST_CASE("why: the same seed trains the same bits; settings out of range are named") {
  ExperimentSettings s;
  s.task = Task::Previous;
  Experiment a(s, qkv_models(Task::Previous)), b(s, qkv_models(Task::Previous));
  for (int i = 0; i < 3; ++i) a.step(), b.step();
  for (std::size_t m = 0; m < a.size(); ++m) CHECK(a.model(m).params == b.model(m).params);
  ExperimentSettings bad;
  bad.distance = 65;
  CHECK(check_settings(bad).find("1..64") != std::string::npos);
  bad = ExperimentSettings{};
  bad.learning_rate = std::nanf("");
  CHECK(check_settings(bad).find("learning rate") != std::string::npos);
  bad = ExperimentSettings{};
  bad.batch = 0;
  CHECK(check_settings(bad) != "");
}

// The experiment's claims on a short run (the defaults are longer):
// attention names the symbol 8 back after 150 steps where the tanh RNN is
// near chance, the untrained RNN's gradient at the first input is far below
// its last, and W_Q = W_K gives exactly symmetric scores.
TEST_CASE("why: attention learns copy-8-back where the RNN does not; tied scores are symmetric") {
  ExperimentSettings s;
  s.distance = 8;
  Experiment copy(s, recurrence_models());
  const std::vector<ModelReport> untrained = copy.report();
  CHECK(untrained[0].key == "rnn");
  CHECK(untrained[2].key == "attention");
  const std::vector<double>& g = untrained[2].gradient;
  CHECK(g.front() / g.back() > 0.1);  // attention: every input one step from the output
  for (int i = 0; i < 150; ++i) copy.step();
  const std::vector<ModelReport> trained = copy.report();
  CHECK(trained[2].accuracy > 0.9);
  CHECK(trained[0].accuracy < trained[2].accuracy);
  const std::vector<double>& rnn = trained[0].gradient;
  CHECK(rnn.front() < 1e-2 * rnn.back());
  ExperimentSettings p;
  p.task = Task::Previous;
  Experiment qkv(p, qkv_models(Task::Previous));
  for (int i = 0; i < 5; ++i) qkv.step();
  const std::vector<ModelReport> r = qkv.report();
  CHECK(r[1].key == "tied");
  CHECK(r[1].asymmetry == 0.0);
  CHECK(r[2].asymmetry > 0.0);
}

// The convolution's receptive field, the goal docs/reference.md states: four
// layers of kernel 3 learn the symbol 4 back (within 2 x 4) and stay near
// chance (1/16) at 32, where one attention layer learns both. The two models
// alone, on attention_cli why recurrence's batches and steps (600, seed 1);
// their first weights differ from that run's (a model's seed is its place).
TEST_CASE("why: four convolution layers learn copy-4-back and not copy-32-back; attention learns both") {
  for (const int k : {4, 32}) {
    ExperimentSettings s;
    s.distance = k;
    ModelSpec attention{Layer::Attention, Projections::Separate, Task::Copy}, cnn{Layer::Cnn, Projections::Separate, Task::Copy};
    Experiment run(s, {attention, cnn});
    for (int i = 0; i < 600; ++i) run.step();
    const std::vector<ModelReport> r = run.report();
    INFO("k = " << k << ": attention " << r[0].accuracy << ", cnn " << r[1].accuracy);
    CHECK(r[0].accuracy >= 0.95);
    if (k == 4) CHECK(r[1].accuracy >= 0.95);
    else CHECK(r[1].accuracy <= 0.30);
    // Nothing beyond 2 x 4 positions back reaches the convolution's read-out.
    const std::vector<double>& g = r[1].gradient;
    const int T = int(g.size());
    for (int t = 0; t < T - 1 - 2 * kDefaultConvLayers; ++t) CHECK(g[std::size_t(t)] == 0.0);
    CHECK(g[std::size_t(T - 1 - 2 * kDefaultConvLayers)] > 0.0);
  }
}

}  // namespace
}  // namespace attn::why
