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

namespace {

// Paper 001's joint law at a section's printed N, N_a, D and experts (G = K + shared, S = shared/G).
double joint_loss_of(const json& s) {
  const double K = s.at("top_k").get<double>(), shared = s.at("shared_experts").get<double>();
  const double G = K + shared;
  return moeplan::builtin_laws().joint.loss(moeplan::Params(s.at("total_params").get<double>()),
                                            moeplan::Tokens(s.at("tokens").get<double>()),
                                            moeplan::Params(s.at("active_params").get<double>()), G, shared / G);
}

}  // namespace

TEST_CASE("objective time: never a higher predicted loss than the FLOP-optimal plan in the same days") {
  const std::vector<std::vector<std::string>> clusters = {
      {"--gpus", "8", "--gpu", "h100", "--days", "3"},
      {"--gpus", "64", "--gpu", "h100", "--days", "7"},
      {"--gpus", "16", "--gpu", "h800", "--days", "20", "--precision", "fp8"},
      // Where the re-planned winner once ran past T (its own batch and layout were slower).
      {"--gpus", "8", "--gpu", "h800", "--days", "0.01", "--precision", "fp8"},
      {"--gpus", "512", "--gpu", "mi300x", "--days", "7"},
  };
  for (const auto& c : clusters) {
    std::vector<std::string> args = {"suggest", "--no-bench", "--objective", "time", "--format", "json"};
    args.insert(args.end(), c.begin(), c.end());
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json doc = json::parse(r.out);
    const json& t = doc.at("time_optimal");
    const json& f = doc.at("flop_optimal");
    const double days = std::stod(c.at(5));
    // The same measure: the joint law at each plan's own numbers, recomputed here.
    CHECK(t.at("predicted_loss").get<double>() == doctest::Approx(joint_loss_of(t)).epsilon(1e-9));
    CHECK(f.at("predicted_loss").get<double>() == doctest::Approx(joint_loss_of(f)).epsilon(1e-9));
    CHECK(joint_loss_of(t) <= joint_loss_of(f));
    CHECK(t.at("days").get<double>() <= days * (1 + 1e-9));
    CHECK(f.at("days").get<double>() <= days * (1 + 1e-9));
    // A gain under paper 002's 0.1 % band is not a win: the FLOP-optimal plan stands.
    const double gain = t.at("loss_gain").get<double>();
    CHECK(t.at("resolved").get<bool>() == (gain >= 0.001));
    if (!t.at("resolved").get<bool>()) {
      CHECK(t.at("predicted_loss") == f.at("predicted_loss"));
      CHECK(t.at("moved").empty());
    } else {
      CHECK_FALSE(t.at("moved").empty());
      // The plan printed is the time-optimal one.
      CHECK(doc.at("accounting").at("N_nonembedding_total").get<double>() == t.at("total_params").get<double>());
    }
  }
}

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

