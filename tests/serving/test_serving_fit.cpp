// The serving fit, hand-checked on three public models (issue 35): a GQA MoE (Qwen3-30B-A3B),
// an MLA MoE (DeepSeek-V3.1) and a linear-attention hybrid (Qwen3-Next-80B-A3B), each at two
// contexts. The expected bytes are worked out here from the config.json numbers with the
// per-kind formula cited beside each, not read back from moeplan.
#include <doctest/doctest.h>
#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>

#include "moeplan/base/units.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace moeplan;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

ModelConfig model(const std::string& file) {
  auto m = load_model_config(k_hf + file);
  REQUIRE(m.has_value());
  return *m;
}

ServingOptions on(const char* gpu, int gpus, std::int64_t context) {
  ServingOptions o;
  o.gpu = *embedded_gpu_catalog().find(gpu);
  o.gpus = gpus;
  o.context = context;
  return o;
}

ServingFit fit_of(const ModelConfig& m, const ServingOptions& o) {
  auto f = serving_fit(m, o);
  REQUIRE(f.has_value());
  return *f;
}

}  // namespace

TEST_CASE("GQA cache: Qwen3-30B-A3B, 2 N_kv d_qkv per token and layer, at 4096 and 32768 tokens") {
  // GQA (Ainslie et al., arXiv:2305.13245): K and V of N_kv heads per token and layer.
  // config.json: 48 layers, num_key_value_heads 4, head_dim 128; bf16, 2 bytes.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const double per_token = 48.0 * 2 * 4 * 128 * 2;  // 98,304 bytes = 96 KiB
  for (const std::int64_t context : {4096, 32768}) {
    CAPTURE(context);
    const ServingFit one = fit_of(m, on("h100", 1, context));
    CHECK(one.cache_bytes_per_token == doctest::Approx(per_token));
    CHECK(one.cache_bytes_per_sequence == doctest::Approx(per_token * double(context)));
    CHECK(one.cache_bytes_per_sequence_per_gpu == doctest::Approx(per_token * double(context)));
    // Eight GPUs: TP 8 over 4 kv heads, each rank keeps one head (a copy), 1/4 of the cache.
    const ServingFit eight = fit_of(m, on("h100", 8, context));
    CHECK(eight.cache_bytes_per_sequence_per_gpu == doctest::Approx(48.0 * 2 * 1 * 128 * 2 * double(context)));
  }
  // fp8 cache: one byte an element.
  ServingOptions fp8 = on("h100", 1, 32768);
  fp8.kv = ServePrecision::fp8;
  CHECK(fit_of(m, fp8).cache_bytes_per_sequence == doctest::Approx(48.0 * 2 * 4 * 128 * 32768));
}

TEST_CASE("MLA cache: DeepSeek-V3.1, kv_lora_rank + qk_rope_head_dim per token and layer, at 32768 and 131072") {
  // MLA (DeepSeek-V2, arXiv:2405.04434, Sec. 2.1.2, Table 1): (d_c + d_h^R) per token and
  // layer: 512 + 64 for DeepSeek-V3; 61 layers; bf16. Kept whole on every TP rank.
  const ModelConfig m = model("deepseek-v3.1.json");
  const double per_token = 61.0 * (512 + 64) * 2;  // 70,272 bytes
  for (const std::int64_t context : {32768, 131072}) {
    CAPTURE(context);
    ServingOptions o = on("h200", 8, context);
    o.weights = ServePrecision::fp8;
    const ServingFit f = fit_of(m, o);
    CHECK(f.cache_bytes_per_token == doctest::Approx(per_token));
    CHECK(f.cache_bytes_per_sequence == doctest::Approx(per_token * double(context)));
    CHECK(f.cache_bytes_per_sequence_per_gpu == doctest::Approx(per_token * double(context)));
    CHECK(f.cache_kind == "MLA");
  }
  // The MTP module, served, adds one layer's latent per token.
  ServingOptions mtp = on("h200", 8, 32768);
  mtp.weights = ServePrecision::fp8;
  mtp.count_mtp = true;
  CHECK(fit_of(m, mtp).cache_bytes_per_token == doctest::Approx(62.0 * (512 + 64) * 2));
}

TEST_CASE("Hybrid cache: Qwen3-Next-80B-A3B, 12 GQA layers per token and 36 gated DeltaNet states per sequence") {
  // full_attention_interval 4 of 48 layers: 12 GQA layers of 2 kv heads of 256 (2 N_kv d_qkv
  // per token and layer), bf16.
  // 36 gated DeltaNet layers: vLLM's gated_delta_net_state_shape: a conv cache of
  // (kernel - 1) x (2 nk dk + nv dv) = 3 x (2 16 128 + 32 128) = 24,576 elements and a state of
  // nv x dv x dk = 32 x 128 x 128 = 524,288 elements, bf16: 1,097,728 bytes a layer.
  const ModelConfig m = model("qwen3-next-80b-a3b.json");
  const double per_token = 12.0 * 2 * 2 * 256 * 2;         // 24,576 bytes
  const double state = 36.0 * (3.0 * 8192 + 524288) * 2;  // 39,518,208 bytes
  for (const std::int64_t context : {4096, 32768}) {
    CAPTURE(context);
    const ServingFit f = fit_of(m, on("h100", 1, context));
    CHECK(f.cache_bytes_per_token == doctest::Approx(per_token));
    CHECK(f.cache_fixed_bytes == doctest::Approx(state));
    CHECK(f.cache_bytes_per_sequence == doctest::Approx(per_token * double(context) + state));
  }
  // Mamba (Jamba v0.1): vLLM mamba1_state_shape, conv (d_conv - 1) x I and ssm I x d_state, I =
  // 2 x 4096: 28 Mamba layers x (3 x 8192 + 8192 x 16) x 2 bytes per sequence; 4 GQA layers of
  // 8 kv heads of 128 per token.
  const ModelConfig jamba = model("jamba-v0.1.json");
  const ServingFit j = fit_of(jamba, on("h100", 2, 8192));
  CHECK(j.cache_fixed_bytes == doctest::Approx(28.0 * (3 * 8192 + 8192 * 16) * 2));
  CHECK(j.cache_bytes_per_token == doctest::Approx(4.0 * 2 * 8 * 128 * 2));
}

