// The one flag parser of attention_cli. Every command takes "--name value"
// flags, --help, and (when it has a JSON form) --json; a command lists its
// value flags with a reader that checks the value and stores it.
//
// Every mistake is one line on stderr, "attention_cli: <command>: <why>",
// and exit code 2, so a script or test can match the message. The syntax
// (unknown flags, missing values, a flag given twice) is checked before
// --help, the values after it: "train --dk 0 --help" prints the usage.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace attn::cli {

constexpr int kExitUsage = 2;

// One command's arguments (after the command name) and the text --help prints.
struct CommandLine {
  std::string command;
  std::vector<std::string> args;
  const char* usage = "";
};

// A "--name value" flag. read() stores the value, or returns a one-line
// message (naming the flag) and leaves the destination alone.
struct ValueFlag {
  std::string name;
  std::function<std::string(const std::string& value)> read;
};

struct FlagSpec {
  std::vector<ValueFlag> values;
  bool* json = nullptr;  // set by --json; nullptr: the command has no JSON form
};

// Reads the command line into the spec's destinations, values in
// command-line order (the first bad one is reported). Returns the exit code
// when the command must stop here: 0 after printing the usage (--help),
// kExitUsage after printing an error; nullopt when the command should run.
std::optional<int> read_flags(const CommandLine& line, const FlagSpec& spec);

// "attention_cli: <message>" on stderr; returns kExitUsage.
int cli_error(const std::string& message);
// "attention_cli: <command>: <message>" on stderr; returns kExitUsage.
int command_error(const std::string& command, const std::string& message);

// Whole-string integer in [lo, hi]: "" or "--<name>: expected an integer in lo..hi, got '<text>'".
std::string parse_int(const std::string& name, const std::string& text, long long lo, long long hi,
                      long long& out);

// Readers for the common kinds of value.
template <typename Int>
ValueFlag int_flag(const std::string& name, long long lo, long long hi, Int& out) {
  return {name, [name, lo, hi, &out](const std::string& text) {
            long long value = 0;
            std::string error = parse_int(name, text, lo, hi, value);
            if (error.empty()) out = static_cast<Int>(value);
            return error;
          }};
}
// 0 .. TrainLimits::kMaxSeed: every seed the CLI prints stays exact in JSON.
ValueFlag seed_flag(uint64_t& out);
// np.random.seed's range, for the chapter's experiments (core/base/numpy_random.hpp).
ValueFlag numpy_seed_flag(uint64_t& out);
// A finite float32 number in (0, max].
ValueFlag positive_float_flag(const std::string& name, float max, float& out);
// A number in [lo, hi] (float32); note, if any, follows the range in the message.
ValueFlag float_flag(const std::string& name, float lo, float hi, float& out, const std::string& note = "");
// Any text (a file name; "-" is stdin to the command that reads it).
ValueFlag text_flag(const std::string& name, std::optional<std::string>& out);

}  // namespace attn::cli
