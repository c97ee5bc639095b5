#pragma once
// Files a test reads from the build tree or the checkout (the trained poem
// model, the CLI, the golden tables). ctest hands their paths over in the
// environment (the tests' CMakeLists.txt), not in compile definitions: a path
// in a definition differs from clone to clone and keeps the file out of the
// compiler cache. Run by hand, a test needs the variable set as ctest sets it
// (ctest --preset native -R ui_native -V prints it).
#include <cstdlib>
#include <string>

namespace attn::test {

// The path in environment variable `name`, or a note saying it is not set
// (reading that "path" fails, and the failing check prints it).
inline std::string file_from_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? std::string(value) : std::string("(") + name + " is not set: run the test through ctest)";
}

}  // namespace attn::test
