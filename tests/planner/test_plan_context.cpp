// src/planner/plan_context.cpp: one context per command; another expert count's Planner is
// built at its first use and kept.
#include <doctest/doctest.h>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/plan_context.hpp"

using namespace moeplan;

TEST_CASE("PlanContext::with_experts: its own Planner for its own N_e, another built once per N_e") {
  const PlanContext ctx(builtin_laws(), SuggestOptions{});
  const int own = ctx.planner().family().n_experts;
  CHECK(&ctx.with_experts(own) == &ctx.planner());
  const int other = own * 2;
  const Planner& moved = ctx.with_experts(other);
  CHECK(&moved != &ctx.planner());
  CHECK(moved.family().n_experts == other);
  CHECK(&ctx.with_experts(other) == &moved);  // kept, not rebuilt
  CHECK(&ctx.laws() == &builtin_laws());
}
