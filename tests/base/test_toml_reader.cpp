// src/base/toml_reader.cpp: TOML text parsed with its syntax errors placed, files read within
// the bound.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/base/toml_reader.hpp"

using namespace moeplan;

TEST_CASE("parse_toml: a table, or the file, line and column where the syntax broke") {
  const auto ok = parse_toml("[joint]\nalpha = 0.5\n", "laws.toml");
  REQUIRE(ok.has_value());
  CHECK((*ok)["joint"]["alpha"].value<double>() == 0.5);
  // Line 2 has a key with no value; toml++ stops there.
  const auto bad = parse_toml("[joint]\nalpha =\n", "bad.toml");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().source == "bad.toml");
  CHECK(bad.error().line == 2);
  CHECK(bad.error().column > 0);
  CHECK(bad.error().key.empty());
  CHECK_FALSE(bad.error().reason.empty());
}

TEST_CASE("read_file: a missing file is an error naming its path") {
  const std::string path = std::string(MOEPLAN_TEST_DATA_DIR) + "/no-such-file.toml";
  const auto r = read_file(path);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().to_string().find(path) != std::string::npos);
  const auto csv = read_file(std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv");
  REQUIRE(csv.has_value());
  CHECK_FALSE(csv->empty());
}

TEST_CASE("Reader: the first problem wins, at the offending node's line, with the dotted key") {
  const auto doc = parse_toml("[a]\nx = -1\ny = \"s\"\nz = 1\n", "r.toml");
  REQUIRE(doc.has_value());
  Reader r("r.toml");
  const toml::table* a = r.table(*doc, "a", "a");
  REQUIRE(a != nullptr);
  CHECK(r.number(*a, "z", "a.z", true) == 1.0);
  CHECK_FALSE(r.failed());
  (void)r.number(*a, "x", "a.x", true);   // line 2: must be positive
  (void)r.number(*a, "y", "a.y", false);  // line 3: a string, but the first problem stays
  REQUIRE(r.failed());
  CHECK(r.error().to_string() == "r.toml:2:5: a.x: must be positive, got -1");
  Reader keys("r.toml");
  keys.only_keys(*a, {"x", "y"}, "a");
  REQUIRE(keys.failed());
  CHECK(keys.error().key == "a.z");
  CHECK(keys.error().reason == "unknown key");
}
