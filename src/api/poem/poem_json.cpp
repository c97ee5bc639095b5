// poem_attend: a text through the poem model, as JSON.
#include "api/poem/poem_json.hpp"

#include <algorithm>
#include <numeric>

#include "core/base/tokenizer.hpp"

namespace attn::api {

std::string poem_window(const poem::PoemModel& model, const std::string& text, PoemWindow& out) {
  using poem::Vocab;
  if (std::string e = utf8_error(text); !e.empty()) return "text: " + e;
  const std::vector<std::string> chars = poem::utf8_chars(text);
  if (chars.empty()) return "text: empty (type a line of a poem, e.g. 床前明月光)";
  PoemWindow w;
  w.shown = {"<poem>"};
  w.ids = {Vocab::kPoemStart};
  for (const std::string& ch : chars) {
    w.shown.push_back(ch);
    w.ids.push_back(model.vocab.id(ch));
  }
  const std::size_t context = static_cast<std::size_t>(model.config.context);
  if (w.ids.size() > context) {
    const std::size_t cut = w.ids.size() - context;
    w.notice = "the model reads at most " + std::to_string(context) + " characters: it reads the last " +
               std::to_string(context) + " of " + std::to_string(w.ids.size()) + " (from \"" + w.shown[cut] + "\" on)";
    w.ids.erase(w.ids.begin(), w.ids.begin() + static_cast<std::ptrdiff_t>(cut));
    w.shown.erase(w.shown.begin(), w.shown.begin() + static_cast<std::ptrdiff_t>(cut));
    w.cut = int(cut);
  }
  out = std::move(w);
  return "";
}

std::vector<int> top_ids(const float* p, std::size_t V, std::size_t k) {
  // One pass, keeping the k best in order (insertion): the view asks for the
  // top 10 at every position of a 64-character window over 6,045 characters,
  // on every key typed; a sort of each row cost milliseconds in wasm.
  k = std::min(k, V);
  std::vector<int> top;
  top.reserve(k + 1);
  const auto better = [p](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); };
  for (std::size_t v = 0; v < V; ++v) {
    const int id = int(v);
    if (top.size() == k && !better(id, top.back())) continue;
    top.insert(std::upper_bound(top.begin(), top.end(), id, better), id);
    if (top.size() > k) top.pop_back();
  }
  return top;
}

std::string poem_attend(const poem::PoemModel& model, const std::string& text, OutJson& out) {
  using poem::Vocab;
  PoemWindow window;
  if (std::string e = poem_window(model, text, window); !e.empty()) return e;
  const std::vector<int>& ids = window.ids;
  const std::vector<std::string>& shown = window.shown;
  OutJson notices = OutJson::array();
  if (!window.notice.empty()) notices.push_back(window.notice);
  OutJson unknown = OutJson::array();
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == Vocab::kUnknown) unknown.push_back(i);
  if (!unknown.empty())
    notices.push_back(std::to_string(unknown.size()) + " character(s) the model never learned: read as <unk>");

  const poem::PoemReading reading = poem::read_tokens(model, ids);
  const std::size_t T = ids.size(), V = static_cast<std::size_t>(model.config.vocab);
  OutJson layers = OutJson::array();
  for (const auto& heads : reading.att) {
    OutJson layer_heads = OutJson::array();
    for (const std::vector<float>& w : heads) {
      OutJson rows = OutJson::array();
      for (std::size_t t = 0; t < T; ++t) rows.push_back(OutJson(std::vector<float>(w.begin() + static_cast<std::ptrdiff_t>(t * T), w.begin() + static_cast<std::ptrdiff_t>((t + 1) * T))));
      layer_heads.push_back(std::move(rows));
    }
    layers.push_back(OutJson{{"heads", std::move(layer_heads)}});
  }
  const std::vector<int> order = top_ids(reading.probs.data() + (T - 1) * V, V, 10);
  const float* last = reading.probs.data() + (T - 1) * V;
  OutJson next = OutJson::array();
  for (std::size_t i = 0; i < order.size(); ++i)
    next.push_back(OutJson{{"char", model.vocab.text(order[i])}, {"p", last[order[i]]}});
  out = OutJson{{"tokens", shown}, {"unknown", std::move(unknown)}, {"notices", std::move(notices)},
                {"layers", std::move(layers)}, {"next", std::move(next)}, {"loss", reading.losses}};
  return "";
}

}  // namespace attn::api
