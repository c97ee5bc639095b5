#include "files.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace attn::cli {

bool read_all(const std::string& path, std::string& bytes, std::string& error) {
  FILE* file = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (!file) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  char buf[65536];
  std::size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, file)) > 0) bytes.append(buf, n);
  const bool failed = std::ferror(file) != 0;
  if (failed) error = "cannot read '" + path + "': " + std::strerror(errno);
  if (file != stdin) std::fclose(file);
  return !failed;
}

bool write_all(const std::string& path, const std::string& bytes, std::string& error) {
  FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) {
    error = "cannot write '" + path + "': " + std::strerror(errno);
    return false;
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), file) == bytes.size();
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) error = "cannot write '" + path + "': " + std::strerror(errno);
  return written && closed;
}

}  // namespace attn::cli
