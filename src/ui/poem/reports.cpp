// The learned-heads view in numbers, for state() (tests and host pages).
#include <nlohmann/json.hpp>

#include "api/poem/sink_probe.hpp"
#include "ui/poem/poem.hpp"

namespace attn::ui {

nlohmann::json poem_state_json(const PoemLab& lab) {
  using nlohmann::json;
  json out = {{"load", module_load_name(lab.load)}, {"received", lab.received}, {"total", lab.total},
              {"error", lab.load_error},  {"poem", lab.poem},           {"text", poem_text_in_use(lab)},
              {"probe", lab.probe},       {"outline", lab.outline},
              {"layer", lab.layer},       {"head", lab.head},           {"query", poem_query(lab)},
              {"read_error", lab.read_error}, {"sampling", lab.sampling}, {"sample_error", lab.sample_error}};
  if (lab.model_training)
    out["model_training"] = {{"step", lab.model_training->step}, {"steps", lab.model_training->steps},
                             {"seconds", lab.model_training->seconds},
                             {"seconds_left", poem_training_seconds_left(*lab.model_training)}};
  out["corpus"] = module_load_name(lab.corpus);
  out["running"] = lab.training_running;
  out["posted"] = lab.posted;  // requests on their way to the trainer's worker (a step may land after Pause)
  if (lab.training) {
    const api::PoemTraining& t = *lab.training;
    out["training"] = {{"steps", t.steps},           {"target", t.target},       {"finished", t.finished},
                       {"eval_steps", t.eval_steps}, {"eval_loss", t.eval_loss}, {"shipped_loss", t.shipped_loss},
                       {"replicas", t.replicas},     {"vocab", t.vocab},         {"slice_poems", t.slice_poems}};
  }
  if (lab.summary) {
    json heads = json::array();
    // (The numbers behind each sentence: compute() and the CLI's poem eval.)
    for (const api::PoemHead& h : *poem_heads_shown(lab))
      heads.push_back({{"layer", h.layer}, {"head", h.head}, {"strongest", h.strongest}, {"weight", h.weight},
                       {"ratio", h.ratio}, {"outline", poem_outline_detector(lab, h)},
                       {"sentence", poem_head_sentence(h)}});
    out["heads"] = std::move(heads);
    out["held_out"] = lab.summary->held_out.size();
    out["default_poem"] = lab.summary->default_poem;
    if (lab.poem >= 0) out["title"] = poem_label(*lab.summary, lab.poem);
  }
  // The attention-sink probe: its start, and for the selected head what it measured.
  out["start"] = lab.sink_start.empty() ? "poem" : lab.sink_start;
  out["sink_error"] = lab.sink_error;
  if (lab.reading && lab.sink_reading) {
    api::SinkProbe p;
    if (api::sink_probe(*lab.reading, *lab.sink_reading, lab.sink_start == "none", lab.layer, lab.head, p).empty())
      out["sink"] = {{"first_before", p.first_before}, {"first_after", p.first_after},
                     {"self_before", p.self_before}, {"self_after", p.self_after},
                     {"gain_key", p.gain_key},     {"gain_token", p.gain_token}, {"gain", p.gain},
                     {"loss_before", p.loss_before}, {"loss_after", p.loss_after},
                     {"tokens", lab.sink_reading->tokens}};
  }
  if (lab.reading) {
    const api::PoemReadingData& r = *lab.reading;
    out["trained"] = lab.read_trained;  // read by the model being trained (else the shipped one)
    out["tokens"] = r.tokens;
    json unknown = json::array();
    for (int t = 0; t < r.size(); ++t)
      if (r.unknown[std::size_t(t)]) unknown.push_back(t);
    out["unknown"] = std::move(unknown);
    out["cut"] = r.cut;
    out["period"] = r.period;
    // The cells outlined on the selected head: its pattern's (none when the outline is off).
    json outlined = json::array();
    const api::PoemHead* selected = poem_head_found(lab, lab.layer, lab.head);
    const int d = selected && lab.outline ? poem_outline_detector(lab, *selected) : -1;
    for (int q = 0; d >= 0 && q < r.size(); ++q)
      for (int k = 0; k < r.size(); ++k)
        if (r.counts(d, q, k)) outlined.push_back({q, k});
    out["outline_detector"] = d;
    out["outlined"] = std::move(outlined);
    out["loss"] = r.losses;
    json next = json::array();
    const std::size_t q = std::size_t(poem_query(lab));
    for (std::size_t i = 0; i < std::size_t(api::kPoemTop); ++i)
      next.push_back({{"char", r.top_chars[q * api::kPoemTop + i]}, {"p", r.top_p[q * api::kPoemTop + i]}});
    out["next"] = std::move(next);
  }
  return out;
}

}  // namespace attn::ui
