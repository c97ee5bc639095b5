// Given attention weights (core/given, api/given): the shapes JSON may take,
// labels, and each bad input's message, on matrices written by hand.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "api/given/given_json.hpp"

namespace attn::api {
namespace {

using Json = nlohmann::json;

std::string error_of(const char* text) {
  GivenWeights given;
  return read_given(Json::parse(text), &given);
}

}  // namespace

TEST_CASE("given: one map, a row of maps and a grid read as rows x cols") {
  GivenWeights one;
  REQUIRE(read_given(Json::parse(R"({"weights": [[0.25, 0.75], [1, 0]], "tokens": ["a", "b"]})"), &one).empty());
  CHECK(one.rows == 1);
  CHECK(one.cols == 1);
  CHECK(one.maps[0](0, 1) == doctest::Approx(0.75f));
  CHECK(one.query_tokens == std::vector<std::string>{"a", "b"});  // the keys' labels, as many

  GivenWeights row;
  REQUIRE(read_given(Json::parse(R"({"weights": [[[1, 0]], [[0.5, 0.5]], [[0, 1]]]})"), &row).empty());
  CHECK(row.rows == 1);
  CHECK(row.cols == 3);
  CHECK(row.queries() == 1);
  CHECK(row.keys() == 2);

  GivenWeights grid;
  REQUIRE(read_given(Json::parse(R"({"weights": [[[[1]], [[1]]], [[[1]], [[1]]]], "titles": ["h1", "h2"]})"), &grid)
              .empty());
  CHECK(grid.rows == 2);
  CHECK(grid.cols == 2);
  // One title per column: every row repeats them.
  CHECK(grid.titles == std::vector<std::string>{"h1", "h2", "h1", "h2"});
  // Printed back as rows x cols x queries x keys.
  CHECK(given_json(grid)["weights"].size() == 2);
  CHECK(given_json(one)["weights"][0][0][0][1].get<float>() == doctest::Approx(0.75f));
}

TEST_CASE("given: every bad input says what is wrong and where") {
  CHECK(error_of(R"({"weights": [[0.5, 0.2], [0.1, 0.9]]})") ==
        "given.weights[0]: the row sums to 0.7, not 1; each query's weights are a softmax row (pass weights, not "
        "scores)");
  CHECK(error_of(R"({"weights": [[1, 0], ["NaN", 1]]})") ==
        "given.weights[1][0]: NaN (not a number) is not a weight");
  CHECK(error_of(R"({"weights": [[1, 0], [1.5, -0.5]]})") ==
        "given.weights[1][1]: -0.5 is negative; attention weights are softmax outputs, 0 or more");
  CHECK(error_of(R"({"weights": [[1, 0], [0, "Infinity"]]})") == "given.weights[1][1]: infinity is not a weight");
  CHECK(error_of(R"({"weights": [[1, 0], [1]]})").find("given.weights[1]: expected a row of 2 weights") == 0);
  CHECK(error_of(R"({"weights": [[1]], "tokens": ["a", "b"]})").find("given.tokens: 2 given for 1 keys") == 0);
  CHECK(error_of(R"({"weights": [[1]], "colour": 1})").find("given.colour: unknown field") == 0);
  CHECK(error_of(R"([1, 2])").find("given: expected an object") == 0);
  CHECK(error_of(R"({"weights": []})") == "given.weights: an empty list");
  // 257 keys: one more than a side may have.
  Json wide = Json::array({Json::array()});
  for (int k = 0; k < 257; ++k) wide[0].push_back(k == 0 ? 1.0 : 0.0);
  GivenWeights given;
  CHECK(read_given(Json{{"weights", wide}}, &given).find("1 queries x 257 keys; the lab draws at most 256") !=
        std::string::npos);
  // A row of zeros is a query masked out entirely: allowed.
  CHECK(error_of(R"({"weights": [[0, 0], [0.5, 0.5]]})").empty());
}

}  // namespace attn::api
