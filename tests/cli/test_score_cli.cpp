// `moeplan score` as a user drives it (src/cli/score.cpp, score_report.cpp): which size is
// paper 002's N and which a model card's, and several configs with a bad one among them.
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

TEST_CASE("score names paper 002's N so that it is not read as a model card's total") {
  // Qwen2.5-7B's card states 7.61B; paper 002's N leaves out the 1.09B of embeddings (and the
  // norms and biases), so a field called total_params held 6.5B.
  const Run r = run_moeplan({"score", k_hf + "qwen2.5-7b.json", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json size = json::parse(r.out).at(0)["size"];
  CHECK_FALSE(size.contains("total_params"));
  CHECK_FALSE(size.contains("active_params"));
  const double N = size["N_nonembedding_total"].get<double>();
  const double N_a = size["N_a_nonembedding_active"].get<double>();
  CHECK(N == N_a);  // dense
  CHECK(N < 0.9 * 7.61e9);
  // The figure named for a model card is the one that matches it.
  REQUIRE(size["compare_with_model_card"] == "total_params_as_built");
  CHECK(size["total_params_as_built"].get<double>() == doctest::Approx(7.61e9).epsilon(0.01));
  // The table says it too, in the section's title and a row of its own.
  const Run table = run_moeplan({"score", k_hf + "qwen2.5-7b.json"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("a model card states total_params_as_built") != std::string::npos);
  CHECK(table.out.find("compare_with_model_card") != std::string::npos);
  CHECK(table.out.find("not a model card's total") != std::string::npos);
}

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
