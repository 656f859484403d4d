// src/planner/feasible_interval.cpp: the interval of hidden sizes d that can meet a layer's
// targets (moved from test_pipeline.cpp).
#include <doctest/doctest.h>

#include "moeplan/planner/layer_solver.hpp"
#include "paper_tables.hpp"

using namespace moeplan;

TEST_CASE("the feasible interval stays accurate when dense layers are nearly free") {
  // d_min used to lose every digit (0 instead of ~d_max) for tiny d_d/d by cancellation.
  ArchitectureFamily f = paper002::family();
  f.heads = {8, 4, 128};
  f.dense_ffn_ratio = 1e-20;
  const LayerTargets t{FlopsPerToken(3.2681e9), Params(3.2681e9 / 8.35), Params(3.2681e9 / 8.35 * 22)};
  auto i = feasible_d_interval(t, f);
  REQUIRE(i.has_value());
  CHECK(i->d_min == doctest::Approx(i->d_max).epsilon(1e-6));
  CHECK(i->d_min > 0.0);
}
