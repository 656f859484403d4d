// src/cluster/step_terms.cpp: each term of the step (recompute, all-to-all, pipeline bubble,
// TP and data-parallel collectives and their overlap) and how it moves with the layout
// (docs/cluster.md, "Step time"; moved from test_step_time.cpp). GPUs and configs are built by
// hand (cluster_fixtures.hpp).
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


namespace {
// The output head in layers' worth of GEMMs, 6·V·d per token over M/L (step_time.cpp: it
// runs on the last stage and is outside M, so it stretches the step, not the model FLOPs).
double head_layers(const ModelConfig& m, int seq_len = k_seq_len) {
  const double M = account_of(m, count_parameters(m), seq_len).M.value();
  return 6.0 * m.vocab_size * m.hidden_size * m.num_hidden_layers / M;
}

// The data-parallel tests' dense model (dense_model(24): d 4096) on one node of 8 (TP 1, PP 1,
// DP 8), by hand: the DP shard's parameters, a layer 2·4096² (q, o) + 2·4096·1024 (k, v: 8 kv
// heads of 128) + 3·4096·12288 (SwiGLU) = 192,937,984, 24 layers 4,630,511,616, an untied
// embedding and head 2·128256·4096 = 1,050,673,152: 5,681,184,768; and the seconds of (G−1)/G
// of it over NVLink (450 GB/s x 0.7): the fp32 gradients reduce-scattered, the bf16 weights
// all-gathered.
struct DataParallelByHand {
  double shard = 5681184768.0;
  double rs = 7.0 / 8.0 * 4.0 * shard / (450e9 * 0.7);
  double ag = 7.0 / 8.0 * 2.0 * shard / (450e9 * 0.7);
};
}  // namespace

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
  // a2a_overlap hides that fraction; the hidden half still holds DeepEP's 20 of the 132 SMs
  // from the compute it overlaps: 0.5 · all · 20/132 more (below, "SMs")
  StepTimeOptions half;
  half.a2a_overlap = 0.5;
  CHECK(time_of(m, 64, layout_of(64, 1, 1, 64), 1024, half).seconds_of("all_to_all") ==
        doctest::Approx(0.5 * deepep.seconds_of("all_to_all") * (1 + 20.0 / 132)));
  // ETP x EP contiguous: EP 8 with ETP 2 spans two nodes as well
  const StepTime folded = time_of(m, 64, layout_of(64, 2, 1, 8, 2), 1024);
  CHECK(detail_of(folded, "all_to_all").find("EP 8 spans 2 nodes") != std::string::npos);
  // no all-to-all with EP 1, nor in a dense model
  CHECK(time_of(m, 64, layout_of(64, 1, 1, 1), 1024).seconds_of("all_to_all") == 0);
  CHECK(time_of(dense_model(), 64, layout_of(64, 1, 1), 1024).seconds_of("all_to_all") == 0);
}

