// src/cluster/parallel_layout.cpp: a layout's description and micro-batch count (moved from
// test_memory_model.cpp).
#include <string>

#include <doctest/doctest.h>

#include "moeplan/cluster/parallel_layout.hpp"

#include "cluster/cluster_fixtures.hpp"

using namespace moeplan;

namespace {

// TP x PP x DP with sequence parallelism, selective recompute and the distributed optimizer.
ParallelLayout layout(int tp, int pp, int dp, int mb, long long gb) {
  return test::sp_selective_layout(tp, pp, dp, mb, gb);
}

}  // namespace

TEST_CASE("cluster layout: describe and microbatches") {
  ParallelLayout l = layout(8, 4, 32, 1, 1024);
  l.vpp = 2;
  l.ep = 8;
  l.edp = 4 * 32 / 8;
  CHECK(l.microbatches() == 32);
  CHECK(l.describe() == "TP 8+SP · PP 4 (v2) · EP 8 · DP 32 · EDP 16 · mb 1 · selective");
  CHECK(std::string(to_string(Recompute::full)) == "full");
}
