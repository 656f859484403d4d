#pragma once
// A config.json fixture of tests/data/hf/ as JSON (to edit before reading), and JSON read as
// an HF config: the quantization and served-weights tests start from the same files.
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "moeplan/io/hf_config.hpp"

namespace moeplan::test {

inline const std::string k_hf_dir = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

inline nlohmann::json hf_fixture(const std::string& file) {
  std::ifstream in(k_hf_dir + file);
  std::stringstream s;
  s << in.rdbuf();
  return nlohmann::json::parse(s.str());
}

inline ModelConfig read_json(const nlohmann::json& j) {
  auto m = parse_hf_config_json(j.dump(), "config.json", "test");
  INFO((m ? std::string() : m.error().reason));
  REQUIRE(m.has_value());
  return *m;
}

}  // namespace moeplan::test
