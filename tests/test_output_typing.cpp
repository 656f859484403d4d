// Machine output is valid and typed: no NaN/inf in JSON, no strings where numbers go; a
// number that cannot be given is null (JSON), absent (TOML) or empty (CSV) with KEY_reason.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

std::filesystem::path write_temp(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / name;
  std::ofstream(p) << text;
  return p;
}

// A preset with its [training] table removed: no budget, so the budget laws cannot answer.
std::string preset_without_training(const std::string& preset) {
  const Run r = run_moeplan({"presets", "show", preset});
  REQUIRE(r.code == 0);
  std::string out;
  bool skip = false;
  std::size_t at = 0;
  while (at < r.out.size()) {
    const std::size_t nl = r.out.find('\n', at);
    const std::string line = r.out.substr(at, nl == std::string::npos ? std::string::npos : nl - at + 1);
    at = nl == std::string::npos ? r.out.size() : nl + 1;
    if (line.rfind("[", 0) == 0) skip = line.rfind("[training]", 0) == 0;
    if (!skip) out += line;
  }
  return out;
}

// Strict: nlohmann rejects NaN, Infinity and trailing garbage.
json strict_json(const std::string& text) { return json::parse(text); }

}  // namespace

TEST_CASE("score without a training budget: null + KEY_reason in JSON, absent in TOML, no strings for numbers") {
  const auto path = write_temp("moeplan-no-budget.toml", preset_without_training("qwen3-30b-a3b"));
  const Run r = run_moeplan({"score", path.string(), "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = strict_json(r.out);
  const json& compute = j.at(0).at("compute");
  CHECK(compute.at("compute").is_null());
  CHECK(compute.at("compute_reason") == "no training budget");
  CHECK(j.at(0).at("leverage").at("efficiency_leverage").is_null());
  for (const auto& [section, fields] : j.at(0).items()) {
    for (const auto& [key, value] : fields.items()) {
      CAPTURE(section);
      CAPTURE(key);
      if (value.is_string()) CHECK(value.get<std::string>().rfind("n/a", 0) != 0);
    }
  }
  const Run t = run_moeplan({"score", path.string(), "--format", "toml"});
  REQUIRE(t.code == 0);
  const toml::table doc = toml::parse(t.out);
  const toml::table* c = doc["models"][0]["compute"].as_table();
  REQUIRE(c != nullptr);
  CHECK_FALSE(c->contains("compute"));
  CHECK(c->contains("compute_reason"));
  std::filesystem::remove(path);
}

TEST_CASE("a budget too large to hold: score JSON carries null, never inf") {
  std::string text = preset_without_training("qwen3-30b-a3b");
  text += "\n[training]\ntokens = 1e300\nseq_len = 4096\n";
  const auto path = write_temp("moeplan-huge-budget.toml", text);
  const Run r = run_moeplan({"score", path.string(), "--format", "json"});
  if (r.code == 0) {
    const json j = strict_json(r.out);  // throws on Infinity/NaN
    CHECK(j.is_array());
  } else {
    CHECK(r.code == 4);  // or refused as a bad file, naming the key
    CHECK(r.err.find("tokens") != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("fit whose optimum is undefined writes null + reason, not nan") {
  const Run r = run_moeplan({"fit", std::string(MOEPLAN_TEST_DATA_DIR) + "/moe_vs_dense_runs.csv",
                             "--law", "activation", "--column", "loss=BPC", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(r.out.find(": nan") == std::string::npos);
  CHECK(r.out.find(": -nan") == std::string::npos);
  const json j = strict_json(r.out);
  bool saw_null = false;
  for (const auto& [section, fields] : j.items()) {
    if (!fields.is_object()) continue;
    for (const auto& [key, value] : fields.items()) {
      if (!value.is_null()) continue;
      saw_null = true;
      CAPTURE(key);
      CHECK(fields.contains(key + "_reason"));
    }
  }
  CHECK(saw_null);
}
