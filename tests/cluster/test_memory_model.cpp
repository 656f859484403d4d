// Memory per GPU: Korthikanti et al. 2022 Table 2 on the paper's own configurations, Megatron-LM's
// theoretical memory (megatron/training/theoretical_memory_usage.py) recomputed by hand for two
// dense and three MoE layouts, and the behaviour of moeplan's own activation count.
//
// Expected numbers are written out from the sources' formulas, never read back from the code.
#include <algorithm>

#include <doctest/doctest.h>

#include "moeplan/cluster/memory_model.hpp"
#include "moeplan/cluster/step_time.hpp"

#include "cluster/cluster_fixtures.hpp"

using namespace moeplan;

namespace {

MemoryOptions megatron_options(int seq_len) {
  MemoryOptions o;
  o.seq_len = seq_len;
  o.activation_formula = ActivationFormula::megatron;
  o.framework_bytes = 0;
  return o;
}

double state_bytes(const MemoryBreakdown& b) {
  return b.bytes_of("weights") + b.bytes_of("gradients") + b.bytes_of("optimizer");
}

ModelConfig dense(int d, int layers, int heads, int kv, int ffn, int vocab) {
  ModelConfig m;
  m.name = "dense";
  m.hidden_size = d;
  m.num_hidden_layers = layers;
  m.num_attention_heads = heads;
  m.num_key_value_heads = kv;
  m.intermediate_size = ffn;
  m.vocab_size = vocab;
  return m;
}

// Mixtral 8x7B (mistralai/Mixtral-8x7B-v0.1 config.json): d 4096, 32 layers, 32 heads, 8 kv
// heads, 8 experts of width 14336, top-2, vocab 32000, untied.
ModelConfig mixtral() {
  ModelConfig m = dense(4096, 32, 32, 8, 14336, 32000);
  m.name = "mixtral-8x7b";
  m.moe_intermediate_size = 14336;  // Megatron: --moe-ffn-hidden-size defaults to --ffn-hidden-size
  m.n_routed_experts = 8;
  m.num_experts_per_tok = 2;
  return m;
}

// Qwen1.5-MoE-A2.7B (Qwen/Qwen1.5-MoE-A2.7B config.json): d 2048, 24 layers, 16 heads (MHA),
// 60 experts of width 1408, top-4, one shared expert of width 5632, vocab 151936, untied.
// Megatron's --ffn-hidden-size 5632 (the activation formula's f).
ModelConfig qwen_moe() {
  ModelConfig m = dense(2048, 24, 16, 16, 5632, 151936);
  m.name = "qwen1.5-moe-a2.7b";
  m.moe_intermediate_size = 1408;
  m.n_routed_experts = 60;
  m.num_experts_per_tok = 4;
  m.n_shared_experts = 1;
  m.shared_expert_intermediate_size = 5632;
  return m;
}

ParallelLayout layout(int tp, int pp, int dp, int mb, long long gb) {
  return test::sp_selective_layout(tp, pp, dp, mb, gb);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
// (arXiv 2205.05198). Table 2: activation bytes per layer; Table 3: the evaluated models, all
// with s = 2048 and t = 8: 22B (a 64, h 6144, L 48), 175B (a 96, h 12288, L 96), 530B (a 128,
// h 20480, L 105), 1T (a 160, h 25600, L 128).

TEST_CASE("cluster memory: Korthikanti Table 2 closed forms on the paper's 22B model") {
  const double s = 2048, b = 1, h = 6144, a = 64;
  const double sbh = s * b * h;  // 12,582,912
  // No parallelism: sbh(34 + 5as/h), 5as/h = 5·64·2048/6144 = 106.67.
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 1, false, Recompute::none) ==
        doctest::Approx(sbh * (34 + 5 * 64 * 2048 / 6144.0)));
  // Tensor parallel t = 8: sbh(10 + 24/t + 5as/(ht)).
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 8, false, Recompute::none) ==
        doctest::Approx(sbh * (10 + 3 + 106.6667 / 8)).epsilon(1e-5));
  // Tensor + sequence parallel: sbh/t (34 + 5as/h).
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 8, true, Recompute::none) ==
        doctest::Approx(sbh / 8 * (34 + 106.6667)).epsilon(1e-5));
  // Tensor parallel + selective recompute: sbh(10 + 24/t); with SP as well: 34 sbh/t.
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 8, false, Recompute::selective) ==
        doctest::Approx(sbh * 13));
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 8, true, Recompute::selective) ==
        doctest::Approx(sbh * 34 / 8));
  // Full recompute keeps the layer input, 2sbh (/ t with SP).
  CHECK(korthikanti_layer_activation_bytes(s, b, h, a, 8, true, Recompute::full) ==
        doctest::Approx(2 * sbh / 8));
}

TEST_CASE("cluster memory: Korthikanti's 5x activation reduction and the 70 and 65 percent of selective recompute") {
  struct Model {
    const char* name;
    double h, a;
  };
  // The abstract's "reduce activation memory by 5x": tensor parallelism alone (Table 2 row 2)
  // against sequence parallelism + selective recomputation (row 5) for the 530B and 1T
  // models, t = 8, s = 2048: (10 + 24/8 + 64/8) / (34/8) = 21 / 4.25 = 4.94.
  for (const Model m : {Model{"530B", 20480, 128}, Model{"1T", 25600, 160}}) {
    CAPTURE(m.name);
    const double tp_only = korthikanti_layer_activation_bytes(2048, 1, m.h, m.a, 8, false, Recompute::none);
    const double both = korthikanti_layer_activation_bytes(2048, 1, m.h, m.a, 8, true, Recompute::selective);
    CHECK(tp_only / both == doctest::Approx(5.0).epsilon(0.015));
  }
  // Sec. 4.2: selective recomputation saves the 5as/h term: for GPT-3 175B (5as/h = 80)
  // 80 / 114 = 70 %, for MT-NLG 530B (5as/h = 64) 64 / 98 = 65 %.
  const auto saved = [](double h, double a) {
    const double none = korthikanti_layer_activation_bytes(2048, 1, h, a, 8, true, Recompute::none);
    const double sel = korthikanti_layer_activation_bytes(2048, 1, h, a, 8, true, Recompute::selective);
    return 1 - sel / none;
  };
  CHECK(saved(12288, 96) == doctest::Approx(0.70).epsilon(0.01));
  CHECK(saved(20480, 128) == doctest::Approx(0.65).epsilon(0.01));
}

