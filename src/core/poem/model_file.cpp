// Writing and checking the poem model's file (model_file.hpp has the layout).
#include "model_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/rng.hpp"
#include "core/base/tokenizer.hpp"

namespace attn::poem {

namespace {

constexpr char kMagic[8] = {'A', 'T', 'T', 'N', 'P', 'O', 'E', 'M'};

void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint64_t checksum(const uint8_t* data, std::size_t size) {
  return stable_hash(reinterpret_cast<const char*>(data), size);
}

// Reads forward through the bytes; every read checks that the bytes are there.
class Reader {
 public:
  Reader(const uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool has(std::size_t n) const { return size_ - pos_ >= n; }
  uint32_t u32() {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t(data_[pos_++]) << (8 * i);
    return v;
  }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(data_[pos_++]) << (8 * i);
    return v;
  }
  uint8_t u8() { return data_[pos_++]; }
  std::string text(std::size_t n) {
    std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
    pos_ += n;
    return s;
  }
  const uint8_t* here() const { return data_ + pos_; }
  void skip(std::size_t n) { pos_ += n; }
  std::size_t pos() const { return pos_; }

 private:
  const uint8_t* data_;
  std::size_t size_, pos_ = 0;
};

ModelFile failed(std::string why) {
  ModelFile f;
  f.error = "poem model file: " + std::move(why);
  return f;
}

// IEEE half precision, rounded to the nearest (ties to even), by hand: the
// same bits from every compiler and in wasm. Values beyond the largest half
// (65504) are clamped to it: a weight file holds no infinities.
uint16_t float_to_half(float f) {
  uint32_t x = 0;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u, mant = x & 0x7fffffu;
  const int exp = int((x >> 23) & 0xffu) - 127 + 15;
  if (((x >> 23) & 0xffu) == 0xffu) return uint16_t(sign | 0x7bffu);  // inf or NaN: not written (checked before)
  if (exp >= 31) return uint16_t(sign | 0x7bffu);
  if (exp <= 0) {  // a subnormal half, or zero
    if (exp < -10) return uint16_t(sign);
    const uint32_t m = mant | 0x800000u;
    const int shift = 14 - exp;
    uint32_t half = m >> shift;
    const uint32_t rest = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = (uint32_t(exp) << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;  // a carry moves into the exponent, as it should
  if ((half & 0x7c00u) == 0x7c00u) half = 0x7bffu;                  // rounded up past the largest half
  return uint16_t(sign | half);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (exp == 0) {
    const float f = std::ldexp(float(mant), -24);
    return sign ? -f : f;
  }
  const uint32_t x = exp == 31 ? sign | 0x7f800000u | (mant << 13) : sign | ((exp + 112) << 23) | (mant << 13);
  float f = 0;
  std::memcpy(&f, &x, 4);
  return f;
}

// int8 rows: the row's largest magnitude maps to 127.
float row_scale(const float* row, std::size_t cols) {
  float largest = 0;
  for (std::size_t i = 0; i < cols; ++i) largest = std::max(largest, std::fabs(row[i]));
  return largest / 127.0f;
}
int8_t quantise(float value, float scale) {
  if (scale == 0) return 0;
  return static_cast<int8_t>(std::clamp(std::lround(value / scale), -127L, 127L));
}

void put_f32(std::vector<uint8_t>& out, float value) {
  uint32_t bits = 0;
  std::memcpy(&bits, &value, 4);
  put_u32(out, bits);
}

// The bytes a tensor takes in an encoding.
std::size_t tensor_bytes(const ParamTensor& t, WeightEncoding e) {
  if (t.rows <= 1 || e == WeightEncoding::kFloat32) return 4 * t.size;
  return e == WeightEncoding::kInt8Rows ? t.rows * (4 + t.cols) : 2 * t.size;
}

}  // namespace

const char* encoding_name(WeightEncoding e) {
  switch (e) {
    case WeightEncoding::kFloat32: return "float32";
    case WeightEncoding::kInt8Rows: return "int8";
    case WeightEncoding::kFloat16: return "float16";
  }
  return "?";
}

std::vector<float> encode_round_trip(const PoemModel& model, WeightEncoding encoding) {
  std::vector<float> out = model.params;
  if (encoding == WeightEncoding::kFloat32) return out;
  for (const ParamTensor& t : param_tensors(model.config)) {
    if (t.rows <= 1) continue;
    for (std::size_t r = 0; r < t.rows; ++r) {
      float* row = out.data() + t.offset + r * t.cols;
      const float scale = row_scale(row, t.cols);
      for (std::size_t i = 0; i < t.cols; ++i)
        row[i] = encoding == WeightEncoding::kInt8Rows ? float(quantise(row[i], scale)) * scale
                                                       : half_to_float(float_to_half(row[i]));
    }
  }
  return out;
}

std::vector<uint8_t> write_model(const PoemModel& model, const std::string& info, WeightEncoding encoding) {
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  put_u32(out, encoding == WeightEncoding::kFloat32 ? 1 : 2);
  const GptConfig& c = model.config;
  for (int v : {c.vocab, c.context, c.layers, c.heads, c.d_model}) put_u32(out, static_cast<uint32_t>(v));
  put_u32(out, static_cast<uint32_t>(info.size()));
  out.insert(out.end(), info.begin(), info.end());
  for (const std::string& ch : model.vocab.chars) {
    out.push_back(static_cast<uint8_t>(ch.size()));
    out.insert(out.end(), ch.begin(), ch.end());
  }
  put_u64(out, model.params.size());
  if (encoding != WeightEncoding::kFloat32) put_u32(out, static_cast<uint32_t>(encoding));
  for (const ParamTensor& t : param_tensors(model.config)) {
    const float* values = model.params.data() + t.offset;
    if (t.rows <= 1 || encoding == WeightEncoding::kFloat32) {
      for (std::size_t i = 0; i < t.size; ++i) put_f32(out, values[i]);
      continue;
    }
    for (std::size_t r = 0; r < t.rows; ++r) {
      const float* row = values + r * t.cols;
      if (encoding == WeightEncoding::kInt8Rows) {
        const float scale = row_scale(row, t.cols);
        put_f32(out, scale);
        for (std::size_t i = 0; i < t.cols; ++i) out.push_back(static_cast<uint8_t>(quantise(row[i], scale)));
      } else {
        for (std::size_t i = 0; i < t.cols; ++i) {
          const uint16_t h = float_to_half(row[i]);
          out.push_back(static_cast<uint8_t>(h & 0xff));
          out.push_back(static_cast<uint8_t>(h >> 8));
        }
      }
    }
  }
  put_u64(out, checksum(out.data(), out.size()));
  return out;
}

ModelFile read_model(const uint8_t* data, std::size_t size) {
  constexpr std::size_t kHeader = 8 + 4 + 20 + 4;
  if (size < kHeader + 16) return failed("too short (" + std::to_string(size) + " bytes): truncated or not a model");
  if (std::memcmp(data, kMagic, 8) != 0) return failed("not a poem model (it does not start with ATTNPOEM)");
  Reader r(data, size);
  r.skip(8);
  const uint32_t version = r.u32();
  if (version != 1 && version != 2)
    return failed("version " + std::to_string(version) + ", this build reads versions 1 and 2");
  ModelFile f;
  GptConfig& c = f.model.config;
  uint32_t sizes[5];
  for (uint32_t& s : sizes) s = r.u32();
  for (uint32_t s : sizes)
    if (s > 1u << 20) return failed("sizes out of range");
  c = {int(sizes[0]), int(sizes[1]), int(sizes[2]), int(sizes[3]), int(sizes[4])};
  if (std::string e = check_gpt_config(c); !e.empty()) return failed("bad sizes: " + e);
  const uint32_t info_size = r.u32();
  if (!r.has(std::size_t(info_size) + 16)) return failed("truncated (in the training info)");
  f.info = r.text(info_size);
  for (int i = 0; i < c.vocab; ++i) {
    if (!r.has(1)) return failed("truncated (in the vocabulary, at entry " + std::to_string(i) + ")");
    const uint8_t n = r.u8();
    if (!r.has(std::size_t(n) + 16)) return failed("truncated (in the vocabulary, at entry " + std::to_string(i) + ")");
    std::string ch = r.text(n);
    if (i >= Vocab::kSpecials && (n == 0 || invalid_utf8_at(ch) != std::string_view::npos))
      return failed("vocabulary entry " + std::to_string(i) + " is not a UTF-8 character");
    f.model.vocab.chars.push_back(std::move(ch));
  }
  if (!f.model.vocab.index())
    return failed("the vocabulary does not start with <unk>, <poem>, a line break and <text>, or repeats a character");
  if (!r.has(8)) return failed("truncated (before the parameters)");
  const uint64_t count = r.u64();
  if (count != param_count(c))
    return failed("parameter count " + std::to_string(count) + ", the sizes need " + std::to_string(param_count(c)));
  if (version == 2) {
    if (!r.has(4)) return failed("truncated (before the encoding)");
    const uint32_t e = r.u32();
    if (e != uint32_t(WeightEncoding::kInt8Rows) && e != uint32_t(WeightEncoding::kFloat16))
      return failed("encoding " + std::to_string(e) + ", this build reads 1 (int8 rows) and 2 (float16)");
    f.encoding = WeightEncoding(e);
  }
  const std::vector<ParamTensor> tensors = param_tensors(c);
  std::size_t bytes = 0;
  for (const ParamTensor& t : tensors) bytes += tensor_bytes(t, f.encoding);
  if (!r.has(bytes + 8))
    return failed("truncated: " + std::to_string(size) + " bytes, the header needs " + std::to_string(r.pos() + bytes + 8));
  if (size != r.pos() + bytes + 8) return failed(std::to_string(size - (r.pos() + bytes + 8)) + " bytes after the checksum");
  const std::size_t body = size - 8;
  Reader tail(data + body, 8);
  if (tail.u64() != checksum(data, body)) return failed("bad checksum: the file is corrupt");
  f.model.params.resize(count);
  const auto f32 = [&r] {
    const uint32_t bits = r.u32();
    float v = 0;
    std::memcpy(&v, &bits, 4);
    return v;
  };
  for (const ParamTensor& t : tensors) {
    float* values = f.model.params.data() + t.offset;
    if (t.rows <= 1 || f.encoding == WeightEncoding::kFloat32) {
      for (std::size_t i = 0; i < t.size; ++i) values[i] = f32();
    } else if (f.encoding == WeightEncoding::kInt8Rows) {
      for (std::size_t row = 0; row < t.rows; ++row) {
        const float scale = f32();
        if (!std::isfinite(scale) || scale < 0) return failed(t.name + ": row " + std::to_string(row) + "'s scale is not a finite, non-negative number");
        for (std::size_t i = 0; i < t.cols; ++i) values[row * t.cols + i] = float(int8_t(r.u8())) * scale;
      }
    } else {
      for (std::size_t i = 0; i < t.size; ++i) {
        const uint16_t lo = r.u8(), hi = r.u8();
        values[i] = half_to_float(uint16_t(lo | (hi << 8)));
      }
    }
    for (std::size_t i = 0; i < t.size; ++i)
      if (!std::isfinite(values[i])) return failed("parameter " + std::to_string(t.offset + i) + " is not finite");
  }
  return f;
}

}  // namespace attn::poem
