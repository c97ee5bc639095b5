// attend and config: a JSON config from --config FILE ("-" reads stdin).
// attend runs it through compute(), the browser's entry point; config prints
// its canonical form (parse_explorer_config then print_explorer_config: the
// form the UI writes, and a fixed point of parse + print). fields prints the
// field table those two read, as docs/reference.md shows it.
#include <iostream>

#include "api/compute.hpp"
#include "api/explorer/explorer_json.hpp"
#include "commands.hpp"
#include "files.hpp"

namespace attn::cli {
namespace {

// The flags (--config FILE, required) and the file's text. Returns the exit
// code when the command must stop, nullopt with the text otherwise.
std::optional<int> read_config_text(const CommandLine& line, std::string& text) {
  std::optional<std::string> path;
  if (const auto exit_code = read_flags(line, {{text_flag("config", path)}})) return *exit_code;
  if (!path) return cli_error(line.command + " needs --config FILE");
  std::string error;
  if (!read_all(*path, text, error)) return command_error(line.command, error);
  return std::nullopt;
}

}  // namespace

int run_attend(const CommandLine& line) {
  std::string text;
  if (const auto exit_code = read_config_text(line, text)) return *exit_code;
  const api::ComputeResult r = api::compute(text);
  if (r.ok) {
    std::cout << r.json << '\n';
    return 0;
  }
  // The message is the error object's only string; compute() keeps it on one line.
  const auto j = nlohmann::json::parse(r.json, nullptr, false);
  const auto it = j.is_object() ? j.find("error") : j.end();
  const std::string message = (j.is_object() && it != j.end() && it->is_string())
                                  ? it->get<std::string>() : r.json;
  return command_error(line.command, message);
}

int run_config(const CommandLine& line) {
  std::string text;
  if (const auto exit_code = read_config_text(line, text)) return *exit_code;
  ExplorerConfig config;
  if (std::string e = api::parse_explorer_config(text, config); !e.empty())
    return command_error(line.command, e);
  std::cout << api::print_explorer_config(config) << '\n';
  return 0;
}

int run_fields(const CommandLine& line) {
  if (const auto exit_code = read_flags(line, {})) return *exit_code;
  std::cout << api::explorer_fields_markdown();
  return 0;
}

}  // namespace attn::cli