TEST_CASE("cluster step time: SMs an overlapped DeepEP all-to-all holds slow the compute it hides behind") {
  // Compute of W seconds on S SMs, overlapped by H seconds of communication kernels that hold
  // c SMs, takes W + H·c/S: DeepEP's c = 20 (Megatron-Core 0.20 token_dispatcher.py, unset
  // --moe-flex-dispatcher-num-sms; DeepSeek-V3 Sec. 3.2.2), the fixture GPU's S = 132.
  // EP 8 within a node: the all-to-all is shorter than the compute it overlaps.
  const ModelConfig m = moe_model(24, 256);
  const ParallelLayout l = layout_of(64, 1, 1, 8);
  StepTimeOptions exposed;  // Megatron's default schedule: nothing hidden, nothing shared
  const StepTime e = time_of(m, 64, l, 1024, exposed);
  const double all = e.seconds_of("all_to_all");
  const double compute = e.seconds_of("gemm") + e.seconds_of("attention") + e.seconds_of("memory_bound") + e.seconds_of("recompute");
  REQUIRE(all > 0);
  REQUIRE(all * (1 - 32.0 / 132) < compute);
  StepTimeOptions hidden;
  hidden.a2a_overlap = 1;
  const StepTime h = time_of(m, 64, l, 1024, hidden);
  CHECK(h.seconds_of("all_to_all") == doctest::Approx(all * 20.0 / 132));
  CHECK(detail_of(h, "all_to_all").find("lose DeepEP's 20 of the 132 SMs") != std::string::npos);
  // --moe-flex-dispatcher-num-sms 32: 32/132 of it
  hidden.a2a_comm_sms = 32;
  CHECK(time_of(m, 64, l, 1024, hidden).seconds_of("all_to_all") == doctest::Approx(all * 32.0 / 132));
  // NCCL's all-to-all: not counted (its SMs are not a published figure)
  StepTimeOptions nccl = hidden;
  nccl.a2a_node_dedup = false;
  CHECK(time_of(m, 64, l, 1024, nccl).seconds_of("all_to_all") == 0);
  CHECK(detail_of(time_of(m, 64, l, 1024, nccl), "all_to_all").find("NCCL's all-to-all holds not counted") != std::string::npos);
  // An all-to-all longer than the compute it overlaps (EP 64 over 8 nodes of this small model):
  // the pair takes the all-to-all's time, so the term is max(H·c/S, H - W) = H - W, W the
  // stage's gemm + attention + memory_bound + recompute.
  const GpuSpec slow_nic = h100_like();
  ParallelLayout batched_slow = layout_of(64, 1, 1, 64);
  batched_slow.global_batch = 1024;
  StepTimeOptions slow = hidden;
  slow.a2a_comm_sms = 20;
  slow.seq_len = k_seq_len;
  const StepTime t = step_time(m, count_parameters(m), cluster_of(64, slow_nic), batched_slow, slow);
  StepTimeOptions slow_exposed = slow;
  slow_exposed.a2a_overlap = 0;
  const double H = step_time(m, count_parameters(m), cluster_of(64, slow_nic), batched_slow, slow_exposed).seconds_of("all_to_all");
  const double W = t.seconds_of("gemm") + t.seconds_of("attention") + t.seconds_of("memory_bound") + t.seconds_of("recompute");
  REQUIRE(H - W > H * 20.0 / 132);
  CHECK(t.seconds_of("all_to_all") == doctest::Approx(H - W));
  CHECK(detail_of(t, "all_to_all").find("longer than that compute") != std::string::npos);
  // A GPU whose SM count the catalog lacks: not counted either
  GpuSpec no_sms = h100_like();
  no_sms.sms = 0;
  ParallelLayout batched = l;
  batched.global_batch = 1024;
  hidden.seq_len = k_seq_len;
  CHECK(step_time(m, count_parameters(m), cluster_of(64, no_sms), batched, hidden).seconds_of("all_to_all") == 0);
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
  // DataParallelByHand's model and node, 1 and 8 micro-batches.
  const auto [shard, rs, ag] = DataParallelByHand{};
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
    // The optimizer step: the shard over DP 8, 38 bytes a parameter (gradient norm 4; Adam
    // reads the gradient, master, m, v, 16, writes master, m, v, 12; the bf16 weight from the
    // master, 4 + 2) at the achieved HBM bandwidth 3.35 TB/s × 0.85.
    CHECK(t.seconds_of("optimizer") == doctest::Approx(shard / 8.0 * 38.0 / (3.35e12 * 0.85)).epsilon(1e-9));
  }
  // More micro-batches do not hide more: only the last one's backward covers the reduction.
  ParallelLayout l = layout_of(8, 1, 1);
  l.recompute = Recompute::none;
  StepTimeOptions bf16_grads;
  bf16_grads.grad_reduce_in_bf16 = true;
  CHECK(time_of(m, 8, l, 8, bf16_grads).seconds_of("optimizer") ==
        doctest::Approx(shard / 8.0 * 44.0 / (3.35e12 * 0.85)).epsilon(1e-9));  // + the copy to fp32, 2 + 4
}

