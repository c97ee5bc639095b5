// attention_cli's commands, one function each; main.cpp's table maps the
// names to them. Each reads its own flags (flags.hpp) and returns the exit
// code: 0 ok, 2 bad usage or bad config (one line on stderr).
#pragma once

#include "flags.hpp"

namespace attn::cli {

// reports.cpp: the chapter's experiments as tables, or JSON with --json.
int run_fig41(const CommandLine& line);   // Figure 4.1's console report
int run_fig42(const CommandLine& line);   // Figure 4.2: why divide by sqrt(d_k)
int run_causal(const CommandLine& line);  // the causal-mask companion

// config_commands.cpp: a JSON config from --config FILE ("-" = stdin).
int run_attend(const CommandLine& line);  // compute() on it
int run_config(const CommandLine& line);  // its canonical form
int run_fields(const CommandLine& line);  // the config's field table (markdown)

// train.cpp: the tiny attention model of trainer.hpp.
int run_train(const CommandLine& line);

// poem.cpp: the character GPT of core/poem (train, attend, sample, eval).
int run_poem(const CommandLine& line);

// scaling.cpp: one d_k's saturation, gradient size and float32 stability.
int run_scaling(const CommandLine& line);

// why.cpp: the "why attention" experiments of core/why (recurrence, qkv).
int run_why(const CommandLine& line);

}  // namespace attn::cli
