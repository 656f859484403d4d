// suggest --objective time (issue 34): the plan with the lowest predicted loss in the days on
// the cluster, beside the FLOP-optimal plan for the same days, priced by one measure.
#include <doctest/doctest.h>

#include <algorithm>
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
#include "moeplan/laws/laws_loader.hpp"

using nlohmann::json;

TEST_CASE("days: the time objective is the default, flops the paper's plan alone") {
  const Run time = run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--days", "3", "--format", "json"});
  const Run flops = run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--days", "3", "--objective",
                                 "flops", "--format", "json"});
  INFO(time.err, flops.err);
  REQUIRE(time.code == 0);
  REQUIRE(flops.code == 0);
  const json t = json::parse(time.out), f = json::parse(flops.out);
  CHECK(t.contains("time_optimal"));
  CHECK(t.contains("flop_optimal"));
  CHECK_FALSE(f.contains("time_optimal"));
  // The FLOP-optimal plan of the comparison is the --objective flops plan.
  CHECK(t.at("flop_optimal").at("total_params").get<double>() == f.at("accounting").at("N_nonembedding_total").get<double>());
  // Its days are the whole training's wall days, what --days plans against (issue 48).
  CHECK(t.at("flop_optimal").at("days").get<double>() == doctest::Approx(f.at("training").at("wall_days").get<double>()));
  CHECK(f.at("training").at("wall_days").get<double>() <= 3.0);
  CHECK(f.at("step_time").at("days").get<double>() < f.at("training").at("wall_days").get<double>());
}

TEST_CASE("gpu-hours H on G GPUs is days H / (24 G)") {
  const Run days = run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--days", "3", "--objective",
                                "time", "--format", "json"});
  const Run hours = run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--gpu-hours", "576",
                                 "--objective", "time", "--format", "json"});
  INFO(days.err, hours.err);
  REQUIRE(days.code == 0);
  REQUIRE(hours.code == 0);
  CHECK(json::parse(days.out).at("time_optimal") == json::parse(hours.out).at("time_optimal"));
}

TEST_CASE("objective time: usage errors exit 2 with nothing on stdout") {
  const std::vector<std::vector<std::string>> cases = {
      {"suggest", "--flops", "1e22", "--objective", "time"},
      {"suggest", "--objective", "time", "--gpus", "8", "--gpu", "h100"},
      {"suggest", "--gpu-hours", "100"},
      {"suggest", "--gpus", "8", "--gpu", "h100", "--days", "3", "--gpu-hours", "100"},
      {"suggest", "--gpus", "8", "--gpu", "h100", "--days", "3", "--objective", "loss"},
  };
  for (const auto& args : cases) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
  }
}

TEST_CASE("target-loss: a loss at or below the law's floor, or no cluster, exits 2 naming the bound") {
  Run r = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--target-loss", "1.5", "--no-bench"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("epsilon") != std::string::npos);
  r = run_moeplan({"suggest", "--target-loss", "2.2", "--no-bench"});
  CHECK(r.code == 2);
  CHECK(r.out.empty());
  r = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--target-loss", "2.2", "--flops", "1e22", "--no-bench"});
  CHECK(r.code == 2);
  // Days too short for any plan that fits: exit 3, the constraint named, nothing on stdout.
  r = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--days", "0.001", "--no-bench"});
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("days") != std::string::npos);
}

