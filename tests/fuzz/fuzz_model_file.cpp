// libFuzzer target: the poem model file reader (core/poem/model_file.hpp) on
// arbitrary bytes, and on the same bytes with a correct checksum written into
// their last 8 (so the fuzzer gets past the checksum to the sizes, the
// vocabulary and the parameters). Whatever it accepts is a usable model: the
// sizes check, the parameters are all there and finite, the vocabulary is
// indexed, writing it back in its encoding gives the same bytes (float32,
// float16) or a file that reads back (int8, whose scales the writer derives
// again from the values), and a forward pass runs.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/poem/model_file.hpp"
#include "core/base/rng.hpp"
#include "fuzz_check.hpp"

namespace {

void check_accepted(const std::vector<uint8_t>& bytes) {
  const attn::poem::ModelFile file = attn::poem::read_model(bytes.data(), bytes.size());
  if (!file.error.empty()) {
    FUZZ_CHECK(file.error.rfind("poem model file: ", 0) == 0, "an error that does not name the file");
    return;
  }
  const attn::poem::PoemModel& m = file.model;
  FUZZ_CHECK(attn::poem::check_gpt_config(m.config).empty(), "an accepted model with bad sizes");
  FUZZ_CHECK(m.params.size() == attn::poem::param_count(m.config), "an accepted model missing parameters");
  FUZZ_CHECK(m.vocab.size() == m.config.vocab && m.vocab.ids.size() == m.vocab.chars.size(), "a vocabulary not indexed");
  for (float p : m.params) FUZZ_CHECK(std::isfinite(p), "an accepted parameter that is not finite");
  const std::vector<uint8_t> again = attn::poem::write_model(m, file.info, file.encoding);
  if (file.encoding != attn::poem::WeightEncoding::kInt8Rows) {
    FUZZ_CHECK(again == bytes, "writing the model back changes its bytes");
  } else {
    const attn::poem::ModelFile back = attn::poem::read_model(again.data(), again.size());
    FUZZ_CHECK(back.error.empty() && back.encoding == file.encoding && back.info == file.info &&
                   back.model.vocab.chars == m.vocab.chars,
               "an int8 model written back does not read back");
  }
  const std::vector<int> tokens{attn::poem::Vocab::kPoemStart, attn::poem::Vocab::kLineBreak};
  const attn::poem::PoemReading r = attn::poem::read_tokens(m, std::vector<int>(tokens.begin(), tokens.begin() + std::min(2, m.config.context)));
  FUZZ_CHECK(r.att.size() == static_cast<std::size_t>(m.config.layers), "a reading without every layer");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  check_accepted(bytes);
  if (size >= 8) {
    const uint64_t sum = attn::stable_hash(reinterpret_cast<const char*>(data), size - 8);
    for (std::size_t i = 0; i < 8; ++i) bytes[size - 8 + i] = static_cast<uint8_t>(sum >> (8 * i));
    check_accepted(bytes);
  }
  return 0;
}
