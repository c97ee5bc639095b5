// The desktop's poem model; see poem_native.hpp.
#include "platform/poem_native.hpp"

#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include "api/poem/poem_session.hpp"

namespace attn::platform {
namespace {

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  out = bytes.str();
  return !in.bad();
}

std::string env_or(const char* name, const char* fallback) {
  const char* value = std::getenv(name);
  return value && *value ? value : fallback;
}

}  // namespace

namespace {

// The training slice for training in the view (Start), handed to the
// session: tang_train beside the weights (scripts/poem_model.sh writes both).
void serve_corpus(ui::AppState& state) {
  ui::PoemLab& lab = state.poem;
  ui::mark_state_changed(state);
  const std::string model = env_or("ATTN_POEM_MODEL", ATTN_POEM_MODEL_FILE);
  const std::string path = model.substr(0, model.find_last_of('/') + 1) + "tang_train";
  std::string slice;
  if (!read_file(path, slice)) {
    lab.corpus = ui::ModuleLoad::Failed;
    lab.corpus_error = path + ": cannot read it (the native build makes it with the weights: scripts/poem_model.sh)";
    return;
  }
  api::WireWriter request;
  request.u32(uint32_t(api::PoemOp::TrainCorpus));
  request.str(slice);
  const std::vector<uint8_t> answer = lab.call(request.bytes);
  api::WireReader in(answer.data(), answer.size());
  lab.corpus_error = in.str();
  lab.corpus = lab.corpus_error.empty() ? ui::ModuleLoad::Ready : ui::ModuleLoad::Failed;
}

}  // namespace

void serve_poem_natively(ui::AppState& state) {
  ui::PoemLab& lab = state.poem;
  if (lab.corpus == ui::ModuleLoad::Requested && lab.call) serve_corpus(state);
  if (lab.load != ui::ModuleLoad::Requested) return;
  ui::mark_state_changed(state);
  const std::string model_path = env_or("ATTN_POEM_MODEL", ATTN_POEM_MODEL_FILE);
  const std::string corpus = env_or("ATTN_POEM_CORPUS", "/usr/share/games/fortunes") + "/tang300";
  std::string model_bytes, tang300;
  if (!read_file(model_path, model_bytes)) {
    lab.load = ui::ModuleLoad::Failed;
    lab.load_error = model_path + ": cannot read it (the native build trains it: cmake --build --preset native --target poem_model)";
    return;
  }
  if (!read_file(corpus, tang300)) {
    lab.load = ui::ModuleLoad::Failed;
    lab.load_error = corpus + ": cannot read it (Debian's fortunes-zh: scripts/setup.sh installs it)";
    return;
  }
  auto session = std::make_shared<api::PoemSession>();
  const std::string error =
      session->load(reinterpret_cast<const uint8_t*>(model_bytes.data()), model_bytes.size(), tang300);
  if (!error.empty()) {
    lab.load = ui::ModuleLoad::Failed;
    lab.load_error = error;
    return;
  }
  ui::poem_take_summary(lab, session->summary());
  lab.received = lab.total = double(model_bytes.size());
  lab.call = [session](const std::vector<uint8_t>& request) { return session->serve(request.data(), request.size()); };
  lab.load = ui::ModuleLoad::Ready;
  lab.load_error.clear();
}

}  // namespace attn::platform
