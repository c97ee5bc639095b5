// The bytes a view and its lazy module exchange (ui/state/module_load.hpp):
// the browser keeps each such module in a wasm module of its own, so a
// request and its answer cross between two heaps (or to a Web Worker) as
// bytes; the desktop and the tests hand the same bytes to the module's calls
// in-process, so every build runs one code path.
//
// Little-endian u32 counts and sizes, float32 and float64 numbers, UTF-8
// strings as a u32 length and the bytes. A request is its op (u32) and its
// fields; an answer is "" or an error message, then the op's data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attn::api {

class WireWriter {
 public:
  void u32(uint32_t v);
  void f32(float v);
  void f64(double v);
  void str(const std::string& s);
  void floats(const std::vector<float>& v);
  void doubles(const std::vector<double>& v);
  void strings(const std::vector<std::string>& v);
  std::vector<uint8_t> bytes;

 private:
  template <typename T>
  void numbers(const std::vector<T>& v);  // a u32 count, then the values' bytes
};

// Reads what WireWriter wrote; past the end (a truncated answer) every read
// gives 0 or "" and ok() turns false.
class WireReader {
 public:
  WireReader(const uint8_t* data, std::size_t size) : p_(data), end_(data + size) {}
  explicit WireReader(const std::vector<uint8_t>& bytes) : WireReader(bytes.data(), bytes.size()) {}
  uint32_t u32();
  float f32();
  double f64();
  std::string str();
  std::vector<float> floats();
  std::vector<double> doubles();
  std::vector<std::string> strings();
  bool ok() const { return ok_; }

 private:
  bool take(void* out, std::size_t n);
  template <typename T>
  std::vector<T> numbers();
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

// An answer that is only its error.
std::vector<uint8_t> answer_error(const std::string& error);

}  // namespace attn::api
