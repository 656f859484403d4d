// Step time of a layout (docs/cluster.md, "Step time"): the terms and how they move with the
// layout, MFU against the GEMM efficiency, the load factor of a routing skew, and what a run
// of D tokens costs. GPUs and configs are built by hand (cluster_fixtures.hpp).
#include <doctest/doctest.h>

#include <algorithm>

#include <fmt/format.h>

#include <numeric>
#include <utility>

#include "cluster/cluster_fixtures.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/model/gemm_shapes.hpp"

using namespace moeplan;
using namespace moeplan::test;

namespace {

constexpr int k_seq_len = 4096;  // S of these tests (the step model has no S of its own)

StepTime time_of(const ModelConfig& m, int world, ParallelLayout l, long long global_batch,
                 StepTimeOptions o = {}) {
  l.global_batch = global_batch;
  if (o.seq_len == 0) o.seq_len = k_seq_len;
  return step_time(m, count_parameters(m), cluster_of(world), l, o);
}

std::string detail_of(const StepTime& t, const std::string& name) {
  for (const StepTerm& term : t.terms) {
    if (term.name == name) return term.detail;
  }
  return "";
}

}  // namespace

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

namespace {
// The output head in layers' worth of GEMMs, 6·V·d per token over M/L (step_time.cpp: it
// runs on the last stage and is outside M, so it stretches the step, not the model FLOPs).
double head_layers(const ModelConfig& m, int seq_len = k_seq_len) {
  const double M = account_of(m, count_parameters(m), seq_len).M.value();
  return 6.0 * m.vocab_size * m.hidden_size * m.num_hidden_layers / M;
}
}  // namespace

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

TEST_CASE("cluster step time: recompute adds a forward, selective less than full") {
  const ModelConfig m = moe_model();
  ParallelLayout l = layout_of(64, 2, 1, 8);
  l.recompute = Recompute::none;
  const StepTime none = time_of(m, 64, l, 1024);
  l.recompute = Recompute::selective;
  const StepTime selective = time_of(m, 64, l, 1024);
  l.recompute = Recompute::full;
  const StepTime full = time_of(m, 64, l, 1024);
  CHECK(none.seconds_of("recompute") == 0);
  CHECK(selective.seconds_of("recompute") == doctest::Approx(selective.seconds_of("attention") / 3));
  CHECK(full.seconds_of("recompute") ==
        doctest::Approx((full.seconds_of("gemm") + full.seconds_of("attention") + full.seconds_of("memory_bound")) / 3));
  CHECK(none.step_seconds < selective.step_seconds);
  CHECK(selective.step_seconds < full.step_seconds);
}

TEST_CASE("cluster step time: the all-to-all grows when EP leaves the node") {
  const ModelConfig m = moe_model(24, 256);
  StepTimeOptions nccl;  // one copy per expert over the NIC (Megatron's alltoall dispatcher)
  nccl.a2a_node_dedup = false;
  const StepTime within = time_of(m, 64, layout_of(64, 1, 1, 8), 1024, nccl);
  const StepTime two = time_of(m, 64, layout_of(64, 1, 1, 16), 1024, nccl);
  const StepTime eight = time_of(m, 64, layout_of(64, 1, 1, 64), 1024, nccl);
  CHECK(within.seconds_of("all_to_all") > 0);
  CHECK(two.seconds_of("all_to_all") > 3 * within.seconds_of("all_to_all"));
  CHECK(eight.seconds_of("all_to_all") > two.seconds_of("all_to_all"));
  CHECK(detail_of(within, "all_to_all").find("EP 8 within a node") != std::string::npos);
  CHECK(detail_of(two, "all_to_all").find("EP 16 spans 2 nodes, 53 % of peers off-node") != std::string::npos);
  // DeepEP (the default) sends a token once per remote node: K = 8 experts over 8 nodes reach
  // 7 (1 - (7/8)^8) = 4.6 remote nodes, not the 8 x 7/8 = 7 copies NCCL's all-to-all sends
  const StepTime deepep = time_of(m, 64, layout_of(64, 1, 1, 64), 1024);
  CHECK(deepep.seconds_of("all_to_all") < eight.seconds_of("all_to_all"));
  CHECK(deepep.seconds_of("all_to_all") > 0.5 * eight.seconds_of("all_to_all"));
  CHECK(detail_of(deepep, "all_to_all").find("one copy per remote node") != std::string::npos);
  // within a node there is nothing to deduplicate
  CHECK(time_of(m, 64, layout_of(64, 1, 1, 8), 1024).seconds_of("all_to_all") ==
        doctest::Approx(within.seconds_of("all_to_all")));
  // a2a_overlap hides that fraction
  StepTimeOptions half;
  half.a2a_overlap = 0.5;
  CHECK(time_of(m, 64, layout_of(64, 1, 1, 64), 1024, half).seconds_of("all_to_all") ==
        doctest::Approx(0.5 * deepep.seconds_of("all_to_all")));
  // ETP x EP contiguous: EP 8 with ETP 2 spans two nodes as well
  const StepTime folded = time_of(m, 64, layout_of(64, 2, 1, 8, 2), 1024);
  CHECK(detail_of(folded, "all_to_all").find("EP 8 spans 2 nodes") != std::string::npos);
  // no all-to-all with EP 1, nor in a dense model
  CHECK(time_of(m, 64, layout_of(64, 1, 1, 1), 1024).seconds_of("all_to_all") == 0);
  CHECK(time_of(dense_model(), 64, layout_of(64, 1, 1), 1024).seconds_of("all_to_all") == 0);
}

