// The layout rules (docs/cluster.md, "Layout search"), one case per rule with its reason,
// and the search: fitting layouts ranked by tokens/s, the shortfall when none fits. GPUs,
// clusters and configs are built by hand (cluster_fixtures.hpp); the memory checks hold for
// any memory model (a 1 GB GPU fits nothing, a 10 TB one everything).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/layout_search.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/io/model_loader.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {

std::string reason(const ModelConfig& m, int world, const ParallelLayout& l, bool uneven = true) {
  return layout_illegal_reason(m, cluster_of(world), l, uneven);
}

LayoutSearchOptions search_options(long long batch_tokens = 4'000'000) {
  LayoutSearchOptions o;
  o.global_batch_tokens = batch_tokens;
  o.time.seq_len = 4096;
  return o;
}

}  // namespace

TEST_CASE("cluster layout rule: TP divides the query and the key/value heads") {
  const ModelConfig m = moe_model();  // 32 query heads, 4 kv heads
  CHECK(reason(m, 64, layout_of(64, 4, 1)) == "");
  CHECK(reason(m, 64, layout_of(64, 8, 1)) == "TP 8 does not divide N_kv = 4");
  ModelConfig twelve = m;
  twelve.num_attention_heads = 12;
  twelve.num_key_value_heads = 12;
  CHECK(reason(twelve, 64, layout_of(64, 8, 1)) == "TP 8 does not divide N_q = 12");
  // MLA: every query head has its own key and value (N_kv = N_q), whatever the config says
  ModelConfig mla = m;
  mla.num_key_value_heads = 1;
  mla.latent_attention = LatentAttention{1536, 512, 128, 64, 128};
  CHECK(reason(mla, 64, layout_of(64, 8, 1)) == "");
}

TEST_CASE("cluster layout rule: TP stays within a node, a given CP may span nodes") {
  ModelConfig m = moe_model();
  m.num_key_value_heads = 32;
  CHECK(reason(m, 64, layout_of(64, 16, 1)) == "TP 16 exceeds the 8 GPUs of a node");
  // Megatron's ring attention runs CP across nodes (Llama 3.1 405B: TP 8 x CP 2, Megatron-Bridge)
  CHECK(reason(m, 64, layout_of(64, 4, 1, 1, 1, 4)) == "");
  CHECK(reason(m, 64, layout_of(64, 4, 1, 1, 1, 2)) == "");
}

TEST_CASE("cluster layout rule: EP divides N_e, ETP is 1 or TP") {
  const ModelConfig m = moe_model(24, 288);
  CHECK(reason(m, 64, layout_of(64, 1, 1, 64)) == "EP 64 does not divide N_e = 288");
  CHECK(reason(m, 64, layout_of(64, 1, 1, 32)) == "");  // 288 = 32 × 9
  CHECK(reason(m, 64, layout_of(64, 4, 1, 8, 2)) == "ETP 2 is neither 1 nor TP = 4");
  CHECK(reason(m, 64, layout_of(64, 4, 1, 8, 4)) == "");
  CHECK(reason(dense_model(), 64, layout_of(64, 1, 1, 2)) ==
        "EP 2 × ETP 1 needs routed experts; test-dense is dense");
}

TEST_CASE("cluster layout rule: parallel folding, EP x ETP divides TP x CP x DP") {
  const ModelConfig m = moe_model(24, 288);
  // 16 GPUs, PP 2: a stage has 8 GPUs; EP 16 cannot tile them
  const ParallelLayout l = layout_of(16, 1, 2, 16);
  CHECK(reason(m, 16, l) ==
        "EP 16 × ETP 1 = 16 does not divide TP × CP × DP = 8 (parallel folding: the expert grid "
        "tiles the GPUs of one pipeline stage)");
  CHECK(reason(m, 16, layout_of(16, 1, 2, 8)) == "");
  CHECK(reason(m, 16, layout_of(16, 2, 2, 2, 2)) == "");
  ParallelLayout wrong_edp = layout_of(16, 2, 2, 2, 2);
  wrong_edp.edp = 4;
  CHECK(reason(m, 16, wrong_edp) == "ETP 2 × EP 2 × EDP 4 × PP 2 = 32 GPUs, not the cluster's 16");
}

