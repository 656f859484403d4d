// src/cluster/validation_spread.cpp: the step model's and the whole trainings' spreads, read from
// the embedded presets; checked against the repository's files read here on their own.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/base/toml_reader.hpp"
#include "moeplan/cluster/validation_spread.hpp"

using namespace moeplan;

namespace {

void check_spread_is_file(const ValidationSpread& s, const std::string& file) {
  CAPTURE(file);
  const auto text = read_file(std::string(MOEPLAN_SOURCE_DIR) + "/presets/hardware/" + file);
  REQUIRE(text.has_value());
  const auto doc = parse_toml(*text, file);
  REQUIRE(doc.has_value());
  const toml::table& t = *doc;
  CHECK(s.runs == t["runs"].value<int>().value());
  CHECK(s.speed_ratio_min == t["speed_ratio_min"].value<double>().value());
  CHECK(s.speed_ratio_max == t["speed_ratio_max"].value<double>().value());
  CHECK(s.source == t["source"].value<std::string>().value());
  CHECK(s.runs > 0);
  CHECK(s.speed_ratio_min <= 1.0);  // the step model is too fast for some run ...
  CHECK(s.speed_ratio_max >= 1.0);  // ... and too slow for another
}

}  // namespace

TEST_CASE("validation spreads: the embedded presets' runs, ratios and source, and the days they span") {
  check_spread_is_file(step_model_validation_spread(), "step_model_validation.toml");
  check_spread_is_file(whole_training_validation_spread(), "whole_training_validation.toml");
  const ValidationSpread s{ValidationSpread::Kind::profile, 4, 0.5, 2.0, "by hand"};
  CHECK(s.days_low(30) == 15.0);
  CHECK(s.days_high(30) == 60.0);
}