TEST_CASE("target-loss round trip: the compute-optimal line's loss at C gives back C within 1 %") {
  // The full-precision loss of paper 002's compute-optimal plan at C, as the price section
  // prints it (a cap that does not bind makes suggest print the price).
  for (const char* C : {"1e21", "1e22", "1e23"}) {
    CAPTURE(C);
    const Run price = run_moeplan({"suggest", "--flops", C, "--total-params", "1e15", "--no-bench", "--format", "json"});
    REQUIRE(price.code == 0);
    const double L = json::parse(price.out).at("price").at("compute_optimal_predicted_loss").get<double>();
    const Run r = run_moeplan({"suggest", "--gpus", "256", "--gpu", "h100", "--target-loss", fmt::format("{:.17g}", L),
                               "--no-bench", "--format", "json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json t = json::parse(r.out).at("target_loss");
    CHECK(t.at("compute_optimal_compute").get<double>() == doctest::Approx(std::stod(C)).epsilon(0.01));
    // The plan reaches the target by the same measure (its D solved from the joint law).
    CHECK(t.at("predicted_loss").get<double>() == doctest::Approx(L).epsilon(1e-6));
    CHECK(joint_loss_of(t) == doctest::Approx(L).epsilon(1e-6));
    // GPU-hours are the cluster's: days x 24 x 256.
    CHECK(t.at("gpu_hours").get<double>() == doctest::Approx(t.at("days").get<double>() * 24 * 256).epsilon(1e-9));
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
  const auto& fast = loss[fmt::format("\"time-optimal, days x{:.2g} (fastest run)\"", v.speed_ratio_min)];
  const auto& slow = loss[fmt::format("\"time-optimal, days x{:.2g} (slowest run)\"", v.speed_ratio_max)];
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

TEST_CASE("target-loss: a looser target never costs more GPU-hours on the same cluster") {
  double previous = 0;
  for (const char* L : {"2.205", "2.2025", "2.2"}) {  // tighter and tighter
    CAPTURE(L);
    const Run r = run_moeplan({"suggest", "--gpus", "256", "--gpu", "h100", "--target-loss", L, "--no-bench", "--format", "json"});
    REQUIRE(r.code == 0);
    const double hours = json::parse(r.out).at("target_loss").at("gpu_hours").get<double>();
    CHECK(hours >= previous);
    previous = hours;
  }
  // A cluster too small for the compute-optimal plan reaches the loss with the largest plan that
  // fits trained longer, never later than the time search says that loss is reached.
  const Run days = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--days", "3650", "--no-bench", "--format", "json"});
  REQUIRE(days.code == 0);
  const double reached = json::parse(days.out).at("time_optimal").at("predicted_loss").get<double>();
  const Run target = run_moeplan({"suggest", "--gpus", "8", "--gpu", "h100", "--target-loss", fmt::format("{:.6f}", reached + 0.005),
                                  "--no-bench", "--format", "json"});
  INFO(target.err);
  REQUIRE(target.code == 0);
  CHECK(json::parse(target.out).at("target_loss").at("days").get<double>() <= 3650);
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

namespace {

// suggest --days T on a cluster for each T (increasing): both sections' losses.
struct DaysAnswer {
  double days, flop_loss, time_loss;
};
std::vector<DaysAnswer> answers_for(const std::vector<std::string>& cluster, const std::vector<double>& days) {
  std::vector<DaysAnswer> out;
  for (const double T : days) {
    std::vector<std::string> args{"suggest", "--no-bench", "--format", "json", "--days", fmt::format("{:g}", T)};
    args.insert(args.end(), cluster.begin(), cluster.end());
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    out.push_back({T, j.at("flop_optimal").at("predicted_loss").get<double>(),
                   j.at("time_optimal").at("predicted_loss").get<double>()});
    CHECK(j.at("time_optimal").at("days").get<double>() <= T * (1 + 1e-9));
  }
  return out;
}

// More days never give a worse predicted loss in either section (issue 46 item 10): a plan found
// for T is within every longer time, and the search for it tries it again.
void check_monotone_in_days(const std::vector<std::string>& cluster, const std::vector<double>& days) {
  CAPTURE(fmt_args(cluster));
  const std::vector<DaysAnswer> a = answers_for(cluster, days);
  for (std::size_t i = 1; i < a.size(); ++i) {
    CAPTURE(a[i - 1].days);
    CAPTURE(a[i].days);
    CHECK(a[i].flop_loss <= a[i - 1].flop_loss);
    CHECK(a[i].time_loss <= a[i - 1].time_loss);
  }
}

}  // namespace

TEST_CASE("days: more days never give a worse predicted loss, in either section") {
  // 16 H100: 20 days answered 2.24817, 30 days 2.24819 (the same plan on a budget the search
  // bisected to from another grid, the bound's steps).
  check_monotone_in_days({"--gpus", "16", "--gpu", "h100"}, {20, 30});
}

TEST_CASE("days: more days never give a worse predicted loss, on clusters from 8 to 1,048,576 GPUs" *
          doctest::test_suite("slow")) {
  check_monotone_in_days({"--gpus", "8", "--gpu", "h100"}, {3, 10, 30, 100});
  check_monotone_in_days({"--gpus", "16", "--gpu", "h100"}, {10, 20, 30, 50});
  check_monotone_in_days({"--gpus", "2048", "--gpu", "h100"}, {1, 1.5, 2, 3});
  // 1,048,576 H100: 10,000 days gave 1.87478 (time) and 1.88325 (FLOP-optimal), 20,000 days
  // 1.87542 and 1.88480; the FLOP-optimal plans used under 2 % of the days.
  // Since the days are wall days (issue 48), a million GPUs at Llama 3's failure rate (one
  // interruption per 50,700 GPU-hours: 21 an hour) with 10-minute restarts never make progress
  // (exit 3, as `score` says); the search's monotonicity is checked here without interruptions.
  check_monotone_in_days({"--gpus", "1048576", "--gpu", "h100", "--interruptions-per-gpu-hour", "0"},
                         {5000, 10000, 20000});
}
