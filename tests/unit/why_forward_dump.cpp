// For why_numpy_check.py: the "why attention" recurrent layers' float forward
// passes (core/layers/recurrent) on random inputs and weights from a seed,
// the attention models' (core/why/why_models: no projections, W_Q = W_K,
// separate) on a batch of the previous-symbol task, and the convolution
// model's (two layers) on a sequence of the copy task, printed as JSON with the
// inputs and weights, so numpy recomputes them from the definitions alone.
// Built natively and to wasm (run under Node).
//
//   why_forward_dump SEED   {"B", "T", "C", "H", "x", "rnn": {"wx", "wh", "b", "hs"},
//                            "gru": {"w", "u", "b", "hs", "gates"},
//                            "attention": {"none"|"tied"|"separate": {"B", "T", "C", "x", <weights>,
//                                          "att", "out", "rows", "probs", "loss"}},
//                            "cnn": {"B", "T", "C", "layers", "x", "conv_w", "conv_b", "wo", "bo",
//                                    "conv", "rows", "targets", "probs", "loss"}}
#include <cstdio>
#include <string>
#include <vector>

#include "core/base/rng.hpp"
#include "core/layers/recurrent.hpp"
#include "core/why/why_models.hpp"

using namespace attn;

namespace {

std::vector<float> random_values(std::size_t n, Rng& rng, float scale) {
  std::vector<float> v(n);
  for (float& x : v) x = scale * rng.normal();
  return v;
}

void print(const char* name, const std::vector<float>& v, bool last = false) {
  std::printf("\"%s\": [", name);
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s%.9g", i ? ", " : "", double(v[i]));
  std::printf("]%s", last ? "" : ", ");
}

// A model's weights, then after its layer's own outputs the read-out's rows, targets, softmax and loss.
void print_weights(const why::Model<float>& model) {
  for (const why::Tensor& t : model.tensors)
    print(t.name, std::vector<float>(model.params.begin() + std::ptrdiff_t(t.offset),
                                     model.params.begin() + std::ptrdiff_t(t.offset + t.size)));
}
void print_readout(const why::Batch& batch, const why::Pass<float>& pass) {
  print("rows", std::vector<float>(pass.rows.begin(), pass.rows.end()));
  std::vector<float> targets;
  for (const int r : pass.rows) targets.push_back(float(batch.targets[std::size_t(r)]));
  print("targets", targets);
  print("probs", pass.probs);
  std::printf("\"loss\": %.9g}", pass.loss);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: why_forward_dump SEED\n");
    return 2;
  }
  const int B = 2, T = 12, C = 5, H = 6;
  Rng rng(std::stoull(argv[1]), 3);
  const std::vector<float> x = random_values(std::size_t(B * T * C), rng, 1.0f);
  const std::vector<float> wx = random_values(std::size_t(C * H), rng, 0.6f);
  const std::vector<float> wh = random_values(std::size_t(H * H), rng, 0.6f);
  const std::vector<float> b = random_values(std::size_t(H), rng, 0.3f);
  std::vector<float> hs(std::size_t(B * (T + 1) * H));
  layers::rnn_forward(hs.data(), x.data(), wx.data(), wh.data(), b.data(), B, T, C, H);
  std::printf("{\"B\": %d, \"T\": %d, \"C\": %d, \"H\": %d, ", B, T, C, H);
  print("x", x);
  std::printf("\"rnn\": {");
  print("wx", wx);
  print("wh", wh);
  print("b", b);
  print("hs", hs, true);
  std::printf("}, \"gru\": {");
  const std::vector<float> w = random_values(std::size_t(C * 3 * H), rng, 0.6f);
  const std::vector<float> u = random_values(std::size_t(H * 3 * H), rng, 0.6f);
  const std::vector<float> gb = random_values(std::size_t(3 * H), rng, 0.3f);
  std::vector<float> gates(std::size_t(B * T * 3 * H));
  layers::gru_forward(hs.data(), gates.data(), x.data(), w.data(), u.data(), gb.data(), B, T, C, H);
  print("w", w);
  print("u", u);
  print("b", gb);
  print("gates", gates);
  print("hs", hs, true);
  std::printf("}, \"attention\": {");
  for (const why::Projections p : {why::Projections::None, why::Projections::Tied, why::Projections::Separate}) {
    const why::ModelSpec spec{why::Layer::Attention, p, why::Task::Previous, 6};
    const why::Model<float> model = why::make_model<float>(spec, std::stoull(argv[1]), 9);
    Rng draws(std::stoull(argv[1]), 4);
    const why::Batch batch = why::previous_batch(draws, 1);  // one sequence: Node drops a pipe's output past 64 KB
    why::Pass<float> pass;
    why::forward(model, batch, pass);
    std::printf("%s\"%s\": {\"B\": %d, \"T\": %d, \"C\": %d, ", p == why::Projections::None ? "" : ", ",
                why::projections_name(p), pass.B, pass.T, spec.width);
    print("x", pass.x);
    print_weights(model);
    print("att", pass.att);
    print("out", pass.out);
    print_readout(batch, pass);
  }
  std::printf("}, \"cnn\": {");
  {
    const why::ModelSpec spec{why::Layer::Cnn, why::Projections::Separate, why::Task::Copy, 4, 2};
    why::Model<float> model = why::make_model<float>(spec, std::stoull(argv[1]), 10);
    Rng draws(std::stoull(argv[1]), 5);
    // Biases start at 0: give them values, so that numpy checks they are added.
    for (std::size_t i = 0; i < std::size_t(spec.conv_layers * spec.width); ++i)
      model.params[model.at.conv_b + i] = 0.3f * draws.normal();
    const why::Batch batch = why::copy_batch(draws, 1, 3);
    why::Pass<float> pass;
    why::forward(model, batch, pass);
    std::printf("\"B\": %d, \"T\": %d, \"C\": %d, \"layers\": %d, ", pass.B, pass.T, spec.width, spec.conv_layers);
    print("x", pass.x);
    print_weights(model);
    print("conv", pass.conv);
    print_readout(batch, pass);
  }
  std::printf("}\n");
  return 0;
}
