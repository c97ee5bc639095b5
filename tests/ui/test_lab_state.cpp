// Start-up options (the desktop's flags, the page's URL parameters) and the
// views table they name views from.
#include <doctest/doctest.h>

#include <random>
#include <set>

#include "api/explorer/explorer_json.hpp"
#include "core/explorer/explorer_fields.hpp"
#include "ui/a11y/a11y_views.hpp"
#include "ui/i18n/strings.hpp"
#include "ui/shell/app.hpp"
#include "ui/state/lab_state.hpp"
#include "ui/state/presets.hpp"

namespace attn::ui {
namespace {

// A view by its id: the views table names them, nothing else does.
View view_named(const char* id) {
  View view{};
  REQUIRE(view_from_id(id, &view));
  return view;
}

TEST_CASE("every view has a unique id that round-trips") {
  std::set<std::string> ids;
  for (const ViewSpec& spec : views()) {
    CHECK(ids.insert(spec.id).second);
    View view{};
    CHECK(view_from_id(spec.id, &view));
    CHECK(view == view_of(spec));
    CHECK(&view_spec(view) == &spec);
    CHECK(std::string(view_id(view)) == spec.id);
    CHECK(bool(spec.draw));
  }
  std::string joined;
  for (const ViewSpec& spec : views()) joined += (joined.empty() ? "" : "|") + std::string(spec.id);
  CHECK(view_ids() == joined);
}

TEST_CASE("a view whose code has not arrived: the first view never waits, another says so and keeps the lab pending") {
  // The browser's main module comes in two parts (src/platform/deferred_code.txt);
  // everywhere else views_code starts Ready.
  CHECK(AppState{}.views_code == ModuleLoad::Ready);
  AppState state;
  state.views_code = ModuleLoad::Loading;
  CHECK(view_code_ready(state, views().front()));
  for (const ViewSpec& spec : views())
    if (&spec != &views().front()) CHECK_MESSAGE(!view_code_ready(state, spec), spec.id);
  REQUIRE(apply_url_query(state, "view=focus").empty());
  state.select_view_frames = 0;
  CHECK(a11y_view(state).summary == tr("view.code.loading"));
  CHECK(app_pending(state));  // its view is still to draw
  state.views_code = ModuleLoad::Failed;
  state.views_code_error = "attention_web.deferred.wasm: 404 Not Found";
  CHECK(a11y_view(state).summary == format(tr("view.code.failed.fmt"), state.views_code_error.c_str()));
  CHECK(!app_pending(state));  // nothing more will come by itself
  state.views_code = ModuleLoad::Ready;
  CHECK(a11y_view(state).summary != tr("view.code.loading"));
  state.view = View{};  // the first of views()
  state.views_code = ModuleLoad::Loading;
  CHECK(a11y_view(state).summary != tr("view.code.loading"));  // the first view describes itself
}

TEST_CASE("theme=auto and theme=host follow their colour scheme as it changes; light and dark stay") {
  AppState state;
  state.browser_dark = true;  // as the page tells it at load (main_web.cpp)
  CHECK(apply_url_query(state, "?theme=auto").empty());
  CHECK(state.theme == Theme::Dark);
  CHECK(state_fields_json(state)["theme"] == "auto");
  CHECK(url_query(state, StateJson::object()).find("theme=auto") != std::string::npos);
  state.browser_dark = false;  // the reader's system turned light
  follow_color_scheme(state);
  CHECK(state.theme == Theme::Light);

  // host: the embedding page's html.dark when that page is of this site, else the browser's.
  CHECK(apply_url_query(state, "?theme=host").empty());
  CHECK(state.theme == Theme::Light);  // no such page yet (host_dark -1): the browser's
  state.host_dark = 1;
  follow_color_scheme(state);
  CHECK(state.theme == Theme::Dark);
  CHECK(state_fields_json(state)["theme"] == "host");
  state.host_dark = 0;
  state.browser_dark = true;
  follow_color_scheme(state);
  CHECK(state.theme == Theme::Light);  // the page says light: the browser's dark does not count

  // A chosen theme is kept whatever the schemes do.
  CHECK(apply_url_query(state, "?theme=light").empty());
  state.host_dark = 1;
  follow_color_scheme(state);
  CHECK(state.theme == Theme::Light);
  CHECK(state_fields_json(state)["theme"] == "light");
  CHECK(apply_state_fields(state, nlohmann::json{{"theme", "sepia"}}) ==
        "theme: \"sepia\" is not one of \"light\", \"dark\", \"auto\", \"host\"");
}

TEST_CASE("a URL means what it says") {
  AppState state;
  const auto notes = apply_url_query(
      state, "?text=%E6%88%91%E7%88%B1%E8%87%AA%E7%84%B6%E8%AF%AD%E8%A8%80%E5%A4%84%E7%90%86&d_model=16&heads=2"
             "&mask=causal&seed=7&view=steps&dk=256&panel=training&lang=en&theme=dark&controls=none&query=3");
  CHECK(notes.empty());
  CHECK(state.config.input == Input::Text);
  CHECK(state.config.text == "我爱自然语言处理");
  CHECK(state.config.d_model == 16);
  CHECK(state.config.heads == 2);
  CHECK(state.config.mask == Mask::Kind::Causal);
  CHECK(state.config.seed == 7);
  CHECK(state.view == view_named("steps"));
  CHECK(state.scaling.d_k == 256);
  CHECK(state.scaling.panel == ScalingPanel::Training);
  CHECK(state.theme == Theme::Dark);
  CHECK(state.controls_mode == ControlsMode::None);
  CHECK(state.selected_query == 3);
}

TEST_CASE("a float field's range comes from the field table: a URL value outside it is clamped") {
  AppState state;
  auto notes = apply_url_query(state, "temperature=5000");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "temperature: 5000 is outside 0.001..1000; using 1000");
  CHECK(state.config.temperature == 1000.0f);
  notes = apply_url_query(state, "temperature=0.00001");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0] == "temperature: 1e-05 is outside 0.001..1000; using 0.001");
  CHECK(state.config.temperature == ExplorerLimits::kMinTemperature);
  CHECK(apply_url_query(state, "temperature=0.25").empty());  // inside: as given
  CHECK(state.config.temperature == 0.25f);
  notes = apply_url_query(state, "temperature=-1");  // clamped too: the range says what is taken
  REQUIRE(notes.size() == 1);
  CHECK(state.config.temperature == ExplorerLimits::kMinTemperature);
}

