// Writing and checking the poem model's file (model_file.hpp has the layout).
#include "model_file.hpp"

#include <cmath>
#include <cstring>

#include "../rng.hpp"
#include "../tokenizer.hpp"

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

}  // namespace

std::vector<uint8_t> write_model(const PoemModel& model, const std::string& info) {
  std::vector<uint8_t> out(kMagic, kMagic + 8);
  put_u32(out, kModelFileVersion);
  const GptConfig& c = model.config;
  for (int v : {c.vocab, c.context, c.layers, c.heads, c.d_model}) put_u32(out, static_cast<uint32_t>(v));
  put_u32(out, static_cast<uint32_t>(info.size()));
  out.insert(out.end(), info.begin(), info.end());
  for (const std::string& ch : model.vocab.chars) {
    out.push_back(static_cast<uint8_t>(ch.size()));
    out.insert(out.end(), ch.begin(), ch.end());
  }
  put_u64(out, model.params.size());
  const std::size_t at = out.size();
  out.resize(at + model.params.size() * 4);
  for (std::size_t i = 0; i < model.params.size(); ++i) {
    uint32_t bits = 0;
    std::memcpy(&bits, &model.params[i], 4);
    for (std::size_t b = 0; b < 4; ++b) out[at + 4 * i + b] = static_cast<uint8_t>(bits >> (8 * b));
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
  if (const uint32_t version = r.u32(); version != kModelFileVersion)
    return failed("version " + std::to_string(version) + ", this build reads version " +
                  std::to_string(kModelFileVersion));
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
  if (!r.has(count * 4 + 8))
    return failed("truncated: " + std::to_string(size) + " bytes, the header needs " +
                  std::to_string(r.pos() + count * 4 + 8));
  if (size != r.pos() + count * 4 + 8) return failed(std::to_string(size - (r.pos() + count * 4 + 8)) +
                                                     " bytes after the checksum");
  const std::size_t body = size - 8;
  Reader tail(data + body, 8);
  if (tail.u64() != checksum(data, body)) return failed("bad checksum: the file is corrupt");
  f.model.params.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    uint32_t bits = 0;
    for (std::size_t b = 0; b < 4; ++b) bits |= uint32_t(r.here()[4 * i + b]) << (8 * b);
    std::memcpy(&f.model.params[i], &bits, 4);
    if (!std::isfinite(f.model.params[i])) return failed("parameter " + std::to_string(i) + " is not finite");
  }
  return f;
}

}  // namespace attn::poem
