// Issue 31: one request, one core call. How often the expensive steps run for whole
// commands (base/work_counts.hpp): one Planner per family, each anchor solved once, no
// config scored to learn a batch size, one count per scored config. The expected figures
// are derived from what each command printed (its candidates and co-design moves), so the
// test follows the plan, not a number copied from a run.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/base/work_counts.hpp"

using nlohmann::json;
namespace work = moeplan::work;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

TEST_CASE("suggest --flops 1e22 --gpus 2048 --gpu h100: a Planner per family, a solve per variant, no scoring") {
  work::reset();
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--gpus", "2048", "--gpu", "h100", "--no-bench",
                             "--candidates", "1000", "--format", "json"});
  REQUIRE(r.code == 0);
  const json j = json::parse(r.out);
  long long families = 1;  // the plan's own
  long long trials = 0;    // co-design re-solves
  long long fits = 1;      // the plan's own layout search
  for (const json& m : j.at("co_design")) {
    const std::string move = m.at("move").get<std::string>();
    const std::string why = m.at("why").get<std::string>();
    if (starts_with(move, "N_e multiple")) ++families;
    if (starts_with(why, "already") || starts_with(why, "holds")) continue;  // nothing re-solved
    ++trials;
    if (starts_with(why, "in the band") || starts_with(why, "trains slower") || starts_with(why, "its layouts")) ++fits;
  }
  const long long candidates = static_cast<long long>(j.at("candidates").size());
  CAPTURE(families);
  CAPTURE(candidates);
  CAPTURE(trials);
  // Each family's Planner is built once (its anchor is its one extra solve); co-design reuses
  // the context's instead of copying or rebuilding one per trial.
  CHECK(work::count(work::Step::planner_construction) == families);
  // The plan and each ranking variant once, each co-design trial once (the alignment move
  // may try one more with L a multiple of PP), each family's anchor once.
  const long long solves = work::count(work::Step::pipeline_solve);
  CHECK(solves >= families + candidates + trials);
  CHECK(solves <= families + candidates + trials + 1);
  // The batch size comes from the laws at the plan's C, never from scoring the plan.
  CHECK(work::count(work::Step::model_score) == 0);
  CHECK(work::count(work::Step::cluster_fit) == fits);
}

TEST_CASE("score deepseek-v3.1 --gpus 2048 --gpu h800: scored once, counted once, fitted once") {
  work::reset();
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--gpus", "2048", "--gpu", "h800", "--format", "json"});
  REQUIRE(r.code == 0);
  CHECK(work::count(work::Step::model_score) == 1);
  CHECK(work::count(work::Step::cluster_fit) == 1);
  // The model once; its MTP module is a one-layer model of its own, counted once too.
  CHECK(work::count(work::Step::parameter_count) == 2);
  // DeepSeek-V3.1 is outside paper 002's family (MLA): no Planner, no solve.
  CHECK(work::count(work::Step::planner_construction) == 0);
  CHECK(work::count(work::Step::pipeline_solve) == 0);
}

TEST_CASE("score of a plan inside paper 002's family: one Planner, its anchor and the price's reference plan") {
  const auto path = temp_path("work-counts-plan.toml");
  Run r = run_moeplan({"suggest", "--flops", "1e21", "--no-bench", "--emit", "toml", "-o", path.string()});
  REQUIRE(r.code == 0);
  work::reset();
  r = run_moeplan({"score", path.string(), "--format", "json"});
  std::filesystem::remove(path);
  REQUIRE(r.code == 0);
  CHECK(work::count(work::Step::model_score) == 1);
  CHECK(work::count(work::Step::planner_construction) == 1);
  // The family's anchor (1e21 is past Table 4's last row) and the compute-optimal plan of
  // the same C that the price compares with: nothing else is planned to score a config.
  CHECK(work::count(work::Step::pipeline_solve) == 2);
}

TEST_CASE("suggest --days: the plans it tries build no Planner beyond the families'") {
  work::reset();
  const Run r = run_moeplan({"suggest", "--gpus", "256", "--gpu", "h100", "--days", "10", "--objective", "flops",
                             "--no-bench", "--format", "json"});
  REQUIRE(r.code == 0);
  // The plan's family and at most the two N_e families co-design tries, whatever the number
  // of budgets the search visits; no config is scored for its batch.
  CHECK(work::count(work::Step::planner_construction) <= 3);
  CHECK(work::count(work::Step::model_score) == 0);
}

TEST_CASE("suggest --days (objective time): one Planner per family it compares, whatever the sizes") {
  work::reset();
  const Run r = run_moeplan({"suggest", "--gpus", "64", "--gpu", "h100", "--days", "7", "--no-bench", "--format", "json"});
  REQUIRE(r.code == 0);
  // One Planner per family, not per size (each family plans 11 sizes): the context's family,
  // the 14 others of the scan (8 of N_e and K, 2 of shared experts, 4 of the ratios), the
  // shortlist's re-plans (at most 6) and the winner's (1), each of the last with the at most 2
  // N_e families co-design tries.
  CHECK(work::count(work::Step::planner_construction) <= 1 + 14 + (6 + 1 + 1) * 3);
  CHECK(work::count(work::Step::model_score) == 0);
}

TEST_CASE("suggest --gpus 1024 --gpu h100 --days 30: every plan timed is solved and fitted, no more than issue 47 measured" *
          doctest::test_suite("slow")) {
  work::reset();
  const Run r = run_moeplan({"suggest", "--gpus", "1024", "--gpu", "h100", "--days", "30", "--no-bench", "--format", "json"});
  REQUIRE(r.code == 0);
  // "--objective time: ... (154 plans timed)": the scan's plans, each solved and fitted at least once.
  const auto at = r.err.find(" plans timed)");
  REQUIRE(at != std::string::npos);
  const long long timed = std::stoll(r.err.substr(r.err.rfind('(', at) + 1));
  CAPTURE(timed);
  CHECK(work::count(work::Step::pipeline_solve) >= timed);
  CHECK(work::count(work::Step::cluster_fit) >= timed);
  // The figures of docs/design.md after issue 47 (the Planner keeps its solves: 2,326 before;
  // the search keeps its fits by plan: 447 before), as ceilings: a change that solves or fits
  // more than this is seen here. Issue 47's aim, at most 1.5x the plans timed, is not reached
  // (docs/design.md says why).
  CHECK(work::count(work::Step::pipeline_solve) <= 2303);
  CHECK(work::count(work::Step::cluster_fit) <= 436);
  CHECK(work::count(work::Step::planner_construction) <= 1 + 14 + (6 + 1 + 1) * 3);
  CHECK(work::count(work::Step::model_score) == 0);
}

TEST_CASE("plot loss-vs-compute: one Planner for every budget of the figure") {
  const auto path = temp_path("work-counts-loss-vs-compute.csv");
  work::reset();
  const Run r = run_moeplan({"plot", "loss-vs-compute", "--flops", "1e22", "-o", path.string()});
  std::filesystem::remove(path);
  REQUIRE(r.code == 0);
  // The options differ in C alone: the family's Planner (and its anchor) once, not once per
  // budget (22 at 4 points a decade over five decades before issue 47).
  CHECK(work::count(work::Step::planner_construction) == 1);
  CHECK(work::count(work::Step::model_score) == 0);
}
