// src/planner/head_schedule.cpp: attention heads from paper 002's Table 4 and past it
// (moved from tests/fit/test_holistic_derivation.cpp).
#include <doctest/doctest.h>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/head_schedule.hpp"
#include "paper_tables.hpp"

using namespace moeplan;

TEST_CASE("heads follow Table 4 at its six scales, its first row below it") {
  const HolisticLaws& laws = builtin_holistic_laws();
  for (double C : {1e18, 3e18, 1e19, 3e19, 1e20, 3e20}) {
    CAPTURE(C);
    CHECK(table4_heads(laws, C) == paper002::table4_heads(C));
  }
  CHECK(table4_heads(laws, 1e16) == paper002::table4_heads(1e18));
  CHECK(table4_heads(laws, 2e19) == paper002::table4_heads(3e19));  // nearer in log10
}

TEST_CASE("past Table 4, N_kv is the whole number nearest width / (2 d_qkv), GQA 2, clamped") {
  const HeadExtrapolation x = builtin_holistic_laws().head_extrapolation;
  CHECK(extrapolated_heads(x, 4096) == AttentionHeads{32, 16, 128});
  CHECK(extrapolated_heads(x, 4096 + 127) == AttentionHeads{32, 16, 128});  // 16.496 KV heads
  CHECK(extrapolated_heads(x, 4096 + 129) == AttentionHeads{34, 17, 128});  // 16.504
  CHECK(extrapolated_heads(x, 4096 * 1.42) == AttentionHeads{46, 23, 128});  // not a doubling
  CHECK(extrapolated_heads(x, 10) == AttentionHeads{x.min_n_q, x.min_n_q / 2, 128});
  CHECK(extrapolated_heads(x, 1e12).n_q == x.max_n_q);
}