TEST_CASE("Weights per GPU and the largest batch: DeepSeek-V3.1 on 8 H200 fits in fp8, not in bf16") {
  const ModelConfig m = model("deepseek-v3.1.json");
  ServingOptions o = on("h200", 8, 32768);
  const ServingFit bf16 = fit_of(m, o);
  CHECK_FALSE(bf16.fits);
  CHECK(bf16.why_not.find("weights") != std::string::npos);
  CHECK_FALSE(bf16.decode.has_value());
  // 671B parameters in bf16 are 1.34 TB, over 8 x 141 GB x 0.9.
  CHECK(bf16.weight_bytes > 0.9 * 8 * 141e9);
  o.weights = ServePrecision::fp8;
  const ServingFit fp8 = fit_of(m, o);
  REQUIRE(fp8.fits);
  // Linear layers in one byte, embeddings and the rest in two: 671B + (2 x 0.93B embedding) ~ 0.68 TB.
  CHECK(fp8.weight_bytes == doctest::Approx(671e9).epsilon(0.03));
  // vLLM's profile run (T = 8192, R = 1024, V = 129280, d = 7168): the sampler, T d x 2 +
  // R V x 38 = 5,147,983,872 bytes, is larger than the forward pass (residual 234,881,024 and the
  // MoE layer's 1,095,499,776).
  CHECK(fp8.activation_peak_per_gpu == doctest::Approx(8192.0 * 7168 * 2 + 1024.0 * 129280 * 38));
  CHECK(fp8.forward_peak_per_gpu == doctest::Approx(234881024.0 + 1095499776.0));
  // 0.9 of the H200's 143,771 MiB as the driver reports it (gpus.toml hbm_driver_mib), minus the
  // weights, the activation peak and 0.2 GiB of non-torch memory.
  const double budget =
      0.9 * 143771.0 * 1024 * 1024 - fp8.weight_bytes_per_gpu - fp8.activation_peak_per_gpu - 0.2 * k_gib;
  CHECK(fp8.cache_budget_per_gpu == doctest::Approx(budget));
  // MLA, whole on each rank: 61 x 576 x 2 = 70,272 bytes a token; blocks of 16 tokens, 2,048 a
  // sequence of 32,768.
  const double blocks = std::floor(budget / (16 * 70272.0));
  CHECK(fp8.max_batch == static_cast<std::int64_t>(std::floor(blocks / 2048)));
  // A batch of one more would not fit.
  CHECK(double(fp8.max_batch + 1) * fp8.cache_bytes_per_sequence_per_gpu > budget);
}

TEST_CASE("Decode bound: batch 1 reads K experts per MoE layer and is memory bound, a larger batch reads more") {
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const ServingOptions o = on("h100", 1, 4096);
  const ServingFit f = fit_of(m, o);
  REQUIRE(f.fits);
  const DecodeStep one = decode_step(m, o, f, 1);
  // N_e (1 - (1 - K/N_e)^1) = K: a single token touches its K experts.
  CHECK(one.experts_touched == doctest::Approx(8.0));
  CHECK(one.memory_bound());
  // At batch 1 the step reads the weights one token uses, in bf16: per layer attention
  // (q 2048x4096, k and v 2048x512, o 4096x2048: 18,874,368) and K = 8 experts of 3 x 2048 x 768
  // (4,718,592 each), 48 layers, and the output head 151,936 x 2048; routers and norms (beside
  // N, under 1 %) are read too.
  const double active = 48.0 * (18874368.0 + 8 * 4718592.0) + 151936.0 * 2048;
  CHECK(one.weight_bytes == doctest::Approx(2 * active).epsilon(0.01));
  CHECK(one.weight_bytes > 2 * active);
  const DecodeStep many = decode_step(m, o, f, 256);
  CHECK(many.experts_touched == doctest::Approx(128 * (1 - std::pow(1 - 8.0 / 128, 256))));
  CHECK(many.weight_bytes > one.weight_bytes);
  CHECK(many.tokens_per_second() > one.tokens_per_second());
  // The memory term is the bytes over 0.85 of the datasheet's 3.35 TB/s.
  CHECK(one.memory_seconds == doctest::Approx((one.weight_bytes + one.cache_bytes) / (3.35e12 * 0.85)));
}

TEST_CASE("Serving options a GPU cannot take are usage problems") {
  ServingOptions o = on("a100", 8, 4096);
  o.weights = ServePrecision::fp8;  // vLLM: weight-only (Marlin); SGLang's path there is not modelled
  CHECK_FALSE(serving_problem(o).has_value());
  o.engine = ServeEngine::sglang;
  REQUIRE(serving_problem(o).has_value());
  CHECK(serving_problem(o)->find("fp8") != std::string::npos);
  o.engine = ServeEngine::vllm;
  o.weights = ServePrecision::fp4;  // weight-only: any GPU
  CHECK_FALSE(serving_problem(o).has_value());
  o.kv = ServePrecision::fp8;  // an fp8 cache is storage: the engines keep one on an A100 (below)
  CHECK_FALSE(serving_problem(o).has_value());
  ServingOptions nodes = on("h100", 12, 4096);  // one and a half nodes
  CHECK(serving_problem(nodes).has_value());
  nodes.gpus = 16;
  CHECK_FALSE(serving_problem(nodes).has_value());
}

TEST_CASE("Two nodes are two pipeline stages: the weights per GPU halve, the cache per GPU too") {
  const ModelConfig m = model("qwen3-235b-a22b.json");
  const ServingFit one = fit_of(m, on("h100", 8, 32768));
  const ServingFit two = fit_of(m, on("h100", 16, 32768));
  CHECK(two.split.stages == 2);
  CHECK(two.split.tp == 8);
  CHECK(two.weight_bytes_per_gpu < 0.6 * one.weight_bytes_per_gpu);
  CHECK(two.cache_bytes_per_sequence_per_gpu < 0.6 * one.cache_bytes_per_sequence_per_gpu);
}

TEST_CASE("Sliding windows cap the cache: gpt-oss-120b, 18 full and 18 windowed layers of 128 positions") {
  // layer_types (GptOssConfig's default when absent): even layers sliding_attention, window 128.
  // 8 kv heads of 64: 2 x 8 x 64 x 2 = 2048 bytes per token and layer.
  const ModelConfig m = model("gpt-oss-120b.json");
  const ServingFit f = fit_of(m, on("h100", 8, 32768));
  CHECK(f.cache_bytes_per_token == doctest::Approx(18.0 * 2048));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(18.0 * 2048 * 32768 + 18.0 * 2048 * 128));
}

TEST_CASE("DSA's indexer keeps an fp8 key and an fp32 scale per token and layer beside the latent") {
  // DeepSeek-V3.2: 61 layers x ((512 + 64) x 2 bytes + index_head_dim 128 x 1 byte + 4).
  const ModelConfig m = model("deepseek-v3.2.json");
  ServingOptions o = on("h200", 8, 32768);
  o.weights = ServePrecision::fp8;
  CHECK(fit_of(m, o).cache_bytes_per_token == doctest::Approx(61.0 * (576 * 2 + 128 + 4)));
}

TEST_CASE("TP is the widest that splits the heads: the rest of the node are data-parallel attention groups") {
  // Qwen3-235B: 64 query heads, 4 kv heads. On 6 GPUs TP 2 (6 and 3 do not divide 64), 3 groups.
  const ModelConfig q = model("qwen3-235b-a22b.json");
  const ServingFit six = fit_of(q, on("h200", 6, 8192));
  REQUIRE(six.fits);
  CHECK(six.split.tp == 2);
  CHECK(six.split.dp == 3);
  CHECK(six.split.ep == 6);
  // Each group holds its own sequences: B_max is 3 times what one GPU's budget holds.
  CHECK(six.max_batch % 3 == 0);
  CHECK(six.max_batch == 3 * static_cast<std::int64_t>(six.cache_budget_per_gpu / six.cache_bytes_per_sequence_per_gpu));
  // DeepSeek-V3.1 (128 heads) on a 72-GPU GB200 NVLink domain: TP 8, 9 groups.
  const ModelConfig ds = model("deepseek-v3.1.json");
  const ServingFit nvl = fit_of(ds, on("gb200", 72, 8192));
  CHECK(nvl.split.tp == 8);
  CHECK(nvl.split.dp == 9);
}

