// For poem_numpy_check.py: writes a poem model file with random weights, and
// prints the fast forward pass (logits and every attention weight) of a model
// file on given ids as JSON. Built natively and to wasm (run under Node), so
// the same numpy check holds both builds' forward passes.
//
//   poem_forward_dump --write FILE SEED [tiny] [int8|float16]
//                                              a random model (vocab of 24: the
//                                              4 specials, ，。 and 18 characters;
//                                              tiny: 8 of them, 1.2 KB, the fuzzer's seed;
//                                              int8, float16: a version 2 file)
//   poem_forward_dump FILE ID,ID,...           {"logits": [[...]], "att": [[[[...]]]]}
#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/poem/model_file.hpp"
#include "core/base/rng.hpp"

using namespace attn;
using namespace attn::poem;

namespace {

int write_random(const std::string& path, uint64_t seed, bool tiny, WeightEncoding encoding) {
  PoemModel m;
  m.config = tiny ? GptConfig{8, 4, 1, 2, 4} : GptConfig{24, 12, 2, 4, 16};
  m.vocab.chars = {"<unk>", "<poem>", "\n", "<text>", "，", "。"};
  const char* chars[] = {"床", "前", "明", "月", "光", "疑", "是", "地", "上", "霜", "举", "头", "望", "低", "思", "故", "乡", "春"};
  for (const char* c : chars)
    if (m.vocab.size() < m.config.vocab) m.vocab.chars.emplace_back(c);
  if (!m.vocab.index()) return 1;
  // Weights N(0, 0.3^2) and gains 1 + N(0, 0.3^2): sharp softmaxes, every term alive.
  m.params.resize(param_count(m.config));
  Rng rng(seed);
  for (const ParamTensor& t : param_tensors(m.config)) {
    const bool gain = t.name.find("ln") != std::string::npos && t.name.back() == 'w';
    for (std::size_t i = 0; i < t.size; ++i) m.params[t.offset + i] = (gain ? 1.0f : 0.0f) + 0.3f * rng.normal();
  }
  const std::vector<uint8_t> bytes = write_model(m, "{\"random\":true}", encoding);
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) return 1;
  return std::fclose(f) == 0 ? 0 : 1;
}

int dump(const std::string& path, const std::string& id_list) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return 1;
  std::vector<uint8_t> bytes;
  for (int c; (c = std::fgetc(f)) != EOF;) bytes.push_back(static_cast<uint8_t>(c));
  std::fclose(f);
  const ModelFile file = read_model(bytes.data(), bytes.size());
  if (!file.error.empty()) {
    std::cerr << file.error << '\n';
    return 1;
  }
  std::vector<int> ids;
  std::stringstream list(id_list);
  for (std::string item; std::getline(list, item, ',');) ids.push_back(std::stoi(item));
  GptWorkspace<float> ws;
  const GptConfig& c = file.model.config;
  const int T = static_cast<int>(ids.size());
  gpt_forward(ws, c, file.model.params.data(), ids.data(), nullptr, 1, T, Path::Fast);
  std::cout.precision(9);
  std::cout << "{\"logits\": [";
  for (int t = 0; t < T; ++t) {
    std::cout << (t ? ", [" : "[");
    for (int v = 0; v < c.vocab; ++v) std::cout << (v ? ", " : "") << ws.logits[std::size_t(t * c.vocab + v)];
    std::cout << ']';
  }
  std::cout << "], \"att\": [";
  for (int l = 0; l < c.layers; ++l) {
    std::cout << (l ? ", [" : "[");
    const std::vector<float>& att = ws.layer[std::size_t(l)].att;
    for (std::size_t i = 0; i < att.size(); ++i) std::cout << (i ? ", " : "") << att[i];
    std::cout << ']';
  }
  std::cout << "]}\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--write") {
    bool tiny = false;
    WeightEncoding encoding = WeightEncoding::kFloat32;
    for (int i = 4; i < argc; ++i) {
      const std::string option = argv[i];
      tiny = tiny || option == "tiny";
      if (option == "int8") encoding = WeightEncoding::kInt8Rows;
      if (option == "float16") encoding = WeightEncoding::kFloat16;
    }
    return write_random(argv[2], std::stoull(argv[3]), tiny, encoding);
  }
  if (argc == 3) return dump(argv[1], argv[2]);
  std::cerr << "usage: poem_forward_dump --write FILE SEED [tiny] [int8|float16] | FILE ID,ID,...\n";
  return 2;
}