TEST_CASE("cluster step time: off the node a data-parallel ring runs over its group's NICs on a node, by hand") {
  // The dense model above (shard 5,681,184,768 parameters) on two nodes of 8 H100, overlap off
  // so the term is the whole reduce-scatter and all-gather. NCCL's rings send each channel's
  // inter-node hop through another NIC: a node's k ranks of the group move its data at k NICs
  // (50 GB/s x 0.7 each), NVLink (450 GB/s x 0.7) the ceiling. TP 1: 8 ranks of DP 16 a node,
  // min(8 x 35, 315) = 280 GB/s; TP 2: 4 ranks, 140; TP 8: one rank of DP 2 a node, 35.
  const double shard = DataParallelByHand{}.shard;
  const ModelConfig m = dense_model(24);
  for (const auto& [tp, rate] : {std::pair{1, 280e9}, std::pair{2, 140e9}, std::pair{8, 35e9}}) {
    CAPTURE(tp);
    ParallelLayout l = layout_of(16, tp, 1);
    l.recompute = Recompute::none;
    StepTimeOptions o;
    o.seq_len = 4096;
    o.overlap_grad_reduce = false;
    o.overlap_param_gather = false;
    const double dp = 16.0 / tp;
    const double expected = (dp - 1.0) / dp * (4.0 + 2.0) * shard / tp / rate;
    const StepTime t = time_of(m, 16, l, 64, o);
    CHECK(t.seconds_of("dp_reduction") == doctest::Approx(expected).epsilon(1e-9));
    CHECK(detail_of(t, "dp_reduction").find(fmt::format("NICs on a node (dense {})", 8 / tp)) != std::string::npos);
  }
  // Experts on EP 8 fill a node: their EDP group (ranks ETP·EP = 8 apart) has one rank a node,
  // one NIC; the dense DP 64 group (TP 1) has 8.
  const StepTime moe = time_of(moe_model(), 64, layout_of(64, 1, 1, 8), 1024);
  CHECK(detail_of(moe, "dp_reduction").find("NICs on a node (dense 8, experts 1)") != std::string::npos);
  // A stage that does not fill whole nodes (24 GPUs, PP 2: 12 ranks a stage) shares its second
  // node with the next stage, gcd(12, 8) = 4 ranks of each: its ring runs at 4 NICs.
  ParallelLayout straddle = layout_of(24, 1, 2);
  straddle.recompute = Recompute::full;
  StepTimeOptions whole;
  whole.seq_len = 4096;
  whole.overlap_grad_reduce = false;
  whole.overlap_param_gather = false;
  const StepTime s24 = time_of(dense_model(24), 24, straddle, 96, whole);
  CHECK(detail_of(s24, "dp_reduction").find("NICs on a node (dense 4)") != std::string::npos);
  // A 72-GPU NVLink domain (GB200 NVL72) is counted on 8 NICs, the most measured: two racks, TP 1.
  GpuSpec nvl72 = h100_like();
  nvl72.gpus_per_node = 72;
  ParallelLayout racks = layout_of(144, 1, 1);
  racks.recompute = Recompute::full;
  racks.global_batch = 288;
  const StepTime t144 = step_time(dense_model(24), count_parameters(dense_model(24)), cluster_of(144, nvl72), racks, whole);
  CHECK(detail_of(t144, "dp_reduction").find("NICs on a node (dense 8)") != std::string::npos);
}

TEST_CASE("cluster step time: Megatron-FSDP's collectives every micro-batch, behind that micro-batch's passes, by hand") {
  // The dense model and DP 8 on one node above: rs and ag of the rank's weights at NVLink
  // (450 GB/s x 0.7). Megatron-FSDP reduce-scatters every micro-batch's gradients behind its
  // backward once they are sharded (optim_grads), and with the weights sharded too gathers them
  // before every micro-batch's forward and again before its backward (optim_grads_params, no
  // gather after the step); at most 80 % (dp_overlap) of each hidden.
  const auto [shard, rs, ag] = DataParallelByHand{};
  const ModelConfig m = dense_model(24);
  const auto exposed = [](double comm, double pass) { return std::max(0.2 * comm, comm - pass); };
  for (const int seq_len : {256, 4096}) {
    CAPTURE(seq_len);
    ParallelLayout l = layout_of(8, 1, 1);
    l.recompute = Recompute::none;
    StepTimeOptions o;
    o.seq_len = seq_len;
    const double mb = 8.0;  // 64 sequences over DP 8, one a micro-batch
    o.dp_sharding = DpSharding::optim_grads;
    const StepTime grads = time_of(m, 8, l, 64, o);
    const double pass = (grads.seconds_of("gemm") + grads.seconds_of("attention") + grads.seconds_of("memory_bound")) / mb;
    CHECK(grads.seconds_of("dp_reduction") ==
          doctest::Approx(mb * exposed(rs, 2.0 / 3.0 * pass) + exposed(ag, pass / 3.0)).epsilon(1e-9));
    o.dp_sharding = DpSharding::optim_grads_params;
    const StepTime params = time_of(m, 8, l, 64, o);
    CHECK(params.seconds_of("dp_reduction") ==
          doctest::Approx(mb * (exposed(ag, pass / 3.0) + exposed(ag + rs, 2.0 / 3.0 * pass))).epsilon(1e-9));
    CHECK(detail_of(params, "dp_reduction").find("past every micro-batch's forward and backward (Megatron-FSDP)") !=
          std::string::npos);
    CHECK(detail_of(params, "dp_reduction").find("each of the 8 micro-batches reduce-scatters the gradients and gathers") !=
          std::string::npos);
  }
}

