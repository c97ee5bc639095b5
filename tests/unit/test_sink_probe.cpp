// The attention-sink probe (api/poem/sink_probe.hpp) on readings written by
// hand: one head over <poem> a b c, read as trained and with <poem> left out
// or replaced; every number below is worked out from the matrices here.
#include <doctest/doctest.h>

#include "api/poem/sink_probe.hpp"

namespace attn::api {
namespace {

PoemReadingData reading(std::vector<std::string> tokens, std::vector<float> att, std::vector<float> losses) {
  PoemReadingData d;
  d.tokens = std::move(tokens);
  d.layers = d.heads = 1;
  d.att = std::move(att);
  d.losses = std::move(losses);
  return d;
}

const PoemReadingData kWith = reading({"<poem>", "a", "b", "c"},
                                      {1.0f, 0, 0, 0,  //
                                       0.6f, 0.4f, 0, 0,  //
                                       0.5f, 0.2f, 0.3f, 0,  //
                                       0.4f, 0.2f, 0.1f, 0.3f},
                                      {2.0f, 1.0f, 3.0f});

}  // namespace

TEST_CASE("sink probe: <poem> left out, by hand") {
  const PoemReadingData without = reading({"a", "b", "c"},
                                          {1.0f, 0, 0,  //
                                           0.7f, 0.3f, 0,  //
                                           0.5f, 0.2f, 0.3f},
                                          {1.5f, 3.5f});
  SinkProbe p;
  REQUIRE(sink_probe(kWith, without, true, 0, 0, p) == "");
  CHECK(p.queries == 3);
  CHECK(p.first_before == doctest::Approx((0.6 + 0.5 + 0.4) / 3));
  CHECK(p.first_after == 0.0);
  CHECK(p.self_before == doctest::Approx((0.4 + 0.3 + 0.3) / 3));
  CHECK(p.self_after == doctest::Approx((1.0 + 0.3 + 0.3) / 3));
  // "a" gains 1 - 0.4, 0.7 - 0.2 and 0.5 - 0.2 over its three queries; "b" only 0.1.
  CHECK(p.gain_key == 1);
  CHECK(p.gain_token == "a");
  CHECK(p.gain == doctest::Approx((0.6 + 0.5 + 0.3) / 3));
  // The predictions of "b" and "c": 1.0 and 3.0 with <poem>, 1.5 and 3.5 without.
  CHECK(p.loss_before == doctest::Approx(2.0));
  CHECK(p.loss_after == doctest::Approx(2.5));
}

TEST_CASE("sink probe: another character in <poem>'s place, by hand; readings that do not compare") {
  const PoemReadingData replaced = reading({"x", "a", "b", "c"},
                                           {1.0f, 0, 0, 0,  //
                                            0.2f, 0.8f, 0, 0,  //
                                            0.1f, 0.3f, 0.6f, 0,  //
                                            0.1f, 0.2f, 0.1f, 0.6f},
                                           {2.5f, 1.0f, 2.0f});
  SinkProbe p;
  REQUIRE(sink_probe(kWith, replaced, false, 0, 0, p) == "");
  CHECK(p.first_before == doctest::Approx(0.5));
  CHECK(p.first_after == doctest::Approx((0.2 + 0.1 + 0.1) / 3));
  CHECK(p.self_after == doctest::Approx((0.8 + 0.6 + 0.6) / 3));
  // "a" gains 0.4 and 0.1 and 0 (q 3); "b" 0.3 and 0; "c" 0.3.
  CHECK(p.gain_key == 1);
  CHECK(p.gain == doctest::Approx(0.5 / 3));
  CHECK(p.loss_after == doctest::Approx(1.5));
  CHECK(sink_probe(kWith, replaced, true, 0, 0, p).find("not of the same text") != std::string::npos);
  CHECK(sink_probe(kWith, replaced, false, 0, 1, p).find("no head 0.1") != std::string::npos);
}

}  // namespace attn::api
