// libFuzzer target: compute() on arbitrary bytes, the browser's
// attentionLab.compute(configJson) and the CLI's `attend`. Whatever comes in,
// the answer is one JSON object: a result, or {"error": "..."}.
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "api/compute.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  const std::string config(reinterpret_cast<const char*>(data), size);
  const attn::api::ComputeResult result = attn::api::compute(config);
  const nlohmann::json answer = nlohmann::json::parse(result.json, nullptr, /*allow_exceptions=*/false);
  FUZZ_CHECK(answer.is_object(), "compute() answered with something that is not a JSON object");
  FUZZ_CHECK(result.ok != answer.contains("error"), "compute()'s ok and its JSON disagree");
  if (!result.ok) FUZZ_CHECK(answer["error"].is_string() && !answer["error"].get<std::string>().empty(),
                             "an error without a message");
  return 0;
}
