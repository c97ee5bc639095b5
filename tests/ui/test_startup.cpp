// Start-up options (the desktop's flags, the page's URL parameters) and the
// views table they name views from.
#include <doctest/doctest.h>

#include <set>

#include "ui/app.hpp"
#include "core/explorer_fields.hpp"
#include "ui/presets.hpp"
#include "ui/startup.hpp"
#include "ui/strings.hpp"

namespace attn::ui {
namespace {

TEST_CASE("every view has a unique id that round-trips") {
  std::set<std::string> ids;
  for (const ViewSpec& spec : views()) {
    CHECK(ids.insert(spec.id).second);
    View view = View::Heatmaps;
    CHECK(view_from_id(spec.id, &view));
    CHECK(view == spec.view);
    CHECK(std::string(view_id(spec.view)) == spec.id);
    CHECK(bool(spec.draw));
  }
  std::string joined;
  for (const ViewSpec& spec : views()) joined += (joined.empty() ? "" : "|") + std::string(spec.id);
  CHECK(view_ids() == joined);
}

TEST_CASE("start-up options apply in order and name what they could not apply") {
  AppState state;
  StartupOptions options;
  options.preset = "fig41";
  options.view = "steps";
  options.panel = "training";
  options.d_k = "256";
  CHECK(apply_startup(state, options, "--").empty());
  CHECK(state.config.input == Input::Figure41);
  CHECK(state.view == View::Steps);
  CHECK(state.scaling.panel == ScalingPanel::Training);
  CHECK(state.scaling.d_k == 256);

  options.text = "我爱自然语言处理";  // a sentence replaces the experiment
  options.config = R"({"text": "a b", "heads": 2, "d_model": 8})";
  CHECK(apply_startup(state, options, "--").empty());
  CHECK(state.config.input == Input::Text);
  CHECK(state.config.text == "我爱自然语言处理");
  CHECK(state.config.heads == 2);

  AppState fresh;
  StartupOptions bad;
  bad.preset = "zzz";
  bad.view = "nonsense";
  bad.panel = "nope";
  bad.d_k = "-5";
  bad.config = "{";
  const std::vector<std::string> problems = apply_startup(fresh, bad, "?");
  REQUIRE(problems.size() == 5);
  CHECK(problems[0] == "?preset: unknown preset 'zzz' (" + preset_ids() + ")");
  CHECK(problems[1].rfind("?config: ", 0) == 0);
  CHECK(problems[2] == "?view: unknown view 'nonsense' (" + view_ids() + ")");
  CHECK(problems[3] == "?panel: unknown panel 'nope' (fig42|saturation|training)");
  CHECK(problems[4] == "?dk: expected a whole number in 1-1024, got '-5'");
  CHECK(fresh.view == View::Heatmaps);  // nothing half applied
  CHECK(fresh.scaling.d_k == ScalingLab{}.d_k);
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
    for (std::size_t i = 0; i < language.count; ++i) CHECK(keys.insert(language.entries[i].key).second);
    for (std::size_t i = 0; i < english.count; ++i) CHECK(keys.count(english.entries[i].key) == 1);
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

TEST_CASE("the interface language is a start-up option") {
  AppState state;
  StartupOptions options;
  options.lang = "en";
  CHECK(apply_startup(state, options, "--").empty());
  CHECK(std::string(current_language().code) == "en");
  options.lang = "klingon";
  const std::vector<std::string> problems = apply_startup(state, options, "--");
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].rfind("--lang: unknown language 'klingon' (en", 0) == 0);
  CHECK(std::string(current_language().code) == "en");
}

}  // namespace
}  // namespace attn::ui
