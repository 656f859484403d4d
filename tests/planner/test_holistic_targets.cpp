// src/planner/holistic_targets.cpp: past paper 002's Table 4 the targets keep the shape of its
// last row (moved from test_plan_fidelity.cpp).
#include <doctest/doctest.h>

#include <cmath>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/holistic_targets.hpp"
#include "moeplan/planner/planner.hpp"

using namespace moeplan;

TEST_CASE("past Table 4 the plan keeps the shape of its last row: continuous, bounded M/N_a") {
  const HolisticLaws& laws = builtin_holistic_laws();
  const ArchitectureFamily& f = laws.family_defaults;
  const double C4 = laws.heads.back().compute;
  const Planner planner(laws, family_options(f));
  const auto& anchor = planner.anchor();
  REQUIRE(anchor.has_value());
  CHECK(anchor->compute == C4);
  // Continuity at the last row: the continuous shape passes through the family's own plan
  // there (its d at that plan's M is the plan's d), and just past the row the shape's M/N_a
  // is the law's within the plan's tolerance (the plan misses the law by up to it).
  auto at_row = suggest(laws, {.goal = {.compute = Flops(C4)}});
  REQUIRE(at_row.has_value());
  const ShapeExtrapolation through = extrapolate_shape(laws, f, *anchor, at_row->solution.accounting.M);
  CHECK(through.d == doctest::Approx(at_row->solution.arch.d).epsilon(1e-9));
  auto inside = planner.targets(Flops(C4));
  auto past = planner.targets(Flops(C4 * 1.0001));
  REQUIRE((inside && past));
  CHECK_FALSE(inside->extrapolation.has_value());
  REQUIRE(past->extrapolation.has_value());
  CHECK(past->m_over_na_source == RatioSource::shape_extrapolation);
  CHECK(past->m_over_na == doctest::Approx(inside->m_over_na).epsilon(laws.tolerance));
  // Past it: M/N_a > 6 and falling, d rising; the attention width follows omega*d to within
  // half a KV head's width (N_q = 2 N_kv).
  double prev_m = past->m_over_na, prev_d = past->extrapolation->d;
  for (double e = 21; e <= 30; e += 0.5) {
    CAPTURE(e);
    auto t = planner.targets(Flops(std::pow(10.0, e)));
    REQUIRE(t.has_value());
    REQUIRE(t->extrapolation.has_value());
    const ShapeExtrapolation& x = *t->extrapolation;
    CHECK(t->m_over_na > 6.0);
    CHECK(t->m_over_na < prev_m);
    CHECK(x.d > prev_d);
    const int q_per_kv = laws.head_extrapolation.q_per_kv;
    CHECK(x.heads.n_kv * q_per_kv == x.heads.n_q);
    const double width = anchor->attention_width_ratio * x.d;
    if (x.heads.n_q < laws.head_extrapolation.max_n_q) {
      CHECK(std::abs(double(x.heads.n_q) * x.heads.d_qkv - width) <= 0.5 * q_per_kv * x.heads.d_qkv + 1e-9);
    }
    prev_m = t->m_over_na;
    prev_d = x.d;
  }
}
