// Step time of a layout (docs/cluster.md, "Step time"): the terms and how they move with the
// layout, MFU against the GEMM efficiency, the load factor of a routing skew, and what a run
// of D tokens costs. GPUs and configs are built by hand (cluster_fixtures.hpp).
#include <doctest/doctest.h>

#include <algorithm>

#include <fmt/format.h>

#include <numeric>
#include <utility>

#include "cluster/cluster_fixtures.hpp"
#include "cluster/step_fixtures.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/model/gemm_shapes.hpp"

using namespace moeplan;
using namespace moeplan::test;


TEST_CASE("cluster step time: ten terms in order that sum to the step, MFU counts M") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  const StepTime t = time_of(m, 64, layout_of(64, 2, 2, 8, 1), 1024);
  REQUIRE(t.terms.size() == 10);
  const char* names[] = {"gemm", "attention", "memory_bound", "recompute", "tp_collectives", "all_to_all",
                         "host", "pipeline", "dp_reduction", "optimizer"};
  double sum = 0;
  for (std::size_t i = 0; i < 10; ++i) {
    CHECK(t.terms[i].name == names[i]);
    CHECK(t.terms[i].seconds >= 0);
    CHECK_FALSE(t.terms[i].detail.empty());
    sum += t.terms[i].seconds;
  }
  CHECK(t.step_seconds == doctest::Approx(sum));
  CHECK(t.tokens_per_step == 1024.0 * k_seq_len);
  CHECK(t.tokens_per_second == doctest::Approx(t.tokens_per_step / t.step_seconds));
  // M of paper 002 Eq. 12, the figure score and suggest print
  CHECK(t.model_flops_per_token == doctest::Approx(account_of(m, p, k_seq_len).M.value()));
  CHECK(t.mfu == doctest::Approx(t.model_flops_per_token * t.tokens_per_second / (64 * 989e12)));
  CHECK(t.seconds_of("all_to_all") == t.terms[5].seconds);
  CHECK(t.seconds_of("memory_bound") > 0);
  CHECK(t.seconds_of("no such term") == 0);
}

TEST_CASE("cluster step time: MFU stays below the GEMM efficiency, a measured rate replaces the shape model") {
  const ModelConfig dense = dense_model();
  const ParameterCounts p = count_parameters(dense);
  ParallelLayout alone = layout_of(1, 1, 1);
  alone.recompute = Recompute::none;
  const StepTime one = time_of(dense, 1, alone, 8);
  // GEMM shapes, the memory-bound kernels and the head (outside M) all keep MFU below the ceiling
  CHECK(one.mfu < 0.6);
  CHECK(one.mfu > 0.3);
  CHECK(one.seconds_of("tp_collectives") == 0);
  CHECK(one.seconds_of("dp_reduction") == 0);
  CHECK(detail_of(one, "tp_collectives") == "TP 1: none");
  CHECK(detail_of(one, "pipeline") == "PP 1: none");
  const ModelConfig moe = moe_model();
  for (const ParallelLayout& l : {layout_of(64, 1, 1, 8), layout_of(64, 4, 2, 16), layout_of(64, 4, 1, 16, 4)}) {
    for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
      ParallelLayout with = l;
      with.recompute = r;
      const StepTime t = time_of(moe, 64, with, 1024);
      CHECK(t.mfu < 0.6);
      // the floor: ETP 4 all-gathers each MoE layer's routed rows (K = 8 copies of the
      // tokens) over 4 GPUs, the slowest of these layouts (MFU 0.0498 under full recompute)
      CHECK(t.mfu > 0.04);
    }
  }
  // a measured GEMM rate replaces the shape model: the GEMMs (linear layers and the head, 6
  // FLOPs per weight and token) at exactly that rate, these GEMMs being compute-bound
  StepTimeOptions measured;
  measured.measured_gemm_flops = 400e12;
  const StepTime slow = time_of(dense, 1, alone, 8, measured);
  const double tokens = 8.0 * k_seq_len;
  const double flops = tokens * 6.0 * (p.attention.value() + p.dense_ffn.value() +
                                       double(dense.vocab_size) * dense.hidden_size);
  CHECK(slow.seconds_of("gemm") == doctest::Approx(flops / 400e12));
  CHECK(detail_of(slow, "gemm").find("measured") != std::string::npos);
}

