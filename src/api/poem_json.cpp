// poem_attend: a text through the poem model, as JSON.
#include "api/poem_json.hpp"

#include <algorithm>
#include <numeric>

#include "core/tokenizer.hpp"

namespace attn::api {

std::string poem_attend(const poem::PoemModel& model, const std::string& text, OutJson& out) {
  using poem::Vocab;
  if (std::string e = utf8_error(text); !e.empty()) return "text: " + e;
  const std::vector<std::string> chars = poem::utf8_chars(text);
  if (chars.empty()) return "text: empty (type a line of a poem, e.g. 床前明月光)";
  std::vector<std::string> shown{"<poem>"};
  std::vector<int> ids{Vocab::kPoemStart};
  for (const std::string& ch : chars) {
    shown.push_back(ch);
    ids.push_back(model.vocab.id(ch));
  }
  OutJson notices = OutJson::array();
  const std::size_t context = static_cast<std::size_t>(model.config.context);
  if (ids.size() > context) {
    const std::size_t cut = ids.size() - context;
    notices.push_back("the model reads at most " + std::to_string(context) + " characters: it reads the last " +
                      std::to_string(context) + " of " + std::to_string(ids.size()) + " (from \"" + shown[cut] + "\" on)");
    ids.erase(ids.begin(), ids.begin() + static_cast<std::ptrdiff_t>(cut));
    shown.erase(shown.begin(), shown.begin() + static_cast<std::ptrdiff_t>(cut));
  }
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
  const float* last = reading.probs.data() + (T - 1) * V;
  std::vector<int> order(V);
  std::iota(order.begin(), order.end(), 0);
  const std::size_t top = std::min<std::size_t>(10, V);
  std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top), order.end(),
                    [last](int a, int b) { return last[a] > last[b] || (last[a] == last[b] && a < b); });
  OutJson next = OutJson::array();
  for (std::size_t i = 0; i < top; ++i)
    next.push_back(OutJson{{"char", model.vocab.text(order[i])}, {"p", last[order[i]]}});
  out = OutJson{{"tokens", shown}, {"unknown", std::move(unknown)}, {"notices", std::move(notices)},
                {"layers", std::move(layers)}, {"next", std::move(next)}, {"loss", reading.losses}};
  return "";
}

}  // namespace attn::api