TEST_CASE("bad URL values are named with what was used instead; numbers are clamped") {
  AppState state;
  const auto notes = apply_url_query(state, "view=nonsense&preset=zzz&dk=-5&d_model=5000&heads=x&mask=diagonal"
                                            "&colour=red&origin=http%3A%2F%2Fa.example&zoom=0.5,0,0&config=%7B");
  REQUIRE(notes.size() == 9);
  CHECK(notes[0] == "preset: 'zzz' is not a preset (" + preset_ids() + "); kept the current config");
  CHECK(notes[1].rfind("config: ", 0) == 0);
  CHECK(notes[2].rfind("view: \"nonsense\"", 0) == 0);
  CHECK(notes[2].find("; using \"heatmaps\"") != std::string::npos);
  CHECK(notes[3] == "dk: -5 is outside 1..1024; using 1");
  CHECK(notes[4] == "d_model: 5000 is outside 1..1024; using 1024");
  CHECK(notes[5].rfind("heads: ", 0) == 0);
  CHECK(notes[5].find("; using 4") != std::string::npos);
  CHECK(notes[6].rfind("mask: ", 0) == 0);
  CHECK(notes[6].find("; using \"none\"") != std::string::npos);
  CHECK(notes[7] == "colour: unknown parameter; ignored");  // (?origin= is the page's, not reported)
  CHECK(notes[8] == "zoom: [0.5,0,0] is out of range; using [1.0,0.0,0.0]");
  CHECK(state.scaling.d_k == 1);
  CHECK(state.config.d_model == 1024);
  CHECK(state.config.heads == 4);
  CHECK(state.view == view_named("heatmaps"));
}