TEST_CASE("Pipeline stages go round in micro-batches: a round is the stages times the slowest stage's step") {
  const ModelConfig m = model("qwen3-235b-a22b.json");
  const ServingOptions o = on("h100", 16, 8192);
  const ServingFit f = fit_of(m, o);
  REQUIRE(f.split.stages == 2);
  const DecodeStep d = decode_step(m, o, f, 64);
  CHECK(d.micro_batch == 32);
  CHECK(d.stages == 2);
  CHECK(d.seconds() == doctest::Approx(2 * std::max(d.memory_seconds, d.compute_seconds)));
  CHECK(d.tokens_per_second() == doctest::Approx(64 / d.seconds()));
}

// Issue 50: the engines' memory plan, one term at a time, each figure worked out here from the
// config.json numbers and the engine's code cited in src/serving/serving_fit.cpp.
TEST_CASE("engine defaults: vLLM's fraction and batched tokens and sequences - SGLang's fraction by TP") {
  const GpuCatalog& cat = embedded_gpu_catalog();
  // vllm/engine/arg_utils.py (v0.10.x): >= 70 GiB and not an A100: 8192 tokens, 1024 sequences.
  CHECK(vllm_default_batched_tokens(*cat.find("h100")) == 8192);
  CHECK(vllm_default_max_seqs(*cat.find("h200")) == 1024);
  CHECK(vllm_default_batched_tokens(*cat.find("a100-80gb")) == 2048);
  CHECK(vllm_default_max_seqs(*cat.find("a100-80gb")) == 256);
  CHECK(vllm_default_batched_tokens(*cat.find("a100-40gb")) == 2048);
  // sglang/srt/server_args.py (v0.4.x): 0.88, 0.87, 0.85, 0.81, 0.79.
  CHECK(sglang_default_mem_fraction(1) == 0.88);
  CHECK(sglang_default_mem_fraction(2) == 0.87);
  CHECK(sglang_default_mem_fraction(4) == 0.85);
  CHECK(sglang_default_mem_fraction(8) == 0.81);
  CHECK(sglang_default_mem_fraction(16) == 0.79);
  const ModelConfig m = model("qwen3-30b-a3b.json");
  CHECK(fit_of(m, on("h100", 8, 4096)).memory_fraction == 0.9);
  ServingOptions sg = on("h100", 4, 4096);
  sg.engine = ServeEngine::sglang;
  CHECK(fit_of(m, sg).memory_fraction == 0.85);
}

// Review of issue 50, finding 3: SGLang picks its default fraction from its own tp_size
// (server_args.py v0.4.x: tp >= 16 0.79, >= 8 0.81, >= 4 0.85, >= 2 0.87, else 0.88), not the GPUs.
TEST_CASE("SGLang's default fraction follows its tp_size: a replica's --tp under plain --dp, TP x DP under DP attention") {
  const ModelConfig llama = model("llama-3.1-8b.json");
  // `--tp 2 --dp 4` (no --enable-dp-attention): 4 replicas of TP 2 on 8 GPUs, tp_size 2: 0.87.
  ServingOptions plain = on("h100", 8, 32768);
  plain.engine = ServeEngine::sglang;
  plain.engine_tp = 2;
  plain.engine_pp = 1;
  const ServingFit p = fit_of(llama, plain);
  CHECK(p.split.tp == 2);
  CHECK(p.split.dp == 4);
  CHECK(p.memory_fraction == 0.87);
  CHECK(p.split.ep == 1);  // a dense model: no routed experts to spread
  // `--tp 8 --dp 4 --enable-dp-attention`: attention TP 2 in 4 groups, tp_size 8: 0.81.
  ServingOptions dpa = plain;
  dpa.dp_attention = true;
  CHECK(fit_of(llama, dpa).memory_fraction == 0.81);
  // Plain replicas keep their own experts: Qwen3-30B-A3B's 128 experts split over a replica's TP 2,
  // so half an expert's weights of each on a GPU (64 of 128 experts' worth), not 1/8.
  const ModelConfig q = model("qwen3-30b-a3b.json");
  ServingOptions qp = plain;
  qp.context = 4096;
  const ServingFit qf = fit_of(q, qp);
  CHECK(qf.split.ep == 2);
  qp.dp_attention = true;
  CHECK(fit_of(q, qp).split.ep == 8);
}

// Review of issue 50, finding 4: SGLang v0.4 (before v0.4.7, sgl-project/sglang PR #5724) has no
// --pp-size; two nodes are `--tp 16 --nnodes 2`. Asked as --serve-gpus 16 or through its command
// line, one answer.
TEST_CASE("SGLang on two nodes is TP 16 across them, not two pipeline stages, whichever way it is asked") {
  const ModelConfig m = model("kimi-k2.json");
  ServingOptions flags = on("h200", 16, 131072);
  flags.engine = ServeEngine::sglang;
  flags.weights = ServePrecision::fp8;
  const ServingFit a = fit_of(m, flags);
  CHECK(a.split.stages == 1);
  CHECK(a.split.tp == 16);  // 64 query heads split by 16; MLA has no kv heads to check
  CHECK(a.split.ep == 16);
  CHECK(a.memory_fraction == 0.79);  // tp_size 16
  ServingOptions file = flags;
  file.engine_tp = 16;
  file.engine_pp = 1;
  const ServingFit b = fit_of(m, file);
  CHECK(b.split.tp == 16);
  CHECK(b.kv_cache_tokens == a.kv_cache_tokens);
  CHECK(b.weight_bytes_per_gpu == doctest::Approx(a.weight_bytes_per_gpu));
  // --serve-dp-attention: TP 1 attention on all 16 GPUs, the experts over the 16 (dp 16, EP 16).
  ServingOptions dpa = flags;
  dpa.dp_attention = true;
  const ServingFit c = fit_of(m, dpa);
  CHECK(c.split.tp == 1);
  CHECK(c.split.dp == 16);
  CHECK(c.split.ep == 16);
  CHECK(c.split.stages == 1);
  // vLLM keeps whole nodes as pipeline stages.
  ServingOptions v = flags;
  v.engine = ServeEngine::vllm;
  CHECK(fit_of(m, v).split.stages == 2);
}

TEST_CASE("vLLM's profile run: the sampler's sort of R x V logits and the forward pass's largest layer") {
  // Qwen3-30B-A3B on one H100: T = 8192 tokens, R = min(1024, 8192) requests, V = 151936, d = 2048.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const ServingFit f = fit_of(m, on("h100", 1, 4096));
  // Sampler: hidden states T d x 2 bytes + R V x 38 bytes (bf16 2, fp32 4, sorted values and
  // int64 indices 12, torch's int64 reverse_indices 8, cub's alternate key and value buffers 12:
  // R >= 128 rows take torch's segmented_sort_pairs).
  const double sampler = 8192.0 * 2048 * 2 + 1024.0 * 151936 * 38;  // 5,945,884,672
  CHECK(f.sampler_peak_per_gpu == doctest::Approx(sampler));
  // Forward: residual stream 2 T d x 2 = 67,108,864; the MoE layer's intermediates: 65,536 rows
  // (T K) x 2 bytes x (max(2 x 768, 2048) + 768) = 369,098,752, routing T (N_e x 2 + K x 12) =
  // 2,883,584, the output T d x 2 = 33,554,432 (attention's 150,994,944 is smaller).
  const double forward = 67108864.0 + 369098752.0 + 2883584.0 + 33554432.0;  // 472,645,632
  CHECK(f.forward_peak_per_gpu == doctest::Approx(forward));
  CHECK(f.activation_peak_per_gpu == doctest::Approx(sampler));
  // One sequence: the sampler is small (39,328,000 bytes: one row takes torch's large-segment
  // sort, 18 bytes a logit and 20 a vocabulary entry), the forward pass decides.
  ServingOptions one = on("h100", 1, 4096);
  one.max_seqs = 1;
  const ServingFit g = fit_of(m, one);
  CHECK(g.sampler_peak_per_gpu == doctest::Approx(8192.0 * 2048 * 2 + 151936.0 * 38));
  // 64 sequences (2 to 127 rows): torch sorts them as one array (segmented_sort_pairs_by_full_sort),
  // 50 bytes a logit: 12 out, two int2 index arrays 16, cub's keys out 4 and alternates 12, and 6 in.
  ServingOptions few = one;
  few.max_seqs = 64;
  CHECK(fit_of(m, few).sampler_peak_per_gpu == doctest::Approx(8192.0 * 2048 * 2 + 64.0 * 151936 * 50));
  CHECK(g.activation_peak_per_gpu == doctest::Approx(forward));
  // Fewer batched tokens: every term of the forward pass scales with T (1024: an eighth).
  ServingOptions small = one;
  small.max_batched_tokens = 1024;
  CHECK(fit_of(m, small).forward_peak_per_gpu == doctest::Approx(forward / 8));
}

