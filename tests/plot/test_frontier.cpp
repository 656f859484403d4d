// src/plot/frontier.cpp: `moeplan plot frontier`'s CSV is the plans suggest prints for those
// days, with the whole trainings' spread (moved from tests/cli/test_time_optimal_cli.cpp).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/cluster/validation_spread.hpp"

using nlohmann::json;

TEST_CASE("plot frontier: its CSV is the plans suggest prints for those days, the time-optimal line never above") {
  const auto csv = temp_path("frontier.csv");
  const Run r = run_moeplan({"plot", "frontier", "--gpus", "8", "--gpu", "h100", "--from", "2", "--to", "20", "--points",
                             "3", "-o", csv.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  CHECK(line == "series,days,loss");
  std::map<std::string, std::map<double, double>> loss;  // series -> days -> loss
  while (std::getline(in, line)) {
    const auto c = cells(line);
    REQUIRE(c.size() == 3);
    loss[c[0]][std::stod(c[1])] = std::stod(c[2]);
  }
  std::filesystem::remove(csv);
  REQUIRE(loss["FLOP-optimal"].size() == 3);
  REQUIRE(loss["time-optimal"].size() == 3);
  // The days band: the time-optimal losses at the wall days x the whole-training spread's least
  // and largest (the days are wall days, what the time goals plan against).
  const moeplan::ValidationSpread& v = moeplan::whole_training_validation_spread();
  const auto& fast = loss[fmt::format("\"time-optimal, days x {:g} (fastest run)\"", v.speed_ratio_min)];
  const auto& slow = loss[fmt::format("\"time-optimal, days x {:g} (slowest run)\"", v.speed_ratio_max)];
  REQUIRE(fast.size() == 3);
  REQUIRE(slow.size() == 3);
  CHECK(fast.begin()->first == doctest::Approx(2 * v.speed_ratio_min).epsilon(1e-6));
  CHECK(fast.begin()->second == doctest::Approx(loss["time-optimal"].begin()->second));
  CHECK(slow.rbegin()->first == doctest::Approx(20 * v.speed_ratio_max).epsilon(1e-6));
  CHECK(slow.rbegin()->second == doctest::Approx(loss["time-optimal"].rbegin()->second));
  for (const auto& [days, flop] : loss["FLOP-optimal"]) CHECK(loss["time-optimal"][days] <= flop);
  for (const double days : {2.0, 20.0}) {
    CAPTURE(days);
    const Run s = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--days", fmt::format("{:g}", days), "--no-bench",
                               "--format", "json"});
    REQUIRE(s.code == 0);
    const json j = json::parse(s.out);
    CHECK(loss["time-optimal"][days] == doctest::Approx(j.at("time_optimal").at("predicted_loss").get<double>()).epsilon(1e-9));
    CHECK(loss["FLOP-optimal"][days] == doctest::Approx(j.at("flop_optimal").at("predicted_loss").get<double>()).epsilon(1e-9));
  }
  // Only frontier takes the cluster; it needs one; no --flops.
  CHECK(run_moeplan({"plot", "el", "--flops", "1e22", "--gpus", "8", "--gpu", "h100", "-o", "x.csv"}).code == 2);
  CHECK(run_moeplan({"plot", "frontier", "-o", "x.csv"}).code == 2);
  CHECK(run_moeplan({"plot", "frontier", "--gpus", "8", "--gpu", "h100", "--flops", "1e22", "-o", "x.csv"}).code == 2);
  CHECK(run_moeplan({"plot", "frontier", "--gpus", "8", "--gpu", "h100", "--points", "100", "-o", "x.csv"}).code == 2);
}