TEST_CASE("URL values that are not UTF-8 are refused with the byte named, not changed into U+FFFD") {
  AppState state;
  const std::string text_before = state.config.text;
  const auto notes = apply_url_query(state, "text=ab%FFcd&heads=2&lang=%ED%A0%80&%C0%80=1");
  REQUIRE(notes.size() == 3);
  CHECK(notes[0] == "text: the URL's value is not valid UTF-8: byte 2 (0xFF) does not start or continue a character; ignored");
  CHECK(notes[1] == "lang: the URL's value is not valid UTF-8: byte 0 (0xED) does not start or continue a character; ignored");
  CHECK(notes[2] == "a URL parameter's name is not valid UTF-8: byte 0 (0xC0) does not start or continue a character; "
                    "ignored");
  CHECK(state.config.text == text_before);
  CHECK(state.config.heads == 2);  // the good parameter applies
  // Valid UTF-8 from percent-escapes (and a real U+FFFD) goes through.
  CHECK(apply_url_query(state, "text=%E7%8C%AB%20%EF%BF%BD").empty());
  CHECK(state.config.text == "猫 \xEF\xBF\xBD");
}

TEST_CASE("a custom mask and appended pads have a compact URL form") {
  // [[1,0],[1,1]]: bits 1011 -> byte 0xB0 -> base64url "sA" (101100 = 44 = 's', 00|0000 = 'A').
  const nlohmann::json rows = {{1, 0}, {1, 1}};
  CHECK(url_value("mask", StateJson(rows)) == "custom.2.sA");
  CHECK(value_from_url("mask", "custom.2.sA") == rows);
  CHECK(url_value("mask", StateJson({{"pad", 3}})) == "pad.3");
  CHECK(value_from_url("mask", "pad.3") == nlohmann::json({{"pad", 3}}));
  CHECK(value_from_url("mask", "causal") == "causal");
  CHECK(value_from_url("mask", "[[1,0],[1,1]]") == rows);  // the JSON form works too
  CHECK(value_from_url("mask", "custom.2.s") == "custom.2.s");  // too short: left for the reader to reject
  CHECK(value_from_url("zoom", "2,3,0") == nlohmann::json({2, 3, 0}));
  CHECK(value_from_url("text", "123") == "123");  // text stays text
  CHECK(value_from_url("seed", "7") == 7);
  CHECK(percent_encode("a b&我") == "a%20b%26%E6%88%91");
  const auto params = parse_query("?a=1+2&b=%E6%88%91&c&=x");
  REQUIRE(params.size() == 4);
  CHECK(params[0] == std::pair<std::string, std::string>{"a", "1 2"});
  CHECK(params[1].second == "我");
  CHECK(params[2] == std::pair<std::string, std::string>{"c", ""});
}