TEST_CASE("vLLM's profile run under DP: the MoE layers see every rank's tokens (naive dispatch)") {
  // Qwen3-30B-A3B (d 2048, I 768, N_e 128, K 8) on 4 H100 as `vllm serve -dp 4
  // --enable-expert-parallel`: T = 8192 on each rank, one sequence (the sampler small). vLLM v0.10's
  // FusedMoE gathers the 4 ranks' tokens before the experts (NaiveAll2AllManager.naive_multicast):
  // 32,768 rows. Residual 2 T d x 2 = 67,108,864; the MoE layer: min(32,768, 16,384) x K = 131,072
  // rows x 2 x (max(2 x 768, 2048) + 768) = 738,197,504, routing 32,768 x (128 x 2 + 8 x 12) =
  // 11,534,336, the output 32,768 x 2048 x 2 = 134,217,728 and the gathered hidden states as much.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("h100", 4, 4096);
  o.dp_attention = true;
  o.expert_parallel = true;
  o.max_seqs = 1;
  const ServingFit f = fit_of(m, o);
  REQUIRE(f.split.dp == 4);
  const double forward = 67108864.0 + 738197504.0 + 11534336.0 + 2 * 134217728.0;  // 1,085,276,160
  CHECK(f.forward_peak_per_gpu == doctest::Approx(forward));
  CHECK(f.activation_peak_per_gpu == doctest::Approx(forward));
  // One rank alone (no DP): the 8192 tokens' 472,645,632 of the test above, no gathered buffer.
  ServingOptions one = on("h100", 1, 4096);
  one.max_seqs = 1;
  CHECK(fit_of(m, one).forward_peak_per_gpu == doctest::Approx(472645632.0));
  // The gather is vLLM's: SGLang has no profile run, its pool reserves no forward pass.
  o.engine = ServeEngine::sglang;
  CHECK(fit_of(m, o).forward_peak_per_gpu == 0);
}

TEST_CASE("vLLM's KV cache: fraction x HBM - weights - activation peak - non-torch, blocks of 16 tokens") {
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const ServingOptions o = on("h100", 1, 4096);
  const ServingFit f = fit_of(m, o);
  const double hbm = 81559.0 * 1024 * 1024;  // the catalog's driver reading
  const double budget = 0.9 * hbm - f.weight_bytes_per_gpu - f.activation_peak_per_gpu - 0.2 * k_gib;
  CHECK(f.non_torch_per_gpu == doctest::Approx(0.2 * k_gib));
  CHECK(f.cache_budget_per_gpu == doctest::Approx(budget));
  // 98,304 bytes a token (96 KiB): blocks of 16 tokens, 1,572,864 bytes each.
  const double blocks = std::floor(budget / (16 * 98304.0));
  CHECK(f.block_size == 16);
  CHECK(f.kv_cache_tokens == static_cast<std::int64_t>(blocks * 16));
  // A sequence of 4096 tokens takes 256 blocks.
  CHECK(f.max_concurrency == doctest::Approx(blocks / 256));
  CHECK(f.max_batch == static_cast<std::int64_t>(std::floor(blocks / 256)));
  REQUIRE(f.engine_log.size() == 2);
  CHECK(f.engine_log[1].rfind("Maximum concurrency for 4,096 tokens per request: ", 0) == 0);
  // A flag replaces the measured non-torch figure, GiB for GiB.
  ServingOptions more = o;
  more.non_torch_bytes = 2.2 * k_gib;
  CHECK(fit_of(m, more).cache_budget_per_gpu == doctest::Approx(budget - 2 * k_gib));
  // The fraction: 0.8 leaves 0.1 of HBM less.
  ServingOptions lower = o;
  lower.memory_fraction = 0.8;
  CHECK(fit_of(m, lower).cache_budget_per_gpu == doctest::Approx(budget - 0.1 * hbm));
}

TEST_CASE("vLLM's hybrid manager: gpt-oss-120b's 18 full and 18 sliding layers share one pool of blocks") {
  // docs/serving-validation.md R18 (vLLM 0.10.1.1, 4 x A100 80GB, TP 4, util 0.8, 16,384 tokens).
  // TP 4 over 8 kv heads of 64: 2 x 2 x 64 x 2 = 512 bytes per token and layer on a GPU.
  // vllm/v1/core/kv_cache_utils.py: two groups of 18 layers (one per kind); one pool of blocks of
  // 16 tokens x 18 layers = 147,456 bytes; "GPU KV cache size" = blocks / 2 groups x 16; a request
  // of 16,384 tokens takes 1,024 blocks (full) + cdiv(128 - 1 + 2,048, 16) + 1 = 137 (sliding).
  const ModelConfig m = model("gpt-oss-120b.json");
  ServingOptions o = on("a100-80gb", 4, 16384);
  o.memory_fraction = 0.8;
  o.weights_as_checkpoint = true;  // MXFP4 experts, as score reads its quantization_config
  const ServingFit f = fit_of(m, o);
  REQUIRE(f.max_batched_tokens == 2048);  // vLLM's default on an A100
  const double blocks = std::floor(f.cache_budget_per_gpu / (16 * 512.0 * 18));
  CHECK(f.kv_cache_tokens == static_cast<std::int64_t>(std::floor(blocks / 2) * 16));
  CHECK(f.max_concurrency == doctest::Approx(blocks / (1024 + 137)));
  // The log's own pool, 45.32 GiB (330,018 blocks of the 45.32 printed): 2,640,144 tokens and
  // 284.25x. The budget here is 44.82 GiB (the sampler's sort at 38 bytes a logit, torch's
  // reverse_indices counted), 1.1 % under the log's, and so are the figures.
  CHECK(f.kv_cache_tokens == doctest::Approx(2640144).epsilon(0.015));
  CHECK(f.kv_cache_tokens < 2640144);
  CHECK(f.max_concurrency == doctest::Approx(284.25).epsilon(0.015));
  // One sliding window on every layer (one kind): one group of every layer. Mistral-7B with a
  // 4096 window at 32,768 tokens on one H100: 32 layers x 2 x 8 x 128 x 2 = 4,096 bytes a token
  // and layer; a request takes cdiv(4095 + 8192, 16) + 1 = 769 blocks of 16 x 32 layers.
  ModelConfig mistral = model("mistral-7b.json");
  mistral.layers = mistral.layer_specs();
  for (LayerSpec& l : mistral.layers) l.window = 4096;
  const ServingFit w = fit_of(mistral, on("h100", 1, 32768));
  REQUIRE(w.max_batched_tokens == 8192);
  const double pool = std::floor(w.cache_budget_per_gpu / (16 * 4096.0 * 32));
  CHECK(w.kv_cache_tokens == static_cast<std::int64_t>(pool * 16));
  CHECK(w.max_concurrency == doctest::Approx(pool / 769));
  // SGLang keeps the share reading (budget over one sequence's windowed share).
  ServingOptions sg = on("h100", 1, 32768);
  sg.engine = ServeEngine::sglang;
  const ServingFit s = fit_of(mistral, sg);
  CHECK(s.max_concurrency == doctest::Approx(s.cache_budget_per_gpu / (32 * 4096.0 * 4096)));
}

