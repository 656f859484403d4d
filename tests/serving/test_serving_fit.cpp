// The serving fit, hand-checked on three public models (issue 35): a GQA MoE (Qwen3-30B-A3B),
// an MLA MoE (DeepSeek-V3.1) and a linear-attention hybrid (Qwen3-Next-80B-A3B), each at two
// contexts. The expected bytes are worked out here from the config.json numbers with the
// per-kind formula cited beside each, not read back from moeplan.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

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
  // 0.9 of the H200's 143,771 MiB as the driver reports it (gpus.toml hbm_driver_mib).
  const double budget = 0.9 * 143771.0 * 1024 * 1024 - fp8.weight_bytes_per_gpu;
  CHECK(fp8.cache_budget_per_gpu == doctest::Approx(budget));
  CHECK(fp8.max_batch == static_cast<std::int64_t>(budget / fp8.cache_bytes_per_sequence_per_gpu));
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
  o.weights = ServePrecision::fp8;
  REQUIRE(serving_problem(o).has_value());
  CHECK(serving_problem(o)->find("fp8") != std::string::npos);
  o.weights = ServePrecision::fp4;  // weight-only: any GPU
  CHECK_FALSE(serving_problem(o).has_value());
  o.kv = ServePrecision::fp8;
  CHECK(serving_problem(o).has_value());
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
