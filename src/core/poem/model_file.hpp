// The poem model's file (bytes in, bytes out: the callers read and write the
// files). All integers little-endian:
//
//   offset  size  what
//   0       8     "ATTNPOEM"
//   8       4     u32 version (1 or 2)
//   12      20    u32 vocab, context, layers, heads, d_model
//   32      4     u32 info length I; then I bytes of UTF-8 (how it was trained)
//   ..      ..    vocab entries: u8 length, then that many bytes of UTF-8,
//                 ids 0..vocab-1 in order ("<unk>", "<poem>", "\n", "<text>", ...)
//   ..      8     u64 parameter count P (= param_count of the config)
//   version 1:
//   ..      4P    float32 parameters, param_tensors order
//   version 2:
//   ..      4     u32 encoding of the matrices: 1 int8 rows, 2 float16
//   ..      ..    the tensors in param_tensors order: a vector as float32; a
//                 matrix (rows x cols) as int8 rows (per row a float32 scale,
//                 then cols int8 q: the value is q * scale) or as float16
//   both:
//   ..      8     u64 FNV-1a 64 of every byte before it
//
// The reader checks everything it relies on and says what is wrong: a short
// or truncated file, another format or version, a bad checksum, sizes out of
// range, a vocabulary that is not valid UTF-8 or repeats a character, an
// unknown encoding, a scale or a value that is not finite.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "poem_model.hpp"

namespace attn::poem {

inline constexpr uint32_t kModelFileVersion = 2;  // the newest this build reads (and 1)

// How the matrices are stored: float32 writes version 1, the others version 2.
enum class WeightEncoding : uint32_t { kFloat32 = 0, kInt8Rows = 1, kFloat16 = 2 };
const char* encoding_name(WeightEncoding e);  // "float32", "int8", "float16"

std::vector<uint8_t> write_model(const PoemModel& model, const std::string& info,
                                 WeightEncoding encoding = WeightEncoding::kFloat32);
// The parameters as a file of that encoding would give them back.
std::vector<float> encode_round_trip(const PoemModel& model, WeightEncoding encoding);

struct ModelFile {
  PoemModel model;
  std::string info;
  WeightEncoding encoding = WeightEncoding::kFloat32;
  std::string error;  // "" when the model is usable
};
ModelFile read_model(const uint8_t* data, std::size_t size);

}  // namespace attn::poem
