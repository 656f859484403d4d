// src/planner/serving_goal.cpp: suggest's --serve-fit goal (issue 35), the plan whose served
// weights and cache fit the inference node (moved from tests/cli/test_serving_cli.cpp).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

TEST_CASE("suggest --serve-fit: the plan fits the node where the uncapped one does not, and the price says so") {
  const std::vector<std::string> node = {"--serve-gpus", "8", "--serve-gpu", "h100", "--serve-context", "32768"};
  std::vector<std::string> uncapped = {"suggest", "--flops", "1e24", "--no-bench", "--format", "json"};
  uncapped.insert(uncapped.end(), node.begin(), node.end());
  const Run big = run_moeplan(uncapped);
  CHECK(big.code == 3);  // printed, then refused: the plan does not fit the node
  CHECK(big.err.find("--serve-fit") != std::string::npos);
  const json big_serving = json::parse(big.out).at("serving");
  CHECK(big_serving.at("fits") == false);

  std::vector<std::string> args = uncapped;
  args.push_back("--serve-fit");
  const Run r = run_moeplan(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const json doc = json::parse(r.out);
  const json& s = doc.at("serving");
  CHECK(s.at("fits") == true);
  CHECK(s.at("max_batch").get<long long>() >= 1);
  const double cap = s.at("serve_fit_cap").get<double>();
  const double uncapped_N = s.at("uncapped_N").get<double>();
  CHECK(cap < uncapped_N);
  CHECK(uncapped_N == doctest::Approx(json::parse(big.out).at("accounting").at("N_nonembedding_total").get<double>()));
  // The plan printed is under the cap, and the price section states the cost of the cap.
  CHECK(doc.at("accounting").at("N_nonembedding_total").get<double>() <= cap * 1.0001);
  CHECK(doc.contains("price"));
  CHECK(doc.at("price").at("overhead").get<double>() > 0);
  // --serve-batch: more sequences, a smaller cap.
  std::vector<std::string> more = args;
  more.insert(more.end(), {"--serve-batch", "64"});
  const Run r64 = run_moeplan(more);
  INFO(r64.err);
  REQUIRE(r64.code == 0);
  const json s64 = json::parse(r64.out).at("serving");
  CHECK(s64.at("max_batch").get<long long>() >= 64);
  CHECK(s64.at("serve_fit_cap").get<double>() < cap);
}
