// src/plot/step_breakdown.cpp: `moeplan plot step`'s bars are score's step terms and the
// whole training's wall days for the same flags (moved from tests/cli/test_plot_step_cli.cpp).
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "moeplan/cluster/step_time.hpp"

using json = nlohmann::json;

namespace {

struct StepBars {
  std::vector<std::string> order;                     ///< series, as written
  std::map<std::string, std::pair<int, double>> at;   ///< series -> (bar, amount)
  double total[2] = {0, 0};
};

StepBars read_step_csv(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  CHECK(line == "series,bar,amount,unit,share");
  StepBars b;
  while (std::getline(in, line)) {
    const auto c = cells(line);
    REQUIRE(c.size() == 5);
    const int bar = std::stoi(c[1]);
    REQUIRE((bar == 0 || bar == 1));
    CHECK(c[3] == (bar == 0 ? "s" : "days"));  // each row its bar's unit
    b.order.push_back(c[0]);
    b.at[c[0]] = {bar, std::stod(c[2])};
    b.total[bar] += std::stod(c[2]);
  }
  return b;
}

}  // namespace

TEST_CASE("plot step: its bars are score's step terms and training days for the same flags, summing to step and wall_days") {
  // A ramp, evaluations and the default interruptions: every segment of the training bar but
  // none is zero. moe-mini on 8 H100: TP 1, EP 4, 38,675 steps of 10.4 s.
  const std::vector<std::string> flags{"moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11",
                                       "--eval-interval", "100", "--eval-minutes", "10", "--batch-ramp", "16:1e10"};
  std::vector<std::string> score_args{"score"};
  score_args.insert(score_args.end(), flags.begin(), flags.end());
  score_args.insert(score_args.end(), {"--format", "json"});
  const Run s = run_moeplan(score_args);
  REQUIRE(s.code == 0);
  const json j = json::parse(s.out).at(0);
  const json& step = j.at("step_time");
  const json& training = j.at("training");

  const auto csv = temp_path("plot-step.csv");
  std::vector<std::string> plot_args{"plot", "step"};
  plot_args.insert(plot_args.end(), flags.begin(), flags.end());
  plot_args.insert(plot_args.end(), {"-o", csv.string()});
  const Run r = run_moeplan(plot_args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const StepBars b = read_step_csv(csv);
  std::filesystem::remove(csv);

  // Bar 0: every term the step model has, in its order, each score's figure.
  const std::vector<std::string> terms = moeplan::step_term_names();
  REQUIRE(b.order.size() == terms.size() + 6);
  for (std::size_t i = 0; i < terms.size(); ++i) {
    CAPTURE(terms[i]);
    CHECK(b.order[i] == terms[i]);
    CHECK(b.at.at(terms[i]).first == 0);
    CHECK(b.at.at(terms[i]).second == doctest::Approx(step.at(terms[i]).get<double>()).epsilon(1e-9));
  }
  CHECK(b.total[0] == doctest::Approx(step.at("step").get<double>()).epsilon(1e-9));
  // Bar 1: the training section's losses in days, and the steps split at the ramp.
  const double days = step.at("days").get<double>(), ramp = step.at("batch_ramp_days").get<double>();
  CHECK(ramp > 0);
  CHECK(b.at.at("full-batch steps").second == doctest::Approx(days - ramp).epsilon(1e-9));
  CHECK(b.at.at("batch ramp").second == doctest::Approx(ramp).epsilon(1e-9));
  CHECK(b.at.at("checkpoint saves").second == doctest::Approx(training.at("checkpoint_days").get<double>()).epsilon(1e-9));
  CHECK(b.at.at("evaluations").second == doctest::Approx(training.at("eval_days").get<double>()).epsilon(1e-9));
  CHECK(b.at.at("restarts").second == doctest::Approx(training.at("restart_days").get<double>()).epsilon(1e-9));
  CHECK(b.at.at("lost work").second == doctest::Approx(training.at("lost_work_days").get<double>()).epsilon(1e-9));
  CHECK(b.total[1] == doctest::Approx(training.at("wall_days").get<double>()).epsilon(1e-9));
  // By hand: an evaluation every 100 of the run's steps, 10 minutes each. The run is
  // ceil(1e11 / (632 x 4096)) = 38,631 steps at the full batch, and the ramp's shorter ones add
  // the "+N steps" score's table gives (10,587 here): floor(49,218 / 100) = 492, not the 386
  // that the full-batch steps' time alone held.
  const double per_step = std::round(step.at("tokens_per_second").get<double>() * step.at("step").get<double>());
  CHECK(per_step == 632.0 * 4096);
  std::vector<std::string> table_args{"score"};
  table_args.insert(table_args.end(), flags.begin(), flags.end());
  const Run table = run_moeplan(table_args);
  REQUIRE(table.code == 0);
  const auto at = table.out.find("days (+");
  REQUIRE(at != std::string::npos);
  const double ramp_steps = std::stod(table.out.substr(at + 7));
  CHECK(ramp_steps == 10587);
  const double evals = std::floor((std::ceil(1e11 / per_step) + ramp_steps) / 100.0);
  CHECK(evals == 492);
  CHECK(b.at.at("evaluations").second == doctest::Approx(evals * 10.0 / 1440.0).epsilon(1e-9));
}

TEST_CASE("plot step: JSON names the bars and their units, and with PP > 1 says there is no bar per rank") {
  const auto out = temp_path("plot-step.json");
  const Run r = run_moeplan({"plot", "step", "moe-mini", "--gpus", "8", "--gpu", "h100", "--tokens", "1e11", "--pp",
                             "2", "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::ifstream in(out);
  const json j = json::parse(in);
  std::filesystem::remove(out);
  const json& f = j.at("figure");
  CHECK(f.at("kind") == "step");
  CHECK(f.at("bar_units") == json::array({"s", "days"}));
  CHECK(f.at("caption").get<std::string>().find("no bar per rank") != std::string::npos);
  CHECK(r.err.find("no bar per rank") != std::string::npos);
  double share = 0;
  for (const json& p : j.at("points")) {
    CHECK(p.at("style") == "stack");
    if (p.at("bar") == 0) share += p.at("share").get<double>();
  }
  CHECK(share == doctest::Approx(1.0));
}