TEST_CASE("base64url: RFC 4648's test vectors, the URL-safe alphabet, no padding") {
  const std::pair<const char*, const char*> vectors[] = {{"", ""}, {"f", "Zg"}, {"fo", "Zm8"}, {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg"}, {"fooba", "Zm9vYmE"},
                                                         {"foobar", "Zm9vYmFy"}, {"\xfb\xff", "-_8"}};
  for (const auto& [bytes, text] : vectors) {
    CHECK(base64url_encode(bytes) == text);
    std::string back;
    CHECK(base64url_decode(text, &back));
    CHECK(back == bytes);
  }
  std::string ignored;
  CHECK(!base64url_decode("Zm9v+", &ignored));  // '+' is base64, not base64url
  CHECK(!base64url_decode(std::string("Zm\0v", 4), &ignored));
}

// A random state, set through the same fields a host page sets.
nlohmann::json random_fields(std::mt19937& rng) {
  auto pick = [&](int n) { return int(rng() % unsigned(n)); };
  const char* texts[] = {"The cat sat on the mat", "我爱自然语言处理", "a b c d e", "猫坐在垫子上。 It sat.",
                         "x & y = z?", "100% sure"};
  nlohmann::json f;
  if (pick(5) == 0) {
    f["experiment"] = pick(2) ? "fig41" : "causal";
  } else {
    f["text"] = texts[pick(6)];
    const int d_model = 8 << pick(3);
    f["d_model"] = d_model;
    f["heads"] = 1 << pick(3);
    f["seed"] = pick(100000);
    f["projection"] = pick(2) ? "random" : "identity";
    f["positions"] = bool(pick(2));
    const int tokens = int(explorer_tokens([&] {
                             ExplorerConfig c;
                             c.text = f["text"];
                             return c;
                           }()).size());
    const int kind = pick(5);
    if (kind == 0) f["mask"] = "causal";
    if (kind == 1) f["mask"] = {{"pad", pick(4)}};
    if (kind == 2) {
      nlohmann::json rows = nlohmann::json::array();
      for (int r = 0; r < tokens; ++r) {
        nlohmann::json row = nlohmann::json::array();
        for (int c = 0; c < tokens; ++c) row.push_back(pick(2));
        rows.push_back(row);
      }
      f["mask"] = rows;
    }
  }
  f["temperature"] = std::vector<double>{1.0, 0.5, 2.5, 0.125, 7.0}[std::size_t(pick(5))];
  f["scale"] = pick(3) == 0 ? nlohmann::json("none") : pick(2) ? nlohmann::json("sqrt") : nlohmann::json(0.25);
  f["head"] = pick(3) - 1;
  f["query"] = pick(4);
  f["zoom"] = {1 + pick(3), pick(3), pick(2)};
  std::vector<const char*> view_ids;  // the views table's, but the debug view
  for (const ViewSpec& spec : views())
    if (spec.shown != ViewShown::Debug) view_ids.push_back(spec.id);
  f["view"] = view_ids[std::size_t(pick(int(view_ids.size())))];
  // Weights given from elsewhere, by turns none, one map, and a grid of two with titles and labels.
  const nlohmann::json map = {{0.25, 0.75}, {1.0, 0.0}};
  f["given"] = std::vector<nlohmann::json>{nullptr, {{"weights", {{map, map}}}, {"titles", {"a", "b"}}},
                                           {{"weights", {{map}}}, {"tokens", {"我", "&=?"}}}}[std::size_t(pick(3))];
  f["panel"] = std::vector<const char*>{"fig42", "saturation", "training"}[std::size_t(pick(3))];
  f["dk"] = 1 + pick(1024);
  f["samples"] = scaling_sample_counts()[std::size_t(pick(5))];
  f["keys"] = 2 + pick(255);
  f["train_dk"] = training_dims()[std::size_t(pick(6))];
  f["train_lr"] = std::vector<double>{0.003, 0.01, 0.0001, 0.05}[std::size_t(pick(4))];
  f["train_seed"] = pick(1000);
  f["theme"] = pick(2) ? "light" : "dark";
  f["controls"] = std::vector<const char*>{"full", "compact", "none"}[std::size_t(pick(3))];
  // The learned-heads view's (its own text: Chinese, line breaks, what a URL escapes).
  const char* poem_texts[] = {"床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。", "春眠不觉晓\r\n处处闻啼鸟\n",
                              "a&b=c?d#e%f+g h", "", "\n 月 \n\n", "😀 <poem>"};
  f["poem"] = pick(33) - 1;
  f["poem_text"] = poem_texts[pick(6)];
  f["poem_layer"] = pick(16);
  f["poem_head"] = pick(64);
  f["poem_query"] = pick(1025) - 1;
  f["poem_length"] = 1 + pick(200);
  f["poem_temperature"] = std::vector<double>{0.0, 0.8, 1.25, 2.0, 0.05}[std::size_t(pick(5))];
  f["poem_seed"] = pick(2) ? pick(100000) : 2147483647;
  f["why_panel"] = pick(2) ? "qkv" : "recurrence";
  f["why_distance"] = pick(65);
  f["why_recurrent"] = pick(2) ? "gru" : "rnn";
  f["why_task"] = pick(2) ? "lookup" : "previous";
  f["why_steps"] = 1 + pick(2000);
  f["why_seed"] = pick(2) ? pick(100000) : 2147483647;
  return f;
}

TEST_CASE("50 random states survive state -> URL -> fresh state, and get() -> set()") {
  std::mt19937 rng(20261130);
  const StateJson start = state_fields_json(AppState{});
  for (int i = 0; i < 50; ++i) {
    AppState state;
    const nlohmann::json fields = random_fields(rng);
    CAPTURE(fields.dump());
    REQUIRE(apply_state_fields(state, fields) == "");
    const StateJson expected = state_fields_json(state);
    const std::string query = url_query(state, start);
    CAPTURE(query);
    AppState loaded;
    CHECK(apply_url_query(loaded, query).empty());
    CHECK(state_fields_json(loaded) == expected);
    CHECK(same_config(loaded.config, state.config));
    AppState copied;
    CHECK(apply_state_fields(copied, nlohmann::json::parse(expected.dump())) == "");
    CHECK(state_fields_json(copied) == expected);
  }
  set_language("en");
}

// update_explorer_config as it was first written: print the config, merge the
// fields into the JSON, read it all again. The direct version must agree.
std::string merged_update(const nlohmann::json& fields, ExplorerConfig& config) {
  nlohmann::json merged = nlohmann::json::parse(api::print_explorer_config(config));
  const bool to_text = fields.contains("text"), to_experiment = fields.contains("experiment");
  const bool to_untrained = fields.contains("projection") && fields["projection"] != "trained";
  for (const ExplorerField& field : explorer_fields())
    if ((to_text && field.scope == FieldScope::ExperimentInput) || (to_experiment && !field_applies(field, true)) ||
        (to_untrained && field.scope == FieldScope::Trained))
      merged.erase(field.name);
  for (const auto& item : fields.items()) merged[item.key()] = item.value();
  ExplorerConfig updated;
  if (std::string e = api::read_explorer_config(merged, updated); !e.empty()) return e;
  config = std::move(updated);
  return {};
}

TEST_CASE("setting config fields gives what merging them into the printed config and reading it gives") {
  std::mt19937 rng(20261202);
  auto config_part = [](const nlohmann::json& fields) {
    nlohmann::json part = nlohmann::json::object();
    for (const auto& item : fields.items())
      if (api::is_explorer_field(item.key())) part[item.key()] = item.value();
    return part;
  };
  const nlohmann::json trained = {{"text", "我爱自然语言处理"}, {"d_model", 32}, {"heads", 4}, {"projection", "trained"},
                                  {"trained_steps", 40}, {"trained_scaled", false}, {"trained_lr", 0.01}};
  const nlohmann::json odd_updates[] = {
      {{"projection", "random"}}, {{"projection", "trained"}}, {{"trained_steps", 80}}, {{"experiment", "fig41"}},
      {{"text", "a b"}}, {{"text", "a b"}, {"experiment", "causal"}}, {{"d_model", 12}}, {{"heads", 0}},
      {{"nonsense", 1}}, {{"mask", "causal"}, {"pads", 2}}, {{"temperature", -1}}, {{"positions", "yes"}}};
  int compared = 0, refused = 0;
  for (int i = 0; i < 200; ++i) {
    ExplorerConfig base;
    REQUIRE(api::read_explorer_config(i % 7 == 0 ? trained : config_part(random_fields(rng)), base) == "");
    if (i % 5 == 0) base.trained_steps = 123;  // a recipe left behind by the panel: not printed, so not kept
    const nlohmann::json update = i % 3 == 0 ? odd_updates[std::size_t(i / 3) % std::size(odd_updates)]
                                             : [&] {
                                                 // a few fields of another random state
                                                 nlohmann::json all = config_part(random_fields(rng)), some;
                                                 for (const auto& item : all.items())
                                                   if (rng() % 3 == 0) some[item.key()] = item.value();
                                                 return some.is_null() ? nlohmann::json::object() : some;
                                               }();
    CAPTURE(api::print_explorer_config(base));
    CAPTURE(update.dump());
    ExplorerConfig direct = base, reference = base;
    const std::string e = api::update_explorer_config(update, direct);
    const std::string expected = merged_update(update, reference);
    CHECK(e == expected);
    if (e.empty()) {
      CHECK(api::print_explorer_config(direct) == api::print_explorer_config(reference));
      CHECK(same_config(direct, reference));
    } else {
      CHECK(same_config(direct, base));  // all or nothing
      ++refused;
    }
    ++compared;
  }
  CHECK(compared == 200);
  CHECK(refused > 10);  // the odd updates were refused, not skipped
}

TEST_CASE("set() applies all fields or none") {
  AppState state;
  const StateJson before = state_fields_json(state);
  CHECK(apply_state_fields(state, {{"d_model", 16}, {"view", "nonsense"}}).rfind("view: ", 0) == 0);
  CHECK(apply_state_fields(state, {{"view", "steps"}, {"d_model", -3}}).rfind("d_model: ", 0) == 0);
  CHECK(apply_state_fields(state, {{"view", "steps"}, {"dk", 5000}}) == "dk: 5000 is outside 1..1024");
  CHECK(apply_state_fields(state, {{"view", "steps"}, {"bogus", 1}}) == "bogus: unknown field");
  CHECK(apply_state_fields(state, nlohmann::json::array()).rfind("state: expected a JSON object", 0) == 0);
  CHECK(state_fields_json(state) == before);
  // A partial change keeps everything else; "experiment" drops the text-only fields.
  CHECK(apply_state_fields(state, {{"mask", "causal"}, {"view", "steps"}}) == "");
  CHECK(state.config.mask == Mask::Kind::Causal);
  CHECK(state.config.text == "The cat sat on the mat");
  CHECK(state.view == view_named("steps"));
  CHECK(apply_state_fields(state, {{"experiment", "fig41"}}) == "");
  CHECK(state.config.input == Input::Figure41);
  CHECK(state.config.mask == Mask::Kind::Causal);
  CHECK(apply_state_fields(state, {{"text", "a b"}}) == "");
  CHECK(state.config.input == Input::Text);
}

TEST_CASE("the learned-heads view's fields: a URL with Chinese and line breaks, back and forth; bad values named") {
  AppState state;
  const StateJson start = state_fields_json(state);
  const std::string poem = "床前明月光，\n疑是地上霜。\n举头望明月，\n低头思故乡。";
  REQUIRE(apply_state_fields(state, {{"view", "poem"}, {"poem", -1}, {"poem_text", poem}, {"poem_layer", 1},
                                     {"poem_head", 3}, {"poem_query", 7}, {"poem_length", 40},
                                     {"poem_temperature", 1.5}, {"poem_seed", 42}}) == "");
  CHECK(state.poem.poem == -1);
  CHECK(state.poem.text == poem);
  CHECK(state.poem.layer == 1);
  CHECK(state.poem.head == 3);
  CHECK(state.poem.query == 7);
  CHECK(state.poem.sample_length == 40);
  CHECK(state.poem.sample_temperature == 1.5f);
  CHECK(state.poem.sample_seed == 42);
  const std::string query = url_query(state, start);
  CAPTURE(query);
  // The text percent-encoded: its line breaks as %0A, its characters as UTF-8 bytes.
  CHECK(query.find("poem_text=%E5%BA%8A%E5%89%8D%E6%98%8E%E6%9C%88%E5%85%89%EF%BC%8C%0A%E7%96%91") != std::string::npos);
  CHECK(query.find('\n') == std::string::npos);
  AppState loaded;
  CHECK(apply_url_query(loaded, query).empty());
  CHECK(loaded.poem.text == poem);
  CHECK(state_fields_json(loaded) == state_fields_json(state));
  // Line breaks and spaces at either end are the reader's too.
  CHECK(apply_url_query(loaded, "poem_text=%0A%20%E6%9C%88%0A%0A").empty());
  CHECK(loaded.poem.text == "\n \xE6\x9C\x88\n\n");
  REQUIRE(apply_state_fields(loaded, {{"poem_text", "\r\n月 \n"}}) == "");
  CHECK(loaded.poem.text == "\r\n月 \n");
  // A held-out poem past the 313: clamped and named; a temperature past the slider's 2 too.
  AppState clamped;
  CHECK(clamped.poem.poem == PoemLab::kDefaultPoem);  // until the model's summary names the default
  auto notes = apply_url_query(clamped, "poem=313&poem_temperature=5&poem_length=0");
  REQUIRE(notes.size() == 3);
  CHECK(clamped.poem.poem == api::PoemLimits::kHeldOutPoems - 1);
  // The probe and the outline round-trip; a probe below 0 and an outline that is no bool are named.
  AppState probed;
  CHECK(apply_url_query(probed, "view=poem&poem_probe=7&poem_outline=false").empty());
  CHECK(probed.poem.probe == 7);
  CHECK(!probed.poem.outline);
  AppState again;
  CHECK(apply_url_query(again, url_query(probed, state_fields_json(AppState()))).empty());
  CHECK(again.poem.probe == 7);
  CHECK(!again.poem.outline);
  CHECK(apply_state_fields(again, {{"poem_outline", 3}}).rfind("poem_outline: ", 0) == 0);
  CHECK(apply_url_query(again, "poem_probe=-4").size() == 1);
  CHECK(clamped.poem.sample_temperature == 2.0f);
  CHECK(clamped.poem.sample_length == 1);
  // Text that is not UTF-8, or longer than the session reads, is refused.
  CHECK(apply_state_fields(clamped, {{"poem_text", std::string(api::PoemLimits::kMaxTextBytes + 1, 'a')}})
            .rfind("poem_text: ", 0) == 0);
  notes = apply_url_query(clamped, "poem_text=%E5%BA%FF");
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].rfind("poem_text: ", 0) == 0);
  CHECK(clamped.poem.text.empty());
}

