// suggest --objective time (issue 34): the plan with the lowest predicted loss in the days on
// the cluster, beside the FLOP-optimal plan for the same days, priced by one measure.
#include <doctest/doctest.h>

#include <string>
#include <vector>

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

TEST_CASE("objective time: never a higher predicted loss than the FLOP-optimal plan in the same days") {
  const std::vector<std::vector<std::string>> clusters = {
      {"--gpus", "8", "--gpu", "h100", "--days", "3"},
      {"--gpus", "64", "--gpu", "h100", "--days", "7"},
      {"--gpus", "16", "--gpu", "h800", "--days", "20", "--precision", "fp8"},
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
  CHECK(t.at("flop_optimal").at("days").get<double>() == doctest::Approx(f.at("step_time").at("days").get<double>()));
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