TEST_CASE("cluster layout rule: PP divides L, or the uneven split leaves every stage a layer") {
  const ModelConfig m = moe_model(61, 256);
  // 61 over 4 stages: middle stages 16, first and last 14 and 15
  CHECK(reason(m, 32, layout_of(32, 1, 4)) == "");
  CHECK(reason(m, 32, layout_of(32, 1, 4), false) ==
        "PP 4 does not divide L = 61 (uneven pipelines not allowed)");
  // 61 over 32 stages: 30 middle stages of 2 leave 1 layer for the first and last
  CHECK(reason(m, 256, layout_of(256, 1, 32)) ==
        "PP 32 does not divide L = 61 and the uneven split (30 middle stages of 2) leaves 1 layer "
        "for the first and last stages, under one each");
  CHECK(reason(m, 512, layout_of(512, 1, 64)) == "PP 64 exceeds L = 61 layers");
  // 37 over 16 stages: 14 middle stages of 3 would take 42 layers, more than L (no negative count)
  const ModelConfig m37 = moe_model(37, 256);
  CHECK(reason(m37, 128, layout_of(128, 1, 16)) ==
        "PP 16 does not divide L = 37, and the uneven split's 14 middle stages of 3 layers would take 42, more than L");
  // explicit first/last stage layers (Megatron's --decoder-first/last-pipeline-num-layers)
  ParallelLayout explicit_split = layout_of(32, 1, 4);
  explicit_split.first_stage_layers = 13;
  explicit_split.last_stage_layers = 14;
  CHECK(reason(m, 32, explicit_split) == "");  // 13 + 2 × 17 + 14
  explicit_split.last_stage_layers = 15;
  CHECK(reason(m, 32, explicit_split) ==
        "first and last stages of 13 and 15 layers leave 33 of L = 61 for the other 2 stages of PP 4, not an "
        "equal share of at least one each");
  // One end given: the first stage and the middle ones share the rest.
  explicit_split.first_stage_layers = 0;
  explicit_split.last_stage_layers = 12;
  CHECK(reason(m, 32, explicit_split) ==
        "a last stage of 12 layers leaves 49 of L = 61 for the other 3 stages of PP 4, not an equal share of at "
        "least one each");
  ParallelLayout two = layout_of(32, 1, 2);
  two.first_stage_layers = 30;
  two.last_stage_layers = 30;
  CHECK(reason(m, 32, two) == "with PP 2 the first and last stages hold every layer: 30 + 30 is not L = 61");
}

TEST_CASE("cluster layout rule: VPP needs PP, an even split, and divides a stage's layers") {
  const ModelConfig m = dense_model(24);
  CHECK(reason(m, 32, layout_of(32, 1, 1, 1, 1, 1, 2)) == "VPP 2 needs PP > 1");
  CHECK(reason(m, 32, layout_of(32, 1, 4, 1, 1, 1, 3)) == "");  // 6 layers a stage, 3 chunks of 2
  CHECK(reason(m, 32, layout_of(32, 1, 4, 1, 1, 1, 4)) == "VPP 4 does not divide the 6 layers of a stage");
  const ModelConfig odd = moe_model(61, 256);
  CHECK(reason(odd, 32, layout_of(32, 1, 4, 1, 1, 1, 2)) ==
        "VPP 2 needs an even pipeline split; PP 4 does not divide L = 61");
}

TEST_CASE("cluster layout rule: TP x CP x PP x DP is the world, the batch whole micro-batches") {
  const ModelConfig m = moe_model();
  ParallelLayout l = layout_of(64, 4, 2);
  l.dp = 4;
  CHECK(reason(m, 64, l) == "TP 4 × CP 1 × PP 2 × DP 4 = 32 GPUs, not the cluster's 64");
  CHECK(reason(m, 64, layout_of(64, 4, 2, 1, 1, 1, 0)) == "VPP 0 must be at least 1");
  ParallelLayout batch = layout_of(64, 4, 2);  // DP 8
  batch.micro_batch = 2;
  batch.global_batch = 1000;
  CHECK(reason(m, 64, batch) == "global batch 1000 is not a multiple of micro-batch 2 × DP 8");
  batch.global_batch = 1008;
  CHECK(reason(m, 64, batch) == "");
}

