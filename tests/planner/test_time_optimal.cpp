// src/planner/time_optimal.cpp: the time objective (issue 34) -- the plan with the lowest
// predicted loss in the days on the cluster, never above the FLOP-optimal plan; the target-loss
// goal; more days never worse (moved from tests/cli/test_time_optimal_cli.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli_run.hpp"
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
