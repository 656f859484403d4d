// config.json of the 2026 generation read under layouts moeplan already counts (issue 51):
// glm4_moe_lite (GLM-4.7-Flash: DeepSeek-V3's MLA and MoE, dense layers by mlp_layer_types)
// and mimo (MiMo-7B: qwen2 plus MTP layers counted beside the model). Each fixture is a copy
// of a public config.json (its _source, and the comment of each test, name where it was
// read); the expected counts are printed by the independent recounts in
// tests/data/hf/recount/<family>_count.py (standard-library Python written from the modeling
// code, not from moeplan).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "io/hf_scoring.hpp"

using nlohmann::json;
using namespace hf_scoring;

namespace {

json scored(const json& doc, const std::string& name) {
  const Run r = score_doc(doc, name);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

double num(const json& j, const char* key) { return j["size"][key].get<double>(); }

}  // namespace

TEST_CASE("glm4_moe_lite: GLM-4.7-Flash counted as DeepSeek-V3's layout, as the recount") {
  // Fixture: the config.json of zai-org/GLM-4.7-Flash (revision 7dd20894), from
  // github.com/ldyeax/exo src/exo/worker/tests/unittests/test_sglang_kt_preflight_collector.py
  // (make_glm_4_7_flash_bf16_config), whose serialisation has the SHA-256 that repository's
  // src/exo/worker/sglang_kt/launch_spec.py pins for the hub file.
  const json j = score_of(k_hf + "glm-4.7-flash.json");
  // recount/glm4_moe_lite_count.py glm-4.7-flash.json: total_params 29943390976, active_params
  // 3896763136 [embedding + lm_head included], MTP module 643706112 (not in the totals).
  CHECK(num(j, "total_params_as_built") == 29943390976.0);
  CHECK(num(j, "active_params_as_built") == 3896763136.0);
  CHECK(num(j, "mtp_params") == 643706112.0);
  // The script's routers (64 x 2048 in each of the 46 MoE layers) and norms (q_a 768, kv_a
  // 512 and two of 2048 per layer, the final one).
  CHECK(num(j, "router_params") == 6029312.0);
  CHECK(num(j, "norm_params") == 254720.0);
  CHECK(j["model"]["dense_layers"] == 1);  // mlp_layer_types' class default: ["dense"] + ["sparse"] * 46
  CHECK(j["model"]["moe_layers"] == 46);
  CHECK(j["model"]["architecture_outside_laws"].empty());
}

TEST_CASE("glm4_moe_lite: mlp_layer_types decides the dense layers, and what the class would not build is refused") {
  const double d = 2048, E = 64, Im = 1536, I = 10240;
  const double moe_layer = E * 3 * d * Im + E * d + 3 * d * Im;  // experts, router, one shared expert
  const json base = score_of(k_hf + "glm-4.7-flash.json");
  json doc = fixture("glm-4.7-flash.json");
  doc["mlp_layer_types"] = json::array({"dense", "dense", "dense"});
  for (int i = 3; i < 47; ++i) doc["mlp_layer_types"].push_back("sparse");
  doc["first_k_dense_replace"] = 3;
  const json three = scored(doc, "glm47-three-dense.json");
  CHECK(three["model"]["dense_layers"] == 3);
  CHECK(num(three, "total_params_as_built") == num(base, "total_params_as_built") - 2 * moe_layer + 2 * 3 * d * I);
  // Without mlp_layer_types the class builds one dense layer whatever first_k_dense_replace
  // says (transformers 5.0's release candidates read it): another value is ambiguous.
  check_refused("glm-4.7-flash.json", "first_k_dense_replace", [](json& x) { x["first_k_dense_replace"] = 3; });
  check_refused("glm-4.7-flash.json", "mlp_layer_types", [](json& x) {
    x["mlp_layer_types"] = json::array({"sparse", "dense"});
    for (int i = 2; i < 47; ++i) x["mlp_layer_types"].push_back("sparse");
  });
  check_refused("glm-4.7-flash.json", "mlp_layer_types", [](json& x) { x["mlp_layer_types"] = json::array({"dense"}); });
  check_refused("glm-4.7-flash.json", "attention_bias", [](json& x) { x["attention_bias"] = true; });
  check_refused("glm-4.7-flash.json", "n_routed_experts", [](json& x) { x.erase("n_routed_experts"); });
  // Glm4MoeLiteTopkRouter: sigmoid scores chosen with e_score_correction_bias, as DeepSeek-V3.
  const Run m = run_moeplan({"score", k_hf + "glm-4.7-flash.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(m.out.find("--moe-router-score-function sigmoid") != std::string::npos);
  CHECK(m.out.find("--moe-router-enable-expert-bias") != std::string::npos);
  CHECK(m.out.find("--moe-router-topk-scaling-factor 1.8") != std::string::npos);
}

TEST_CASE("mimo: MiMo-7B is qwen2 with MTP layers counted beside the model") {
  // Fixture: the config.json of a XiaomiMiMo/MiMo-7B checkpoint as copied to
  // github.com/jj8127/mimo_kor config.json, beside that checkpoint's model.safetensors.index.json.
  const json j = score_of(k_hf + "mimo-7b.json");
  // recount/mimo_count.py mimo-7b.json: total_params 7622619136 (dense: active = total),
  // attention biases 221184, MTP layer 210790400.
  CHECK(num(j, "total_params_as_built") == 7622619136.0);
  CHECK(num(j, "active_params_as_built") == 7622619136.0);
  CHECK(num(j, "bias_params") == 221184.0);
  CHECK(num(j, "mtp_params") == 210790400.0);
  // The checkpoint: its index's total_size, 15,666,819,072 bytes, is 7,833,409,536 bf16
  // parameters, main model and MTP layer; MiMo's MTP layers store no embedding or head copy.
  CHECK(num(j, "total_params_in_checkpoint") == 15666819072.0 / 2);
  CHECK(j["model"]["moe_layers"] == 0);
  json none = fixture("mimo-7b.json");
  none.erase("num_nextn_predict_layers");  // MiMoConfig's default: no MTP layer
  CHECK(num(scored(none, "mimo-no-mtp.json"), "mtp_params") == 0.0);
  // What moeplan would have to guess is refused, naming the key.
  check_refused("mimo-7b.json", "head_dim", [](json& x) { x["head_dim"] = 64; });
  check_refused("mimo-7b.json", "num_key_value_heads", [](json& x) { x.erase("num_key_value_heads"); });
  check_refused("mimo-7b.json", "mlp_bias", [](json& x) { x["mlp_bias"] = true; });
}

TEST_CASE("afmoe: Arcee's Trinity Nano, Mini and Large counted as the recount") {
  // Fixtures: trinity-nano-preview.json, trinity-mini.json, trinity-large.json (their _source).
  // recount/afmoe_count.py on each: total_params / active_params [embedding + lm_head included].
  struct Row {
    const char* file;
    double total, active, routers, norms;
    int dense, moe;
  };
  for (const Row& x : {Row{"trinity-nano-preview.json", 6120003328.0, 1023923968.0, 7077888.0 + 6912.0, 244736.0, 2, 54},
                       Row{"trinity-mini.json", 26123974400.0, 3474732800.0, 7864320.0 + 3840.0, 272384.0, 2, 30},
                       Row{"trinity-large.json", 398635286016.0, 13371686400.0, 42467328.0 + 13824.0, 755712.0, 6, 54}}) {
    CAPTURE(x.file);
    const json j = score_of(k_hf + x.file);
    CHECK(num(j, "total_params_as_built") == x.total);
    CHECK(num(j, "active_params_as_built") == x.active);
    // The router's gate and expert_bias (an nn.Parameter: built, in N's neighbours, not a buffer).
    CHECK(num(j, "router_params") == x.routers);
    CHECK(num(j, "total_params_in_checkpoint") == x.total);
    // Four norms of d a layer, q_norm and k_norm of head_dim, the final norm.
    CHECK(num(j, "norm_params") == x.norms);
    CHECK(j["model"]["dense_layers"] == x.dense);
    CHECK(j["model"]["moe_layers"] == x.moe);
  }
}

TEST_CASE("afmoe: windows and RoPE by layer_types or global_attn_every_n_layers, and what the class would not build refused") {
  // Trinity Nano writes no layer_types: AfmoeConfig's list, a full (and RoPE-less) layer every fourth.
  const json nano = score_of(k_hf + "trinity-nano-preview.json");
  const auto outside = [](const json& j) { return j["model"]["architecture_outside_laws"].dump(); };
  CHECK(outside(nano).find("in 42 of 56 layers") != std::string::npos);
  CHECK(outside(nano).find("no RoPE in 14 of 56 layers") != std::string::npos);
  CHECK(outside(nano).find("gated attention") != std::string::npos);
  json every_other = fixture("trinity-nano-preview.json");
  every_other["global_attn_every_n_layers"] = 2;
  const json half = scored(every_other, "trinity-every-other.json");
  CHECK(outside(half).find("no RoPE in 28 of 56 layers") != std::string::npos);
  CHECK(num(half, "total_params_as_built") == num(nano, "total_params_as_built"));  // windows build no weight
  // Trinity Mini writes layer_types: read as written.
  const json mini = score_of(k_hf + "trinity-mini.json");
  CHECK(outside(mini).find("no RoPE in 8 of 32 layers") != std::string::npos);
  // One dense layer more: an MoE layer's experts, router, bias and shared expert become one MLP.
  json three = fixture("trinity-nano-preview.json");
  three["num_dense_layers"] = 3;
  const double d = 1024, E = 128, Im = 256, I = 3072;
  CHECK(num(scored(three, "trinity-three-dense.json"), "total_params_as_built") ==
        num(nano, "total_params_as_built") - (E * 3 * d * Im + E * d + E + 3 * d * Im) + 3 * d * I);
  check_refused("trinity-nano-preview.json", "num_experts", [](json& x) { x.erase("num_experts"); });
  check_refused("trinity-nano-preview.json", "num_dense_layers", [](json& x) { x.erase("num_dense_layers"); });
  check_refused("trinity-nano-preview.json", "num_dense_layers", [](json& x) { x["num_dense_layers"] = 56; });
  check_refused("trinity-nano-preview.json", "head_dim", [](json& x) { x.erase("head_dim"); });
  check_refused("trinity-nano-preview.json", "attention_bias", [](json& x) { x["attention_bias"] = true; });
  check_refused("trinity-nano-preview.json", "score_func", [](json& x) { x["score_func"] = "softmax"; });
  check_refused("trinity-nano-preview.json", "route_norm", [](json& x) { x["route_norm"] = false; });
  check_refused("trinity-nano-preview.json", "route_scale", [](json& x) { x["route_scale"] = -1; });
  check_refused("trinity-mini.json", "layer_types", [](json& x) { x["layer_types"][0] = "linear_attention"; });
  check_refused("trinity-mini.json", "layer_types", [](json& x) { x["layer_types"].erase(0); });
  // A null is no value (the class would take it as None); keys the router does not read, refused
  // where vLLM would route by them (a review found them taken silently).
  check_refused("trinity-nano-preview.json", "head_dim", [](json& x) { x["head_dim"] = nullptr; });
  check_refused("trinity-nano-preview.json", "routed_scaling_factor", [](json& x) { x["routed_scaling_factor"] = 2.5; });
  check_refused("trinity-nano-preview.json", "n_group", [](json& x) { x["n_group"] = 4; });
  check_refused("trinity-nano-preview.json", "norm_topk_prob", [](json& x) { x["norm_topk_prob"] = false; });
}

TEST_CASE("exaone_moe: K-EXAONE counted as the recount, its MTP block named and not counted") {
  // Fixture: k-exaone-236b-a23b.json (its _source: TensorRT-LLM's copy of the hub file with the
  // layer count, window and layer_types of the transformers model doc).
  const json j = score_of(k_hf + "k-exaone-236b-a23b.json");
  // recount/exaone_moe_count.py k-exaone-236b-a23b.json: 236,571,150,336 / 23,668,279,296
  // [embedding + lm_head included]; the model doc states 236B total, 23B activated, 234B
  // without embeddings (N here: 234,646,142,976).
  CHECK(num(j, "total_params_as_built") == 236571150336.0);
  CHECK(num(j, "active_params_as_built") == 23668279296.0);
  CHECK(num(j, "N_nonembedding_total") == 234646142976.0);
  CHECK(num(j, "router_params") == 128.0 * 6144 * 47);  // gate.weight; its correction bias is a buffer
  CHECK(j["model"]["dense_layers"] == 1);
  CHECK(j["model"]["moe_layers"] == 47);
  // The checkpoint's mtp.* block is skipped by the class: no count, the reason instead.
  CHECK(j["size"]["mtp_params"].is_null());
  CHECK(j["size"]["mtp_params_reason"].get<std::string>().find("ExaoneMoeForCausalLM") != std::string::npos);
  const std::string outside = j["model"]["architecture_outside_laws"].dump();
  CHECK(outside.find("in 36 of 48 layers") != std::string::npos);
  CHECK(outside.find("no RoPE in 12 of 48 layers") != std::string::npos);
  // ExaoneMoeTopkRouter is DeepSeek-V3's: sigmoid, the correction bias, routed_scaling_factor.
  const Run m = run_moeplan({"score", k_hf + "k-exaone-236b-a23b.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(m.out.find("--moe-router-score-function sigmoid") != std::string::npos);
  CHECK(m.out.find("--moe-router-enable-expert-bias") != std::string::npos);
  CHECK(m.out.find("--moe-router-topk-scaling-factor 2.5") != std::string::npos);
}

TEST_CASE("exaone_moe: the class's own layer lists when none is written, and keys it does not read held to what it builds") {
  json derived = fixture("k-exaone-236b-a23b.json");
  derived.erase("layer_types");
  derived["sliding_window_pattern"] = 4;  // ExaoneMoeConfig's integer pattern: layers 3, 7, ... full
  derived.erase("num_nextn_predict_layers");
  const json d = scored(derived, "exaone-derived.json");
  CHECK(d["model"]["architecture_outside_laws"].dump().find("no RoPE in 12 of 48 layers") != std::string::npos);
  CHECK(d["size"]["mtp_params"] == 0);
  // Without the MTP block the checkpoint count is the model's plus the 47 x 128 correction biases.
  CHECK(num(d, "total_params_in_checkpoint") == 236571150336.0 + 47 * 128);
  json two = fixture("k-exaone-236b-a23b.json");
  two.erase("is_moe_layer");
  two.erase("first_last_k_dense_replace");
  two["mlp_layer_types"] = json::array({"dense", "dense"});
  for (int i = 2; i < 48; ++i) two["mlp_layer_types"].push_back("sparse");
  const double dm = 6144, E = 128, Im = 2048, I = 18432;
  CHECK(num(scored(two, "exaone-two-dense.json"), "total_params_as_built") ==
        236571150336.0 - (E * 3 * dm * Im + E * dm + 3 * dm * Im) + 3 * dm * I);
  check_refused("k-exaone-236b-a23b.json", "is_moe_layer", [](json& x) { x["is_moe_layer"][1] = false; });
  check_refused("k-exaone-236b-a23b.json", "first_last_k_dense_replace",
                [](json& x) { x["first_last_k_dense_replace"] = 2; });
  check_refused("k-exaone-236b-a23b.json", "sliding_window_pattern", [](json& x) { x.erase("layer_types"); });
  check_refused("k-exaone-236b-a23b.json", "num_key_value_heads", [](json& x) { x.erase("num_key_value_heads"); });
  check_refused("k-exaone-236b-a23b.json", "num_experts", [](json& x) { x.erase("num_experts"); });
  check_refused("k-exaone-236b-a23b.json", "layer_types", [](json& x) { x["layer_types"][0] = "linear_attention"; });
  check_refused("k-exaone-236b-a23b.json", "num_key_value_heads", [](json& x) { x["num_key_value_heads"] = nullptr; });
  check_refused("k-exaone-236b-a23b.json", "mlp_layer_types", [](json& x) {
    x.erase("is_moe_layer");
    x.erase("first_last_k_dense_replace");
    x["mlp_layer_types"] = json::array();
    for (int i = 0; i < 48; ++i) x["mlp_layer_types"].push_back("dense");
  });
}

TEST_CASE("exaone_moe: its --emit toml is laid out on a cluster as its config.json is") {
  // The TOML lists the FFNs layer by layer (the windows make the layers per-layer) and leaves
  // first_k_dense_replace out: one leading dense layer is still the uniform layout (a review
  // found the round trip refused on a cluster).
  const Run toml = run_moeplan({"score", k_hf + "k-exaone-236b-a23b.json", "--emit", "toml"});
  REQUIRE_MESSAGE(toml.code == 0, toml.err);
  const auto path = temp_path("k-exaone-round-trip.toml");
  std::ofstream(path) << toml.out;
  const std::vector<std::string> cluster{"--gpus", "256", "--gpu", "h100", "--tokens", "1e13", "--seq-len", "8192",
                                         "--format", "json"};
  std::vector<std::string> from_json{"score", k_hf + "k-exaone-236b-a23b.json"}, from_toml{"score", path.string()};
  from_json.insert(from_json.end(), cluster.begin(), cluster.end());
  from_toml.insert(from_toml.end(), cluster.begin(), cluster.end());
  const Run a = run_moeplan(from_json), b = run_moeplan(from_toml);
  std::filesystem::remove(path);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  REQUIRE_MESSAGE(b.code == 0, b.err);
  const json ja = json::parse(a.out).at(0), jb = json::parse(b.out).at(0);
  CHECK(ja["step_time"]["step"] == jb["step_time"]["step"]);
  CHECK(ja["cluster"]["layout"] == jb["cluster"]["layout"]);
}

TEST_CASE("afmoe: Trinity laid out on a cluster and written for Megatron-LM with its output gate") {
  // Gated attention is Megatron-Core's --attention-output-gate (TransformerConfig
  // attention_output_gate, d98e8a64): the cluster model takes it, its gate GEMM in the QKV GEMM.
  const Run fit = run_moeplan({"score", k_hf + "trinity-mini.json", "--gpus", "64", "--gpu", "h100", "--tokens",
                               "1e12", "--seq-len", "4096", "--format", "json"});
  REQUIRE_MESSAGE(fit.code == 0, fit.err);
  const json j = json::parse(fit.out).at(0);
  CHECK(j["step_time"]["step"].get<double>() > 0);
  const Run m = run_moeplan({"score", k_hf + "trinity-mini.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(m.code == 0, m.err);
  CHECK(m.out.find("--attention-output-gate") != std::string::npos);
  CHECK(m.out.find("--moe-router-topk-scaling-factor 2.826") != std::string::npos);
  // Its four norms a layer are not a Megatron-LM setting: said, not dropped silently.
  CHECK(m.out.find("the norms after each block") != std::string::npos);
}