TEST_CASE("cluster search: a world that is not whole nodes, or no batch, is no legal layout") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  const auto partial = search_layouts(m, p, cluster_of(2050), search_options());
  REQUIRE_FALSE(partial.has_value());
  CHECK(partial.error().constraint == "cluster");
  CHECK(partial.error().detail == "2050 GPUs are not a whole number of 8-GPU nodes");
  const auto no_batch = search_layouts(m, p, cluster_of(64), search_options(0));
  REQUIRE_FALSE(no_batch.has_value());
  CHECK(no_batch.error().constraint == "global batch");
  // one GPU: TP 1, PP 1, EP 1 is always legal, whatever N_e
  ModelConfig odd = moe_model(24, 7);
  odd.num_experts_per_tok = 1;
  GpuSpec g = h100_like();
  g.gpus_per_node = 1;
  const auto one = search_layouts(odd, count_parameters(odd), cluster_of(1, g), search_options());
  CHECK(one.has_value());  // TP 1 on one GPU is always legal
}

TEST_CASE("cluster search: CP and sequence-parallel TP split the sequence as Megatron can") {
  ModelConfig m = moe_model();
  m.num_key_value_heads = 32;  // any TP of a node divides the heads
  const ParameterCounts p = count_parameters(m);
  GpuSpec big = h100_like();
  big.hbm_bytes = 1e13;  // everything fits: legality alone decides
  LayoutSearchOptions o = search_options(32769LL * 64);
  o.time.seq_len = 32769;  // odd: no CP (2·CP chunks) and no TP > 1 (S/CP tokens over TP) can split it
  const auto odd = search_layouts(m, p, cluster_of(64, big), o);
  REQUIRE(odd.has_value());
  for (const LayoutCandidate& c : odd->ranked) {
    CHECK(c.layout.cp == 1);
    CHECK(c.layout.tp == 1);
  }
  // Given, each is refused naming the flag and the rule.
  o.given.cp = 4;
  auto r = search_layouts(m, p, cluster_of(64, big), o);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().detail == "--cp 4: CP 4 needs S divisible by 2 × CP = 8 (Megatron's load-balanced causal split); "
                            "S = 32769");
  o.given.cp.reset();
  o.given.tp = 2;
  r = search_layouts(m, p, cluster_of(64, big), o);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().detail == "--tp 2: TP 2 with sequence parallelism needs S / CP = 32769 divisible by TP");
  // S = 32768 splits either way.
  o.time.seq_len = 32768;
  CHECK(search_layouts(m, p, cluster_of(64, big), o).has_value());
}

TEST_CASE("cluster search: short sequences get larger micro-batches") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  GpuSpec big = h100_like();
  big.hbm_bytes = 1e13;
  // S = 128: micro-batches double past 4 while one holds at most 16,384 tokens (128 sequences).
  LayoutSearchOptions s = search_options(128LL * 4096);
  s.time.seq_len = 128;
  const auto short_seq = search_layouts(m, p, cluster_of(8, big), s);
  REQUIRE(short_seq.has_value());
  CHECK(short_seq->ranked.front().layout.micro_batch > 4);
  CHECK(short_seq->ranked.front().layout.micro_batch * 128 <= 16384);
}

