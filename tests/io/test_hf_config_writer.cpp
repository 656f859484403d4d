// src/io/hf_config_writer.cpp: a config written as config.json reads back field by field
// (moved from test_hf_config.cpp).
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "moeplan/io/hf_config.hpp"
#include "moeplan/model/model_config.hpp"

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

}  // namespace

TEST_CASE("the library directly: parse_hf_config_json and to_hf_config_json agree, field by field") {
  std::ifstream in(k_hf + "qwen1.5-moe-a2.7b.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto m = moeplan::parse_hf_config_json(text, "qwen.json", "fallback");
  REQUIRE(m.has_value());
  CHECK(m->hf_model_type == "qwen2_moe");
  CHECK(m->n_shared_experts == 1);
  CHECK(m->shared_width() == 5632);
  CHECK(m->extras.shared_expert_gate);
  CHECK(m->extras.qkv_bias);
  const auto out = moeplan::to_hf_config_json(*m);
  REQUIRE(out.has_value());
  const auto back = moeplan::parse_hf_config_json(*out, "back.json", "fallback");
  REQUIRE(back.has_value());
  const auto a = moeplan::count_parameters(*m), b = moeplan::count_parameters(*back);
  CHECK(a.N == b.N);
  CHECK(a.N_a == b.N_a);
  CHECK(back->extras == m->extras);
  CHECK(moeplan::hf_export_model_type(*m).value() == "qwen2_moe");
  // An error is a value naming the file, the line and the key.
  const auto bad = moeplan::parse_hf_config_json("{\n  \"model_type\": \"qwen2_moe\",\n  \"hidden_size\": true\n}",
                                                  "bad.json", "x");
  REQUIRE(!bad.has_value());
  CHECK(bad.error().source == "bad.json");
  CHECK(bad.error().line == 3);
  CHECK(bad.error().key == "hidden_size");
}