TEST_CASE("cluster step time: the expert load factor stretches the expert GEMMs and all-to-all") {
  const ModelConfig m = moe_model();
  const ParameterCounts p = count_parameters(m);
  const ParallelLayout l = layout_of(64, 1, 1, 16);
  StepTimeOptions o;
  o.expert_load_factor = 1.0;
  const StepTime balanced = time_of(m, 64, l, 1024, o);
  o.expert_load_factor = 1.5;
  const StepTime skewed = time_of(m, 64, l, 1024, o);
  const double tokens = 1024.0 * k_seq_len;
  // the busiest rank's experts get 1.5x the rows: about half the balanced expert GEMM time
  // more (the rows per expert grow, so their rate rises a little with them)
  const double expert_seconds = 6 * p.routed_active.value() * tokens / 64 / (989e12 * 0.6);
  const double extra = skewed.seconds_of("gemm") - balanced.seconds_of("gemm");
  CHECK(extra > 0.3 * expert_seconds);
  CHECK(extra < 0.6 * expert_seconds);
  CHECK(skewed.seconds_of("memory_bound") > balanced.seconds_of("memory_bound"));
  CHECK(skewed.seconds_of("all_to_all") == doctest::Approx(1.5 * balanced.seconds_of("all_to_all")));
  CHECK(skewed.seconds_of("attention") == doctest::Approx(balanced.seconds_of("attention")));
  CHECK(detail_of(skewed, "gemm").find("load 1.50") != std::string::npos);
}

TEST_CASE("cluster step time: the load factor of a Zipf skew, busiest EP rank over the mean") {
  CHECK(expert_load_factor(32768, 8, 256, 8, 0.0) == 1.0);
  CHECK(expert_load_factor(32768, 8, 256, 1, 1.2) == 1.0);
  const auto rows = zipf_expert_rows(32768, 8, 256, 1.0);
  // experts in contiguous blocks of 32: the first block holds the most-chosen experts
  const double first_block = double(std::accumulate(rows.begin(), rows.begin() + 32, std::int64_t{0}));
  CHECK(expert_load_factor(32768, 8, 256, 8, 1.0) == doctest::Approx(first_block / (32768.0 * 8 / 8)));
  CHECK(expert_load_factor(32768, 8, 256, 8, 1.0) > 1.5);
  CHECK(expert_load_factor(32768, 8, 256, 64, 1.0) > expert_load_factor(32768, 8, 256, 8, 1.0));
  CHECK(expert_load_factor(32768, 8, 256, 8, 0.5) < expert_load_factor(32768, 8, 256, 8, 1.0));
}

TEST_CASE("cluster training time: days = D / (tokens/s) / 86400, whole steps") {
  const ModelConfig m = moe_model();
  const StepTime t = time_of(m, 64, layout_of(64, 2, 1, 8), 1024);
  const Cluster c = cluster_of(64);
  const Tokens D(t.tokens_per_step * 1000);
  const TrainingTime run = training_time(t, c, D).value();
  CHECK(run.steps == 1000);
  CHECK(run.seconds == doctest::Approx(1000 * t.step_seconds));
  CHECK(run.days == doctest::Approx(D.value() / t.tokens_per_second / 86400));
  CHECK(run.gpu_hours == doctest::Approx(64 * run.seconds / 3600));
  // a partial step is a whole step
  CHECK(training_time(t, c, Tokens(t.tokens_per_step * 1000 + 1))->steps == 1001);
  CHECK(training_time(t, c, Tokens(0))->steps == 0);
  // Past 2^53 steps a whole-step count overflows (it printed negative days): refused, named.
  const auto endless = training_time(t, c, Tokens(t.tokens_per_step * 1e16));
  REQUIRE_FALSE(endless.has_value());
  CHECK(endless.error().constraint.find("2^53") != std::string::npos);
  CHECK(training_time(t, c, Tokens(t.tokens_per_step * 9e15))->days > 0);
}

TEST_CASE("cluster step time: the sourced constants of the all-to-all and the routing imbalance") {
  const StepTimeOptions o;
  // DeepEP normal kernels on H800 (docs/legacy.md): 153 GB/s intranode dispatch of the catalog's
  // 200 per direction, 43 GB/s internode at EP 16 of the 50 GB/s NIC
  CHECK(o.a2a_efficiency_intra == doctest::Approx(153.0 / 200));
  CHECK(o.a2a_efficiency_inter == doctest::Approx(43.0 / 50));
  CHECK(o.a2a_overlap == 0);  // Megatron's default schedule hides none
  // the median of the model zoo's five forced-balance / dropless TFLOP/s pairs
  std::vector<double> ratios = {295.0 / 237, 335.0 / 277, 368.0 / 320, 389.0 / 357, 465.0 / 445};
  std::sort(ratios.begin(), ratios.end());
  CHECK(k_default_load_imbalance == doctest::Approx(ratios[2]));
  CHECK(o.expert_load_factor == k_default_load_imbalance);
  // within a node the all-to-all runs at NVLink x 153/200: EP 8, TP 1, one micro-batch per
  // GPU, K copies of its 4096 tokens x d, 7/8 of them to peers, 4 transfers a MoE layer
  const ModelConfig m = moe_model(24, 256);
  StepTimeOptions balanced;
  balanced.expert_load_factor = 1.0;
  balanced.seq_len = k_seq_len;
  ParallelLayout l = layout_of(8, 1, 1, 8);
  l.global_batch = 8;
  l.recompute = Recompute::none;
  const StepTime t = step_time(m, count_parameters(m), cluster_of(8), l, balanced);
  const double bytes = 8.0 * 4096 * m.hidden_size * 2 * 7 / 8;
  CHECK(t.seconds_of("all_to_all") == doctest::Approx(4 * m.moe_layers() * bytes / (450e9 * 153.0 / 200)));
}

