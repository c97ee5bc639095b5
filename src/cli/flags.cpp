// The flag parser (flags.hpp): a syntax pass over the arguments, then --help,
// then each value through its flag's reader, in command-line order.
#include "flags.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <utility>

#include "core/base/numpy_random.hpp"
#include "core/scaling/trainer.hpp"

namespace attn::cli {
namespace {

bool starts_with_dashes(const std::string& text) { return text.rfind("--", 0) == 0; }

const ValueFlag* find_flag(const FlagSpec& spec, const std::string& arg) {
  if (!starts_with_dashes(arg)) return nullptr;
  for (const ValueFlag& flag : spec.values)
    if (flag.name == arg.substr(2)) return &flag;
  return nullptr;
}

// The syntax pass: which flag got which text, in command-line order.
struct Syntax {
  std::vector<std::pair<const ValueFlag*, std::string>> values;
  bool json = false;
  bool help = false;
  std::string error;
};

Syntax read_syntax(const CommandLine& line, const FlagSpec& spec) {
  Syntax s;
  const std::vector<std::string>& args = line.args;
  for (std::size_t i = 0; i < args.size() && s.error.empty(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--json" && spec.json) {
      s.json = true;
    } else if (arg == "--help" || arg == "-h") {
      s.help = true;
    } else if (const ValueFlag* flag = find_flag(spec, arg)) {
      // A value that looks like a flag is a forgotten value, not a value.
      if (i + 1 >= args.size() || starts_with_dashes(args[i + 1])) {
        s.error = arg + " needs a value";
      } else {
        for (const auto& seen : s.values)
          if (seen.first == flag) s.error = arg + " given twice";
        s.values.emplace_back(flag, args[++i]);
      }
    } else {
      s.error = "unexpected argument '" + arg + "'";
    }
  }
  return s;
}

// 100 as "100": the bound as a reader would type it.
std::string number_text(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

}  // namespace

std::optional<int> read_flags(const CommandLine& line, const FlagSpec& spec) {
  const Syntax s = read_syntax(line, spec);
  if (!s.error.empty()) return command_error(line.command, s.error);
  if (s.help) {
    std::cout << line.usage;
    return 0;
  }
  for (const auto& [flag, text] : s.values)
    if (std::string error = flag->read(text); !error.empty()) return command_error(line.command, error);
  if (spec.json) *spec.json = s.json;
  return std::nullopt;
}

int cli_error(const std::string& message) {
  std::cerr << "attention_cli: " << message << '\n';
  return kExitUsage;
}

int command_error(const std::string& command, const std::string& message) {
  return cli_error(command + ": " + message);
}

std::string parse_int(const std::string& name, const std::string& text, long long lo, long long hi,
                      long long& out) {
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
    return "--" + name + ": expected an integer in " + std::to_string(lo) + ".." +
           std::to_string(hi) + ", got '" + text + "'";
  out = v;
  return {};
}

ValueFlag seed_flag(uint64_t& out) {
  return int_flag("seed", 0, static_cast<long long>(TrainLimits::kMaxSeed), out);
}

ValueFlag numpy_seed_flag(uint64_t& out) {
  return int_flag("seed", 0, static_cast<long long>(NumpyRandom::kMaxSeed), out);
}

ValueFlag positive_float_flag(const std::string& name, float max, float& out) {
  return {name, [name, max, &out](const std::string& text) {
            char* end = nullptr;
            const float v = std::strtof(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(v) || !(v > 0.0f) || !(v <= max))
              return "--" + name + ": expected a number in (0, " + number_text(max) + "], got '" + text + "'";
            out = v;
            return std::string();
          }};
}

ValueFlag float_flag(const std::string& name, float lo, float hi, float& out, const std::string& note) {
  return {name, [name, lo, hi, note, &out](const std::string& text) {
            char* end = nullptr;
            const float v = std::strtof(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !(v >= lo && v <= hi))
              return "--" + name + ": expected a number in " + number_text(lo) + ".." + number_text(hi) +
                     (note.empty() ? "" : " " + note) + ", got '" + text + "'";
            out = v;
            return std::string();
          }};
}

ValueFlag text_flag(const std::string& name, std::optional<std::string>& out) {
  return {name, [&out](const std::string& text) {
            out = text;
            return std::string();
          }};
}

}  // namespace attn::cli
