// src/io/hf/families.cpp: what the config.json family rules share -- here the bound on the
// layers a config.json is read layer by layer (moved from tests/model/test_layer_pattern.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

std::string write_family_temp(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

TEST_CASE("a config.json of 1e9 layers is refused at once, not listed layer by layer") {
  json j = json::parse(std::ifstream(std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/qwen3-next-80b-a3b.json"));
  j["num_hidden_layers"] = 1000000000;
  const Run r = run_moeplan({"score", write_family_temp("qwen3-next-1e9.json", j.dump())});
  CHECK(r.code == 4);
  CHECK(r.out.empty());
  CHECK(r.err.find("num_hidden_layers: 1000000000 layers") != std::string::npos);
}