TEST_CASE("cluster step time: MTP modules run on the last stage as one more MoE layer, eh_proj and a head pass") {
  // A model with one MTP module against the same model with one more (MoE) layer: the
  // per-layer terms are those of L + 1 layers exactly; the GEMMs add the module's eh_proj
  // (2d -> d) and a second pass through the output head on top.
  ModelConfig with_mtp = moe_model(24);
  with_mtp.extras.num_nextn_predict_layers = 1;
  const ModelConfig plain = moe_model(24), longer = moe_model(25);
  for (int pp : {1, 4}) {
    CAPTURE(pp);
    ParallelLayout l = layout_of(64, 2, pp, 8);
    if (pp == 4) l.last_stage_layers = 4, l.first_stage_layers = 6;  // 6 | 7 7 | 4 (+ the MTP layer)
    const StepTime a = time_of(plain, 64, l, 1024);
    const StepTime b = time_of(with_mtp, 64, l, 1024);
    ParallelLayout l25 = l;
    if (pp == 4) l25.last_stage_layers = 5;  // 6 | 7 7 | 5: the last stage's 4 layers + MTP's
    const StepTime c = time_of(longer, 64, l25, 1024);
    if (pp == 1) {
      CHECK(b.seconds_of("memory_bound") == doctest::Approx(c.seconds_of("memory_bound")));
      CHECK(b.seconds_of("all_to_all") == doctest::Approx(c.seconds_of("all_to_all")));
      CHECK(b.seconds_of("gemm") > c.seconds_of("gemm"));
    } else {
      // 6 | 7 7 | 4 + MTP: the middle stages stay the busiest in layers; the GEMMs of the last
      // stage (4 layers, one MTP layer, two head passes, eh_proj) are what grows.
      CHECK(b.seconds_of("memory_bound") == doctest::Approx(a.seconds_of("memory_bound")));
      CHECK(b.seconds_of("gemm") >= a.seconds_of("gemm"));
    }
    CHECK(b.seconds_of("gemm") > a.seconds_of("gemm") * (pp == 1 ? 1.0 : 0.999));
    CHECK(b.model_flops_per_token == doctest::Approx(a.model_flops_per_token));  // MTP is outside M
  }
  const StepTime one = time_of(with_mtp, 64, layout_of(64, 2, 1, 8), 1024);
  CHECK(detail_of(one, "gemm").find("25 layers with 1 MTP") != std::string::npos);
}

TEST_CASE("cluster step time: an uneven pipeline split lightens the last stage by its head and MTP modules") {
  // DeepSeek-V3's 61 layers over PP 16: the other 14 stages take 4 each, the ends share 5.
  // With nothing on the last stage beyond its layers, the first takes the fewest (it holds
  // the most micro-batches in flight); with a head and an MTP module (4.2 layers' worth) the
  // last keeps one layer.
  auto s = balanced_stage_split(61, 16, 0.0);
  REQUIRE(s);
  CHECK(s->first == 1);
  CHECK(s->middle == 4);
  CHECK(s->last == 4);
  s = balanced_stage_split(61, 16, 4.2);
  REQUIRE(s);
  CHECK(s->first == 4);
  CHECK(s->middle == 4);
  CHECK(s->last == 1);
  // Megatron's rule: the ends at least one layer, the middle stages alike, every layer placed.
  for (int L : {13, 46, 61, 94, 126}) {
    for (int pp : {2, 3, 4, 8, 16}) {
      if (L % pp == 0 || pp > L) continue;
      for (double extra : {0.0, 0.5, 1.7, 4.2}) {
        CAPTURE(L);
        CAPTURE(pp);
        CAPTURE(extra);
        const auto b = balanced_stage_split(L, pp, extra);
        const auto ends = stage_split(L, pp, 0, 0, true);
        if (!ends) continue;  // no uneven split at all (13 layers over 8 stages)
        REQUIRE(b);
        CHECK(b->first >= 1);
        CHECK(b->last >= 1);
        CHECK(b->first + b->last + (pp - 2) * (pp == 2 ? 0 : b->middle) == L);
        // never worse than the ends split (middle ceil(L/pp), the ends the rest)
        const double old_load = std::max({double(ends->first), double(ends->middle), ends->last + extra});
        const double new_load = std::max({double(b->first), double(b->middle), b->last + extra});
        CHECK(new_load <= old_load + 1e-9);
      }
    }
  }
}

