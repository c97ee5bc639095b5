// See wire.hpp.
#include "api/wire.hpp"

#include <cstring>

namespace attn::api {

void WireWriter::u32(uint32_t v) {
  const uint8_t b[4] = {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)};
  bytes.insert(bytes.end(), b, b + 4);
}

void WireWriter::f32(float v) {
  uint32_t bits = 0;
  std::memcpy(&bits, &v, 4);
  u32(bits);
}

void WireWriter::str(const std::string& s) {
  u32(uint32_t(s.size()));
  bytes.insert(bytes.end(), s.begin(), s.end());
}

// Arrays of numbers go as their bytes (every target here is little-endian:
// x86-64 and wasm), copied at once: a reading is some 40,000 of them.
static_assert(sizeof(float) == 4 && sizeof(double) == 8, "float32, float64");
template <typename T>
void WireWriter::numbers(const std::vector<T>& v) {
  u32(uint32_t(v.size()));
  const auto* first = reinterpret_cast<const uint8_t*>(v.data());
  bytes.insert(bytes.end(), first, first + v.size() * sizeof(T));
}
void WireWriter::floats(const std::vector<float>& v) { numbers(v); }
void WireWriter::doubles(const std::vector<double>& v) { numbers(v); }

void WireWriter::strings(const std::vector<std::string>& v) {
  u32(uint32_t(v.size()));
  for (const std::string& s : v) str(s);
}

bool WireReader::take(void* out, std::size_t n) {
  if (!ok_ || std::size_t(end_ - p_) < n) {
    ok_ = false;
    return false;
  }
  std::memcpy(out, p_, n);
  p_ += n;
  return true;
}

uint32_t WireReader::u32() {
  uint8_t b[4];
  if (!take(b, 4)) return 0;
  return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
}

float WireReader::f32() {
  const uint32_t bits = u32();
  float v = 0;
  std::memcpy(&v, &bits, 4);
  return v;
}

std::string WireReader::str() {
  const uint32_t n = u32();
  if (!ok_ || std::size_t(end_ - p_) < n) {
    ok_ = false;
    return {};
  }
  std::string s(reinterpret_cast<const char*>(p_), n);
  p_ += n;
  return s;
}

template <typename T>
std::vector<T> WireReader::numbers() {
  const uint32_t n = u32();
  if (!ok_ || std::size_t(end_ - p_) / sizeof(T) < n) {
    ok_ = false;
    return {};
  }
  std::vector<T> v(n);
  if (n) std::memcpy(v.data(), p_, std::size_t(n) * sizeof(T));
  p_ += std::size_t(n) * sizeof(T);
  return v;
}
std::vector<float> WireReader::floats() { return numbers<float>(); }
std::vector<double> WireReader::doubles() { return numbers<double>(); }

std::vector<std::string> WireReader::strings() {
  const uint32_t n = u32();
  if (!ok_ || std::size_t(end_ - p_) / 4 < n) {  // each string takes 4 bytes at least
    ok_ = false;
    return {};
  }
  std::vector<std::string> v(n);
  for (std::string& s : v) s = str();
  return v;
}

void WireWriter::f64(double v) {
  uint64_t bits = 0;
  std::memcpy(&bits, &v, 8);
  u32(uint32_t(bits));
  u32(uint32_t(bits >> 32));
}

double WireReader::f64() {
  const uint64_t low = u32(), high = u32();
  const uint64_t bits = low | high << 32;
  double v = 0;
  std::memcpy(&v, &bits, 8);
  return v;
}

std::vector<uint8_t> answer_error(const std::string& error) {
  WireWriter w;
  w.str(error);
  return std::move(w.bytes);
}

}  // namespace attn::api