TEST_CASE("SGLang's KV pool: fraction x (HBM - what is used before the weights) - weights, single tokens") {
  // sglang model_runner.py profile_max_num_token: rest = free after the weights - free before them
  // x (1 - f) = f x (HBM - P) - W, P = 3.11 GiB (the measured figure) taken out of the base.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("h100", 4, 32768);
  o.engine = ServeEngine::sglang;
  const ServingFit f = fit_of(m, o);
  const double hbm = 81559.0 * 1024 * 1024;
  CHECK(f.activation_peak_per_gpu == 0);
  CHECK(f.block_size == 1);
  const double budget = 0.85 * (hbm - 3.11 * k_gib) - f.weight_bytes_per_gpu;
  CHECK(f.cache_budget_per_gpu == doctest::Approx(budget));
  // TP 4 over 4 kv heads: one head a rank, 48 x 2 x 128 x 2 = 24,576 bytes a token.
  CHECK(f.kv_cache_tokens == static_cast<std::int64_t>(std::floor(budget / 24576.0)));
}

TEST_CASE("the engine's max-seqs caps the batch and the cache's own bound stays in a note") {
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("h100", 8, 1024);
  o.max_seqs = 100;
  const ServingFit f = fit_of(m, o);
  CHECK(f.max_batch == 100);
  CHECK(f.max_concurrency > 100);
}

TEST_CASE("a batch over the engine's max_num_seqs is refused by that cap, not as memory short") {
  // Qwen3-30B-A3B at 1,024 tokens on 8 H200: the cache holds thousands of sequences; vLLM's
  // default max_num_seqs (1,024 on this GPU) binds, so the reason names it and no shortfall.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("h200", 8, 1024);
  o.min_batch = 2000;
  const ServingFit f = fit_of(m, o);
  CHECK(f.max_batch == 1024);
  CHECK(f.why_not.find("max_num_seqs 1024") != std::string::npos);
  CHECK(f.why_not.find("short") == std::string::npos);
}

TEST_CASE("an fp8 block checkpoint whose expert shards are not whole blocks does not load") {
  // Qwen3-Coder-480B-A35B-FP8: moe_intermediate_size 2560, weight_block_size [128, 128]. On 8 GPUs
  // without expert parallelism each GPU holds 2560 / 8 = 320 columns of every expert: vLLM's
  // Fp8MoEMethod raises "The output_size of gate's and up's weight = 320 is not divisible by weight
  // quantization block_n = 128". On 4, 640 = 5 x 128 loads; expert-parallel keeps 2560 whole.
  const ModelConfig m = model("qwen3-coder-480b-a35b-fp8.json");
  REQUIRE(m.checkpoint_storage);
  CHECK(m.checkpoint_storage->block_n == 128);
  CHECK(m.checkpoint_storage->block_k == 128);
  ServingOptions o = on("h200", 8, 4096);
  o.weights_as_checkpoint = true;  // as score does for a config.json with quantization_config
  const ServingFit eight = fit_of(m, o);
  CHECK_FALSE(eight.fits);
  CHECK(eight.why_not.find("2560 / 8 = 320") != std::string::npos);
  o.expert_parallel = true;
  CHECK(fit_of(m, o).why_not.find("fp8") == std::string::npos);
  ServingOptions four = on("h200", 4, 4096);
  four.weights_as_checkpoint = true;
  CHECK(fit_of(m, four).why_not.find("fp8 checkpoint") == std::string::npos);
}

// Review of issue 50, finding 5: --serve-weights fp8 is 128 x 128 blocks (docs/serving.md), so it
// meets the same check. Qwen3-235B-A22B and GLM-4.5: moe_intermediate_size 1536 (config.json);
// 1536 / 8 = 192 columns of each expert a GPU, not a multiple of 128: vLLM's Fp8MoEMethod raises.
TEST_CASE("serve-weights fp8 meets the 128 x 128 block check the fp8 checkpoints meet") {
  for (const char* file : {"qwen3-235b-a22b.json", "glm-4.5.json"}) {
    CAPTURE(file);
    const ModelConfig m = model(file);
    ServingOptions o = on("h100", 8, 32768);
    o.weights = ServePrecision::fp8;
    const ServingFit f = fit_of(m, o);
    CHECK_FALSE(f.fits);
    CHECK(f.why_not.find("--serve-weights fp8") != std::string::npos);
    CHECK(f.why_not.find("1536 / 8 = 192 a GPU is not a multiple of block_n = 128") != std::string::npos);
    // 1536 / 4 = 384 = 3 x 128 loads; expert parallelism keeps every expert whole.
    ServingOptions four = on("h200", 4, 8192);
    four.weights = ServePrecision::fp8;
    CHECK(fit_of(m, four).why_not.find("block") == std::string::npos);
    // Expert parallelism keeps Qwen3's experts whole; GLM-4.5's one shared expert of 1536 still
    // splits over TP 8 (192 a GPU): refused, a smaller TP named.
    o.expert_parallel = true;
    const std::string ep = fit_of(m, o).why_not;
    if (m.n_shared_experts == 0) {
      CHECK(ep.find("block") == std::string::npos);
    } else {
      CHECK(ep.find("shared experts' intermediate size") != std::string::npos);
    }
  }
  // DeepSeek-V3.1: 2048 / 8 = 256 (experts and the one shared expert), 18432 / 8 = 2304 = 18 x 128.
  ServingOptions ds = on("h200", 8, 32768);
  ds.weights = ServePrecision::fp8;
  CHECK(fit_of(model("deepseek-v3.1.json"), ds).fits);
}

// Review of issue 50, finding 10: vllm/platforms/cuda.py (v0.10 line) forces the block of an MLA
// model to 64 for FlashMLA on Hopper and to 128 for CUTLASS_MLA on compute capability 10.0.
TEST_CASE("vLLM's MLA blocks: 64 tokens on Hopper (FlashMLA), 128 on B200 (CUTLASS_MLA), else 16") {
  const ModelConfig ds = model("deepseek-v3.1.json");
  ServingOptions o = on("h200", 8, 32768);
  o.weights = ServePrecision::fp8;
  const ServingFit f = fit_of(ds, o);
  CHECK(f.block_size == 64);
  // 61 layers x 576 elements x 2 bytes = 70,272 bytes a token on every rank (the latent is whole).
  const double per_token = 61.0 * 576 * 2;
  const double blocks = std::floor(f.cache_budget_per_gpu / (64 * per_token));
  CHECK(f.kv_cache_tokens == static_cast<std::int64_t>(blocks * 64));
  CHECK(f.max_concurrency == doctest::Approx(blocks / (32768 / 64)));
  ServingOptions b = on("b200", 8, 32768);
  b.weights = ServePrecision::fp8;
  CHECK(fit_of(ds, b).block_size == 128);
  // A GQA model keeps vLLM's 16; so does SGLang (single tokens) for MLA.
  CHECK(fit_of(model("qwen3-30b-a3b.json"), on("h200", 1, 4096)).block_size == 16);
  ServingOptions sg = o;
  sg.engine = ServeEngine::sglang;
  CHECK(fit_of(ds, sg).block_size == 1);
}