TEST_CASE("cluster step time: with PP > 1 the embedding copy on the last stage (MTP's, or a tied head) syncs its gradients") {
  // V·d/TP gradients of 4 bytes between the first and last stages, once a step, not hidden.
  ModelConfig with_mtp = moe_model(24);
  with_mtp.extras.num_nextn_predict_layers = 1;
  ModelConfig tied = moe_model(24);
  tied.tie_word_embeddings = true;
  const ModelConfig plain = moe_model(24);
  const ParallelLayout l = layout_of(64, 2, 4, 8);
  const double bytes = 4.0 * 151936 * 2048 / 2;
  const StepTime a = time_of(plain, 64, l, 1024), b = time_of(with_mtp, 64, l, 1024), c = time_of(tied, 64, l, 1024);
  StepTimeOptions bare;  // nothing of the data-parallel collectives hidden: the sync adds in full
  bare.dp_overlap = 0;
  const StepTime a0 = time_of(plain, 64, l, 1024, bare), b0 = time_of(with_mtp, 64, l, 1024, bare);
  const std::string says = fmt::format("{:.3g} GiB embedding gradients", bytes / double(1ull << 30));
  CHECK(detail_of(b, "dp_reduction").find(says) != std::string::npos);
  CHECK(detail_of(b, "dp_reduction").find("MTP's embedding") != std::string::npos);
  CHECK(detail_of(c, "dp_reduction").find("the tied head") != std::string::npos);
  CHECK(detail_of(a, "dp_reduction").find("embedding gradients") == std::string::npos);
  // 16 GPUs a stage: the stages are two nodes apart, the NIC at the collectives' 0.7; the MTP
  // module's own weights add to the data-parallel shard on top.
  CHECK(b0.seconds_of("dp_reduction") - a0.seconds_of("dp_reduction") >= bytes / (50e9 * 0.7) * (1 - 1e-9));
  CHECK(c.seconds_of("dp_reduction") > a.seconds_of("dp_reduction"));
  // PP 1: one copy, nothing to sync.
  const ParallelLayout one = layout_of(64, 2, 1, 8);
  CHECK(detail_of(time_of(with_mtp, 64, one, 1024), "dp_reduction").find("embedding gradients") == std::string::npos);
}

TEST_CASE("cluster step time: an ungated FFN of width 1.5w runs as a gated FFN of width w") {
  // GELU or squared ReLU (up, down: 2·d·w') at w' = 1.5w has a SwiGLU's (gate, up, down: 3·d·w)
  // weights and GEMM FLOPs at w, and its activation reads w' and writes w' = 3w bytes/2, the
  // SwiGLU's read 2w + write w. At a measured GEMM rate (no shape model) every term is equal.
  ModelConfig gated = dense_model(4);
  ModelConfig ungated = gated;
  ungated.ffn_gated = false;
  ungated.intermediate_size = gated.intermediate_size * 3 / 2;  // 18432
  CHECK(count_parameters(ungated).dense_ffn.value() == count_parameters(gated).dense_ffn.value());
  ParallelLayout l = layout_of(1, 1, 1);
  l.recompute = Recompute::none;
  StepTimeOptions measured;
  measured.measured_gemm_flops = 400e12;
  const StepTime a = time_of(gated, 1, l, 8, measured);
  const StepTime b = time_of(ungated, 1, l, 8, measured);
  CHECK(b.seconds_of("gemm") == doctest::Approx(a.seconds_of("gemm")));
  CHECK(b.step_seconds == doctest::Approx(a.step_seconds));
  // The ungated model's GEMMs by hand: 6 FLOPs per weight and token over the attention weights,
  // the FFNs' 4 layers x 2 x 4096 x 18432 and the head's 128256 x 4096.
  const ParameterCounts p = count_parameters(ungated);
  const double tokens = 8.0 * k_seq_len;
  CHECK(p.dense_ffn.value() == doctest::Approx(4 * 2.0 * 4096 * 18432));
  CHECK(b.seconds_of("gemm") ==
        doctest::Approx(tokens * 6.0 * (p.attention.value() + 4 * 2.0 * 4096 * 18432 + 128256.0 * 4096) / 400e12));
}