// ---------------------------------------------------------------------------------------------
// Megatron-LM megatron/training/theoretical_memory_usage.py (NVIDIA/Megatron-LM main):
//  compute_weight_and_optimizer_memory: params on the most loaded shard
//    = (transformer block / pp + embedding) / tp   (+ embedding / tp again if untied and pp = 1)
//    layer = 2h(f·3/2 + norm_size) + self_attn, self_attn = 2h²(1 + g/a)(q_proj/h) (GQA),
//    MoE layer = 2h(f_m·E·3/2 + f_shared·3/2 + norm_size) + self_attn, block = Σ layers + h;
//    bytes per param 18, or 6 + 12/dp with the distributed optimizer.
//  compute_activation_memory (SP + selective recompute):
//    (sbh(18 + 4f/h)·L + 8sb·pp + sbh·pp) × (interleaved penalty 1 + (pp−1)/(pp·vpp), or
//    min(1, m/pp) without VPP and pp > 1) + (pp = 1: 4sbh(1 + V/h)), all / tp.
// moeplan keeps norms whole on every TP rank and counts routers (N_e·h per MoE layer) and the
// final norm on the last rank: < 0.01 % of these totals.

TEST_CASE("cluster memory: Megatron theoretical memory, dense Llama-3 8B, TP 2, DP 4") {
  // meta-llama/Meta-Llama-3-8B: h 4096, L 32, a 32, g 8, f 14336, V 128256, untied; s 8192.
  const ModelConfig m = dense(4096, 32, 32, 8, 14336, 128256);
  const ParallelLayout l = layout(2, 1, 4, 1, 32);
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(8192));
  // self_attn = 2·4096²·(1 + 8/32) = 41,943,040
  // layer = 2·4096·(14336·1.5 + 1) + 41,943,040 = 176,168,960 + 41,943,040 = 218,112,000
  // block = 32·218,112,000 + 4096 = 6,979,588,096; embedding = 4096·128,256 = 525,336,576
  // shard = (6,979,588,096 + 525,336,576 + 525,336,576) / 2 = 4,015,130,624
  // bytes = 4,015,130,624 · (6 + 12/4) = 36,136,175,616
  CHECK(state_bytes(b) == doctest::Approx(36'136'175'616.0).epsilon(0.01));
  // layer = 8192·4096·(18 + 4·14336/4096) = 33,554,432·32 = 1,073,741,824; ·32 = 34,359,738,368
  // + 8·8192 + 8192·4096 = 33,619,968 -> 34,393,358,336
  // + 4·8192·4096·(1 + 128256/4096) = 134,217,728·32.3125 = 4,336,910,336 -> 38,730,268,672
  // / tp 2 = 19,365,134,336
  CHECK(b.bytes_of("activations") == doctest::Approx(19'365'134'336.0).epsilon(0.01));
}

TEST_CASE("cluster memory: Megatron-FSDP shards the gradients, then the weights, over DP, two units in flight, by hand") {
  // Llama-3 8B on TP 2, DP 4 as above: the rank holds 4,015,130,624 parameters, of them the
  // embedding and head 2 x 525,336,576 / 2 = 525,336,576; 32 layers of (4,015,130,624 -
  // 525,336,576) / 32 = 109,056,064. A unit in flight is the larger of a layer and one
  // vocabulary matrix, V·d/TP = 262,668,288: the head. Shard + two units: 4,015,130,624 / 4 +
  // 2 x 262,668,288 = 1,529,119,232 parameters.
  const ModelConfig m = dense(4096, 32, 32, 8, 14336, 128256);
  const ParallelLayout l = layout(2, 1, 4, 1, 32);
  MemoryOptions o = megatron_options(8192);
  // (moeplan keeps the norms whole on each TP rank, 0.003 % more than Megatron's count: the
  // rank's own count P is the shard's base, checked against 4,015,130,624 above.)
  const MemoryBreakdown zero1 = memory_per_gpu(m, count_parameters(m), l, o);
  const double P = zero1.params_on_gpu;
  CHECK(P == doctest::Approx(4'015'130'624.0).epsilon(1e-4));
  CHECK((P - 525'336'576.0) / 32.0 < 262'668'288.0);  // the head is the unit
  const double held = P / 4.0 + 2.0 * 262'668'288.0;
  o.dp_sharding = DpSharding::optim_grads;
  const MemoryBreakdown grads = memory_per_gpu(m, count_parameters(m), l, o);
  CHECK(grads.bytes_of("gradients") == doctest::Approx(4.0 * held).epsilon(1e-12));  // fp32
  CHECK(held == doctest::Approx(1'529'119'232.0).epsilon(1e-4));
  CHECK(grads.bytes_of("weights") == doctest::Approx(zero1.bytes_of("weights")).epsilon(1e-12));
  CHECK(grads.bytes_of("optimizer") == doctest::Approx(zero1.bytes_of("optimizer")).epsilon(1e-12));
  const auto detail_of = [](const MemoryBreakdown& b, const std::string& name) {
    for (const MemoryTerm& t : b.terms) {
      if (t.name == name) return t.detail;
    }
    return std::string();
  };
  CHECK(detail_of(grads, "gradients").find("Megatron-FSDP optim_grads: the shard over DP 4") != std::string::npos);
  CHECK(detail_of(grads, "weights").find("Megatron-FSDP") == std::string::npos);
  o.dp_sharding = DpSharding::optim_grads_params;
  const MemoryBreakdown params = memory_per_gpu(m, count_parameters(m), l, o);
  CHECK(params.bytes_of("weights") == doctest::Approx(2.0 * held).epsilon(1e-12));  // bf16
  CHECK(params.bytes_of("gradients") == doctest::Approx(grads.bytes_of("gradients")).epsilon(1e-12));
  CHECK(params.bytes_of("activations") == doctest::Approx(zero1.bytes_of("activations")).epsilon(1e-12));
  // Megatron-FSDP shards over DP·CP ("both data-parallel and context-parallel ranks are used for
  // sharding"), as the distributed optimizer does: DP 2 x CP 2 holds what DP 4 holds.
  ParallelLayout cp2 = layout(2, 1, 2, 1, 32);
  cp2.cp = 2;
  const MemoryBreakdown folded = memory_per_gpu(m, count_parameters(m), cp2, o);
  CHECK(folded.bytes_of("weights") == doctest::Approx(params.bytes_of("weights")).epsilon(1e-12));
  CHECK(folded.bytes_of("gradients") == doctest::Approx(params.bytes_of("gradients")).epsilon(1e-12));
  CHECK(folded.bytes_of("optimizer") == doctest::Approx(params.bytes_of("optimizer")).epsilon(1e-12));
  CHECK(detail_of(folded, "gradients").find("the shard over DP·CP 4") != std::string::npos);
  // DP 1 (TP 8 on 8 GPUs) gathers nothing: no units beside the whole weights.
  MemoryOptions one = megatron_options(8192);
  const ParallelLayout tp8 = layout(8, 1, 1, 1, 32);
  const MemoryBreakdown plain = memory_per_gpu(m, count_parameters(m), tp8, one);
  one.dp_sharding = DpSharding::optim_grads_params;
  const MemoryBreakdown alone = memory_per_gpu(m, count_parameters(m), tp8, one);
  CHECK(alone.bytes_of("weights") == doctest::Approx(plain.bytes_of("weights")).epsilon(1e-12));
  CHECK(alone.bytes_of("gradients") == doctest::Approx(plain.bytes_of("gradients")).epsilon(1e-12));
}

TEST_CASE("cluster memory: Megatron theoretical memory, dense Llama-3 70B, TP 8, PP 4, VPP 5") {
  // meta-llama/Meta-Llama-3-70B: h 8192, L 80, a 64, g 8, f 28672, V 128256, untied; s 4096.
  const ModelConfig m = dense(8192, 80, 64, 8, 28672, 128256);
  ParallelLayout l = layout(8, 4, 2, 1, 64);
  l.vpp = 5;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(4096));
  // self_attn = 2·8192²·(1 + 8/64) = 150,994,944
  // layer = 2·8192·(28672·1.5 + 1) + 150,994,944 = 704,659,456 + 150,994,944 = 855,654,400
  // block = 80·855,654,400 + 8192 = 68,452,360,192; embedding = 8192·128,256 = 1,050,673,152
  // shard = (68,452,360,192/4 + 1,050,673,152)/8 = 2,270,470,400; bytes · (6 + 12/2) = 27,245,644,800
  CHECK(state_bytes(b) == doctest::Approx(27'245'644'800.0).epsilon(0.01));
  // layer = 4096·8192·(18 + 4·28672/8192) = 1,073,741,824; ·80 = 85,899,345,920
  // + 8·4096·4 + 4096·8192·4 = 134,348,800 -> 86,033,694,720
  // · (1 + 3/(4·5)) = 98,938,748,928; / 8 = 12,367,343,616
  CHECK(b.bytes_of("activations") == doctest::Approx(12'367'343'616.0).epsilon(0.01));
  CHECK(b.stage_layers == 20);
  CHECK(b.in_flight_microbatches == doctest::Approx(4.6));
}

TEST_CASE("cluster memory: Megatron theoretical memory, Mixtral 8x7B, TP 4 = ETP, EP 1, PP 2") {
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(4, 2, 2, 1, 16);
  l.etp = 4;  // Megatron's default: expert TP = TP; EDP = 16/(4·1·2) = 2 = DP
  l.edp = 2;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(4096));
  // self_attn = 41,943,040 (as Llama-3 8B)
  // MoE layer = 2·4096·(14336·8·1.5 + 1) + 41,943,040 = 1,409,294,336 + 41,943,040 = 1,451,237,376
  // block = 32·1,451,237,376 + 4096 = 46,439,600,128; embedding = 4096·32000 = 131,072,000
  // shard = (46,439,600,128/2 + 131,072,000)/4 = 5,837,718,016; bytes · (6 + 12/2) = 70,052,616,192
  CHECK(state_bytes(b) == doctest::Approx(70'052'616'192.0).epsilon(0.01));
  // layer = 4096·4096·(18 + 4·14336/4096) = 536,870,912; ·32 = 17,179,869,184
  // + 8·4096·2 + 4096·4096·2 = 33,619,968 -> 17,213,489,152; · min(1, 8/2) = 1; / 4 = 4,303,372,288
  CHECK(b.bytes_of("activations") == doctest::Approx(4'303'372'288.0).epsilon(0.01));
}

TEST_CASE("cluster memory: Megatron theoretical memory, Qwen1.5-MoE with a shared expert, TP 2, DP 4") {
  const ModelConfig m = qwen_moe();
  ParallelLayout l = layout(2, 1, 4, 2, 64);
  l.etp = 2;  // EDP = 8/(2·1·1) = 4 = DP
  l.edp = 4;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(4096));
  // self_attn = 2·2048²·(1 + 16/16) = 16,777,216
  // MoE layer = 2·2048·(1408·60·1.5 + 5632·1.5 + 1) + 16,777,216 = 4096·135,169 + 16,777,216
  //           = 570,429,440; block = 24·570,429,440 + 2048 = 13,690,308,608
  // embedding = 2048·151,936 = 311,164,928; shard = (13,690,308,608 + 2·311,164,928)/2
  //           = 7,156,319,232; bytes · (6 + 12/4) = 64,406,873,088
  CHECK(state_bytes(b) == doctest::Approx(64'406'873'088.0).epsilon(0.01));
  // layer = 4096·2·2048·(18 + 4·5632/2048) = 16,777,216·29 = 486,539,264; ·24 = 11,676,942,336
  // + 8·4096·2 + 4096·2·2048 = 16,842,752 -> 11,693,785,088
  // + 4·16,777,216·(1 + 151936/2048) = 5,045,747,712 -> 16,739,532,800; / 2 = 8,369,766,400
  CHECK(b.bytes_of("activations") == doctest::Approx(8'369'766'400.0).epsilon(0.01));
}

TEST_CASE("cluster memory: Megatron weights with expert parallelism, Mixtral 8x7B, TP 2, EP 8, PP 4") {
  // Megatron's upstream estimate keeps every expert on each shard (it ignores
  // --expert-model-parallel-size); Megatron itself shards routed experts over EP·ETP and their
  // optimizer states over the expert-data-parallel group. Hand count of that, same formula:
  // world 64 = tp 2 · pp 4 · dp 8; EDP = 64/(ETP 1 · EP 8 · PP 4) = 2.
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(2, 4, 8, 1, 256);
  l.ep = 8;
  l.etp = 1;
  l.edp = 2;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(4096));
  // rank 0 holds 8 layers and the embedding:
  //   non-expert per layer (self_attn + 2h)/tp = (41,943,040 + 8192)/2 = 20,975,616
  //   experts per layer 8·3·4096·14336/(8·1) = 176,160,768; embedding 131,072,000/2 = 65,536,000
  //   non-expert 8·20,975,616 + 65,536,000 = 233,340,928 at 6 + 12/8 = 7.5 B -> 1,750,056,960
  //   experts 8·176,160,768 = 1,409,286,144 at 6 + 12/2 = 12 B -> 16,911,433,728
  //   total 18,661,490,688
  CHECK(state_bytes(b) == doctest::Approx(18'661'490'688.0).epsilon(0.01));
  // activations: 536,870,912·32 + (8·4096 + 4096·4096)·4 = 17,247,240,192 (m = 256/8 = 32 >= 4);
  // / 2 = 8,623,620,096
  CHECK(b.bytes_of("activations") == doctest::Approx(8'623'620'096.0).epsilon(0.01));
}

// ---------------------------------------------------------------------------------------------
// moeplan's own activation count: how it moves, not what it equals.

namespace {
MemoryBreakdown moeplan_memory(const ModelConfig& m, const ParallelLayout& l) {
  MemoryOptions o;
  o.seq_len = 4096;
  return memory_per_gpu(m, count_parameters(m), l, o);
}
}  // namespace

TEST_CASE("cluster memory: moeplan activations grow with the micro-batch and shrink with recompute") {
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(4, 2, 2, 1, 64);
  l.etp = 4;
  const double mb1 = moeplan_memory(m, l).bytes_of("activations");
  l.micro_batch = 2;
  const double mb2 = moeplan_memory(m, l).bytes_of("activations");
  CHECK(mb2 > 1.9 * mb1);
  CHECK(mb2 < 2.1 * mb1);

  l.micro_batch = 1;
  MemoryOptions no_flash;
  no_flash.seq_len = 4096;
  no_flash.flash_attention = false;
  l.recompute = Recompute::none;
  const double none = memory_per_gpu(m, count_parameters(m), l, no_flash).bytes_of("activations");
  l.recompute = Recompute::selective;
  const double selective = memory_per_gpu(m, count_parameters(m), l, no_flash).bytes_of("activations");
  l.recompute = Recompute::full;
  const double full = memory_per_gpu(m, count_parameters(m), l, no_flash).bytes_of("activations");
  CHECK(selective < none);
  CHECK(full < selective);
  // Without flash attention, selective recompute drops exactly 5·a·s²·b/t per layer and
  // in-flight micro-batch: 5·32·4096²/4 · 16 layers · 2 in flight.
  CHECK(none - selective == doctest::Approx(5.0 * 32 * 4096.0 * 4096 / 4 * 16 * 2));
}

TEST_CASE("cluster memory: moeplan activations divide by TP with sequence parallelism") {
  const ModelConfig m = dense(4096, 32, 32, 8, 14336, 128256);
  ParallelLayout l1 = layout(1, 4, 8, 1, 64);
  ParallelLayout l4 = layout(4, 4, 2, 1, 64);
  MemoryOptions o;
  o.seq_len = 4096;
  // Rank 0 (no output head): every stored tensor is token- or width-sharded over TP with SP.
  const double a1 = memory_per_gpu(m, count_parameters(m), l1, o).bytes_of("activations");
  const double a4 = memory_per_gpu(m, count_parameters(m), l4, o).bytes_of("activations");
  CHECK(a4 == doctest::Approx(a1 / 4).epsilon(0.01));
  l4.sequence_parallel = false;
  CHECK(memory_per_gpu(m, count_parameters(m), l4, o).bytes_of("activations") > 1.5 * a4);
}

TEST_CASE("cluster memory: expert parallelism divides the routed experts' weights") {
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(1, 1, 8, 1, 64);
  l.distributed_optimizer = false;
  const double ep1 = moeplan_memory(m, l).bytes_of("weights");
  l.ep = 8;
  const double ep8 = moeplan_memory(m, l).bytes_of("weights");
  const double experts = 32.0 * 8 * 3 * 4096 * 14336;  // all routed expert weights
  CHECK(ep1 - ep8 == doctest::Approx(2 * experts * (1 - 1.0 / 8)));
  CHECK(moeplan_memory(m, l).bytes_of("optimizer") == doctest::Approx(12 * moeplan_memory(m, l).params_on_gpu));
}

TEST_CASE("cluster memory: the distributed optimizer keeps 6 + 12/DP bytes per parameter") {
  const ModelConfig m = dense(4096, 32, 32, 8, 14336, 128256);
  ParallelLayout l = layout(2, 1, 16, 1, 64);
  const MemoryBreakdown b = moeplan_memory(m, l);
  CHECK(state_bytes(b) == doctest::Approx((6 + 12.0 / 16) * b.params_on_gpu));
  l.distributed_optimizer = false;
  const MemoryBreakdown plain = moeplan_memory(m, l);
  CHECK(state_bytes(plain) == doctest::Approx(18 * plain.params_on_gpu));
}

TEST_CASE("cluster memory: the breakdown names its terms and counts the all-to-all of MoE only") {
  const ModelConfig moe = mixtral();
  ParallelLayout l = layout(4, 1, 2, 1, 16);
  l.etp = 4;
  const MemoryBreakdown b = moeplan_memory(moe, l);
  REQUIRE(b.terms.size() == 6);
  const char* names[] = {"weights", "gradients", "optimizer", "activations", "all_to_all", "framework"};
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(b.terms[i].name == names[i]);
    CHECK_FALSE(b.terms[i].detail.empty());
  }
  // On EP 1 the tokens are permuted on the rank: no all-to-all, no send or receive buffers.
  CHECK(b.bytes_of("all_to_all") == 0.0);
  // On EP 2: 2 · K · (s·b/t) · h · 2 bytes · load = 2·2·1024·4096·2 × the default dropless load
  // 1.15 of the busiest of several expert ranks.
  ParallelLayout ep2 = l;
  ep2.ep = 2;
  CHECK(moeplan_memory(moe, ep2).bytes_of("all_to_all") ==
        doctest::Approx(2.0 * 2 * 1024 * 4096 * 2 * k_default_load_imbalance));
  CHECK(b.bytes_of("framework") == doctest::Approx(5.0 * (1ull << 30)));
  CHECK(b.total() > b.bytes_of("weights"));
  CHECK(moeplan_memory(dense(4096, 32, 32, 8, 14336, 128256), l).bytes_of("all_to_all") == 0);
}

TEST_CASE("cluster memory: uneven pipeline stages and the most loaded rank") {
  const ModelConfig m = dense(4096, 30, 32, 8, 14336, 128256);
  ParallelLayout l = layout(1, 4, 1, 1, 64);
  l.first_stage_layers = 6;
  l.last_stage_layers = 6;
  const MemoryBreakdown b = moeplan_memory(m, l);
  // Middle ranks hold (30 - 12)/2 = 9 layers. Rank 0: 6 layers × 4 micro-batches in flight
  // plus the embedding (525M params ≈ 2.4 layers' weights); rank 1: 9 layers × 3 in flight =
  // 27 layer-micro-batches against 24, and 9 layers of weights against 8.4: rank 1 carries
  // the most, not the first rank.
  CHECK(b.stage_layers == 9);
  CHECK(b.in_flight_microbatches == doctest::Approx(3));
  CHECK(b.terms[0].detail.find("rank 1") != std::string::npos);
}

namespace {

// The most chunk forwards a rank holds before their backwards, replaying the order in which
// Megatron-core runs them (megatron/core/pipeline_parallel/schedules.py, get_pp_rank_
// microbatches): `warmup` forwards, then (forward, backward) pairs for the rest, then the
// cool-down backwards; when the warm-up would cover the whole step, it covers all but one.
double replayed_peak(long long total, long long warmup) {
  warmup = std::min(warmup, total);
  long long remaining = total - warmup;
  if (remaining == 0) {
    warmup = total - 1;
    remaining = 1;
  }
  long long held = 0, peak = 0;
  for (long long k = 0; k < warmup; ++k) peak = std::max(peak, ++held);
  for (long long k = 0; k < remaining; ++k) {
    peak = std::max(peak, ++held);  // the steady state's forward comes before its backward
    --held;
  }
  return static_cast<double>(peak);
}

}  // namespace

TEST_CASE("cluster memory: micro-batches in flight on every pipeline rank follow Megatron's schedules") {
  for (const int pp : {2, 4, 8, 16}) {
    for (const int vpp : {1, 2, 3, 4}) {
      for (const long long m : {1LL, 2LL, 8LL, 16LL, 64LL, 512LL}) {
        ParallelLayout l = layout(1, pp, 1, 1, m);
        l.vpp = vpp;
        for (int r = 0; r < pp; ++r) {
          CAPTURE(pp);
          CAPTURE(vpp);
          CAPTURE(m);
          CAPTURE(r);
          if (vpp == 1) {  // 1F1B: pp - r - 1 warm-up forwards of whole micro-batches
            CHECK(microbatches_in_flight(l, r) == replayed_peak(m, pp - r - 1));
          } else {         // interleaved: chunks of 1/vpp of the rank's layers
            const long long warmup = (pp - r - 1) * 2LL + (vpp - 1LL) * pp;
            CHECK(microbatches_in_flight(l, r) == doctest::Approx(replayed_peak(m * vpp, warmup) / vpp));
          }
        }
      }
    }
  }
  // The case: the last of 16 ranks with VPP 3 holds (3 - 1)·16 + 1 = 33 chunks, 11
  // micro-batches' worth of its layers (the old penalty formula gave 1.31).
  ParallelLayout last = layout(1, 16, 1, 1, 256);
  last.vpp = 3;
  CHECK(microbatches_in_flight(last, 15) == doctest::Approx(11.0));
  CHECK(microbatches_in_flight(last, 0) == doctest::Approx(16 * (1 + 15.0 / 48)));  // Megatron's first-stage penalty
}

TEST_CASE("cluster memory: fp8 adds an fp8 copy and transpose of every linear weight and keeps linear inputs in 1 byte") {
  // Llama-3 8B shape, one GPU, one micro-batch, no recompute: per layer the four linear inputs
  // (QKV, out-projection, FFN, down projection) drop from 2 bytes to 1
  const ModelConfig m = dense(4096, 32, 32, 8, 14336, 128256);
  ParallelLayout l = layout(1, 1, 1, 1, 1);
  l.sequence_parallel = false;
  l.recompute = Recompute::none;
  MemoryOptions o;
  o.seq_len = 4096;
  const MemoryBreakdown bf16 = memory_per_gpu(m, count_parameters(m), l, o);
  o.precision = Precision::fp8;
  const MemoryBreakdown fp8 = memory_per_gpu(m, count_parameters(m), l, o);
  const double sb = 4096.0;
  const double per_layer = sb * (4096 + 32 * 128 + 4096 + 14336);  // one byte each saved
  CHECK(bf16.bytes_of("activations") - fp8.bytes_of("activations") == doctest::Approx(32 * per_layer));
  // 2 bytes for each linear layer's weight; the embedding and head (untied, V x d each) and the
  // RMSNorms (2d a layer and the final d) stay bf16 (Transformer Engine casts linear layers only)
  const double bf16_only = 2.0 * 128256 * 4096 + 32.0 * 2 * 4096 + 4096;
  CHECK(fp8.bytes_of("fp8_weights") == doctest::Approx(2 * (fp8.params_on_gpu - bf16_only)));
  CHECK(bf16.bytes_of("fp8_weights") == 0);
  CHECK(fp8.bytes_of("weights") == bf16.bytes_of("weights"));
  CHECK(fp8.total() == doctest::Approx(memory_total_bytes(m, l, o)));
}

TEST_CASE("cluster memory: Megatron's recompute modules drop exactly the tensors they rebuild") {
  // Mixtral 8x7B, TP 4 with SP, PP 2, mb 1: rank 0 holds 16 MoE layers and 2 micro-batches in
  // flight (1F1B warm-up pp - r). Flash attention (default), no routing imbalance.
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(4, 2, 2, 1, 64);
  MemoryOptions o;
  o.seq_len = 4096;
  o.expert_load_factor = 1.0;
  const auto activations = [&](unsigned modules) {
    ParallelLayout x = l;
    x.recompute_modules = modules;
    return memory_per_gpu(m, count_parameters(m), x, o).bytes_of("activations");
  };
  const double core = activations(recompute_core_attn);
  const double s = 4096, h = 4096, t_sp = 4, layers = 16, in_flight = 2;
  // layernorm: the two norms' outputs, 2 bytes each: the QKV input and the router/FFN input.
  CHECK(core - activations(recompute_core_attn | recompute_layernorm) ==
        doctest::Approx(2 * 2 * s * h / t_sp * layers * in_flight));
  // moe_act: the experts' SwiGLU output (their down projection's input), 2 bytes for each of the
  // K·s/t_sp routed rows of width 14336 (ETP 1).
  const double routed = 2 * s / t_sp;
  CHECK(core - activations(recompute_core_attn | recompute_moe_act) ==
        doctest::Approx(2 * routed * 14336 * layers * in_flight));
  // Modules the model has no part for change nothing: no MLA, no dense FFN layer, no shared expert.
  CHECK(activations(recompute_core_attn | recompute_mla_up_proj | recompute_mlp | recompute_shared_experts) ==
        doctest::Approx(core));
  // With flash attention the attention core keeps only its log-sum-exp either way.
  CHECK(activations(recompute_layernorm) == doctest::Approx(activations(recompute_core_attn | recompute_layernorm)));
  // A shared expert's SwiGLU (Qwen1.5-MoE, one of width 5632) is dropped by shared_experts.
  const ModelConfig q = qwen_moe();
  ParallelLayout lq = layout(2, 1, 4, 1, 64);
  const double q_core = memory_per_gpu(q, count_parameters(q), lq, o).bytes_of("activations");
  lq.recompute_modules = recompute_core_attn | recompute_shared_experts;
  const double q_shared = memory_per_gpu(q, count_parameters(q), lq, o).bytes_of("activations");
  // gate and up outputs (2 x 2 bytes) and their product (2 bytes) of width 5632 / TP 2, on s
  // tokens, 24 layers, 1 micro-batch in flight (PP 1).
  CHECK(q_core - q_shared == doctest::Approx((2 * 2 + 2) * 4096.0 * 5632 / 2 * 24));
}

TEST_CASE("cluster memory: MTP modules on the last stage: a MoE layer, eh_proj, their norms, a logits pass, and the embedding") {
  // Qwen1.5-MoE's shape with one MTP module, against the same model with a 25th (MoE) layer:
  // on one pipeline rank the module weighs that layer plus eh_proj (2d x d) and enorm, hnorm
  // and its final norm (3d), bf16 weights and fp32 gradients; its activations are that
  // layer's plus eh_proj's input (2d per token, bf16) and a second cross-entropy's logits
  // (Megatron's 4sbh(1 + V/h)).
  ModelConfig with_mtp = qwen_moe();
  with_mtp.extras.num_nextn_predict_layers = 1;
  const ModelConfig plain = qwen_moe();
  ModelConfig longer = qwen_moe();
  longer.num_hidden_layers = 25;
  ParallelLayout l = layout(1, 1, 1, 1, 8);
  l.sequence_parallel = false;
  l.distributed_optimizer = false;
  const MemoryBreakdown a = moeplan_memory(plain, l), b = moeplan_memory(with_mtp, l), c = moeplan_memory(longer, l);
  const double d = 2048, s = 4096, V = 151936;
  const double module_extra = 2 * d * d + 3 * d;
  CHECK(b.params_on_gpu - a.params_on_gpu == doctest::Approx(c.params_on_gpu - a.params_on_gpu + module_extra));
  CHECK(b.bytes_of("weights") - a.bytes_of("weights") == doctest::Approx(2 * (b.params_on_gpu - a.params_on_gpu)));
  CHECK(b.bytes_of("gradients") - a.bytes_of("gradients") == doctest::Approx(4 * (b.params_on_gpu - a.params_on_gpu)));
  const double logits = s * d * 4 * (1 + V / d);
  CHECK(b.bytes_of("activations") - a.bytes_of("activations") ==
        doctest::Approx(c.bytes_of("activations") - a.bytes_of("activations") + 2.0 * 2 * s * d + logits));
  // With PP > 1 the last stage also builds the embedding the modules read (V x d more), its
  // other layers unchanged.
  ParallelLayout two = layout(1, 2, 1, 1, 8);
  two.sequence_parallel = false;
  two.distributed_optimizer = false;
  two.recompute = Recompute::full;  // the last rank, holding the module, is then the most loaded
  const MemoryBreakdown p2 = moeplan_memory(plain, two), m2 = moeplan_memory(with_mtp, two);
  ModelConfig longer2 = qwen_moe();
  longer2.num_hidden_layers = 25;
  ParallelLayout two25 = two;
  two25.first_stage_layers = 12;
  two25.last_stage_layers = 13;
  const MemoryBreakdown l2 = moeplan_memory(longer2, two25);
  CHECK(m2.params_on_gpu - p2.params_on_gpu == doctest::Approx(l2.params_on_gpu - p2.params_on_gpu + module_extra + V * d));
}

TEST_CASE("cluster memory: an ungated FFN keeps its up projection's output and its activation's") {
  // GELU (GPT-3-like, Korthikanti et al. Sec. 4.1: the GELU's input and the second GEMM's input,
  // 2 bytes each per element at width w): d 4096, w 16384, 4 layers, MHA, TP 2 with SP, PP 1,
  // mb 1, s 2048, bf16. Megatron's mlp recompute drops both: (2 + 2) · s · w / t per layer.
  ModelConfig m = dense(4096, 4, 32, 32, 16384, 32000);
  m.ffn_gated = false;
  MemoryOptions o;
  o.seq_len = 2048;
  const auto activations = [&](const ModelConfig& c, unsigned modules) {
    ParallelLayout x = layout(2, 1, 4, 1, 64);
    x.recompute_modules = modules;
    return memory_per_gpu(c, count_parameters(c), x, o).bytes_of("activations");
  };
  const double s = 2048, w = 16384, t = 2, layers = 4;
  CHECK(activations(m, recompute_core_attn) - activations(m, recompute_core_attn | recompute_mlp) ==
        doctest::Approx((2 + 2) * s * w / t * layers));
  // The same model gated (SwiGLU) keeps gate and up (2 x 2 bytes) and their product (2 bytes).
  ModelConfig g = m;
  g.ffn_gated = true;
  CHECK(activations(g, recompute_core_attn) - activations(g, recompute_core_attn | recompute_mlp) ==
        doctest::Approx((2 * 2 + 2) * s * w / t * layers));
  // Megatron's own estimate (theoretical_memory_usage.py) is written for this FFN: per layer
  // sbh(18 + 4f/h) / t with SP and selective recompute, f = 16384: 34 sbh / t.
  ParallelLayout x = layout(2, 1, 4, 1, 64);
  const double megatron = memory_per_gpu(m, count_parameters(m), x, megatron_options(2048)).bytes_of("activations");
  const double sbh = s * 4096;
  CHECK(megatron == doctest::Approx((layers * sbh * 34 + 8 * s + sbh + sbh * 4 * (1 + 32000 / 4096.0)) / t));
}

TEST_CASE("cluster memory: BLOOM-176B on its published layout against Megatron's theoretical memory, by hand") {
  // bigscience/bloom config.json: h 14336, L 70, a 112 (MHA), GELU FFN 4h = 57344 (ungated),
  // V 250880, tied. Trained on 384 A100 80GB as TP 4, PP 12, DP 8, micro-batch 2, s 2048
  // (BLOOM paper Sec. 3.4.2). PP 12 over 70 layers: the first stage takes 6 (here given).
  ModelConfig m = dense(14336, 70, 112, 112, 57344, 250880);
  m.ffn_gated = false;
  m.tie_word_embeddings = true;
  ParallelLayout l = layout(4, 12, 8, 2, 1024);
  l.first_stage_layers = 6;
  l.last_stage_layers = 4;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, megatron_options(2048));
  // Megatron (gated_linear_multiplier 1 without --swiglu): a layer is 2h²(1 + 1) + 2hf + 2h
  // = 822,083,584 + 1,644,167,168 + 28,672 = 2,466,279,424; rank 0: 6 layers + the embedding
  // 250880·14336 = 3,596,615,680 -> 18,394,292,224 / TP 4 = 4,598,573,056 parameters, at
  // 6 + 12/DP = 7.5 bytes (distributed optimizer): 34,489,297,920 bytes.
  CHECK(state_bytes(b) == doctest::Approx(34'489'297'920.0).epsilon(0.001));
  // Activations (SP, selective): per layer sbh(18 + 4f/h) = 58,720,256 · 34 = 1,996,488,704;
  // 6 layers + 8sb + sbh = 12,037,685,248 per micro-batch, 12 in flight on rank 0 (1F1B warm-up)
  // -> 144,452,222,976, / TP 4 = 36,113,055,744.
  CHECK(b.bytes_of("activations") == doctest::Approx(36'113'055'744.0).epsilon(0.001));
}

TEST_CASE("cluster memory: DualPipe holds stages r and PP-1-r and PP+1 micro-batches of activations") {
  // d 1024, L 8, 8 heads (MHA), SwiGLU 4096, V 32000 untied; PP 4, DP 2: ranks 0 and 3 hold
  // 2 layers each. A layer: 4d² + 3·d·4096 + 2d (norms) = 16,779,264. DualPipe's rank 0 holds
  // stages 0 and 3: 4 layers, the embedding and the head (2 · 32,768,000) and the final norm:
  // 132,654,080 parameters, 2 bytes each in bf16.
  const ModelConfig m = dense(1024, 8, 8, 8, 4096, 32000);
  ParallelLayout l = layout(1, 4, 2, 1, 64);
  l.sequence_parallel = false;
  MemoryOptions o;
  o.seq_len = 2048;
  l.dualpipe = true;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, o);
  CHECK(b.bytes_of("weights") == doctest::Approx(2.0 * 132'654'080).epsilon(1e-4));
  CHECK(b.in_flight_microbatches == doctest::Approx(5.0));  // PP + 1, of 32 micro-batches
  // Against 1F1B: rank 0 keeps 4 micro-batches of its 2 layers.
  l.dualpipe = false;
  const MemoryBreakdown one = memory_per_gpu(m, count_parameters(m), l, o);
  CHECK(one.in_flight_microbatches == doctest::Approx(4.0));
  CHECK(b.bytes_of("activations") > one.bytes_of("activations"));
  // dualpipe.py (deepseek-ai/DualPipe @030ce432): with half rank h = min(r, PP-1-r), warm-up
  // steps 1 and 2 together run 2(PP/2 - h - 1) + h + 1 forwards of stage h and h + 1 of stage
  // PP-1-h, and the main step's first forward of stage h comes before the backward that frees
  // one of stage PP-1-h: PP - h and h + 1 at the peak. Rank 0 keeps 4 micro-batches of stage 0
  // and 1 of stage 3 (whose head keeps its logits once either way); a stage's layers are alike,
  // so rank 0's activations are 4 · (2 layers + token ids) + 1 · 2 layers + logits, against
  // 1F1B's rank 0, 4 · (2 layers + token ids).
  // One layer of this model keeps (bytes per token, bf16, flash, selective core_attn):
  // norm inputs and outputs 4 · 2d, q k v 2 · 3d, attention output 2d, log-sum-exp 4 · 8,
  // SwiGLU gate and up 2 · 2 · 4096 and output 2 · 4096.
  const double s = 2048, d = 1024;
  const double layer = s * (8 * d + 6 * d + 2 * d + 32 + 6 * 4096.0);
  const double logits = 4 * s * d * (1 + 32000 / d);
  CHECK(one.bytes_of("activations") == doctest::Approx(4 * (2 * layer + 8 * s)));
  CHECK(b.bytes_of("activations") == doctest::Approx(4 * (2 * layer + 8 * s) + 2 * layer + logits));
  const auto detail = [](const MemoryBreakdown& x, const std::string& name) {
    const auto it = std::find_if(x.terms.begin(), x.terms.end(), [&](const MemoryTerm& t) { return t.name == name; });
    return it == x.terms.end() ? std::string() : it->detail;
  };
  CHECK(detail(b, "activations").find("4 micro-batches of stage 0 (2 layer(s)) and 1 of stage 3") != std::string::npos);
}

TEST_CASE("cluster memory: under DualPipe a tied head is rank 0's embedding, held once") {
  // The model of the DualPipe test above with its head tied: rank 0 holds stages 0 and 3, the
  // embedding and the head being one tensor there ("the physical sharing of parameters and
  // gradients, of the shared embedding and output head", DeepSeek-V3 report Sec. 3.2.3):
  // 132,654,080 - 32,768,000 = 99,886,080 parameters, 2 bytes each in bf16. On 1F1B the last
  // stage keeps its own copy of the tied table (Megatron), so its rank holds it too.
  ModelConfig m = dense(1024, 8, 8, 8, 4096, 32000);
  m.tie_word_embeddings = true;
  ParallelLayout l = layout(1, 4, 2, 1, 64);
  l.sequence_parallel = false;
  MemoryOptions o;
  o.seq_len = 2048;
  l.dualpipe = true;
  const MemoryBreakdown b = memory_per_gpu(m, count_parameters(m), l, o);
  CHECK(b.bytes_of("weights") == doctest::Approx(2.0 * 99'886'080).epsilon(1e-4));
}

TEST_CASE("cluster memory: a learned position table sits on the first stage, not split over TP") {
  // SantaCoder's shape (gpt_bigcode: d 2048, 24 layers, 16 heads, one kv head, GELU 8192,
  // V 49280, tied) with its wpe of 2048 x 2048. Megatron-LM's LanguageModelEmbedding builds the
  // position table as a plain torch.nn.Embedding ("Position embedding (serial)"): each TP rank
  // holds all of it. With TP 2 (PP 1) a rank holds 2048 x 2048 more bf16 weights than the same
  // model with RoPE (half of it were the table split like the vocabulary).
  ModelConfig rope = dense(2048, 24, 16, 1, 8192, 49280);
  rope.ffn_gated = false;
  rope.tie_word_embeddings = true;
  ModelConfig learned = rope;
  learned.position_embedding = PositionEmbedding::learned_absolute;
  learned.max_position_embeddings = 2048;
  const ParallelLayout l = layout(2, 1, 4, 1, 8);
  const MemoryOptions o = megatron_options(2048);
  const auto weights = [&](const ModelConfig& m) {
    return memory_per_gpu(m, count_parameters(m), l, o).bytes_of("weights");
  };
  CHECK(weights(learned) - weights(rope) == doctest::Approx(2.0 * 2048 * 2048));
}

TEST_CASE("cluster memory: a MoE layer keeps no expert outputs for the combine (Megatron-Core applies the probs in the activation)") {
  // Mixtral 8x7B on one GPU (TP 1 without SP, PP 1, mb 1, S 4096, bf16, flash, no recompute,
  // no routing imbalance). Per token and layer, in bytes (moeplan's count, memory_model.cpp):
  // the two RMSNorm inputs and their outputs (the QKV input, the router/FFN input) 4 · 2h;
  // q, k, v 2 · (4096 + 1024 + 1024); the attention output 2 · 4096; log-sum-exp 4 · 32; router
  // logits and probabilities 4 · 2 · 8; K = 2 dispatched copies of the token 2 · 2h; per copy
  // the SwiGLU's gate and up outputs 2 · 2 · 14336 and its output 2 · 14336: 2 · 6 · 14336.
  // Together 241,856 B. Nothing for the experts' outputs: TEGroupedMLP multiplies the routing
  // probabilities in inside the activation (weighted_bias_swiglu_impl) and the dispatchers'
  // unpermute gets no probs (Megatron-Core 0.20 experts.py, token_dispatcher.py), so the
  // combine is a scatter that keeps nothing; the old count added 2 · 2h = 16,384 B.
  // Plus the token ids 8 B per token and the head's input and logits 4sh(1 + V/h) once.
  const ModelConfig m = mixtral();
  ParallelLayout l = layout(1, 1, 1, 1, 8);
  l.sequence_parallel = false;
  l.recompute = Recompute::none;
  MemoryOptions o;
  o.seq_len = 4096;
  o.expert_load_factor = 1.0;
  const double s = 4096, h = 4096;
  const double expected = 241'856.0 * s * 32 + 8 * s + 4 * s * h * (1 + 32000 / h);
  CHECK(memory_per_gpu(m, count_parameters(m), l, o).bytes_of("activations") == doctest::Approx(expected));
  CHECK(expected == doctest::Approx(32'291'979'264.0));
}

TEST_CASE("cluster memory: DualPipe's first rank holds one embedding for the model and its MTP modules") {
  // DeepSeek-V3 report Sec. 3.2.3: the shallowest layers (with the embedding) and the deepest
  // (with the head and MTP) on one PP rank, "physical sharing of parameters and gradients, of
  // the shared embedding and output head, between the MTP module and the main model". Without
  // DualPipe the last stage builds its own copy of the embedding for the MTP modules (V·d);
  // under DualPipe rank 0 holds stages 0 and PP-1 and that copy is the embedding itself.
  ModelConfig m = qwen_moe();
  m.extras.num_nextn_predict_layers = 1;
  ParallelLayout l = layout(1, 4, 2, 1, 64);
  l.sequence_parallel = false;
  l.distributed_optimizer = false;
  MemoryOptions o;
  o.seq_len = 2048;
  const auto params_of_rank0 = [&](bool dualpipe, const ModelConfig& x) {
    ParallelLayout y = l;
    y.dualpipe = dualpipe;
    return memory_per_gpu(x, count_parameters(x), y, o).params_on_gpu;
  };
  const ModelConfig plain = qwen_moe();
  const double V = 151936, d = 2048;
  // Without DualPipe the MTP model's busiest rank is the last (its layers, the module, head
  // and the embedding copy); with it rank 0 (stages 0 and 3) carries the module and no copy:
  // the MTP model's rank 0 exceeds the plain model's by the module alone.
  const double module_only = params_of_rank0(true, m) - params_of_rank0(true, plain);
  ModelConfig longer = qwen_moe();
  longer.num_hidden_layers = 25;
  ParallelLayout y = l;
  y.pp = 1;
  y.dualpipe = false;
  const double layer = memory_per_gpu(longer, count_parameters(longer), y, o).params_on_gpu -
                       memory_per_gpu(plain, count_parameters(plain), y, o).params_on_gpu;
  CHECK(module_only == doctest::Approx(layer + 2 * d * d + 3 * d));
  // Without DualPipe the last rank holds the module and the embedding copy (V·d more).
  const auto params_of_last = [&](const ModelConfig& x) {
    ParallelLayout z = l;
    z.recompute = Recompute::full;  // the last rank, holding the module, is then the most loaded
    return memory_per_gpu(x, count_parameters(x), z, o).params_on_gpu;
  };
  CHECK(params_of_last(m) - params_of_last(plain) == doctest::Approx(layer + 2 * d * d + 3 * d + V * d));
}

TEST_CASE("cluster memory: gated attention keeps its gate and the attention output, a post-block norm its input") {
  // Llama-3-8B-like (d 4096, 32 heads of 128) on PP 4 (8 layers a stage, 1F1B: 4 micro-batches
  // in flight on rank 0), TP 1, micro-batch 1 of 4096 tokens. Per layer and micro-batch:
  //   gated attention: the bf16 gate of N_q x 128 and the bf16 attention output the compiled
  //     gate's backward keeps (2 + 2) x 4096 x 4096 bytes;
  //   a norm after each block: its bf16 input, two a layer, 2 x 2 x 4096 x 4096 bytes.
  const ModelConfig plain = dense(4096, 32, 32, 8, 14336, 128256);
  const ParallelLayout l = layout(1, 4, 8, 1, 64);
  const double base = moeplan_memory(plain, l).bytes_of("activations");
  ModelConfig gated = plain;
  gated.gated_attention = true;
  const double in_flight_layers = 8.0 * 4;
  CHECK(moeplan_memory(gated, l).bytes_of("activations") ==
        doctest::Approx(base + in_flight_layers * 4.0 * 4096 * 4096));
  ModelConfig sandwich = plain;
  sandwich.extras.post_block_norms = true;
  CHECK(moeplan_memory(sandwich, l).bytes_of("activations") ==
        doctest::Approx(base + in_flight_layers * 4.0 * 4096 * 4096));
}
