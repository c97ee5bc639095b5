// The poem model's file, version 1 (bytes in, bytes out: the callers read
// and write the files). All integers little-endian:
//
//   offset  size  what
//   0       8     "ATTNPOEM"
//   8       4     u32 version (1)
//   12      20    u32 vocab, context, layers, heads, d_model
//   32      4     u32 info length I; then I bytes of UTF-8 (how it was trained)
//   ..      ..    vocab entries: u8 length, then that many bytes of UTF-8,
//                 ids 0..vocab-1 in order ("<unk>", "<poem>", "\n", "<text>", ...)
//   ..      8     u64 parameter count P (= param_count of the config)
//   ..      4P    float32 parameters, param_tensors order
//   ..      8     u64 FNV-1a 64 of every byte before it
//
// The reader checks everything it relies on and says what is wrong: a short
// or truncated file, another format or version, a bad checksum, sizes out of
// range, a vocabulary that is not valid UTF-8 or repeats a character.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poem_model.hpp"

namespace attn::poem {

inline constexpr uint32_t kModelFileVersion = 1;

std::vector<uint8_t> write_model(const PoemModel& model, const std::string& info);

struct ModelFile {
  PoemModel model;
  std::string info;
  std::string error;  // "" when the model is usable
};
ModelFile read_model(const uint8_t* data, std::size_t size);

}  // namespace attn::poem
