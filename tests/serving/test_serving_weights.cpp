// Weights as checkpoints store them and as the engines load them (issue 50): config.json's
// quantization_config (MXFP4, fp8 blocks, compressed-tensors, AWQ, GPTQ), vLLM's padding of
// MXFP4 experts, CUDA graphs that do not fit, and vLLM's human-readable token counts. Each
// expected figure is worked out here from the format's definition, not read back.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "moeplan/base/units.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/hf_config.hpp"
#include "moeplan/serving/serve_args.hpp"
#include "moeplan/serving/serving_fit.hpp"

#include "io/hf_fixture.hpp"

using namespace moeplan;
using namespace moeplan::test;
using nlohmann::json;

namespace {


ServingOptions node(const char* gpu, int gpus, std::int64_t context) {
  ServingOptions o;
  o.gpu = *embedded_gpu_catalog().find(gpu);
  o.gpus = gpus;
  o.context = context;
  return o;
}

ServingFit fit_with(const ModelConfig& m, const ServingOptions& o) {
  auto f = serving_fit(m, o);
  INFO((f ? std::string() : f.error()));
  REQUIRE(f.has_value());
  return *f;
}

}  // namespace

TEST_CASE("served as the checkpoint stores them: fp8 blocks equal --serve-weights fp8, an unknown method refused") {
  json j = hf_fixture("deepseek-v3.1.json");
  j["quantization_config"] = {{"quant_method", "fp8"}, {"weight_block_size", {128, 128}}};
  const ModelConfig m = read_json(j);
  ServingOptions stored = node("h200", 8, 32768);
  stored.weights_as_checkpoint = true;
  ServingOptions flag = node("h200", 8, 32768);
  flag.weights = ServePrecision::fp8;
  const ServingFit a = fit_with(m, stored), b = fit_with(m, flag);
  CHECK(a.weight_bytes_per_gpu == b.weight_bytes_per_gpu);
  CHECK(a.weight_bytes == b.weight_bytes);
  CHECK(a.weights_storage == "fp8 (quantization_config)");
  CHECK(b.weights_storage == "fp8");
  // --serve-weights given (weights_as_checkpoint false): the flag wins, bf16 here.
  const ServingFit c = fit_with(m, node("h200", 8, 32768));
  CHECK(c.weight_bytes_per_gpu > 1.9 * a.weight_bytes_per_gpu);

  j["quantization_config"] = {{"quant_method", "hqq"}};
  const auto refused = serving_fit(read_json(j), stored);
  REQUIRE_FALSE(refused.has_value());
  CHECK(refused.error().find("'hqq'") != std::string::npos);
  CHECK(refused.error().find("--serve-weights") != std::string::npos);
}

TEST_CASE("Kimi-K2.5 as stored: only the routed experts are int4, 0.5625 bytes a weight") {
  const ModelConfig m = read_json(hf_fixture("kimi-k2.5.json"));
  ServingOptions stored = node("h200", 8, 8192);
  stored.weights_as_checkpoint = true;
  const ServingFit a = fit_with(m, stored), bf16 = fit_with(m, node("h200", 8, 8192));
  // 60 MoE layers x 384 experts x 3 x 7168 x 2048 weights, each 2 - 0.5625 bytes lighter.
  const double routed = 60.0 * 384 * 3 * 7168 * 2048;
  CHECK(bf16.weight_bytes - a.weight_bytes == doctest::Approx(routed * (2 - 0.5625)));
}

