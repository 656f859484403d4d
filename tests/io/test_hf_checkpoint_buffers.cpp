// Buffers a checkpoint stores beside the parameters (BuiltExtras::checkpoint_buffer_values):
// the routers' e_score_correction_bias (DeepseekV3TopkRouter and its copies), the gates'
// expert_bias (Ling 2.0, LFM2-MoE), DeepSeek-V4's tid2eid tables. Each expected value is worked
// out here from the fixture's config.json numbers (MoE layers x router width, the MTP module's
// MoE layer included); they enter total_params_in_checkpoint only.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using json = nlohmann::json;

namespace {

const std::string k_buf_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

json buffer_score(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

// The model's TOML as --emit toml writes it.
std::string buffer_toml(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--emit", "toml"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return r.out;
}

struct BufferCase {
  const char* file;
  double values;  // by hand from the config.json
};

}  // namespace

TEST_CASE("checkpoint buffers: each family's correction-bias values, by hand, in the checkpoint total only") {
  const std::vector<BufferCase> cases{
      // DeepSeek-V3.1: 61 layers, first_k_dense_replace 3, 256 experts, 1 MTP layer: (58 + 1) x 256.
      {"deepseek-v3.1.json", 59.0 * 256},
      {"deepseek-v3.2.json", 59.0 * 256},
      // Kimi K2 (kimi_k2, DeepseekV3 remote code): 61 layers, 1 dense, 384 experts, no MTP.
      {"kimi-k2.json", 60.0 * 384},
      // GLM-4.5: 92 layers, 3 dense, 160 experts, 1 MTP; Air: 46, 1, 128, 1.
      {"glm-4.5.json", 90.0 * 160},
      {"glm-4.5-air.json", 46.0 * 128},
      {"glm-4.5v.json", 45.0 * 128},       // text model: 46 layers, 1 dense, 128 experts, no MTP
      {"glm-4.7-flash.json", 47.0 * 64},   // 47 layers, 1 dense, 64 experts, 1 MTP
      {"glm-5.1.json", 76.0 * 256},        // 78 layers, 3 dense, 256 experts, 1 MTP
      {"dots-llm1.json", 61.0 * 128},      // 62 layers, 1 dense, 128 experts
      {"minimax-m2.json", 62.0 * 256},     // every layer MoE, 256 experts (its MTP is not built)
      {"minimax-m3.json", 57.0 * 128},     // moe_layer_freq: 57 of 60 layers (MTP not built)
      {"solar-open-100b.json", 48.0 * 128},
      {"nemotron-3-super-120b-a12b.json", 41.0 * 512},  // 40 MoE layers and the MTP's latent MoE
      // LongCat-Flash: one router per layer scoring 512 experts and 256 zero-width ones.
      {"longcat-flash-chat.json", 28.0 * (512 + 256)},
      // Ling-mini-2.0 (BailingMoeV2Gate.expert_bias): 20 layers, 1 dense, 256 experts.
      {"ling-mini-2.0.json", 19.0 * 256},
      // LFM2-8B-A1B (use_expert_bias): 24 layers, 2 dense, 32 experts.
      {"lfm2-8b-a1b.json", 22.0 * 32},
      // DeepSeek-V4-Flash: 43 layers, 3 hash-routed (tid2eid: vocab 129280 x top-6 each), the
      // other 40 and the MTP block scored with the bias.
      {"deepseek-v4-flash.json", 41.0 * 256 + 3.0 * 129280 * 6},
      // None: DeepSeek-V2 builds no correction bias; Ling v1's gate none; ERNIE 4.5 and Kimi
      // Linear build theirs as an nn.Parameter (router_bias: counted as built, not here).
      {"deepseek-v2-lite.json", 0},
      {"ling-lite.json", 0},
      {"ernie-4.5-21b-a3b.json", 0},
      {"kimi-linear-48b-a3b.json", 0},
  };
  for (const BufferCase& c : cases) {
    CAPTURE(c.file);
    const std::string path = k_buf_hf + c.file;
    const json with = buffer_score(path);
    const std::string toml = buffer_toml(path);
    const std::string key = "checkpoint_buffer_values = ";
    const auto at = toml.find(key);
    if (c.values == 0) {
      CHECK(at == std::string::npos);
      continue;
    }
    REQUIRE(at != std::string::npos);
    CHECK(std::stod(toml.substr(at + key.size())) == c.values);
    // The same TOML without the key: only total_params_in_checkpoint moves, by the buffers.
    std::string bare = toml;
    bare.erase(at, bare.find('\n', at) - at + 1);
    const auto bare_path = temp_path("buffers-bare.toml");
    std::ofstream(bare_path) << bare;
    const json without = buffer_score(bare_path.string());
    std::filesystem::remove(bare_path);
    for (const char* k : {"N_nonembedding_total", "N_a_nonembedding_active", "total_params_as_built",
                          "active_params_as_built", "router_params", "bias_params", "mtp_params"}) {
      CAPTURE(k);
      CHECK(with["size"][k] == without["size"][k]);
    }
    CHECK(with["compute"]["flops_per_token"] == without["compute"]["flops_per_token"]);
    if (with["size"]["total_params_in_checkpoint"].is_null()) continue;  // MTP not counted
    CHECK(with["size"]["total_params_in_checkpoint"].get<double>() -
              without["size"]["total_params_in_checkpoint"].get<double>() ==
          c.values);
  }
}

TEST_CASE("checkpoint buffers: null with the MTP reason where the MTP modules are not counted") {
  // MiMo-V2-Flash: 47 of 48 layers MoE x 256 stored, but its model.mtp.* is not counted.
  const json j = buffer_score(k_buf_hf + "mimo-v2-flash.json");
  CHECK(j["size"]["total_params_in_checkpoint"].is_null());
  CHECK(buffer_toml(k_buf_hf + "mimo-v2-flash.json").find("checkpoint_buffer_values = 12032\n") != std::string::npos);
}

TEST_CASE("checkpoint buffers: LFM2-MoE without use_expert_bias stores none") {
  std::ifstream in(k_buf_hf + "lfm2-8b-a1b.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string on = "\"use_expert_bias\": true";
  REQUIRE(text.find(on) != std::string::npos);
  text.replace(text.find(on), on.size(), "\"use_expert_bias\": false");
  const auto path = temp_path("lfm2-no-bias.json");
  std::ofstream(path) << text;
  const std::string toml = buffer_toml(path.string());
  const json j = buffer_score(path.string());
  std::filesystem::remove(path);
  CHECK(toml.find("checkpoint_buffer_values") == std::string::npos);
  const json base = buffer_score(k_buf_hf + "lfm2-8b-a1b.json");
  CHECK(base["size"]["total_params_in_checkpoint"].get<double>() - j["size"]["total_params_in_checkpoint"].get<double>() ==
        22.0 * 32);
  CHECK(base["size"]["total_params_as_built"] == j["size"]["total_params_as_built"]);
}

TEST_CASE("checkpoint buffers: a TOML value that is not a whole number >= 0 is refused by key") {
  const std::string toml = buffer_toml("mixtral-8x7b");  // a model with no buffers;
  const std::string key = "checkpoint_buffer_values";
  for (const char* bad : {"-1", "1.5", "\"many\""}) {
    CAPTURE(bad);
    std::string text = toml;
    const auto at = text.find("[model]\n");
    REQUIRE(at != std::string::npos);
    text.insert(at + 8, key + " = " + bad + "\n");
    const auto path = temp_path("buffers-bad.toml");
    std::ofstream(path) << text;
    const Run r = run_moeplan({"score", path.string()});
    std::filesystem::remove(path);
    CHECK(r.code != 0);
    CHECK(r.out.empty());
    CHECK(r.err.find("model.checkpoint_buffer_values") != std::string::npos);
    CHECK(r.err.find("whole number") != std::string::npos);
  }
}
