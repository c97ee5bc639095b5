// attention_cli: the chapter's experiments and the compute() API on the
// command line, as tables for a reader or JSON for tests and scripts.
// This file holds the usage text and the command table; each command lives in
// its own file (commands.hpp) and reads its flags with flags.hpp.
//
// Exit codes: 0 ok, 2 bad usage or bad config (one line on stderr), 1 internal error.
#include <exception>
#include <iostream>
#include <string>

#include "commands.hpp"

namespace {

using attn::cli::CommandLine;

const char* const kUsage =
    "usage: attention_cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  fig41  [--seed S] [--json]  Figure 4.1: per-head min/max/mean, head average, top-3 keys\n"
    "  fig42  [--seed S] [--json]  Figure 4.2: score spread and softmax peak vs d_k, raw and scaled\n"
    "  causal [--seed S] [--json]  causal mask companion: bidirectional vs causal weights\n"
    "                         (--seed: numpy's np.random.seed, 0..4294967295; 42, the\n"
    "                         default, is the book's: its printed numbers)\n"
    "  attend --config FILE   run a JSON config through compute() (FILE '-' reads stdin)\n"
    "  config --config FILE   print a text/experiment config in canonical form (all fields,\n"
    "                         defaults filled in); parses only, attend runs it\n"
    "  fields                 the text/experiment config's fields as a markdown table\n"
    "                         (docs/reference.md's \"Config fields\")\n"
    "  train [--task retrieve] [--dk D] [--scale sqrt|none] [--steps N] [--seed S]\n"
    "        [--lr X] [--heads H] [--batch B] [--json]\n"
    "                         train the tiny one-layer attention model (defaults: retrieve,\n"
    "                         dk 32, sqrt, 200 steps, seed 1, lr 0.003, 1 head, batch 32)\n"
    "  scaling [--dk D] [--keys N] [--trials T] [--seed S] [--json]\n"
    "                         one attention row raw vs scaled, softmax entropy and Jacobian\n"
    "                         norm (means over T rows), float32 naive vs stable softmax\n"
    "  poem train [--steps N] [--seed S] [--layers L] [--heads H] [--d-model D] [--context T]\n"
    "        [--batch B] [--lr X] [--warmup N] [--modern yes|no] [--corpus DIR] --out FILE\n"
    "        [--modern-share X] [--modern-until X] [--line-start-share X] [--dropout X] [--report N]\n"
    "        [--tang FILE|default] [--min-count N] [--threads N (0: every core; the same weights)]\n"
    "                         train the character GPT on Debian's Tang poems (fortunes-zh;\n"
    "                         defaults: 1100 steps, seed 1, 2 layers, 4 heads, d-model 64,\n"
    "                         context 64, batch 16, lr 0.003, warmup 100, modern yes with\n"
    "                         share 0.6 until 0.92 of the steps, poem windows at line starts\n"
    "                         1.0, dropout 0.2); prints step, train and held-out loss, tokens/s;\n"
    "                         --tang: on the Quan Tang Shi (scripts/tang_corpus.sh), tang300 held out\n"
    "  poem attend --model FILE --text TEXT [--json]\n"
    "                         every layer's and head's weights on TEXT, the next character's\n"
    "                         top 10, each character's loss\n"
    "  poem sample --model FILE [--prompt TEXT] [--length N] [--temperature T] [--seed S]\n"
    "                         continue a prompt (defaults: 48 characters, 0.8, seed 1)\n"
    "  poem eval --model FILE [--json]\n"
    "                         the held-out poems: loss against the unigram and bigram\n"
    "                         baselines, punctuation accuracy, sample line lengths, the\n"
    "                         heads' patterns, and the goals met or not\n"    "  poem corpus [--tang FILE|default] [--min-count N] [--train-out FILE] [--json]\n"
    "                         how the Quan Tang Shi is cleaned and split, the vocabulary at a count\n"    "  poem convert --model FILE --out FILE --encoding float32|int8|float16\n"
    "                         the model file again, its matrices in another encoding (version 2)\n"
    "  why recurrence [--distance K|mix] [--steps N] [--seed S] [--timing] [--json]\n"
    "                         a tanh RNN, a GRU and one attention layer learn to name the symbol\n"
    "                         K positions back (defaults: 32, 600 steps, seed 1)\n"
    "  why qkv [--task previous|lookup] [--steps N] [--seed S] [--json]\n"
    "                         attention with no projections, W_Q = W_K, and separate W_Q, W_K, W_V\n"
    "  --help                 this text\n";

struct Command {
  const char* name;
  int (*run)(const CommandLine& line);
};
const Command kCommands[] = {
    {"fig41", attn::cli::run_fig41},   {"fig42", attn::cli::run_fig42},
    {"causal", attn::cli::run_causal}, {"attend", attn::cli::run_attend},
    {"config", attn::cli::run_config}, {"fields", attn::cli::run_fields},
    {"train", attn::cli::run_train},   {"poem", attn::cli::run_poem},
    {"scaling", attn::cli::run_scaling}, {"why", attn::cli::run_why},
};

// A missing or unknown command: the message, then the usage (the reader
// has not found the right command yet).
int usage_error(const std::string& message) {
  const int exit_code = attn::cli::cli_error(message);
  std::cerr << kUsage;
  return exit_code;
}

int run(int argc, char** argv) {
  if (argc < 2) return usage_error("missing command");
  const std::string command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  for (const Command& c : kCommands)
    if (command == c.name) return c.run(CommandLine{command, {argv + 2, argv + argc}, kUsage});
  return usage_error("unknown command '" + command + "'");
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // e.g. bad_alloc: report, never crash
    std::cerr << "attention_cli: internal error: " << e.what() << '\n';
    return 1;
  }
}