TEST_CASE("vLLM loads gpt-oss-120b's MXFP4 experts padded to Marlin's tiles: 2880 -> 2944 and 3072") {
  const ModelConfig m = read_json(hf_fixture("gpt-oss-120b.json"));
  ServingOptions vllm = node("h100", 1, 131072);
  vllm.weights_as_checkpoint = true;
  ServingOptions sglang = vllm;
  sglang.engine = ServeEngine::sglang;
  const ServingFit v = fit_with(m, vllm), s = fit_with(m, sglang);
  // Marlin: I' = 2880 -> round_up(2880, 128) = 2944, H = 2880 -> round_up(2880, 256) = 3072
  // (vllm mxfp4.py). 36 layers x 128 experts x 3 matrices x (2944 x 3072 - 2880 x 2880) more
  // weights at 0.53125 bytes: 13,824 x 749,568 x 0.53125 = 5,504,827,392 bytes (5.127 GiB).
  CHECK(v.expert_padding == doctest::Approx(2944.0 * 3072 / (2880.0 * 2880)));
  CHECK(s.expert_padding == 1);  // SGLang's Triton path pads I' to 32: none for 2880
  CHECK(v.weight_bytes_per_gpu - s.weight_bytes_per_gpu == doctest::Approx(5504827392.0));
  // --serve-weights fp4 is the same storage: the same bytes.
  ServingOptions fp4 = node("h100", 1, 131072);
  fp4.weights = ServePrecision::fp4;
  CHECK(fit_with(m, fp4).weight_bytes_per_gpu == doctest::Approx(v.weight_bytes_per_gpu));
  // With TP 2 each rank's slice, 1440, pads to 1536: 1536 x 3072 / (1440 x 2880).
  const ServingFit two = fit_with(m, node("h100", 2, 131072));
  CHECK(two.expert_padding == 1);  // bf16 (the flag's default, checkpoint not asked): nothing to pad
  ServingOptions two_fp4 = node("h100", 2, 131072);
  two_fp4.weights_as_checkpoint = true;
  CHECK(fit_with(m, two_fp4).expert_padding == doctest::Approx(1536.0 * 3072 / (1440.0 * 2880)));
}

TEST_CASE("CUDA graphs larger than what the fraction leaves: fits false, by how much (the engine fails to start)") {
  const ModelConfig m = read_json(hf_fixture("qwen3-30b-a3b.json"));
  ServingOptions o = node("h100", 8, 4096);
  o.memory_fraction = 0.995;
  const ServingFit f = fit_with(m, o);
  CHECK_FALSE(f.fits);
  // An H100 of 81,559 MiB (79.647 GiB): 0.005 of it is 0.3982 GiB; the graphs' 0.64 GiB
  // (measured, k_cuda_graph_gib) are 0.2418 GiB over.
  CHECK(f.why_not.find("CUDA graphs") != std::string::npos);
  CHECK(f.why_not.find("0.3982 GiB") != std::string::npos);
  CHECK(f.why_not.find("by 0.2418 GiB") != std::string::npos);
  o.cuda_graph_bytes = 0.3 * k_gib;  // graphs that fit what is left
  CHECK(fit_with(m, o).fits);
}

TEST_CASE("token counts as vLLM's human_readable_int reads them: k decimal, K binary") {
  const auto v = [](const char* text) {
    const auto h = human_readable_tokens(text);
    REQUIRE(h.has_value());
    REQUIRE(h->has_value());
    return **h;
  };
  CHECK(v("32k") == 32000);
  CHECK(v("32K") == 32768);
  CHECK(v("25.6k") == 25600);  // int(25.6 * 1000)
  CHECK(v("1m") == 1000000);
  CHECK(v("1M") == 1048576);
  CHECK(v("128K") == 131072);
  CHECK(v(" 8k ") == 8000);
  // A decimal before a binary suffix is refused, as vLLM does.
  const auto bad = human_readable_tokens("32.5K");
  REQUIRE(bad.has_value());
  REQUIRE_FALSE(bad->has_value());
  CHECK(bad->error().find("32.5k") != std::string::npos);
  // No suffix, or not vLLM's form: left to the caller's own number check.
  for (const char* plain : {"32768", "3.2e4", "k", "32 k", "32kk", "-1k", ".5k"}) {
    CAPTURE(plain);
    CHECK_FALSE(human_readable_tokens(plain).has_value());
  }
}