// Review of issue 50, finding 8: vLLM v0.10's check_enough_kv_cache_memory raises before
// _report_kv_cache_config logs its cache size, so an engine that does not start prints no lines.
TEST_CASE("an engine that does not start prints no start-up lines: vLLM's one-request check quotes its estimate") {
  // Kimi-K2 in fp8 on 8 H200 at 131,072 tokens: 61 layers x 576 x 2 = 70,272 bytes a token on every
  // rank; one request needs 131,072 x 70,272 = 9,210,691,584 bytes = 8.58 GiB, more than is left.
  const ModelConfig k = model("kimi-k2.json");
  ServingOptions o = on("h200", 8, 131072);
  o.weights = ServePrecision::fp8;
  const ServingFit f = fit_of(k, o);
  CHECK_FALSE(f.fits);
  CHECK_FALSE(f.no_start.empty());
  CHECK(f.engine_log.empty());
  CHECK(f.why_not.find("max seq len (131072), (8.58 GiB KV cache is needed") != std::string::npos);
  // vLLM's estimate_max_model_len: the longest request that fits, for one full-attention cache
  // the pool's whole blocks of 64 tokens: floor(budget / (64 x 70,272)) x 64.
  const std::int64_t est = static_cast<std::int64_t>(std::floor(f.cache_budget_per_gpu / (64 * 70272.0)) * 64);
  CHECK(est > 0);
  CHECK(f.why_not.find(fmt::format("the estimated maximum model length is {}.", est)) != std::string::npos);
  // At that context it starts and prints its lines.
  o.context = est;
  const ServingFit at = fit_of(k, o);
  CHECK(at.no_start.empty());
  CHECK(at.engine_log.size() == 2);
  // Refused at load (fp8 blocks) or weights over the fraction: no lines either.
  ServingOptions coder = on("h200", 8, 32768);
  coder.weights_as_checkpoint = true;
  const ServingFit c = fit_of(model("qwen3-coder-480b-a35b-fp8.json"), coder);
  CHECK_FALSE(c.no_start.empty());
  CHECK(c.engine_log.empty());
  const ServingFit bf16 = fit_of(model("deepseek-v3.1.json"), on("h200", 8, 32768));  // 1.3 TB of bf16
  CHECK(bf16.why_not.starts_with("weights"));
  CHECK_FALSE(bf16.no_start.empty());
  CHECK(bf16.engine_log.empty());
}

// Review of issue 50, finding 17: a kind without hbm_driver_mib (presets/hardware/gpus.toml:
// MI300X, H100 PCIe, H20) is planned on its datasheet GB, and the output says so.
TEST_CASE("a GPU planned on its datasheet GB, without a driver readout, gets a note saying so") {
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const auto noted = [](const ServingFit& f) {
    for (const std::string& n : f.notes) {
      if (n.find("datasheet") != std::string::npos) return n;
    }
    return std::string();
  };
  const std::string mi = noted(fit_of(m, on("mi300x", 1, 4096)));
  CHECK(mi.find("mi300x is planned on its datasheet's 192 GB (178.8 GiB)") != std::string::npos);  // 192e9 / 2^30
  CHECK(noted(fit_of(m, on("h100", 1, 4096))).empty());  // 81,559 MiB from the driver
}

// Review of issue 50, finding 2: where TP 8 cannot load (fp8 blocks: 1536 / 8 = 192), the search
// tries smaller TP with stages, as `vllm serve -tp 4 -pp 4` runs it.
TEST_CASE("the fewest GPUs try a smaller TP with pipeline stages where the node's TP cannot load") {
  const ModelConfig q = model("qwen3-235b-a22b.json");
  ServingOptions o = on("h100", 1, 32768);
  o.weights = ServePrecision::fp8;
  o.min_batch = 64;
  const auto l = serving_min_layout(q, o);
  REQUIRE(l.has_value());
  // 8 GPUs: TP 8 is refused, and TP 4 x PP 2 (29 GB of weights a GPU) leaves too little for 64
  // sequences of 32,768 tokens. 16: TP 8 x PP 2 is refused, TP 4 x PP 4 holds them.
  CHECK(l->gpus == 16);
  CHECK(l->tp == 4);
  CHECK(l->pp == 4);
  ServingOptions moeplans = o;
  moeplans.gpus = 16;
  CHECK(fit_of(q, moeplans).why_not.find("1536 / 8 = 192") != std::string::npos);
  ServingOptions found = moeplans;
  found.engine_tp = 4;
  found.engine_pp = 4;
  const ServingFit f = fit_of(q, found);
  CHECK(f.fits);
  CHECK(f.split.tp == 4);
  CHECK(f.split.stages == 4);
  CHECK(f.split.ep == 4);  // 1536 / 4 = 384 = 3 x 128 columns of each expert a GPU
  CHECK(serving_min_gpus(q, o) == 16);
}

TEST_CASE("pipeline stages never outnumber the layers: the GPUs beyond are left unused") {
  // Qwen3-30B-A3B has 48 layers: 392 H100 would be 49 stages of 8; 48 are used (384 GPUs).
  const ModelConfig m = model("qwen3-30b-a3b.json");
  const ServingFit f = fit_of(m, on("h100", 392, 4096));
  CHECK(f.split.stages == 48);
  CHECK(f.gpus_used == 384);
  for (int layers : f.split.layers_per_stage) CHECK(layers == 1);
  bool noted = false;
  for (const std::string& n : f.notes) noted = noted || n.find("392 GPUs asked, 384 used") != std::string::npos;
  CHECK(noted);
  const ServingFit huge = fit_of(m, on("h100", 65536, 4096));
  CHECK(huge.split.stages == 48);
  CHECK(huge.gpus_used == 384);
}

TEST_CASE("expert parallelism: whole experts (ceil(N_e / EP) on the busiest GPU) or without it a 1/EP slice of each") {
  // Qwen3-30B-A3B on 3 GPUs: 128 experts of 3 x 2048 x 768 = 4,718,592 weights; with EP the
  // busiest GPU holds 43 of them a layer, without it 128/3: 1/3 of an expert more, 48 layers, bf16.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions ep = on("h100", 3, 4096);
  ep.expert_parallel = true;
  const ServingFit with = fit_of(m, ep);
  const ServingFit without = fit_of(m, on("h100", 3, 4096));
  CHECK(with.weight_bytes_per_gpu - without.weight_bytes_per_gpu ==
        doctest::Approx(48 * (43 - 128.0 / 3) * 4718592.0 * 2));
}

