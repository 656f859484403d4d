// The JSON Schemas of share/moeplan/schemas/ against the core's own lists: every step-time
// term the model computes (step_term_names()) is a key of suggest's and score's step_time,
// with its unit, so a new term fails here until it is described (scripts/schema-add-key.py).
// tests/schema_check.py validates whole outputs; this names the term at once.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/cluster/step_time.hpp"

using nlohmann::json;

namespace {

json schema_file(const std::string& command) {
  std::ifstream in(std::string(MOEPLAN_SOURCE_DIR) + "/share/moeplan/schemas/" + command + ".schema.json");
  REQUIRE(in.good());
  return json::parse(in);
}

}  // namespace

TEST_CASE("every step-time term is a key of suggest's and score's step_time, in seconds, and printed as the file") {
  for (const std::string command : {"suggest", "score"}) {
    CAPTURE(command);
    const json schema = schema_file(command);
    const json& step_time = schema.at("$defs").at("step_time").at("properties");
    for (const std::string& term : moeplan::step_term_names()) {
      CAPTURE(term);
      REQUIRE(step_time.contains(term));
      CHECK(step_time.at(term).at("unit") == "s");
      CHECK(step_time.at(term).at("description").get<std::string>().ends_with("[s]"));
    }
    const Run printed = run_moeplan({"schema", command});
    REQUIRE(printed.code == 0);
    CHECK(json::parse(printed.out) == schema);
  }
  const Run unknown = run_moeplan({"schema", "sugest"});
  CHECK(unknown.code == 2);
  CHECK(unknown.err.find("there are: bench, fit, plot, presets, score, suggest") != std::string::npos);
}