TEST_CASE("cluster step time: without Megatron's overlap switches the data-parallel collectives are exposed whole") {
  // The dense model and DP 8 of the test above: rs and ag as computed there. Megatron-LM's
  // --overlap-grad-reduce and --overlap-param-gather are off by default (arguments.py); off,
  // the reduce-scatter waits for the last backward and the all-gather runs before the forward.
  const auto [shard, rs, ag] = DataParallelByHand{};
  const ModelConfig m = dense_model(24);
  ParallelLayout l = layout_of(8, 1, 1);
  l.recompute = Recompute::none;
  StepTimeOptions o;
  o.seq_len = 4096;
  const StepTime both = time_of(m, 8, l, 8, o);
  CHECK(both.seconds_of("dp_reduction") == doctest::Approx(0.2 * (rs + ag)));  // 80 % of each hidden
  o.overlap_param_gather = false;
  const StepTime gather_whole = time_of(m, 8, l, 8, o);
  CHECK(gather_whole.seconds_of("dp_reduction") == doctest::Approx(0.2 * rs + ag));
  CHECK(detail_of(gather_whole, "dp_reduction").find("all-gather") != std::string::npos);
  CHECK(detail_of(gather_whole, "dp_reduction").find("whole (no --overlap-param-gather)") != std::string::npos);
  o.overlap_grad_reduce = false;
  const StepTime none = time_of(m, 8, l, 8, o);
  CHECK(none.seconds_of("dp_reduction") == doctest::Approx(rs + ag));
  CHECK(detail_of(none, "dp_reduction").find("whole (no --overlap-grad-reduce)") != std::string::npos);
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

TEST_CASE("cluster step time: under DualPipe a tied head is the embedding: one table updated, no gradient sync") {
  // Rank 0 runs stages 0 and PP-1, so a tied head and the embedding are one tensor on one GPU
  // (DeepSeek-V3 report Sec. 3.2.3): the optimizer's shard holds V·d once, not twice, and
  // nothing crosses the pipeline for it; on 1F1B the last stage keeps a copy and syncs it.
  const ModelConfig untied = dense_model(8);
  ModelConfig tied = untied;
  tied.tie_word_embeddings = true;
  ParallelLayout l = layout_of(8, 1, 4);  // DP 2
  l.recompute = Recompute::none;
  l.dualpipe = true;
  const auto shard = [](const StepTime& t) {
    const std::string d = detail_of(t, "optimizer");
    const std::string head = "shard, ";
    return std::stod(d.substr(d.find(head) + head.size()));
  };
  const StepTime u = time_of(untied, 8, l, 64), t = time_of(tied, 8, l, 64);
  // V·d / (TP·DP) = 128,256 · 4,096 / 2 = 262,668,288 parameters fewer on the shard.
  CHECK(shard(u) - shard(t) == doctest::Approx(262'668'288.0).epsilon(2e-3));
  CHECK(detail_of(t, "dp_reduction").find("embedding gradients") == std::string::npos);
  l.dualpipe = false;
  CHECK(detail_of(time_of(tied, 8, l, 64), "dp_reduction").find("the tied head") != std::string::npos);
}

TEST_CASE("cluster step time: --memory-bound-scale multiplies the memory-bound term alone") {
  // dense_model(4) on 8 GPUs, TP 1, 2 micro-batches a rank, as the case below. The memory-bound
  // term is 3 x 2 micro-batches x 4 layers x 4096 rows x bytes a row: norms and residuals (10 d,
  // bf16), RoPE reading and writing q and k (32 and 8 heads of 128, bf16), the SwiGLU (read 2f,
  // write f, bf16), over the achieved HBM rate. A scale of 4 gives four times that; the
  // optimizer, whose bandwidth is the same hbm_efficiency, and the GEMMs do not move.
  const ModelConfig m = dense_model(4);
  const ParallelLayout l = layout_of(8, 1, 1);
  const double hbm = cluster_of(8).gpu.hbm_bandwidth * StepTimeOptions{}.hbm_efficiency;
  const double per_layer_pass = 3.0 * 2 * 4 * 4096.0;
  const double d = 4096, rope = 32 * 128 + 8 * 128, ffn_swiglu = 3.0 * 2 * m.intermediate_size;
  const double bytes = per_layer_pass * (10.0 * d * 2 + 2.0 * rope * 2 + ffn_swiglu);
  const StepTime plain = time_of(m, 8, l, 16);
  REQUIRE(plain.seconds_of("memory_bound") == doctest::Approx(bytes / hbm));
  StepTimeOptions o;
  o.memory_bound_scale = 4.0;
  const StepTime scaled = time_of(m, 8, l, 16, o);
  CHECK(scaled.seconds_of("memory_bound") == doctest::Approx(4.0 * bytes / hbm));
  CHECK(scaled.seconds_of("optimizer") == doctest::Approx(plain.seconds_of("optimizer")));
  CHECK(scaled.seconds_of("gemm") == doctest::Approx(plain.seconds_of("gemm")));
  CHECK(detail_of(scaled, "memory_bound").find("x 4 (--memory-bound-scale)") != std::string::npos);
  CHECK(detail_of(plain, "memory_bound").find("--memory-bound-scale") == std::string::npos);
  // A selective recompute of the norms re-runs memory-bound kernels only: it scales alike.
  ParallelLayout sel = l;
  sel.recompute = Recompute::selective;
  sel.recompute_modules = recompute_layernorm;
  const double once = time_of(m, 8, sel, 16).seconds_of("recompute");
  REQUIRE(once > 0);
  CHECK(time_of(m, 8, sel, 16, o).seconds_of("recompute") == doctest::Approx(4.0 * once));
}

TEST_CASE("cluster step time: gated attention's gate and the post-block norms in the memory-bound term, by hand") {
  // dense_model(4) (d 4096, 32 heads of 128) on 8 GPUs, TP 1, PP 1, global batch 16 of 4096
  // tokens: 2 micro-batches of 4096 rows a rank. The memory-bound term is 3x the forward bytes
  // (the backward moves twice the forward) at the achieved HBM rate.
  const ModelConfig plain = dense_model(4);
  const ParallelLayout l = layout_of(8, 1, 1);
  const StepTime base = time_of(plain, 8, l, 16);
  const double hbm = cluster_of(8).gpu.hbm_bandwidth * StepTimeOptions{}.hbm_efficiency;
  const double per_layer_pass = 3.0 * 2 * 4 * 4096.0;  // 3 x micro-batches x layers x rows
  // The gate: 10 bytes per element of N_q x head_dim (its reshape copy, 4; the fused gate, 6).
  ModelConfig gated = plain;
  gated.gated_attention = true;
  CHECK(time_of(gated, 8, l, 16).seconds_of("memory_bound") ==
        doctest::Approx(base.seconds_of("memory_bound") + per_layer_pass * 10.0 * 32 * 128 / hbm));
  // A norm after each block: two more RMSNorms (read d, write d, bf16): 8 d bytes a token.
  ModelConfig sandwich = plain;
  sandwich.extras.post_block_norms = true;
  CHECK(time_of(sandwich, 8, l, 16).seconds_of("memory_bound") ==
        doctest::Approx(base.seconds_of("memory_bound") + per_layer_pass * 8.0 * 4096 / hbm));
}
