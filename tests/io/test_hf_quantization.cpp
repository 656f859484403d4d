// src/io/hf_quantization.cpp: config.json's quantization_config (MXFP4, fp8 blocks,
// compressed-tensors, AWQ, GPTQ) read as bytes per weight of each part (issue 50; moved from
// tests/serving/test_serving_weights.cpp). Each expected figure is worked out from the
// format's definition, not read back.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "moeplan/io/hf_config.hpp"

#include "io/hf_fixture.hpp"

using namespace moeplan;
using namespace moeplan::test;
using nlohmann::json;

namespace {


CheckpointStorage storage_of(json j, const json& q) {
  j["quantization_config"] = q;
  const ModelConfig m = read_json(j);
  REQUIRE(m.checkpoint_storage.has_value());
  return *m.checkpoint_storage;
}

}  // namespace

TEST_CASE("quantization_config: bytes per weight of each method, values and scales") {
  const json ds = hf_fixture("deepseek-v3.1.json");
  CHECK_FALSE(read_json(ds).checkpoint_storage.has_value());  // none: as the model's dtype
  SUBCASE("gpt-oss: MXFP4 routed experts, 4 bits and an 8-bit scale per 32; the rest bf16") {
    const ModelConfig m = read_json(hf_fixture("gpt-oss-120b.json"));
    REQUIRE(m.checkpoint_storage.has_value());
    const CheckpointStorage& s = *m.checkpoint_storage;
    CHECK(s.method == "mxfp4");
    CHECK(s.known);
    CHECK(s.mxfp4_experts);
    CHECK(s.routed == 0.53125);  // 0.5 + 1/32
    CHECK(s.attention == 2);
    CHECK(s.dense == 2);
    CHECK(s.shared == 2);
    CHECK_FALSE(s.fp8_math);
  }
  SUBCASE("fp8, 128 x 128 blocks (DeepSeek-V3): 1 byte and an fp32 scale per 16,384 weights, W8A8") {
    const CheckpointStorage s = storage_of(
        ds, {{"quant_method", "fp8"}, {"activation_scheme", "dynamic"}, {"fmt", "e4m3"}, {"weight_block_size", {128, 128}}});
    CHECK(s.routed == 1.000244140625);
    CHECK(s.attention == 1.000244140625);
    CHECK(s.dense == 1.000244140625);
    CHECK(s.fp8_math);
    // Without blocks: one scale per tensor, 1 byte a weight.
    CHECK(storage_of(ds, {{"quant_method", "fp8"}}).routed == 1);
    // An ignore list keeps what it names in bf16: attention here.
    const CheckpointStorage kept =
        storage_of(ds, {{"quant_method", "fp8"}, {"weight_block_size", {128, 128}},
                        {"modules_to_not_convert", {"model.layers.*.self_attn", "lm_head"}}});
    CHECK(kept.attention == 2);
    CHECK(kept.routed == 1.000244140625);
  }
  SUBCASE("compressed-tensors (Kimi-K2.5): int4 routed experts, a bf16 scale per 32; attention, shared and dense bf16") {
    const ModelConfig m = read_json(hf_fixture("kimi-k2.5.json"));
    REQUIRE(m.checkpoint_storage.has_value());
    const CheckpointStorage& s = *m.checkpoint_storage;
    CHECK(s.method == "compressed-tensors");
    CHECK(s.routed == 0.5625);  // 4/8 + 2/32
    CHECK(s.attention == 2);
    CHECK(s.shared == 2);
    CHECK(s.dense == 2);
    CHECK_FALSE(s.fp8_math);
  }
  SUBCASE("AWQ and GPTQ: int4 with an fp16 scale and a packed 4-bit zero point per 128 inputs") {
    // 0.5 + (2 + 0.5) / 128 = 0.51953125
    CHECK(storage_of(ds, {{"quant_method", "awq"}, {"bits", 4}, {"group_size", 128}, {"zero_point", true}}).routed ==
          0.51953125);
    CHECK(storage_of(ds, {{"quant_method", "gptq"}, {"bits", 4}, {"group_size", 128}, {"desc_act", false}}).routed ==
          0.51953125);
    CHECK(storage_of(ds, {{"quant_method", "gptq"}, {"bits", 8}, {"group_size", -1}}).routed == 1);
  }
  SUBCASE("modelopt (NVIDIA's NVFP4 checkpoints): 4 bits and an fp8 scale per 16, W4A4; FP8 one byte, W8A8") {
    // 0.5 + 1/16 = 0.5625 a weight; the config_groups form (Kimi-K2.6-NVFP4) with its ignore list,
    // and ModelOpt's own form with exclude_modules and a top-level group_size.
    const CheckpointStorage groups = storage_of(
        ds, {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"},
             {"config_groups", {{"group_0", {{"weights", {{"num_bits", 4}, {"type", "float"}, {"group_size", 16}}},
                                             {"targets", {"Linear"}}}}}},
             {"ignore", {"lm_head", "model.layers.1.self_attn*", "model.layers.1.mlp.shared_experts*"}}});
    CHECK(groups.known);
    CHECK(groups.method == "modelopt");
    CHECK(groups.routed == 0.5625);
    CHECK(groups.dense == 0.5625);
    CHECK(groups.attention == 2);
    CHECK(groups.shared == 2);
    CHECK_FALSE(groups.fp8_math);
    const CheckpointStorage own = storage_of(
        ds, {{"quant_method", "modelopt"}, {"quant_algo", "nvfp4"}, {"group_size", 32}});  // vLLM upper-cases it
    CHECK(own.routed == 0.53125);  // 0.5 + 1/32
    // ModelOpt's hf_quant_config form nests its settings; its exclusions are exclude_modules there
    // (the flat form's are ignore, as vLLM reads them).
    const CheckpointStorage nested = storage_of(
        ds, {{"quant_method", "modelopt"},
             {"quantization", {{"quant_algo", "NVFP4"}, {"group_size", 16}, {"exclude_modules", {"model.layers.*.self_attn*"}}}}});
    CHECK(nested.known);
    CHECK(nested.attention == 2);
    CHECK(nested.routed == 0.5625);
    const CheckpointStorage flat_exclude = storage_of(
        ds, {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}, {"exclude_modules", {"model.layers.*.self_attn*"}}});
    CHECK(flat_exclude.attention == 0.5625);
    const CheckpointStorage all = storage_of(ds, {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}, {"ignore", {"*"}}});
    CHECK(all.routed == 2);  // a wildcard keeps every linear layer bf16
    CHECK(all.attention == 2);
    const CheckpointStorage half = storage_of(ds, {{"quant_method", "modelopt"}, {"quant_algo", "NVFP4"}, {"group_size", 16.5}});
    CHECK_FALSE(half.known);
    CHECK(half.description.find("group_size must be a positive integer, got 16.5") != std::string::npos);
    const CheckpointStorage fp8 = storage_of(ds, {{"quant_method", "modelopt"}, {"quant_algo", "FP8"}});
    CHECK(fp8.routed == 1);
    CHECK(fp8.fp8_math);
    const CheckpointStorage other = storage_of(ds, {{"quant_method", "modelopt"}, {"quant_algo", "W4A8_AWQ"}});
    CHECK_FALSE(other.known);
    CHECK(other.description.find("quant_algo 'W4A8_AWQ'") != std::string::npos);
  }
  SUBCASE("a method moeplan does not read, or a block it cannot read, is kept unknown with the reason") {
    const CheckpointStorage bnb = storage_of(ds, {{"quant_method", "bitsandbytes"}, {"load_in_4bit", true}});
    CHECK_FALSE(bnb.known);
    CHECK(bnb.description.find("'bitsandbytes'") != std::string::npos);
    const CheckpointStorage bad = storage_of(ds, {{"quant_method", "fp8"}, {"weight_block_size", {128}}});
    CHECK_FALSE(bad.known);
    CHECK(bad.description.find("weight_block_size") != std::string::npos);
    CHECK_FALSE(storage_of(ds, {{"bits", 4}}).known);  // no quant_method
  }
}