TEST_CASE("cluster step time: the pipeline bubble falls with more micro-batches and with VPP") {
  // 8 GPUs, TP 2 x PP 4: the stages talk over NVLink, the bubble dominates the term
  const ModelConfig m = dense_model(24);
  ParallelLayout l = layout_of(8, 2, 4);
  l.micro_batch = 4;
  const StepTime sixteen = time_of(m, 8, l, 64);  // 16 micro-batches
  l.micro_batch = 1;
  const StepTime sixty_four = time_of(m, 8, l, 64);  // 64
  CHECK(sixty_four.seconds_of("pipeline") < sixteen.seconds_of("pipeline"));
  l.vpp = 2;
  const StepTime interleaved = time_of(m, 8, l, 64);
  CHECK(interleaved.seconds_of("pipeline") < sixty_four.seconds_of("pipeline"));
  CHECK(detail_of(interleaved, "pipeline").find("(PP−1)/(VPP·m) = 3/(2·64)") != std::string::npos);
  // the same work either way: only the pipeline term moves
  CHECK(interleaved.seconds_of("gemm") == doctest::Approx(sixty_four.seconds_of("gemm")));
  // an uneven split stretches the GEMMs by the busiest stage: 61 layers, 16 on a middle stage
  const ModelConfig odd = moe_model(61, 256);
  ParallelLayout uneven = layout_of(32, 1, 4);
  const StepTime t_uneven = time_of(odd, 32, uneven, 256);
  ParallelLayout flat = layout_of(32, 1, 1);
  const StepTime t_flat = time_of(odd, 32, flat, 256);
  // middle stages 16, the last 15 plus the head: the busier of the two sets the pace
  // (compared as the busiest-stage factor the detail prints: the GEMM seconds themselves
  // are partly bound by the HBM weight stream here, which counts the stage's own layers)
  const double h = head_layers(odd);
  CAPTURE(h);
  CHECK(detail_of(t_uneven, "gemm").find(fmt::format("(×{:.3f})", std::max(16.0, 15.0 + h) * 4 / 61)) !=
        std::string::npos);
  CHECK(detail_of(t_flat, "gemm").find(fmt::format("(×{:.3f})", (61 + h) / 61)) != std::string::npos);
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

TEST_CASE("cluster step time: TP collectives and the data-parallel reduction") {
  const ModelConfig m = moe_model();
  const StepTime tp8 = time_of(m, 64, layout_of(64, 4, 1, 8), 1024);
  CHECK(tp8.seconds_of("tp_collectives") > 0);
  CHECK(detail_of(tp8, "tp_collectives").find("over NVLink") != std::string::npos);
  // dp_overlap bounds what is hidden: none with 0, at most all of it with 1
  StepTimeOptions hidden;
  hidden.dp_overlap = 1.0;
  const double all_hidden = time_of(m, 64, layout_of(64, 4, 1, 8), 1024, hidden).seconds_of("dp_reduction");
  StepTimeOptions exposed;
  exposed.dp_overlap = 0.0;
  const double none_hidden = time_of(m, 64, layout_of(64, 4, 1, 8), 1024, exposed).seconds_of("dp_reduction");
  CHECK(all_hidden <= tp8.seconds_of("dp_reduction"));
  CHECK(none_hidden >= tp8.seconds_of("dp_reduction"));
  CHECK(none_hidden > all_hidden);
  CHECK(detail_of(tp8, "dp_reduction").find("over the NIC") != std::string::npos);
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

TEST_CASE("cluster step time: a selective recompute costs the forward of the modules it names") {
  const ModelConfig m = moe_model();  // 24 layers (1 dense), no MLA, one shared expert
  ParallelLayout l = layout_of(64, 2, 1, 8);  // TP 2, EP 8, DP 32: 32 micro-batches of 1
  l.recompute = Recompute::selective;
  const StepTime core = time_of(m, 64, l, 1024);
  l.recompute_modules = recompute_core_attn | recompute_layernorm;
  const StepTime norms = time_of(m, 64, l, 1024);
  // Two norms (read d, write d, bf16) on the s/TP tokens a rank holds under SP, 24 layers,
  // 32 micro-batches, at the achieved HBM bandwidth (0.85 of 3.35 TB/s, docs/step-model.md).
  const double norm_bytes = 32 * 24 * (4096.0 / 2) * 2 * (2 * 2048.0) * 2;
  CHECK(norms.seconds_of("recompute") - core.seconds_of("recompute") ==
        doctest::Approx(norm_bytes / (0.85 * 3.35e12)));
  // No MLA: nothing to rebuild; the MLP and shared-expert recomputes re-run GEMMs.
  l.recompute_modules = recompute_core_attn | recompute_mla_up_proj;
  CHECK(time_of(m, 64, l, 1024).seconds_of("recompute") == doctest::Approx(core.seconds_of("recompute")));
  l.recompute_modules = recompute_core_attn | recompute_shared_experts;
  const StepTime shared = time_of(m, 64, l, 1024);
  CHECK(shared.seconds_of("recompute") > core.seconds_of("recompute"));
  l.recompute_modules = recompute_layernorm;  // without the attention core
  CHECK(time_of(m, 64, l, 1024).seconds_of("recompute") ==
        doctest::Approx(norms.seconds_of("recompute") - core.seconds_of("attention") / 3));
  CHECK(detail_of(norms, "recompute").find("core_attn, layernorm") != std::string::npos);
  // The other terms do not move.
  CHECK(norms.seconds_of("gemm") == doctest::Approx(core.seconds_of("gemm")));
  CHECK(norms.seconds_of("memory_bound") == doctest::Approx(core.seconds_of("memory_bound")));
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

TEST_CASE("cluster step time: --tp-comm-overlap hides a module's TP collectives behind its GEMMs, never the dispatcher's") {
  // Dense, TP 4 on one node: every collective sits beside a linear layer's GEMM, and at
  // d 4096 with 4096-token micro-batches each module's GEMMs outlast its four collectives.
  const ModelConfig dense = dense_model();
  StepTimeOptions overlapped;
  overlapped.tp_comm_overlap = true;
  const StepTime plain = time_of(dense, 8, layout_of(8, 4, 1), 64);
  const StepTime hidden = time_of(dense, 8, layout_of(8, 4, 1), 64, overlapped);
  REQUIRE(plain.seconds_of("tp_collectives") > 0);
  CHECK(hidden.seconds_of("tp_collectives") == 0);
  CHECK(detail_of(hidden, "tp_collectives").find("hidden behind the linear layers' GEMMs") != std::string::npos);
  // only the TP term moves
  CHECK(hidden.seconds_of("gemm") == doctest::Approx(plain.seconds_of("gemm")));
  CHECK(plain.step_seconds - hidden.step_seconds == doctest::Approx(plain.seconds_of("tp_collectives")));
  // MoE without shared experts, 24 layers (1 dense), TP 2, ETP 1: the TP-sharded modules are
  // the 24 attentions and the one dense FFN, 4 collectives each; the routed experts add none
  // (Megatron's dispatcher gathers over the expert-TP group, here 1), and all 25 hide.
  ModelConfig moe = moe_model();
  moe.n_shared_experts = 0;
  const StepTime moe_plain = time_of(moe, 64, layout_of(64, 2, 1, 8), 1024);
  CHECK(detail_of(moe_plain, "tp_collectives").find("× 25 modules") != std::string::npos);
  CHECK(time_of(moe, 64, layout_of(64, 2, 1, 8), 1024, overlapped).seconds_of("tp_collectives") == 0);
  // ETP 2: the dispatcher gathers and scatters the routed rows over the expert-TP pair, and
  // those collectives stay exposed under --tp-comm-overlap (the attention's still hide).
  const StepTime etp_plain = time_of(moe, 64, layout_of(64, 2, 1, 8, 2), 1024);
  const StepTime etp_hidden = time_of(moe, 64, layout_of(64, 2, 1, 8, 2), 1024, overlapped);
  CHECK(detail_of(etp_plain, "tp_collectives").find("the MoE dispatcher's over ETP 2") != std::string::npos);
  CHECK(etp_plain.seconds_of("tp_collectives") > moe_plain.seconds_of("tp_collectives"));
  CHECK(etp_hidden.seconds_of("tp_collectives") > 0);
  CHECK(etp_plain.seconds_of("tp_collectives") - etp_hidden.seconds_of("tp_collectives") ==
        doctest::Approx(moe_plain.seconds_of("tp_collectives")));
  // TP 1: nothing to hide, nothing changes
  CHECK(time_of(dense, 8, layout_of(8, 1, 1), 64, overlapped).step_seconds ==
        doctest::Approx(time_of(dense, 8, layout_of(8, 1, 1), 64).step_seconds));
  // A slow link: the collectives outlast the GEMMs, and only the excess is exposed (each
  // module's own GEMMs cover it), so the term lies strictly between 0 and the plain one.
  GpuSpec slow = h100_like();
  slow.intra_node_bandwidth = 2e9;
  StepTimeOptions so = overlapped;
  so.seq_len = k_seq_len;
  ParallelLayout l = layout_of(8, 4, 1);
  l.global_batch = 64;
  const StepTime slow_plain = step_time(dense, count_parameters(dense), cluster_of(8, slow), l,
                                        StepTimeOptions{.seq_len = k_seq_len});
  const StepTime slow_hidden = step_time(dense, count_parameters(dense), cluster_of(8, slow), l, so);
  CHECK(slow_hidden.seconds_of("tp_collectives") > 0);
  CHECK(slow_hidden.seconds_of("tp_collectives") < slow_plain.seconds_of("tp_collectives"));
  // what is hidden is at most the linear layers' GEMM time (attention and FFN are all of it here)
  CHECK(slow_plain.seconds_of("tp_collectives") - slow_hidden.seconds_of("tp_collectives") <=
        slow_plain.seconds_of("gemm") * (1 + 1e-9));
}

TEST_CASE("cluster step time: the interleaved schedule overlaps its sends but the fill and drain (Megatron's default)") {
  // PP 4 x VPP 2 over 64 micro-batches on NVLink: 2 (VPP m + PP - 1) = 262 sends without the
  // overlap, 2 (PP - 1) = 6 with it (a send is far shorter than a chunk's forward here).
  const ModelConfig m = dense_model(24);
  ParallelLayout l = layout_of(8, 2, 4, 1, 1, 1, 2);
  const StepTime overlapped = time_of(m, 8, l, 64);
  StepTimeOptions off;
  off.p2p_overlap = false;
  const StepTime exposed = time_of(m, 8, l, 64, off);
  // the bubble is the same work either way: (PP-1)/(VPP m) of the terms before it
  double work = 0;
  for (const char* t : {"gemm", "attention", "memory_bound", "recompute", "tp_collectives", "all_to_all"}) {
    work += overlapped.seconds_of(t);
  }
  const double bubble = work * 3.0 / (2 * 64);
  const double sends_on = overlapped.seconds_of("pipeline") - bubble;
  const double sends_off = exposed.seconds_of("pipeline") - bubble;
  REQUIRE(sends_on > 0);
  CHECK(sends_off / sends_on == doctest::Approx((2.0 * 64 + 3) / 3));
  CHECK(detail_of(overlapped, "pipeline").find("overlapped by the interleaved schedule") != std::string::npos);
  // without VPP Megatron never overlaps them: the option changes nothing
  const ParallelLayout flat = layout_of(8, 2, 4);
  CHECK(time_of(m, 8, flat, 64).seconds_of("pipeline") ==
        doctest::Approx(time_of(m, 8, flat, 64, off).seconds_of("pipeline")));
}

TEST_CASE("cluster step time: the data-parallel collectives are exposed past one micro-batch's pass, by hand") {
  // Dense d 4096, 24 layers, on one node of 8 (TP 1, PP 1, DP 8), 1 and 8 micro-batches.
  // Parameters by hand: a layer 2·4096² (q, o) + 2·4096·1024 (k, v: 8 kv heads of 128) +
  // 3·4096·12288 (SwiGLU) = 192,937,984; 24 layers 4,630,511,616; untied embedding and head
  // 2·128256·4096 = 1,050,673,152: the DP shard's 5,681,184,768.
  const double shard = 5681184768.0;
  const double nvlink = 450e9 * 0.7;
  const double rs = 7.0 / 8.0 * 4.0 * shard / nvlink;  // fp32 gradients reduce-scattered
  const double ag = 7.0 / 8.0 * 2.0 * shard / nvlink;  // bf16 weights all-gathered
  const ModelConfig m = dense_model(24);
  // S 4096: a micro-batch's pass outlasts the collectives (80 % hidden, the bound); S 256:
  // a short pass, most of them exposed.
  for (const auto& [batch, seq_len] : {std::pair{8LL, 4096}, std::pair{64LL, 4096}, std::pair{8LL, 256},
                                       std::pair{64LL, 256}}) {
    CAPTURE(batch);
    CAPTURE(seq_len);
    ParallelLayout l = layout_of(8, 1, 1);
    l.recompute = Recompute::none;
    StepTimeOptions o;
    o.seq_len = seq_len;
    const StepTime t = time_of(m, 8, l, batch, o);
    const double mb = double(batch) / 8.0;
    const double compute = (t.seconds_of("gemm") + t.seconds_of("attention") + t.seconds_of("memory_bound")) / mb;
    // The reduce-scatter hides behind the last micro-batch's backward (2/3 of its compute), the
    // all-gather behind the first one's forward (1/3), each at most 80 % (dp_overlap).
    const double expected = std::max(0.2 * rs, rs - 2.0 / 3.0 * compute) + std::max(0.2 * ag, ag - compute / 3.0);
    CHECK(t.seconds_of("dp_reduction") == doctest::Approx(expected).epsilon(1e-9));
    if (seq_len == 256) {
      CHECK(t.seconds_of("dp_reduction") > 0.5 * (rs + ag));  // a short pass hides less than half
    } else {
      CHECK(t.seconds_of("dp_reduction") == doctest::Approx(0.2 * (rs + ag)));
    }
    // The optimizer step: the shard over DP 8, 42 bytes a parameter (gradient norm 4; Adam
    // reads the gradient, master, m, v, 16, writes master, m, v, 12; the bf16 weight from the
    // master, 4 + 2) at the achieved HBM bandwidth 3.35 TB/s × 0.85.
    CHECK(t.seconds_of("optimizer") == doctest::Approx(shard / 8.0 * 42.0 / (3.35e12 * 0.85)).epsilon(1e-9));
  }
  // More micro-batches do not hide more: only the last one's backward covers the reduction.
  ParallelLayout l = layout_of(8, 1, 1);
  l.recompute = Recompute::none;
  StepTimeOptions bf16_grads;
  bf16_grads.grad_reduce_in_bf16 = true;
  CHECK(time_of(m, 8, l, 8, bf16_grads).seconds_of("optimizer") ==
        doctest::Approx(shard / 8.0 * 36.0 / (3.35e12 * 0.85)).epsilon(1e-9));
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

TEST_CASE("cluster step time: DualPipe's bubble is (PP/2-1)(F&B+B-3W), its sends hidden, two stages' weights") {
  // A dense model on PP 4 (DP 2): the work per micro-batch of a stage is F + B. 1F1B idles
  // (PP-1) of it; DualPipe (PP/2-1)(F&B + B - 3W) = (PP/2-1)·2F with F&B = F + B, W = B/2, B = 2F:
  // two thirds of a micro-batch's work, here 1 x 2/3 against 3.
  const ModelConfig m = dense_model(8);
  ParallelLayout l = layout_of(8, 1, 4);
  l.recompute = Recompute::none;
  const StepTime a = time_of(m, 8, l, 64);
  l.dualpipe = true;
  const StepTime b = time_of(m, 8, l, 64);
  CHECK(b.seconds_of("gemm") == doctest::Approx(a.seconds_of("gemm")));
  const double work = a.seconds_of("gemm") + a.seconds_of("attention") + a.seconds_of("memory_bound") +
                      a.seconds_of("recompute") + a.seconds_of("tp_collectives") + a.seconds_of("all_to_all");
  const double mb = 64 / 2;  // micro-batches: 64 sequences / (mb 1 x DP 2)
  CHECK(b.seconds_of("pipeline") == doctest::Approx(work / mb * (4 / 2.0 - 1.0) * 2.0 / 3.0));
  CHECK(a.seconds_of("pipeline") > work / mb * 3.0);  // 1F1B's bubble plus its sends
  // Two stages' weights: the optimizer updates twice the shard (DualPipe's 2x parameters).
  CHECK(b.seconds_of("optimizer") == doctest::Approx(2.0 * a.seconds_of("optimizer")));
  CHECK(l.describe().find("PP 4 DualPipe") != std::string::npos);
}
