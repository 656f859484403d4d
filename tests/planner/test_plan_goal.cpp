// src/planner/plan_goal.cpp: the forms a goal may take (docs/plan-goals.md) and the usage
// message naming the flags of one that is over- or under-determined.
#include <doctest/doctest.h>

#include <string>

#include "moeplan/planner/plan_goal.hpp"

using namespace moeplan;

TEST_CASE("goal_kind: each documented form of a goal, the cap going with any") {
  CHECK(goal_kind({.compute = Flops(1e22)}) == GoalKind::compute_optimal);
  CHECK(goal_kind({.compute = Flops(1e22), .tokens = Tokens(1e12)}) == GoalKind::compute_and_tokens);
  CHECK(goal_kind({.tokens = Tokens(1e12), .active_params = Params(1e9)}) == GoalKind::tokens_and_size);
  CHECK(goal_kind({.tokens = Tokens(1e12), .flops_per_token = FlopsPerToken(6e9)}) == GoalKind::tokens_and_size);
  CHECK(goal_kind({.compute = Flops(1e22), .active_params = Params(1e9)}) == GoalKind::compute_and_size);
  CHECK(goal_kind({.compute = Flops(1e22), .total_params_cap = Params(1e10)}) == GoalKind::size_capped);
  CHECK(goal_kind({.compute = Flops(1e22), .inference_tokens = Tokens(1e13)}) == GoalKind::inference_aware);
  CHECK(std::string(to_string(GoalKind::size_capped)) == "size-capped");
}

TEST_CASE("goal_problem: none for a well-formed goal, else the flags given and why") {
  CHECK_FALSE(goal_problem({.compute = Flops(1e22)}).has_value());
  CHECK_FALSE(goal_problem({.tokens = Tokens(1e12), .active_params = Params(1e9)}).has_value());
  // C = M D: all three fixed is one too many.
  const auto over = goal_problem({.compute = Flops(1e22), .tokens = Tokens(1e12), .active_params = Params(1e9)});
  REQUIRE(over.has_value());
  CHECK(over->starts_with("--flops --tokens --active-params: over-determined"));
  const auto tokens_alone = goal_problem({.tokens = Tokens(1e12)});
  REQUIRE(tokens_alone.has_value());
  CHECK(tokens_alone->starts_with("--tokens: under-determined: D alone"));
  const auto none = goal_problem({});
  REQUIRE(none.has_value());
  CHECK(none->starts_with("no goal: no budget"));
  const auto both_sizes =
      goal_problem({.compute = Flops(1e22), .active_params = Params(1e9), .flops_per_token = FlopsPerToken(6e9)});
  REQUIRE(both_sizes.has_value());
  CHECK(both_sizes->find("both fix the model's size") != std::string::npos);
  CHECK(goal_problem({.compute = Flops(-1)}) == "--flops must be > 0 and finite, got -1");
  CHECK(goal_problem({.compute = Flops(1e22), .tokens = Tokens(1e12), .inference_tokens = Tokens(1e13)}).has_value());
}

TEST_CASE("compute_optimal_budget: C' = C and the M it is given") {
  const ResolvedBudget b = compute_optimal_budget(Flops(1e22), FlopsPerToken(3e10));
  CHECK(b.kind == GoalKind::compute_optimal);
  CHECK(b.C.value() == 1e22);
  CHECK(b.M.value() == 3e10);
  CHECK(b.shape_compute.value() == 1e22);
  CHECK_FALSE(b.fixed_tokens.has_value());
}