TEST_CASE("cluster search: nothing fits, the smallest shortfall names its layout, term and GiB") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  GpuSpec tiny = h100_like();
  tiny.hbm_bytes = 1e9;  // 0.93 GiB: less than the framework allowance alone
  const auto r = search_layouts(m, p, cluster_of(64, tiny), search_options());
  REQUIRE_FALSE(r.has_value());
  const ConstraintViolation& v = r.error();
  CHECK(v.constraint == "memory per GPU");
  CHECK(v.detail.find("no layout of test-moe on 64 GPUs fits; the closest, TP ") == 0);
  CHECK(v.detail.find("GiB per GPU, the H100 SXM has 0.9 GiB (") != std::string::npos);
  CHECK(v.detail.find(" GiB short); its largest term is ") != std::string::npos);
  // the exit status of `suggest` when nothing fits: the ConstraintViolation's code, 3
  CHECK(static_cast<int>(ConstraintViolation::code) == 3);
  // with headroom, the usable part is what is compared and printed
  LayoutSearchOptions o = search_options();
  o.memory_headroom = 0.5;
  const auto half = search_layouts(m, p, cluster_of(64, tiny), o);
  REQUIRE_FALSE(half.has_value());
  CHECK(half.error().detail.find("has 0.5 GiB to plan with (50 % of 0.9 GiB; ") != std::string::npos);
}

TEST_CASE("cluster search: fitting layouts ranked by tokens/s, why the runners-up lost") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  GpuSpec big = h100_like();
  big.hbm_bytes = 1e13;  // everything fits: the ranking is by time alone
  const Cluster c = cluster_of(64, big);
  const LayoutSearchOptions o = search_options();
  const auto r = search_layouts(m, p, c, o);
  REQUIRE(r.has_value());
  REQUIRE(r->ranked.size() == 3);
  REQUIRE(r->why_lost.size() == 2);
  CHECK(r->evaluated > 100);
  // Memory is computed fastest first until three structures fit (everything fits here), so
  // no more than the layouts down to the third structure's fastest.
  CHECK(r->memory_evaluated >= 3);
  CHECK(r->memory_evaluated < r->evaluated / 10);
  // The runners-up are other splits of the GPUs, not the winner with another micro-batch or
  // recompute level.
  for (std::size_t i = 0; i < r->ranked.size(); ++i) {
    for (std::size_t j = i + 1; j < r->ranked.size(); ++j) {
      const ParallelLayout& a = r->ranked[i].layout;
      const ParallelLayout& b = r->ranked[j].layout;
      CHECK_FALSE((a.tp == b.tp && a.cp == b.cp && a.pp == b.pp && a.vpp == b.vpp && a.ep == b.ep && a.etp == b.etp));
    }
  }
  CHECK(r->illegal > 0);            // TP 8 on 4 kv heads, EP that do not fold, ...
  for (std::size_t i = 0; i < r->ranked.size(); ++i) {
    const LayoutCandidate& cand = r->ranked[i];
    CHECK(cand.fits);
    CHECK(layout_illegal_reason(m, c, cand.layout, true) == "");
    CHECK(cand.time.step_seconds > 0);
    // B: round(4e6 / 4096) = 977 sequences, rounded to micro × DP
    const long long unit = static_cast<long long>(cand.layout.micro_batch) * cand.layout.dp;
    CHECK(cand.layout.global_batch % unit == 0);
    CHECK(std::abs(double(cand.layout.global_batch) - 977.0) <= double(unit) / 2 + 1);
    if (i > 0) {
      CHECK(cand.time.tokens_per_second <= r->ranked[i - 1].time.tokens_per_second);
      CHECK(r->why_lost[i - 1].find("slower per step") != std::string::npos);
    }
  }
  // the winner is the fastest legal layout: no hand-picked one beats it
  for (const auto& [tp, ep] : {std::pair{1, 1}, {2, 8}, {4, 16}, {1, 64 / 2}}) {
    ParallelLayout l = layout_of(64, tp, 1, ep);
    l.global_batch = std::max<long long>(l.dp, (977 / l.dp) * l.dp);
    if (layout_illegal_reason(m, c, l, true) != "") continue;
    for (Recompute rec : {Recompute::none, Recompute::selective, Recompute::full}) {
      l.recompute = rec;
      CHECK(step_time(m, p, c, l, o.time).tokens_per_second <=
            r->ranked[0].time.tokens_per_second * (1 + 1e-9));
    }
  }
  // on an 80 GB GPU the winners fit with what the memory model counts
  const auto real = search_layouts(m, p, cluster_of(64), o);
  REQUIRE(real.has_value());
  for (const LayoutCandidate& cand : real->ranked) CHECK(cand.memory.total() <= 80e9);
  CHECK(real->ranked.front().time.tokens_per_second <= r->ranked.front().time.tokens_per_second);
}

