// Whole files in and out, for the commands that read configs and models.
#pragma once

#include <string>

namespace attn::cli {

// Reads the whole file ("-": stdin) into bytes; false with a one-line error
// naming the file otherwise. stdio, not iostreams: fread/ferror report a
// directory or a read error, which an ifstream would silently treat as EOF.
bool read_all(const std::string& path, std::string& bytes, std::string& error);
// Writes bytes to path (replacing it); false with a one-line error otherwise.
bool write_all(const std::string& path, const std::string& bytes, std::string& error);

}  // namespace attn::cli