TEST_CASE("the fewest GPUs that hold the batch: one H100 for Qwen3-30B-A3B, two H200 nodes for DeepSeek-V3.1 in bf16") {
  // Qwen3-30B-A3B in bf16: 56.9 GiB of weights, 4.4 GiB of profile-run peak and 0.2 of non-torch
  // memory under 0.9 x 79.65 = 71.7 GiB: one GPU holds a sequence of 4096 tokens.
  const ModelConfig q = model("qwen3-30b-a3b.json");
  CHECK(serving_min_gpus(q, on("h100", 1, 4096)) == 1);
  // DeepSeek-V3.1 in bf16 is 1.25 TiB: over one node of 8 x 0.9 x 140.4 GiB = 1011 GiB, so two
  // nodes (16 GPUs, two pipeline stages).
  const ModelConfig d = model("deepseek-v3.1.json");
  const auto n = serving_min_gpus(d, on("h200", 1, 32768));
  REQUIRE(n.has_value());
  CHECK(*n == 16);
  CHECK_FALSE(fit_of(d, on("h200", 8, 32768)).fits);
  CHECK(fit_of(d, on("h200", 16, 32768)).fits);
  // A batch no count holds: nullopt.
  ServingOptions huge = on("h100", 1, 1 << 20);
  huge.min_batch = std::int64_t{1} << 30;
  CHECK_FALSE(serving_min_gpus(q, huge).has_value());
}

TEST_CASE("DeepSeek-V4-Flash's cache as vLLM keeps it: window, pooled entries, indexer keys, compressor states") {
  // vLLM's fp8_ds_mla layout (vllm-project/vllm deepseek_v4_attention.py @0a291a2e1074, sparse_swa.py
  // @03dc56495617, deepseek_compressor.py @bbd102411093, deepseek_v4.py @023da1fc828e), from the
  // config.json numbers: head_dim 512, qk_rope_head_dim 64, sliding_window 128, index_head_dim 128,
  // 43 layers whose compress_ratios are 0, 0, then 4 and 128 alternating, 4 last: 21 CSA (4), 20
  // HCA (128), 2 window-only.
  const ModelConfig m = model("deepseek-v4-flash.json");
  const double entry = 448 + 64 * 2 + 448 / 64 + 1;  // fp8 NoPE, bf16 RoPE, 7 UE8M0 scales, 1 pad: 584
  const double index = 128 + 4;                       // fp8 key and one fp32 scale per 128: 132
  CHECK(entry == 584);
  // Per token of context: a CSA layer's entry and indexer key per 4 tokens, a HCA layer's entry per 128.
  const double per_token = 21 * (entry / 4 + index / 4) + 20 * (entry / 128);  // 3,850.25 bytes
  CHECK(per_token == 3850.25);
  // Capped at a window: every layer's last 128 tokens of entries; the compressors' fp32 kv and
  // score states, 2 coff d per token over coff m tokens (CSA: coff 2, d 512, and its indexer's
  // d 128, 8 tokens; HCA: coff 1, d 512, 128 tokens).
  const double window = 43 * 128 * entry;                                 // 3,214,336
  const double csa_states = 8 * (2 * 2 * 512 * 4.0) + 8 * (2 * 2 * 128 * 4.0);  // 65,536 + 16,384
  const double hca_states = 128 * (2 * 1 * 512 * 4.0);                    // 524,288
  const double capped = window + 21 * csa_states + 20 * hca_states;       // 15,420,416
  CHECK(capped == 15420416);
  ServingOptions o = on("h200", 8, 131072);
  o.kv = ServePrecision::fp8;
  const ServingFit f = fit_of(m, o);
  CHECK(f.cache_bytes_per_token == doctest::Approx(per_token));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(per_token * 131072 + capped));  // 520,080,384 bytes
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(520080384.0));
  // One head, kept whole on every rank (the indexer replicated): each GPU holds the whole.
  CHECK(f.cache_bytes_per_sequence_per_gpu == doctest::Approx(520080384.0));
  // Under a window's length every capped part holds only the tokens there are.
  ServingOptions short_ctx = on("h200", 8, 100);
  short_ctx.kv = ServePrecision::fp8;
  const double under = per_token * 100 + 43 * 100 * entry + 21 * csa_states + 20 * 100 * (2 * 512 * 4.0);
  CHECK(fit_of(m, short_ctx).cache_bytes_per_sequence == doctest::Approx(under));
  // --serve-kv bf16 (the default): vLLM asserts an fp8 cache for DeepSeek-V4; SGLang's layout is not read.
  const auto bf16 = serving_fit(m, on("h200", 8, 131072));
  REQUIRE_FALSE(bf16.has_value());
  CHECK(bf16.error().find("fp8 only") != std::string::npos);
  ServingOptions sglang = o;
  sglang.engine = ServeEngine::sglang;
  const auto sg = serving_fit(m, sglang);
  REQUIRE_FALSE(sg.has_value());
  CHECK(sg.error().find("SGLang") != std::string::npos);
}

TEST_CASE("an fp8 cache on an A100 is storage: vLLM falls back to V0 with its defaults, refuses it for MLA") {
  // vLLM v0.10: V1's FlashAttention keeps no fp8 cache on sm80 (flash_attn_supports_fp8: FA3 on
  // sm90), so the engine falls back to V0 (XFormers): max_num_seqs 256, max_num_batched_tokens
  // max(context, 2048) to a 32,768-token context (no chunked prefill), 2048 past it.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("a100-80gb", 1, 4096);
  o.kv = ServePrecision::fp8;
  REQUIRE_FALSE(serving_problem(o).has_value());
  const ServingFit f = fit_of(m, o);
  // 48 layers x K and V x 4 kv heads x 128 x 1 byte = 49,152 bytes a token, half of bf16's.
  CHECK(f.cache_bytes_per_token == doctest::Approx(49152.0));
  CHECK(f.max_seqs == 256);
  CHECK(f.max_batched_tokens == 4096);  // max(4096, 2048): no chunked prefill at 4,096 tokens
  bool noted = false;
  for (const std::string& n : f.notes) noted = noted || n.find("falls back to its V0 engine") != std::string::npos;
  CHECK(noted);
  ServingOptions longer = o;
  longer.context = 40960;  // past 32,768: chunked prefill, 2048 tokens
  CHECK(fit_of(m, longer).max_batched_tokens == 2048);
  ServingOptions shorter = o;
  shorter.context = 1024;  // max(1024, 2048) = 2048, under 256 x 1024
  CHECK(fit_of(m, shorter).max_batched_tokens == 2048);
  // On an H100 FA3 keeps the fp8 cache: V1's defaults (8192 tokens, 1024 sequences), no note.
  ServingOptions h100 = on("h100", 1, 4096);
  h100.kv = ServePrecision::fp8;
  CHECK(fit_of(m, h100).max_batched_tokens == 8192);
  // MLA: V1's Triton MLA backend on sm80 refuses the cache ("TritonMLA V1 with FP8 KV cache not
  // yet supported"); the engine stops as it builds the attention: fits false, the reason names it.
  const ModelConfig mla = model("deepseek-v2-lite.json");
  ServingOptions lite = on("a100-80gb", 1, 4096);
  lite.kv = ServePrecision::fp8;
  const ServingFit refused = fit_of(mla, lite);
  CHECK_FALSE(refused.fits);
  CHECK(refused.why_not.find("TritonMLA V1 with FP8 KV cache not yet supported") != std::string::npos);
  // SGLang keeps it (stored as uint8): MLA's 27 layers x (512 + 64) x 1 byte = 15,552 bytes a token.
  lite.engine = ServeEngine::sglang;
  const ServingFit sg = fit_of(mla, lite);
  CHECK(sg.fits);
  CHECK(sg.cache_bytes_per_token == doctest::Approx(27.0 * 576));
  // fp8 weights there: vLLM runs them weight-only (Marlin), 1 byte a weight, as it runs an fp8
  // checkpoint; SGLang's path there is not modelled: refused.
  ServingOptions w = on("a100-80gb", 1, 4096);
  w.weights = ServePrecision::fp8;
  CHECK_FALSE(serving_problem(w).has_value());
  ServingOptions w16 = w;
  w16.weights = ServePrecision::bf16;
  const ServingFit f8 = fit_of(mla, w), f16 = fit_of(mla, w16);
  CHECK(f8.weight_bytes_per_gpu < 0.6 * f16.weight_bytes_per_gpu);
  w.engine = ServeEngine::sglang;
  CHECK(serving_problem(w).has_value());
}