TEST_CASE("cluster search: a routing skew gives each EP its own load factor") {
  // 155e9 routed parameters and one kv head (TP 1): on 64 GPUs of 80 GB only EP > 1 fits
  ModelConfig m = moe_model(24, 256);
  m.hidden_size = 4096;
  m.moe_intermediate_size = 2048;
  m.num_key_value_heads = 1;
  const ParameterCounts p = count_parameters(m);
  LayoutSearchOptions o = search_options();
  const auto balanced = search_layouts(m, p, cluster_of(64), o);
  o.routing_skew = 1.0;
  const auto skewed = search_layouts(m, p, cluster_of(64), o);
  REQUIRE(balanced.has_value());
  REQUIRE(skewed.has_value());
  CHECK(balanced->ranked[0].layout.ep > 1);
  CHECK(skewed->ranked[0].layout.ep > 1);
  CHECK(skewed->ranked[0].time.tokens_per_second < balanced->ranked[0].time.tokens_per_second);
  CHECK(skewed->ranked[0].time.terms[0].detail.find("load 1.00") == std::string::npos);
}

TEST_CASE("cluster search: DeepSeek-V3.1 on 2048 H100 is searched in well under a second") {
  const auto m = load_model_config("deepseek-v3.1");
  REQUIRE(m.has_value());
  const ParameterCounts p = count_parameters(*m);
  LayoutSearchOptions o = search_options(4096LL * 15360);  // DeepSeek-V3: 15360 sequences of 4K
  const auto start = std::chrono::steady_clock::now();
  const auto r = search_layouts(*m, p, cluster_of(2048), o);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(r.has_value());
  CHECK(r->evaluated > 1000);
  CHECK(ms < 1000);  // milliseconds in Release; the bound leaves room for sanitizer builds
  MESSAGE("search: " << r->evaluated << " layouts timed, " << r->memory_evaluated
                     << " memory counts, " << ms << " ms; best " << r->ranked[0].layout.describe());
}

TEST_CASE("cluster layout rule: Megatron's accounted split counts the embedding and the loss as layers") {
  // Qwen3-235B-A22B's recipe: 94 layers, PP 8 x VPP 4; with both counted, 96 = 8 x 4 x 3: the
  // first and last ranks hold 4 x 3 - 1 = 11 layers, the others 12 (Megatron-LM
  // get_transformer_layer_offset / get_num_layers_to_build).
  const auto both = accounted_stage_split(94, 8, 4, true, true);
  REQUIRE(both);
  CHECK(both->first == 11);
  CHECK(both->middle == 12);
  CHECK(both->last == 11);
  CHECK(both->first + 6 * both->middle + both->last == 94);
  // The embedding alone: 95 is not a multiple of 32; 63 + 1 = 64 over PP 16, VPP 1: 3, 4, 4.
  CHECK_FALSE(accounted_stage_split(94, 8, 4, true, false));
  const auto embedding = accounted_stage_split(63, 16, 1, true, false);
  REQUIRE(embedding);
  CHECK(embedding->first == 3);
  CHECK(embedding->middle == 4);
  CHECK(embedding->last == 4);
  CHECK_FALSE(accounted_stage_split(94, 1, 1, true, true));  // no pipeline, nothing to split
  CHECK(accounted_stage_split(2, 2, 1, true, true)->first == 1);  // 4 over 2 stages: each end 2 - 1 = 1 layer
  CHECK_FALSE(accounted_stage_split(1, 2, 1, true, true));          // 3 over 2 stages: not whole
  CHECK(accounted_stage_split(4, 2, 1, true, true)->first == 2);
}
