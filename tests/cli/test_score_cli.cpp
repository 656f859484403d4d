// `moeplan score` as a user drives it (src/cli/score.cpp, score_report.cpp): which size is
// paper 002's N and which a model card's, and several configs with a bad one among them.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

namespace {

/// The keys of a JSON object, without the KEY_reason companions of null numbers.
std::vector<std::string> keys_of(const json& object) {
  std::vector<std::string> keys;
  for (const auto& [key, value] : object.items()) {
    if (key.size() < 7 || key.compare(key.size() - 7, 7, "_reason") != 0) keys.push_back(key);
  }
  return keys;
}

/// Every number of a price section null with `reason` (short, as the holistic section's),
/// and overhead_note saying in full why.
void check_all_null(const json& price, const std::string& reason, const std::string& why) {
  for (const auto& [key, value] : price.items()) {
    CAPTURE(key);
    if (key == "overhead_note") {
      CHECK(value.get<std::string>().find(why) != std::string::npos);
    } else if (!value.is_string()) {
      CHECK(value.is_null());
      REQUIRE(price.contains(key + "_reason"));
      CHECK(price[key + "_reason"] == reason);
    }
  }
}

/// Outside paper 002's family: the config's own figures are numbers, the comparison with
/// the compute-optimal line is null with a reason, and overhead_note says why in full.
void check_comparison_null(const json& price, const std::string& why) {
  for (const char* key : {"N_a_nonembedding_active", "tokens", "tokens_per_active_param", "training_compute",
                          "inference_flops_per_token", "weight_bytes_bf16"}) {
    CAPTURE(key);
    CHECK(price.at(key).is_number());
  }
  for (const auto& [key, value] : price.items()) {
    CAPTURE(key);
    if (key.starts_with("compute_optimal_") && !key.ends_with("_reason")) {
      CHECK(value.is_null());
      CHECK(price.contains(key + "_reason"));
    }
  }
  for (const char* key : {"equal_loss_compute", "overhead"}) {
    CAPTURE(key);
    CHECK(price.at(key).is_null());
    CHECK(price.at(std::string(key) + "_reason").get<std::string>().find(why) != std::string::npos);
  }
  CHECK(price.at("overhead_note").get<std::string>().find(why) != std::string::npos);
}

}  // namespace

TEST_CASE("score --tokens prints the price of leaving paper 002's compute-optimal line, with suggest's keys") {
  const Run r = run_moeplan({"score", "moe-mini", "--tokens", "1e12", "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out);  // strict: no NaN or Infinity
  REQUIRE(j.size() == 1);
  const json& price = j[0].at("price");
  const json& size = j[0].at("size");
  const json& compute = j[0].at("compute");
  REQUIRE(price.at("overhead").is_number());
  CHECK(price.at("tokens").get<double>() == 1e12);
  CHECK(price.at("N_a_nonembedding_active") == size.at("N_a_nonembedding_active"));
  CHECK(price.at("training_compute").get<double>() == doctest::Approx(compute.at("compute").get<double>()));
  CHECK(price.at("tokens_per_active_param").get<double>() ==
        doctest::Approx(1e12 / size.at("N_a_nonembedding_active").get<double>()));
  // The config's own N, N_a in the joint law: the loss score prints beside it.
  CHECK(price.at("predicted_loss").get<double>() ==
        doctest::Approx(j[0].at("joint_law").at("predicted_loss").get<double>()));
  const double C = compute.at("compute").get<double>();
  CHECK(price.at("overhead").get<double>() ==
        doctest::Approx(C / price.at("equal_loss_compute").get<double>() - 1.0));
  // MoE-mini on 1e12 tokens trains ~25x more tokens per active parameter than paper 002's
  // plan for the same C: more compute than the compute-optimal line needs for its loss.
  CHECK(price.at("tokens_per_active_param").get<double>() >
        10 * price.at("compute_optimal_tokens_per_active_param").get<double>());
  CHECK(price.at("overhead").get<double>() > 0);
  CHECK(price.at("overhead_note") == "");

  // The keys are suggest's (a goal off the line, no inference load).
  const Run s = run_moeplan({"suggest", "--flops", "3e24", "--tokens", "15e12", "--no-bench", "--format", "json"});
  REQUIRE_MESSAGE(s.code == 0, s.err);
  CHECK(keys_of(price) == keys_of(json::parse(s.out).at("price")));

  // --flops C: D = C / M.
  const Run f = run_moeplan({"score", "moe-mini", "--flops", "1e22", "--format", "json"});
  REQUIRE(f.code == 0);
  const json fp = json::parse(f.out).at(0);
  CHECK(fp.at("price").at("tokens").get<double>() ==
        doctest::Approx(1e22 / fp.at("compute").at("flops_per_token").get<double>()));
  CHECK(fp.at("price").at("overhead").is_number());
  // The config's own [training] tokens (MoE-mini: 1e12) price it without a flag.
  const Run own = run_moeplan({"score", "moe-mini", "--format", "json"});
  REQUIRE(own.code == 0);
  CHECK(json::parse(own.out)[0].at("price").at("overhead") == price.at("overhead"));
  // More tokens on the same model: further off the line, a higher price.
  const Run more = run_moeplan({"score", "moe-mini", "--tokens", "4e12", "--format", "json"});
  REQUIRE(more.code == 0);
  CHECK(json::parse(more.out)[0].at("price").at("overhead").get<double>() > price.at("overhead").get<double>());

  const Run table = run_moeplan({"score", "moe-mini", "--tokens", "1e12"});
  REQUIRE(table.code == 0);
  CHECK(table.out.find("Price of leaving the compute-optimal line") != std::string::npos);
  CHECK(table.out.find("C/C*-1") != std::string::npos);
}

TEST_CASE("score's price: own figures outside the family, null with a reason where it cannot be computed, same keys") {
  const std::string no_budget = k_hf + "glm-4.5-air.json";  // in the family, no [training]
  const Run r = run_moeplan({"score", "moe-mini", "dense-6.1b", "deepseek-v3.1", no_budget, "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out);
  REQUIRE(j.size() == 4);
  CHECK(j[0].at("price").at("overhead").is_number());
  check_comparison_null(j[1].at("price"), "outside paper 002's family (dense model");
  CHECK(j[1].at("price").at("predicted_loss").is_null());  // the joint law is an MoE law
  check_comparison_null(j[2].at("price"), "outside paper 002's family (latent attention");
  CHECK(j[2].at("price").at("predicted_loss").is_number());
  check_all_null(j[3].at("price"), "no training budget", "no training budget");
  for (std::size_t k = 1; k < j.size(); ++k) {
    CAPTURE(k);
    CHECK(keys_of(j[k].at("price")) == keys_of(j[0].at("price")));
  }

  // CSV: one header for all, an empty cell where there is no number.
  const Run csv = run_moeplan({"score", "moe-mini", "dense-6.1b", "--tokens", "1e12", "--format", "csv"});
  REQUIRE(csv.code == 0);
  std::istringstream lines(csv.out);
  std::string header, first, second;
  std::getline(lines, header);
  std::getline(lines, first);
  std::getline(lines, second);
  const std::vector<std::string> names = cells(header);
  const auto at = std::find(names.begin(), names.end(), "price.overhead");
  REQUIRE(at != names.end());
  const auto column = static_cast<std::size_t>(at - names.begin());
  CHECK_FALSE(cells(first).at(column).empty());
  CHECK(cells(second).at(column).empty());
}