TEST_CASE("SGLang's max_running_requests: derived from its pool when not given, and it caps the batch") {
  // SGLang v0.4 (model_runner.py init_memory_pool; scheduler): max_num_reqs = min(max(int(T / C x
  // 512), 2048), 4096), the scheduler's cap min(T // 2, max_num_reqs), T the pool's tokens.
  CHECK(sglang_default_running_requests(46611, 131072) == 2048);   // R14's pool: 182 -> 2048
  CHECK(sglang_default_running_requests(444500, 131072) == 2048);  // R20's pool: 1,736 -> 2048
  CHECK(sglang_default_running_requests(500000, 100000) == 2560);  // 2,560, between the bounds
  CHECK(sglang_default_running_requests(1000000, 32768) == 4096);  // 15,625 -> 4096
  CHECK(sglang_default_running_requests(3000, 1024) == 1500);      // 2048, but T // 2 = 1500
  CHECK(sglang_default_running_requests(0, 1024) == 0);
  // Qwen3-30B-A3B on 4 H100 at 256 tokens: a pool of millions of tokens holds ~10^4 sequences,
  // T / 256 x 512 is far over 4096, so SGLang runs 4096 at once.
  const ModelConfig m = model("qwen3-30b-a3b.json");
  ServingOptions o = on("h100", 4, 256);
  o.engine = ServeEngine::sglang;
  const ServingFit f = fit_of(m, o);
  CHECK(f.kv_cache_tokens / 256 > 4096);
  CHECK(f.max_seqs == 4096);
  CHECK(f.max_batch == 4096);
  REQUIRE(f.engine_log.size() == 2);
  CHECK(f.engine_log[1] == fmt::format("max_total_num_tokens={}, max_running_requests=4096, context_len=256",
                                       f.kv_cache_tokens));
  // Given, the flag wins.
  o.max_seqs = 100;
  CHECK(fit_of(m, o).max_batch == 100);
}

TEST_CASE("the engines' default context from config.json: vLLM's max_model_len and SGLang's context_len") {
  // vLLM v0.10 _get_and_verify_max_len: the smallest length key, rope_scaling's factor applied
  // (yarn from its original_max_position_embeddings) unless llama3/longrope/su or Gemma 3.
  // SGLang v0.4 get_context_length: the first of its keys, x factor unless the rope_scaling has an
  // original_max_position_embeddings or is llama3; none of its keys: 2048.
  const auto both = [](const ModelConfig& m) {
    return std::pair{engine_default_context(m, ServeEngine::vllm).tokens,
                     engine_default_context(m, ServeEngine::sglang).tokens};
  };
  CHECK(both(model("qwen3-30b-a3b.json")) == std::pair<std::int64_t, std::int64_t>{40960, 40960});
  // yarn factor 16 from 65,536: vLLM 65,536 x 16 = 1,048,576; SGLang keeps max_position_embeddings 1,048,576.
  CHECK(both(model("deepseek-v4-flash.json")) == std::pair<std::int64_t, std::int64_t>{1048576, 1048576});
  // Gemma 3 (linear, factor 8 over 131,072): vLLM does not rescale it; SGLang's code does: 1,048,576.
  CHECK(both(model("gemma-3-4b.json")) == std::pair<std::int64_t, std::int64_t>{131072, 1048576});
  // llama3 rope: no factor; max_seq_len and max_position_embeddings both 262,144.
  CHECK(both(model("step-3.5-flash.json")) == std::pair<std::int64_t, std::int64_t>{262144, 262144});
  CHECK(both(model("dbrx-instruct.json")) == std::pair<std::int64_t, std::int64_t>{32768, 32768});
  // n_positions is vLLM's key, not SGLang's (whose default is 2048).
  CHECK(both(model("santacoder.json")) == std::pair<std::int64_t, std::int64_t>{2048, 2048});
  CHECK(engine_default_context(model("santacoder.json"), ServeEngine::sglang).source.find("none of its keys") !=
        std::string::npos);
  // Qwen3's documented YaRN (factor 4 over 32,768) on max_position_embeddings 40,960: the engines
  // differ, vLLM 32,768 x 4 = 131,072, SGLang 40,960 (an original_max_position_embeddings: x 1).
  ModelConfig yarn = model("qwen3-30b-a3b.json");
  yarn.rope_scaling = ModelConfig::RopeScaling{"yarn", 4.0, 32768};
  CHECK(both(yarn) == std::pair<std::int64_t, std::int64_t>{131072, 40960});
  // No length key in the config.json, or not a config.json: none derived (the caller keeps S).
  const ContextDefault none = engine_default_context(model("deepseek-v3.1.json"), ServeEngine::vllm);
  CHECK(none.tokens == 0);
  CHECK(none.source.find("names no maximum length") != std::string::npos);
  ModelConfig toml = model("qwen3-30b-a3b.json");
  toml.context_length_keys.reset();
  CHECK(engine_default_context(toml, ServeEngine::vllm).tokens == 0);
}

TEST_CASE("vLLM's V0 fallback for an fp8 cache follows FA3, not FP8 tensor cores: an Ada L4 falls back too") {
  // flash_attn_supports_fp8 is FA3 on sm90: an L4 (sm89, FP8 tensor cores) falls back to V0 as
  // the A100 does; Hopper and Blackwell keep the cache on V1.
  GpuSpec l4 = *embedded_gpu_catalog().find("a100-80gb");
  l4.id = "l4";
  l4.fp8_dense_flops = 242.5e12;  // bench/serving/l4.toml: FP8 tensor cores
  ServingOptions o = on("a100-80gb", 1, 4096);
  o.gpu = l4;
  o.kv = ServePrecision::fp8;
  const ServingFit f = fit_of(model("qwen3-30b-a3b.json"), o);
  CHECK(f.max_batched_tokens == 4096);  // V0: max(4096, 2048)
  CHECK(f.max_seqs == 256);
  ServingOptions b200 = on("b200", 1, 4096);
  b200.kv = ServePrecision::fp8;
  CHECK(fit_of(model("qwen3-30b-a3b.json"), b200).max_batched_tokens == 8192);  // V1's default on a big GPU
  // MLA on the L4: Triton MLA refuses the cache.
  const ServingFit mla = fit_of(model("deepseek-v2-lite.json"), o);
  CHECK_FALSE(mla.fits);
  CHECK(mla.why_not.find("TritonMLA") != std::string::npos);
}
