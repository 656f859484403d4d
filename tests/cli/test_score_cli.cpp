// `moeplan score` as a user drives it (src/cli/score.cpp, score_report.cpp): several configs
// with a bad one among them.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

// A model TOML whose [model] table has a negative hidden size on line 4.
std::filesystem::path bad_model(const std::string& name) {
  const auto path = temp_path(name);
  std::ofstream(path) << "schema = \"moeplan-model/1\"\nname = \"x\"\n[model]\nhidden_size = -4\n";
  return path;
}

}  // namespace

TEST_CASE("score of several configs: each failure named on stderr, the good ones printed, the first failure's exit status") {
  const auto bad = bad_model("score-several-bad.toml");
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", bad.string(), "moe-mini", "--format", "json"});
  CHECK(r.code == 4);
  CHECK(r.err.find(bad.string() + ":4:") != std::string::npos);
  CHECK(r.err.find("model.hidden_size") != std::string::npos);
  const json j = json::parse(r.out);  // valid JSON of the good ones, in their order
  REQUIRE(j.size() == 2);
  CHECK(j[0]["model"]["name"] == "Qwen3-30B-A3B");
  CHECK(j[1]["model"]["name"] == "MoE-mini");

  // Two failures: the first one's status (2, a flag the config.json cannot use) wins over
  // the later bad file's (4), and both are named.
  const std::string no_budget = k_hf + "qwen3-30b-a3b.json";
  const Run two = run_moeplan({"score", "moe-mini", no_budget, bad.string(), "--seq-len", "4096", "--format", "json"});
  CHECK(two.code == 2);
  CHECK(two.err.find(no_budget + ": --seq-len needs a budget") != std::string::npos);
  CHECK(two.err.find(bad.string() + ":4:") != std::string::npos);
  CHECK(json::parse(two.out).size() == 1);
  const Run swapped = run_moeplan({"score", "moe-mini", bad.string(), no_budget, "--seq-len", "4096", "--format", "json"});
  CHECK(swapped.code == 4);

  // -o gets the good results, whole; all bad: nothing printed, nothing written.
  const auto out = temp_path("score-several-out.json");
  std::filesystem::remove(out);
  const Run to_file = run_moeplan({"score", bad.string(), "qwen3-30b-a3b", "--format", "json", "-o", out.string()});
  CHECK(to_file.code == 4);
  CHECK(to_file.out.empty());
  REQUIRE(std::filesystem::exists(out));
  CHECK(json::parse(std::ifstream(out)).size() == 1);
  std::filesystem::remove(out);
  const Run none = run_moeplan({"score", bad.string(), bad.string(), "-o", out.string()});
  CHECK(none.code == 4);
  CHECK(none.out.empty());
  CHECK_FALSE(std::filesystem::exists(out));
  std::filesystem::remove(bad);
}
