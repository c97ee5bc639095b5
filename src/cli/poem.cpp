// poem: the character GPT of core/poem, trained on Debian's Tang poems
// (fortunes-zh), and what it learned.
//   poem train   train it and write the model file
//   poem attend  read a text: every head's weights, the next character, the losses
//   poem sample  continue a prompt
//   poem eval    the held-out poems: loss against the baselines, punctuation,
//                line lengths of samples, the heads' patterns; the goals
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>

#include "api/json_output.hpp"
#include "api/poem/page_training.hpp"
#include "api/poem/poem_json.hpp"
#include "commands.hpp"
#include "core/poem/head_patterns.hpp"
#include "core/poem/model_file.hpp"
#include "core/base/tokenizer.hpp"
#include "files.hpp"
#include "tables.hpp"

namespace attn::cli {
namespace {

using namespace attn::poem;

const char* const kDefaultCorpus = "/usr/share/games/fortunes";

// Where scripts/tang_corpus.sh (run by scripts/setup.sh) puts the Quan Tang Shi.
std::string default_tang_path() {
  const char* cache = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const std::string dir = cache && *cache ? cache : std::string(home ? home : ".") + "/.cache";
  return dir + "/attention-lab/tang/quantangshi-2.0.1.txt";
}

// The corpus files; a missing file names what installs it. tang: the Quan
// Tang Shi's file, or none for fortunes-zh alone.
std::optional<int> read_corpus(const std::string& command, const std::string& dir, bool modern,
                               const std::optional<std::string>& tang, PoemCorpus& corpus) {
  const std::pair<const char*, std::vector<std::string>*> files[] = {
      {"tang300", &corpus.tang300}, {"song100", &corpus.song100}, {"chinese", &corpus.modern}};
  for (const auto& [name, entries] : files) {
    if (entries == &corpus.modern && !modern) continue;
    std::string text, error;
    if (!read_all(dir + "/" + name, text, error))
      return command_error(command, error + " (the corpus is Debian's fortunes-zh: scripts/setup.sh installs it)");
    *entries = parse_fortunes(text);
  }
  if (corpus.tang300.size() < 20) return command_error(command, dir + "/tang300: fewer than 20 poems");
  if (tang) {
    std::string text, error;
    if (!read_all(*tang, text, error))
      return command_error(command, error + " (scripts/tang_corpus.sh fetches the Quan Tang Shi)");
    corpus.tang = parse_fortunes(text);
    if (corpus.tang.size() < 1000)
      return command_error(command, *tang + ": " + std::to_string(corpus.tang.size()) +
                                        " poems; the Quan Tang Shi has 57,607 (scripts/tang_corpus.sh fetches it again)");
  }
  return std::nullopt;
}

// --tang FILE, or --tang default: where the set-up put it.
ValueFlag tang_flag(std::optional<std::string>& out) {
  return {"tang", [&out](const std::string& text) {
            out = text == "default" ? default_tang_path() : text;
            return std::string();
          }};
}

std::vector<std::vector<int>> encode_each(const Vocab& vocab, const std::vector<std::string>& poems) {
  std::vector<std::vector<int>> out;
  for (const std::string& p : poems) out.push_back(vocab.encode_poem(p));
  return out;
}

std::optional<int> read_model_file(const std::string& command, const std::optional<std::string>& path,
                                   ModelFile& file) {
  if (!path) return command_error(command, "needs --model FILE (poem train --out FILE writes one)");
  std::string bytes, error;
  if (!read_all(*path, bytes, error)) return command_error(command, error);
  file = read_model(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!file.error.empty()) return command_error(command, *path + ": " + file.error);
  return std::nullopt;
}

// A model's training settings, kept in the file's info (JSON text): whether
// the modern passages trained, and their share of a batch.
std::pair<bool, float> trained_with_modern(const std::string& info) {
  const auto j = nlohmann::json::parse(info, nullptr, false);
  if (!j.is_object()) return {false, 0.0f};
  // The share over the whole run: modern_share of the batches for modern_until of the steps.
  return {j.value("modern", false), j.value("modern_share", 0.0f) * j.value("modern_until", 1.0f)};
}

bool trained_on_tang(const std::string& info) {
  const auto j = nlohmann::json::parse(info, nullptr, false);
  return j.is_object() && j.value("tang", false);
}

ValueFlag encoding_flag(WeightEncoding& out) {
  return {"encoding", [&out](const std::string& text) {
            for (WeightEncoding e : {WeightEncoding::kFloat32, WeightEncoding::kInt8Rows, WeightEncoding::kFloat16})
              if (text == encoding_name(e)) return out = e, std::string();
            return "--encoding: expected float32, int8 or float16, got '" + text + "'";
          }};
}

ValueFlag yes_no_flag(const std::string& name, bool& out) {
  return {name, [name, &out](const std::string& text) {
            if (text != "yes" && text != "no") return "--" + name + ": expected yes or no, got '" + text + "'";
            out = text == "yes";
            return std::string();
          }};
}

// --progress FILE: where a web page that serves the model once trained reads how
// far training is (web/poem.js, scripts/run.sh): {"state", "step", "steps",
// "seconds"} a second, replaced by renaming, so a reader never sees half a file.
bool write_progress(const std::string& path, int step, int steps, double seconds) {
  const std::string json = api::dump(api::OutJson{{"state", "training"}, {"step", step}, {"steps", steps},
                                                  {"seconds", std::round(seconds * 1000) / 1000}});
  std::string error;
  return write_all(path + ".tmp", json + "\n", error) && std::rename((path + ".tmp").c_str(), path.c_str()) == 0;
}

int train(const CommandLine& line) {
  PoemTrainConfig config;
  std::optional<std::string> out, corpus_dir, tang, progress;
  int report = 100, min_count = 1;
  WeightEncoding encoding = WeightEncoding::kFloat32;
  const FlagSpec flags{{int_flag("steps", 1, 1000000, config.steps), seed_flag(config.seed),
                        int_flag("layers", 1, GptLimits::kMaxLayers, config.model.layers),
                        int_flag("heads", 1, GptLimits::kMaxHeads, config.model.heads),
                        int_flag("d-model", 1, GptLimits::kMaxDModel, config.model.d_model),
                        int_flag("context", 2, GptLimits::kMaxContext, config.model.context),
                        int_flag("batch", 1, 1024, config.batch),
                        positive_float_flag("lr", 1.0f, config.learning_rate),
                        int_flag("warmup", 0, 1000000, config.warmup),
                        yes_no_flag("modern", config.use_modern),
                        float_flag("modern-share", 0.0f, 1.0f, config.modern_share),
                        float_flag("line-start-share", 0.0f, 1.0f, config.line_start_share),
                        float_flag("modern-until", 0.0f, 1.0f, config.modern_until),
                        float_flag("dropout", 0.0f, 1.0f, config.dropout),
                        text_flag("corpus", corpus_dir), tang_flag(tang),
                        int_flag("min-count", 1, 1000000, min_count),
                        int_flag("threads", 0, 256, config.threads),
                        encoding_flag(encoding),
                        int_flag("report", 1, 1000000, report), text_flag("out", out),
                        text_flag("progress", progress)},
                       nullptr};
  if (const auto exit_code = read_flags(line, flags)) return *exit_code;
  if (!out) return command_error(line.command, "needs --out FILE (where the model goes)");
  if (std::string e = check_train_config(config); !e.empty()) return command_error(line.command, e);
  PoemCorpus corpus;
  if (const auto exit_code =
          read_corpus(line.command, corpus_dir.value_or(kDefaultCorpus), config.use_modern, tang, corpus))
    return *exit_code;
  const PoemSplit split = split_corpus(corpus, config.use_modern);
  Vocab vocab = Vocab::from_texts(split.train(), min_count);
  std::vector<int> poem_ids = encode_all(vocab, split.poems);
  std::vector<int> modern_ids = encode_all(vocab, split.modern, Vocab::kTextStart);
  const std::vector<std::vector<int>> held_out = encode_each(vocab, split.held_out);
  std::cout << "Training a " << config.model.layers << "-layer, " << config.model.heads << "-head character GPT (d_model "
            << config.model.d_model << ", context " << config.model.context << ", vocabulary " << vocab.size()
            << ") on " << poem_ids.size() << " characters of " << split.poems.size() << " poems"
            << (config.use_modern ? " and " + std::to_string(modern_ids.size()) + " of " +
                                        std::to_string(split.modern.size()) + " modern passages (" +
                                        fixed(100 * config.modern_share, 0) + " % of each batch)"
                                  : std::string())
            << "; " << split.held_out.size() << " held-out Tang poems"
            << (tang ? ", " + std::to_string(split.excluded) + " more that hold a clause of one left out" : "")
            << ". AdamW lr " << config.learning_rate << ", batch " << config.batch << " x "
            << config.model.context << ", seed " << config.seed << ".\n\n";
  if (poem_ids.size() <= static_cast<std::size_t>(config.model.context) + 1)
    return command_error(line.command, "the training poems are shorter than the context");

  PoemTrainer trainer(config, std::move(vocab), std::move(poem_ids), std::move(modern_ids));
  Table table{{"step", "train loss", "held-out loss", "tokens/s", "seconds"}, {}};
  const auto start = std::chrono::steady_clock::now();
  double interval_loss = 0, train_seconds = 0, progress_at = -1;
  int interval_steps = 0;
  for (int s = 1; s <= config.steps; ++s) {
    const auto t0 = std::chrono::steady_clock::now();
    interval_loss += trainer.step().loss;
    train_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ++interval_steps;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress && (seconds - progress_at >= 1.0 || s == config.steps)) {
      progress_at = seconds;
      if (!write_progress(*progress, s, config.steps, seconds)) return command_error(line.command, "cannot write " + *progress);
    }
    if (s % report != 0 && s != config.steps) continue;
    const PoemScore score = score_poems(trainer.model(), held_out);
    const double tokens = double(interval_steps) * config.batch * config.model.context;
    table.rows.push_back({std::to_string(s), fixed(interval_loss / interval_steps, 3), fixed(score.loss, 3),
                          fixed(tokens / train_seconds, 0),
                          fixed(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1)});
    std::cout << table.rows.back()[0] << "  " << table.rows.back()[1] << "  " << table.rows.back()[2] << "  "
              << table.rows.back()[3] << " tokens/s  " << table.rows.back()[4] << " s\n" << std::flush;
    interval_loss = train_seconds = 0;
    interval_steps = 0;
  }
  const api::OutJson info{{"steps", config.steps}, {"seed", config.seed}, {"batch", config.batch},
                          {"learning_rate", config.learning_rate}, {"warmup", config.warmup},
                          {"modern", config.use_modern}, {"modern_share", config.modern_share},
                          {"modern_until", config.modern_until},
                          {"line_start_share", config.line_start_share}, {"dropout", config.dropout},
                          {"tang", tang.has_value()}, {"min_count", min_count},
                          {"held_out", tang ? "tang300, and every poem sharing a clause of 4+ characters with one"
                                            : "tang300 index % 10 == 0"}};
  const std::vector<uint8_t> bytes = write_model(trainer.model(), api::dump(info), encoding);
  std::string error;
  if (!write_all(*out, std::string(bytes.begin(), bytes.end()), error)) return command_error(line.command, error);
  std::cout << "\nWrote " << *out << " (" << bytes.size() << " bytes, " << trainer.model().params.size()
            << " parameters).\n";
  return 0;
}

int attend(const CommandLine& line) {
  std::optional<std::string> model_path, text;
  bool json = false;
  if (const auto exit_code = read_flags(line, {{text_flag("model", model_path), text_flag("text", text)}, &json}))
    return *exit_code;
  if (!text) return command_error(line.command, "needs --text TEXT");
  ModelFile file;
  if (const auto exit_code = read_model_file(line.command, model_path, file)) return *exit_code;
  api::OutJson reading;
  if (std::string e = api::poem_attend(file.model, *text, reading); !e.empty()) return command_error(line.command, e);
  for (const auto& notice : reading["notices"]) std::cerr << "attention_cli: " << line.command << ": " << notice.get<std::string>() << '\n';
  if (json) {
    std::cout << api::dump(reading) << '\n';
    return 0;
  }
  const auto& tokens = reading["tokens"];
  Table table{{"position", "character", "-ln p (from the previous)"}, {}};
  for (std::size_t i = 0; i < tokens.size(); ++i)
    table.rows.push_back({std::to_string(i), tokens[i].get<std::string>() == "\n" ? "\\n" : tokens[i].get<std::string>(),
                          i ? fixed(reading["loss"][i - 1].get<float>(), 3) : ""});
  print_table(std::cout, table);
  std::cout << "\nNext character:";
  for (const auto& n : reading["next"])
    std::cout << "  " << (n["char"].get<std::string>() == "\n" ? "\\n" : n["char"].get<std::string>()) << ' '
              << fixed(n["p"].get<float>(), 3);
  std::cout << "\n(--json adds every layer's and head's weights)\n";
  return 0;
}

int sample_command(const CommandLine& line) {
  std::optional<std::string> model_path, prompt;
  int length = 48;
  float temperature = 0.8f;
  uint64_t seed = 1;
  if (const auto exit_code = read_flags(line, {{text_flag("model", model_path), text_flag("prompt", prompt),
                                               int_flag("length", 1, 2000, length),
                                               float_flag("temperature", 0.0f, 10.0f, temperature,
                                                          "(0: always the likeliest)"),
                                               seed_flag(seed)}, nullptr}))
    return *exit_code;
  ModelFile file;
  if (const auto exit_code = read_model_file(line.command, model_path, file)) return *exit_code;
  const std::string text = prompt.value_or("");
  if (std::string e = utf8_error(text); !e.empty()) return command_error(line.command, "--prompt: " + e);
  std::vector<int> ids{Vocab::kPoemStart};
  int unknown = 0;
  for (int id : file.model.vocab.encode(text, &unknown)) ids.push_back(id);
  if (unknown) std::cerr << "attention_cli: " << line.command << ": " << unknown << " character(s) of the prompt the model never learned: read as <unk>\n";
  Rng rng(seed, 77);
  const std::vector<int> out = sample(file.model, ids, length, temperature, rng);
  std::string written = text;
  for (std::size_t i = ids.size(); i < out.size(); ++i) written += file.model.vocab.text(out[i]);
  std::cout << written << '\n';
  return 0;
}

// Samples at temperature 0.8, measured as the goals ask: the lengths of their
// lines (runs of characters between punctuation and line breaks; a sample's
// last, unfinished run is left out), and their couplets: a line ending in "，"
// and the next, ending in "。", "？", "！" or "；", of equal length or not.
struct SampleForm {
  std::map<int, int> lengths;
  int couplets = 0, equal_couplets = 0;
};
SampleForm sample_form(const PoemModel& model, int samples, int length, uint64_t seed) {
  SampleForm form;
  Rng rng(seed, 77);
  for (int s = 0; s < samples; ++s) {
    const std::vector<int> out = sample(model, {Vocab::kPoemStart}, length, 0.8f, rng);
    int run = 0, first_half = -1;  // first_half: the length of a line that ended in "，"
    for (std::size_t i = 1; i < out.size(); ++i) {
      const bool mark = model.vocab.punctuation(out[i]);
      if (out[i] != Vocab::kLineBreak && !mark) {
        ++run;
        continue;
      }
      if (run > 0) {
        ++form.lengths[run];
        const std::string m = mark ? model.vocab.text(out[i]) : "\n";
        if (first_half >= 0 && (m == "。" || m == "？" || m == "！" || m == "；"))
          ++form.couplets, form.equal_couplets += first_half == run;
        first_half = m == "，" ? run : -1;
      }
      run = 0;
    }
  }
  return form;
}

int eval(const CommandLine& line) {
  std::optional<std::string> model_path, corpus_dir, tang;
  bool json = false;
  int samples = 200;  // enough that a 97 % goal is not one sample's luck
  uint64_t seed = 1;
  if (const auto exit_code = read_flags(line, {{text_flag("model", model_path), text_flag("corpus", corpus_dir),
                                               tang_flag(tang), int_flag("samples", 1, 1000, samples), seed_flag(seed)},
                                              &json}))
    return *exit_code;
  ModelFile file;
  if (const auto exit_code = read_model_file(line.command, model_path, file)) return *exit_code;
  const auto [modern, modern_share] = trained_with_modern(file.info);
  // A model trained on the Quan Tang Shi is measured on its split, by its
  // protocol: every tang300 poem's first context (<poem> and 63 characters).
  const bool on_tang = trained_on_tang(file.info);
  if (!tang && on_tang) tang = default_tang_path();
  PoemCorpus corpus;
  if (const auto exit_code = read_corpus(line.command, corpus_dir.value_or(kDefaultCorpus), modern, tang, corpus))
    return *exit_code;
  const PoemModel& model = file.model;
  const PoemSplit split = split_corpus(corpus, modern);
  std::vector<std::vector<int>> held_out = encode_each(model.vocab, split.held_out);
  if (on_tang)
    for (std::vector<int>& poem : held_out) poem.resize(std::min(poem.size(), std::size_t(model.config.context)));
  const PoemScore score = score_poems(model, held_out);
  const Baselines base = baselines(encode_all(model.vocab, split.poems),
                                   encode_all(model.vocab, split.modern, Vocab::kTextStart),
                                   modern_share, held_out, model.vocab.size());
  const double punctuation = score.punctuation ? double(score.punctuation_hits) / double(score.punctuation) : 0.0;
  const SampleForm form = sample_form(model, samples, 64, seed);
  int lines = 0, five_or_seven = 0;
  for (const auto& [n, count] : form.lengths) lines += count, five_or_seven += (n == 5 || n == 7) ? count : 0;
  const double regular = lines ? double(five_or_seven) / lines : 0.0;
  const double equal = form.couplets ? double(form.equal_couplets) / form.couplets : 0.0;
  const std::vector<HeadStats> heads = analyse_heads(model, held_out);
  bool differ = false, boundary = false;
  std::set<int> detected;
  for (const HeadStats& h : heads) {
    differ = differ || h.pattern != heads.front().pattern;
    boundary = boundary || (h.punctuation_share > 0 && h.punctuation_weight >= 3 * h.punctuation_share);
    if (h.strongest >= 0) detected.insert(h.strongest);
  }
  // A couplet head: the same place in the previous line, or the place of the
  // character the query predicts (docs/poem-model.md says why both count).
  const bool same_place = detected.count(int(Detector::kCouplet)) > 0;
  const bool couplet = same_place || detected.count(int(Detector::kCoupletAhead)) > 0;
  const std::string couplet_found = same_place ? ", couplet" : couplet ? ", couplet one ahead" : ", no couplet";
  // The goals: the Quan Tang Shi's for a model trained on it, else the first model's.
  const double loss_margin = on_tang ? 0.7 : 0.3;
  const bool goal_loss = score.loss <= base.bigram - loss_margin;
  const bool goal_punctuation = punctuation >= 0.8;
  const bool goal_heads = on_tang ? detected.size() >= 4 && couplet : differ && boundary;
  const bool goal_lines = regular >= (on_tang ? 0.97 : 0.7);
  const bool goal_couplets = equal >= 0.97;

  if (json) {
    api::OutJson j{{"loss", score.loss}, {"predicted", score.predicted}, {"unigram", base.unigram},
                   {"bigram", base.bigram}, {"bigram_lambda", base.lambda},
                   {"punctuation_accuracy", punctuation}, {"punctuation_targets", score.punctuation},
                   {"sample_lines", lines}, {"sample_lines_5_or_7", regular},
                   {"sample_couplets", form.couplets}, {"sample_couplets_equal", equal}};
    api::OutJson length_table = api::OutJson::object();
    for (const auto& [n, count] : form.lengths) length_table[std::to_string(n)] = count;
    j["sample_line_lengths"] = length_table;
    api::OutJson head_list = api::OutJson::array();
    for (const HeadStats& h : heads) {
      api::OutJson scores = api::OutJson::object();
      for (int d = 0; d < kDetectors; ++d) {
        const DetectorScore& ds = h.detectors[std::size_t(d)];
        scores[detector_name(Detector(d))] = {{"weight", ds.mean_weight()}, {"ratio", ds.ratio()}, {"queries", ds.queries}};
      }
      head_list.push_back({{"layer", h.layer}, {"head", h.head}, {"pattern", h.pattern}, {"summary", h.summary},
                           {"by_offset", h.by_offset}, {"punctuation_weight", h.punctuation_weight},
                           {"punctuation_share", h.punctuation_share}, {"first_weight", h.first_weight},
                           {"previous_line_weight", h.previous_line_weight}, {"entropy", h.entropy},
                           {"detectors", scores}, {"uniform_entropy", h.uniform_entropy},
                           {"strongest", h.strongest >= 0 ? detector_name(Detector(h.strongest)) : ""},
                           {"detected", h.detected}});
    }
    j["heads"] = head_list;
    j["goals"] = {{"protocol", on_tang ? "tang" : "fortunes"}, {"loss", goal_loss}, {"punctuation", goal_punctuation},
                  {"heads", goal_heads}, {"lines", goal_lines}, {"couplets", goal_couplets}};
    std::cout << api::dump(j) << '\n';
    return 0;
  }
  const auto met = [](bool ok) { return ok ? "met" : "NOT met"; };
  std::cout << "Held-out: " << split.held_out.size() << " Tang poems"
            << (on_tang ? " (tang300, each read in its first context)" : "") << ", " << score.predicted
            << " characters predicted.\n\n";
  Table goals{{"goal", "measured", "target", ""}, {}};
  goals.rows.push_back({"loss (nats/char)", fixed(score.loss, 3), "<= " + fixed(base.bigram - loss_margin, 3),
                        met(goal_loss)});
  if (!on_tang)
    goals.rows.push_back({"punctuation top-1", fixed(100 * punctuation, 1) + " %", ">= 80 %", met(goal_punctuation)});
  goals.rows.push_back({"sample lines of 5 or 7", fixed(100 * regular, 1) + " %", on_tang ? ">= 97 %" : ">= 70 %",
                        met(goal_lines)});
  if (on_tang) {
    goals.rows.push_back({"sample couplets of equal halves", fixed(100 * equal, 1) + " %", ">= 97 %", met(goal_couplets)});
    goals.rows.push_back({"head patterns detected", std::to_string(detected.size()) + couplet_found,
                          ">= 4, couplet", met(goal_heads)});
  } else {
    goals.rows.push_back({"heads: 2 patterns, one >= 3x punct.", differ && boundary ? "yes" : "no", "yes", met(goal_heads)});
  }
  print_table(std::cout, goals);
  std::cout << "\nBaselines on the same split: unigram " << fixed(base.unigram, 3) << ", interpolated bigram "
            << fixed(base.bigram, 3) << " (lambda " << fixed(base.lambda, 2) << ").\n";
  std::cout << "Sample line lengths (" << samples << " samples at temperature 0.8):";
  for (const auto& [n, count] : form.lengths) std::cout << "  " << n << ": " << count;
  std::cout << "\n\nHeads (mean over the held-out poems' positions; the detectors against uniform attention):\n";
  Table table{{"layer", "head", "pattern", "detected"}, {}};
  for (const HeadStats& h : heads)
    table.rows.push_back({std::to_string(h.layer), std::to_string(h.head), h.summary, h.detected});
  print_table(std::cout, table);
  return 0;
}

// A model file written again in another encoding (its info kept).
int convert(const CommandLine& line) {
  std::optional<std::string> model_path, out;
  WeightEncoding encoding = WeightEncoding::kFloat32;
  if (const auto exit_code =
          read_flags(line, {{text_flag("model", model_path), text_flag("out", out), encoding_flag(encoding)}, nullptr}))
    return *exit_code;
  if (!out) return command_error(line.command, "needs --out FILE");
  ModelFile file;
  if (const auto exit_code = read_model_file(line.command, model_path, file)) return *exit_code;
  const std::vector<uint8_t> bytes = write_model(file.model, file.info, encoding);
  std::string error;
  if (!write_all(*out, std::string(bytes.begin(), bytes.end()), error)) return command_error(line.command, error);
  std::cout << "Wrote " << *out << " (" << bytes.size() << " bytes, " << encoding_name(encoding) << ").\n";
  return 0;
}

// The corpus as the model would learn from it: how the Quan Tang Shi was
// cleaned, who trains, validates and tests, and the vocabulary at a count.
int corpus_command(const CommandLine& line) {
  std::optional<std::string> corpus_dir, tang, train_out, page_out;
  int min_count = 1;
  bool json = false;
  if (const auto exit_code = read_flags(line, {{text_flag("corpus", corpus_dir), tang_flag(tang),
                                               int_flag("min-count", 1, 1000000, min_count),
                                               text_flag("train-out", train_out), text_flag("page-out", page_out)},
                                              &json}))
    return *exit_code;
  PoemCorpus corpus;
  if (const auto exit_code = read_corpus(line.command, corpus_dir.value_or(kDefaultCorpus), false, tang, corpus))
    return *exit_code;
  const PoemSplit split = split_corpus(corpus, false);
  const Vocab vocab = Vocab::from_texts(split.train(), min_count);
  // Characters (not line breaks) of a set of poems, and how many the vocabulary does not know.
  const auto count = [&vocab](const std::vector<std::string>& poems, long long& unknown) {
    long long chars = 0;
    unknown = 0;
    for (const std::string& p : poems)
      for (const std::string& ch : utf8_chars(p))
        if (ch != "\n") ++chars, unknown += vocab.id(ch) == Vocab::kUnknown;
    return chars;
  };
  long long train_unknown = 0, test_unknown = 0, validation_unknown = 0;
  const long long train_chars = count(split.poems, train_unknown);
  const long long test_chars = count(split.held_out, test_unknown);
  const long long validation_chars = count(split.validation, validation_unknown);
  long long lines = 0, regular = 0;
  for (const std::string& p : split.poems)
    for (const std::string& c : clauses(p)) ++lines, regular += utf8_chars(c).size() == 5 || utf8_chars(c).size() == 7;
  // The training poems as a fortunes file; --page-out: the slice the page trains on.
  const auto write_poems = [&line](const std::string& path, const std::vector<std::string>& poems) {
    std::string text, error;
    for (const std::string& p : poems) text += p + "\n%\n";
    return write_all(path, text, error) ? std::optional<int>() : command_error(line.command, error);
  };
  if (train_out)
    if (const auto exit_code = write_poems(*train_out, split.poems)) return *exit_code;
  if (page_out)
    if (const auto exit_code = write_poems(*page_out, api::page_slice(split.poems))) return *exit_code;
  const TangCleaning& c = split.cleaning;
  const auto share = [](long long part, long long whole) { return whole ? double(part) / double(whole) : 0.0; };
  if (json) {
    api::OutJson dropped = api::OutJson::object();
    for (int why = 1; why < kTangDrops; ++why) dropped[tang_drop_name(static_cast<TangDrop>(why))] = c.dropped[why];
    const api::OutJson j{
        {"tang", {{"poems", c.poems}, {"kept", c.kept}, {"cleaned", c.notes}, {"dropped", dropped},
                  {"excluded_sharing_a_clause", split.excluded}}},
        {"train", {{"poems", split.poems.size()}, {"characters", train_chars}, {"unknown", train_unknown},
                   {"clauses", lines}, {"clauses_5_or_7", share(regular, lines)}}},
        {"validation", {{"poems", split.validation.size()}, {"characters", validation_chars},
                        {"unknown", validation_unknown}}},
        {"test", {{"poems", split.held_out.size()}, {"characters", test_chars}, {"unknown", test_unknown}}},
        {"vocabulary", {{"min_count", min_count}, {"size", vocab.size()}}}};
    std::cout << api::dump(j) << '\n';
    return 0;
  }
  if (tang) {
    std::cout << "The Quan Tang Shi: " << c.poems << " poems read, " << c.kept << " kept (" << c.notes
              << " of them cleaned of notes or marks). Left out:\n";
    for (int why = 1; why < kTangDrops; ++why)
      std::cout << "  " << c.dropped[why] << "  " << tang_drop_name(static_cast<TangDrop>(why)) << '\n';
    std::cout << "  " << split.excluded << "  holding a clause of 4+ characters of a tang300 poem\n\n";
  }
  Table table{{"set", "poems", "characters", "unknown at this vocabulary"}, {}};
  table.rows.push_back({"train", std::to_string(split.poems.size()), std::to_string(train_chars),
                        fixed(100 * share(train_unknown, train_chars), 2) + " %"});
  if (tang)
    table.rows.push_back({"validation", std::to_string(split.validation.size()), std::to_string(validation_chars),
                          fixed(100 * share(validation_unknown, validation_chars), 2) + " %"});
  table.rows.push_back({"test (tang300)", std::to_string(split.held_out.size()), std::to_string(test_chars),
                        fixed(100 * share(test_unknown, test_chars), 2) + " %"});
  print_table(std::cout, table);
  std::cout << "\nVocabulary: " << vocab.size() << " (characters seen at least " << min_count
            << " times in training, and 4 specials). Training clauses of 5 or 7 characters: "
            << fixed(100 * share(regular, lines), 1) << " %.\n";
  return 0;
}

const char* const kPoemUsage =
    "usage: attention_cli poem <train|attend|sample|eval|corpus|convert> [options]\n"
    "  train  [--steps N] [--seed S] [--layers L] [--heads H] [--d-model D] [--context T]\n"
    "         [--batch B] [--lr X] [--warmup N] [--modern yes|no] [--modern-share X] [--corpus DIR]\n"
    "         [--modern-until X] [--line-start-share X] [--dropout X] [--tang FILE|default]\n"
    "         [--min-count N] [--threads N] [--encoding float32|int8|float16] [--report N]\n"
    "         [--progress FILE] --out FILE\n"
    "  attend --model FILE --text TEXT [--json]\n"
    "  sample --model FILE [--prompt TEXT] [--length N] [--temperature T] [--seed S]\n"
    "  eval   --model FILE [--corpus DIR] [--tang FILE|default] [--samples N] [--seed S] [--json]\n"
    "  corpus [--corpus DIR] [--tang FILE|default] [--min-count N] [--train-out FILE]\n"
    "         [--page-out FILE] [--json]\n"
    "  convert --model FILE --out FILE --encoding float32|int8|float16\n";

}  // namespace

int run_poem(const CommandLine& line) {
  if (line.args.empty() || line.args[0] == "--help") {
    (line.args.empty() ? std::cerr : std::cout) << kPoemUsage;
    return line.args.empty() ? kExitUsage : 0;
  }
  const CommandLine sub{"poem " + line.args[0], {line.args.begin() + 1, line.args.end()}, kPoemUsage};
  if (line.args[0] == "train") return train(sub);
  if (line.args[0] == "attend") return attend(sub);
  if (line.args[0] == "sample") return sample_command(sub);
  if (line.args[0] == "eval") return eval(sub);
  if (line.args[0] == "corpus") return corpus_command(sub);
  if (line.args[0] == "convert") return convert(sub);
  return command_error(line.command,
                       "unknown subcommand '" + line.args[0] + "' (train, attend, sample, eval, corpus, convert)");
}

}  // namespace attn::cli
