// src/planner/planner.cpp: the Planner keeps a solve it has done once (moved from
// test_plan_request.cpp).
#include <doctest/doctest.h>

#include <optional>

#include "moeplan/base/work_counts.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/planner.hpp"

using namespace moeplan;

TEST_CASE("Planner: a budget and tweak solved again give the solve kept, counted once") {
  const LawSet& laws = builtin_laws();
  const Planner planner(laws.holistic, SuggestOptions{});
  const auto budget = planner.resolve(PlanGoal{.compute = Flops(1e21)});
  REQUIRE(budget.has_value());
  work::reset();
  const auto first = planner.solve(*budget);
  const auto again = planner.solve(*budget);
  REQUIRE(first.has_value());
  REQUIRE(again.has_value());
  CHECK(work::count(work::Step::pipeline_solve) == 1);
  CHECK(again->solution.arch.d == first->solution.arch.d);
  CHECK(again->solution.arch.layers() == first->solution.arch.layers());
  CHECK(again->solution.accounting.N.value() == first->solution.accounting.N.value());
  // Another tweak is another solve; a tweak with extra constraints (functions) is never kept.
  const Tweak wider{.d = first->solution.arch.d + 128};
  (void)planner.solve(*budget, wider);
  CHECK(work::count(work::Step::pipeline_solve) == 2);
  Tweak constrained;
  constrained.constraints.push_back(Constraint{.name = "any", .check = [](const MoeArchitecture&, const Accounting&) {
                                                 return std::optional<ConstraintViolation>();
                                               }});
  (void)planner.solve(*budget, constrained);
  (void)planner.solve(*budget, constrained);
  CHECK(work::count(work::Step::pipeline_solve) == 4);
}