TEST_CASE("the URL leaves out what a fresh load already has") {
  AppState state;
  const StateJson start = state_fields_json(state);
  CHECK(url_query(state, start).empty());
  state.config.heads = 2;
  state.view = view_named("steps");
  CHECK(url_query(state, start) == "heads=2&view=steps");
}

}  // namespace
}  // namespace attn::ui

namespace attn::ui {
namespace {

TEST_CASE("string tables: every language has every English key, and tr() falls back") {
  const Language& english = english_strings();
  REQUIRE(english.count > 100);
  for (const Language& language : languages()) {
    const std::string code = language.code;
    CAPTURE(code);
    std::set<std::string> keys;
    for (const StringEntry& entry : all_strings(language)) CHECK(keys.insert(entry.key).second);
    for (const StringEntry& entry : all_strings(english)) CHECK(keys.count(entry.key) == 1);
  }
  CHECK(set_language("en"));
  CHECK(!set_language("no-such-language"));
  CHECK(std::string(current_language().code) == "en");
  CHECK(std::string(tr("tab.heatmaps")) == "Heatmaps");
  CHECK(std::string(tr("no.such.key")) == "no.such.key");
}

}  // namespace
}  // namespace attn::ui

namespace attn::ui {
namespace {

TEST_CASE("presets are data: every one parses, runs, and does not depend on the language") {
  CHECK(presets_error().empty());
  REQUIRE(presets().size() >= 10);
  std::set<std::string> ids;
  int chinese = 0;
  for (const Preset& preset : presets()) {
    CAPTURE(preset.id);
    CHECK(ids.insert(preset.id).second);
    CHECK(check_explorer_config(preset.config).empty());
    if (preset.id.rfind("zh_", 0) == 0) ++chinese;
    // The same config whatever the interface language; an experiment leaves
    // no stale sentence in the box.
    ExplorerConfig expected = preset.config;
    if (expected.input != Input::Text) expected.text.clear();
    for (const Language& language : languages()) {
      REQUIRE(set_language(language.code));
      AppState state;
      REQUIRE(apply_preset(state, preset.id));
      CHECK(same_config(state.config, expected));
    }
    set_language("en");
  }
  CHECK(chinese >= 4);
  AppState state;
  CHECK(apply_preset(state, "zh_padded"));
  CHECK(state.config.text == "我爱自然语言处理");
  CHECK(state.config.pads == 4);
}

TEST_CASE("the interface language is a state field") {
  AppState state;
  CHECK(apply_url_query(state, "lang=en").empty());
  CHECK(std::string(current_language().code) == "en");
  const std::vector<std::string> problems = apply_url_query(state, "lang=klingon");
  REQUIRE(problems.size() == 1);
  std::string codes;  // every registered language, in registry order (a new one is one file)
  for (const Language& language : languages()) codes += std::string(codes.empty() ? "" : ", ") + "\"" + language.code + "\"";
  CHECK(problems[0] == "lang: \"klingon\" is not one of " + codes + "; using \"en\"");
  CHECK(codes.find("\"zh\"") != std::string::npos);
  CHECK(std::string(current_language().code) == "en");
}

}  // namespace
}  // namespace attn::ui
