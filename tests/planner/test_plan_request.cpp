// One plan request (issue 47): its cross-goal rules checked once, in the core, and its one
// resolution giving the plan its goal asks for.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "moeplan/base/work_counts.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/plan_request.hpp"

using namespace moeplan;

namespace {

ClusterFitOptions h100s(int gpus) {
  ClusterFitOptions o;
  o.cluster.gpu = *embedded_gpu_catalog().find("h100");
  o.cluster.gpus = gpus;
  o.cluster.gpus_per_node = 8;
  return o;
}

PlanRequest of_compute(double C) {
  PlanRequest r;
  r.options.goal.compute = Flops(C);
  return r;
}

}  // namespace

TEST_CASE("PlanRequest::problem: a well-formed request has none") {
  CHECK_FALSE(of_compute(1e22).problem().has_value());
  PlanRequest days;
  days.cluster = h100s(64);
  days.days = 7;
  CHECK_FALSE(days.problem().has_value());
}

TEST_CASE("PlanRequest::problem: goals that contradict each other are named") {
  PlanRequest r;
  r.cluster = h100s(64);
  r.days = 3;
  r.gpu_hours = 100;
  CHECK(r.problem().value() == "--gpu-hours and --days both set the time: give one");

  PlanRequest target;
  target.target_loss = 2.2;
  CHECK(target.problem().value() == "--target-loss needs --gpus and --gpu (the GPU-hours are the cluster's)");
  target.cluster = h100s(64);
  CHECK_FALSE(target.problem().has_value());
  target.options.goal.compute = Flops(1e22);
  CHECK(target.problem().value().starts_with("--target-loss sets the goal: give it without --flops"));

  PlanRequest days = of_compute(1e22);
  days.cluster = h100s(8);
  days.days = 3;
  CHECK(days.problem().value().starts_with("--days sets the budget from the cluster"));
  days.cluster.reset();
  days.options.goal.compute.reset();
  CHECK(days.problem().value() == "--days needs --gpus and --gpu (the cluster that trains)");

  PlanRequest objective = of_compute(1e22);
  objective.objective_given = true;
  CHECK(objective.problem().value().starts_with("--objective needs a time"));

  PlanRequest align = of_compute(1e22);
  align.cluster = h100s(8);
  align.align_auto = true;
  CHECK(align.problem().value().starts_with("--align auto times CPU GEMMs"));

  // A goal's own form is goal_problem's: tokens alone fix no budget.
  PlanRequest tokens;
  tokens.options.goal.tokens = Tokens(1e12);
  CHECK(tokens.problem().has_value());
}

TEST_CASE("PlanRequest::time_days: --gpu-hours H on G GPUs is H / (24 G) days, and checked as --days is") {
  PlanRequest r;
  r.cluster = h100s(64);
  r.gpu_hours = 64 * 24 * 2.5;  // 2.5 days on 64 GPUs
  CHECK(r.time_days().value() == doctest::Approx(2.5));
  CHECK_FALSE(r.problem().has_value());
  r.gpu_hours = 1e12;  // 6.5e8 days: past the hundred years any time may be
  CHECK(r.problem().value().starts_with("--gpu-hours 1e+12 on 64 GPUs is"));
  r.cluster.reset();
  r.gpu_hours = 100;
  CHECK(r.problem().value().starts_with("--gpu-hours needs --gpus and --gpu"));
}

TEST_CASE("plan_request: --flops C alone is plan_goal's compute-optimal plan, and a target below epsilon is refused") {
  const LawSet& laws = builtin_laws();
  const PlanRequest r = of_compute(1e22);
  REQUIRE_FALSE(r.problem().has_value());
  const PlanContext context(laws, r.options);
  auto planned = plan_request(context, r);
  REQUIRE(planned.has_value());
  auto direct = plan_goal(context, r.options.goal, r.rule, r.rank, nullptr);
  REQUIRE(direct.has_value());
  // README's example plan at 1e22 FLOPs: d = 3520, 32 layers.
  CHECK(plan_suggestion(planned->plan).solution.arch.d == 3520);
  CHECK(plan_suggestion(planned->plan).solution.arch.d == plan_suggestion(*direct).solution.arch.d);
  CHECK_FALSE(planned->infeasible_on_cluster.has_value());
  CHECK_FALSE(planned->time_optimal.has_value());

  PlanRequest low;
  low.cluster = h100s(64);
  low.target_loss = laws.joint.epsilon;  // the law's floor: no plan reaches it
  REQUIRE_FALSE(low.problem().has_value());
  const PlanContext low_context(laws, low.options);
  auto refused = plan_request(low_context, low);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().usage);
  CHECK(refused.error().message.starts_with("--target-loss"));
}

