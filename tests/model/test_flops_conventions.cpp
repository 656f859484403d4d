// src/model/flops_conventions.cpp: training FLOPs per token under each paper's convention,
// worked by hand on one small MoE at S = 4096 (d 512, 8 layers of which 2 dense of width 1536,
// 16 experts of 128, top-2 and one shared, 8 query / 2 KV heads of 64).
//   attention weights per layer: Q, O 2 x 512 x 512 + K, V 2 x 512 x 128 = 655,360; x 8 = 5,242,880
//   an expert 3 x 512 x 128 = 196,608; active (2 routed + 1 shared) x 6 MoE layers = 3,538,944
//   dense FFNs 3 x 512 x 1536 x 2 = 4,718,592
#include <doctest/doctest.h>

#include <string>

#include "moeplan/model/flops_conventions.hpp"

#include "model/small_moe.hpp"

using namespace moeplan;

namespace {

ModelConfig flops_moe() { return test::small_moe(); }

}  // namespace

TEST_CASE("FLOPs conventions: paper 002 Eq. 11-12, 6 N_a + 6 S N_q d_qkv L") {
  const FlopsBreakdown f = flops_per_token(flops_moe(), FlopsConvention::holistic_002, 4096);
  // 6 x 5,242,880 + 6 x 4096 x 8 x 64 x 8 = 31,457,280 + 100,663,296.
  CHECK(f.attention == 132120576.0);
  CHECK(f.experts == 6.0 * 3538944);
  CHECK(f.dense_ffn == 6.0 * 4718592);
  CHECK(f.linear_mixers == 0);
  CHECK(f.M().value() == 132120576.0 + 21233664 + 28311552);
}

TEST_CASE("FLOPs conventions: paper 003 Eq. 2/6, 3 (2 N_a + 4 d S L)") {
  const FlopsBreakdown f = flops_per_token(flops_moe(), FlopsConvention::moe_vs_dense_003, 4096);
  CHECK(f.attention == 3.0 * (2 * 5242880.0 + 4.0 * 512 * 4096 * 8));  // 232,783,872
  CHECK(f.experts == 6.0 * 3538944);
  CHECK(f.dense_ffn == 6.0 * 4718592);
}

TEST_CASE("FLOPs conventions: paper 000 App. I as printed (no output projection, shared 4 d d_s)") {
  const FlopsBreakdown f = flops_per_token(flops_moe(), FlopsConvention::leverage_000, 4096);
  // Q, K, V 2 x (655,360 - 262,144) per layer, x 8 = 6,291,456; scores 4 S d L = 67,108,864.
  CHECK(f.attention == 3.0 * (6291456.0 + 67108864.0));
  CHECK(f.dense_ffn == 3.0 * 2 * 3 * 512 * 3072);
  // 6 d K d_e + 4 d d_s = 786,432 + 262,144 per MoE layer, 6 layers, x 3.
  CHECK(f.experts == 3.0 * (786432 + 262144) * 6);
}

TEST_CASE("FLOPs conventions: paper 004 App. C, the router 2 d E and r = C_E / C_A") {
  const FlopsBreakdown f = flops_per_token(flops_moe(), FlopsConvention::allocation_004, 4096);
  // All projections 2 x 655,360 + 2 d q 524,288 per layer, x 8 = 14,680,064; scores 2 S d L.
  CHECK(f.attention == 3.0 * (14680064.0 + 2.0 * 4096 * 512 * 8));
  // Router 2 x 512 x 16 and experts 2 x 3 x 512 x 128 x (2 + 1) per MoE layer, 6 layers, x 3.
  CHECK(f.experts == 3.0 * (16384 + 1179648) * 6);
  CHECK(f.expert_to_attention() == doctest::Approx(21528576.0 / 144703488.0));
  CHECK(std::string(to_string(FlopsConvention::allocation_004)) == "allocation-004");
  CHECK(std::string(to_string(FlopsConvention::holistic_002)) == "holistic-002");
}