TEST_CASE("wall days carry the training class's spread, and the preset is its first-prediction table's") {
  // bench/validation/trainings_first_predictions.md: published / predicted GPU-hours per run, the
  // wall figure or the steady one as trainings.csv's wall_figure says; least and largest.
  std::map<std::string, std::string> figure;  // id -> wall | steady
  {
    std::ifstream rows(std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/trainings.csv");
    REQUIRE(rows.good());
    std::string line;
    std::getline(rows, line);
    const std::vector<std::string> head = cells(line);
    const auto at = std::find(head.begin(), head.end(), "wall_figure") - head.begin();
    while (std::getline(rows, line)) {
      const auto c = cells(line);
      if (static_cast<std::size_t>(at) < c.size()) figure[c[0]] = c[static_cast<std::size_t>(at)];
    }
  }
  std::ifstream doc(std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/trainings_first_predictions.md");
  REQUIRE(doc.good());
  std::string line;
  double lo = 1e9, hi = 0;
  int runs = 0;
  while (std::getline(doc, line)) {
    // | id | model | MoE | GPUs | tokens | published | steady | ratio | wall | ratio | layout | notes |
    if (line.rfind("| T", 0) != 0) continue;
    std::vector<std::string> cell;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, '|');) cell.push_back(c);
    if (cell.size() < 11) continue;
    const std::string id = cell[1].substr(1, cell[1].size() - 2);
    const std::string ratio = figure[id] == "steady" ? cell[8] : cell[10];
    if (ratio.find_first_of("0123456789") == std::string::npos) continue;  // refused
    const double v = std::stod(ratio);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++runs;
  }
  const auto& spread = moeplan::whole_training_validation_spread();
  CHECK(runs == spread.runs);
  CHECK(lo == spread.speed_ratio_min);
  CHECK(hi == spread.speed_ratio_max);
  const Run r = run_moeplan({"score", "qwen3-30b-a3b", "--gpus", "16", "--gpu", "h100", "--tokens", "1e12", "--format",
                             "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const json& t = j[0].at("training");
  CHECK(t.at("wall_days_low").get<double>() == doctest::Approx(t.at("wall_days").get<double>() * lo));
  CHECK(t.at("wall_days_high").get<double>() == doctest::Approx(t.at("wall_days").get<double>() * hi));
}

TEST_CASE("every time figure carries the validation table's spread, and the preset is the table's") {
  // The speed column of docs/validation.md: its least and largest ratio are the preset's.
  std::ifstream doc(std::string(MOEPLAN_SOURCE_DIR) + "/docs/validation.md");
  REQUIRE(doc.good());
  std::string line;
  double lo = 1e9, hi = 0;
  int runs = 0;
  while (std::getline(doc, line)) {
    // | id | split | class | model, GPUs | figure | published | predicted | speed | first run |
    if (line.rfind("| M", 0) != 0 && line.rfind("| D", 0) != 0) continue;
    std::vector<std::string> cell;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '|')) cell.push_back(c);
    if (cell.size() < 9) continue;
    const std::string speed = cell[8];
    if (speed.find_first_of("0123456789") == std::string::npos) continue;  // refused: "-"
    const double v = std::stod(speed);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    ++runs;
  }
  const auto& spread = moeplan::step_model_validation_spread();
  CHECK(runs == spread.runs);
  CHECK(lo == spread.speed_ratio_min);
  CHECK(hi == spread.speed_ratio_max);
  const Run r = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--days", "3", "--no-bench", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  const json& st = j.at("step_time");  // steady-state days: the benchmark class's spread
  CHECK(st.at("days_low").get<double>() == doctest::Approx(st.at("days").get<double>() * lo));
  CHECK(st.at("days_high").get<double>() == doctest::Approx(st.at("days").get<double>() * hi));
  // The time goals' days are wall days: the whole-training class's spread.
  const auto& wall = moeplan::whole_training_validation_spread();
  for (const char* section : {"time_optimal", "flop_optimal"}) {
    CAPTURE(section);
    const json& s = j.at(section);
    CHECK(s.at("days_low").get<double>() == doctest::Approx(s.at("days").get<double>() * wall.speed_ratio_min));
    CHECK(s.at("days_high").get<double>() == doctest::Approx(s.at("days").get<double>() * wall.speed_ratio_max));
  }
}

TEST_CASE("days: the plan header prints the searched C to the tables' four digits, not to the last bit") {
  // Issue 46 item 11i: after --days the header read "C = 7.57313743380415e+23"; a C the search
  // found is no typed value, so it is printed as every other computed C is.
  const Run r = run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--days", "3", "--objective",
                             "flops"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const std::string header = r.out.substr(0, r.out.find('\n'));
  CAPTURE(header);
  const json j = json::parse(run_moeplan({"suggest", "--no-bench", "--gpus", "8", "--gpu", "h100", "--days", "3",
                                          "--objective", "flops", "--format", "json"})
                                 .out);
  const double C = j.at("budget").at("compute").get<double>();
  CHECK(header == fmt::format("Plan for C = {:.4g} FLOPs", C));
  // A typed C keeps its own digits.
  const Run typed = run_moeplan({"suggest", "--no-bench", "--flops", "1.2345678e22"});
  REQUIRE(typed.code == 0);
  CHECK(typed.out.rfind("Plan for C = 1.2345678e+22 FLOPs\n", 0) == 0);
}

