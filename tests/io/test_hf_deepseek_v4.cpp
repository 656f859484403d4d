// DeepSeek-V4 (deepseek_v4): compressed attention (a low-rank query, one shared key/value head,
// a grouped output projection, sinks; CSA layers with a compressor and an indexer, HCA layers
// with a compressor), hyper-connections and hash-routed layers. The expected counts are printed
// by the independent recount tests/data/hf/recount/deepseek_v4_count.py (standard-library Python
// written from transformers' modeling_deepseek_v4.py and DeepSeek's MTPBlock, not from moeplan;
// its byte sum under the checkpoint's dtypes is the index's total_size, 159609485896 bytes);
// the parts beside N and the score FLOPs are worked out here from the config numbers.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double size_of(const json& j, const char* key) { return j["size"][key].get<double>(); }

const std::string k_flash = "deepseek-v4-flash.json";

}  // namespace

TEST_CASE("deepseek_v4: DeepSeek-V4-Flash counted as the recount, its MTP block beside the model") {
  const json j = score_of(k_hf + k_flash);
  // recount/deepseek_v4_count.py deepseek-v4-flash.json: total 284332230231, active 13799622231,
  // N (matrices) 283192328192, MTP 6610048635; the card states 284B total / 13B activated.
  CHECK(size_of(j, "total_params_as_built") == 284332230231.0);
  CHECK(size_of(j, "active_params_as_built") == 13799622231.0);
  CHECK(size_of(j, "N_nonembedding_total") == 283192328192.0);
  CHECK(size_of(j, "mtp_params") == 6610048635.0);
  // No embedding or head copy with the MTP block (model.py: MTPBlock's embed and head are the
  // main model's; the checkpoint's 69187 tensors hold none). The checkpoint also stores buffers,
  // not parameters, counted in it only: e_score_correction_bias of the 40 scored layers and the
  // MTP block (41 x 256) and tid2eid of the 3 hash-routed layers (3 x 129280 x 6), the tensors
  // the recount's byte sum takes to reach the index's total_size.
  CHECK(j["model"]["num_hidden_layers"] == 43);
  CHECK(size_of(j, "total_params_in_checkpoint") == 284332230231.0 + 6610048635.0 + 41.0 * 256 + 3.0 * 129280 * 6);
  // Beside N, by hand. Routers: 43 x 256 x 4096. Norms: per layer input and post-attention (2 x
  // 4096), q_a_norm (1024) and kv_norm (512); a CSA layer's compressor and indexer kv_norms (512 +
  // 128), an HCA layer's (512); the final norm. Position biases: CSA 4 x 1024 + 4 x 256, HCA
  // 128 x 512. Gates: 64 sinks and two hyper-connections (fn 24 x 16384, base 24, scale 3) per
  // layer, hc_head (4 x 16384 + 4 + 1).
  CHECK(size_of(j, "router_params") == 43.0 * 256 * 4096);
  CHECK(size_of(j, "norm_params") == 43.0 * (2 * 4096 + 1024 + 512) + 21.0 * (512 + 128) + 20.0 * 512 + 4096);
  CHECK(size_of(j, "bias_params") == 21.0 * (4 * 1024 + 4 * 256) + 20.0 * 128 * 512);
  CHECK(size_of(j, "gate_and_sink_params") == 43.0 * (64 + 2 * (24.0 * 16384 + 24 + 3)) + 4.0 * 16384 + 4 + 1);
  CHECK(j["model"]["attention"] == "compressed MQA");
  CHECK(j["model"]["dense_layers"] == 0);
  CHECK(j["model"]["layer_kinds"] ==
        "sliding_attention+moe: 2, compressed_sparse_attention+moe: 21, heavily_compressed_attention+moe: 20");
}

TEST_CASE("deepseek_v4: score FLOPs of the window, the pooled entries and the indexer, by hand") {
  const json j = score_of(k_hf + k_flash);
  // S = 8192. Every layer: a window of 128 (twice the mean keys: 2 x 128 - 128^2/S = 254). CSA
  // (21 layers): entries 1 per 4 tokens capped at 512 (512 x 4 < S: 2 x 512 - 512^2 x 4/S = 896);
  // HCA (20): S/128 = 64. Scores 3 x keys x 64 heads x (512 + 512); the indexer 3 x (S/4) x 64 x
  // 128 per CSA layer; 6 N_a for the weights.
  const double keys = 43.0 * 254 + 21.0 * 896 + 20.0 * 64;
  const double M = 6.0 * size_of(j, "N_a_nonembedding_active") + 3.0 * keys * 64 * 1024 + 21.0 * 3 * 2048 * 64 * 128;
  CHECK(j["compute"]["flops_per_token"].get<double>() == M);
}

TEST_CASE("deepseek_v4: layer_types, the MTP block's layer and what the class would not build") {
  // The same layers named by layer_types (the modern key) count the same, the MTP block not
  // stated there being refused unless num_nextn_predict_layers is 0.
  json doc = fixture(k_flash);
  doc["layer_types"] = json::array();
  for (int i = 0; i < 43; ++i) {
    const int r = doc["compress_ratios"][i].get<int>();
    doc["layer_types"].push_back(r == 0 ? "sliding_attention" : r == 4 ? "compressed_sparse_attention"
                                                                       : "heavily_compressed_attention");
  }
  doc.erase("compress_ratios");
  doc["num_nextn_predict_layers"] = 0;
  const Run same = score_doc(doc, "dsv4-layer-types.json");
  REQUIRE_MESSAGE(same.code == 0, same.err);
  CHECK(size_of(json::parse(same.out).at(0), "total_params_as_built") == 284332230231.0);
  check_refused(k_flash, "num_nextn_predict_layers", [](json& x) { x["num_nextn_predict_layers"] = 2; });
  check_refused(k_flash, "compress_ratios", [](json& x) { x.erase("compress_ratios"); });
  // Groups of the output projection that do not divide 64 heads x 512, and a second kv head:
  // each named by its own key, not the layer list.
  check_refused(k_flash, "o_groups", [](json& x) { x["o_groups"] = 7; });
  check_refused(k_flash, "num_key_value_heads", [](json& x) { x["num_key_value_heads"] = 2; });
  check_refused(k_flash, "compress_ratios", [](json& x) { x["compress_ratios"][5] = 2; });
  check_refused(k_flash, "o_groups", [](json& x) { x.erase("o_groups"); });
  check_refused(k_flash, "hc_mult", [](json& x) { x.erase("hc_mult"); });
  check_refused(k_flash, "kv_lora_rank", [](json& x) { x["kv_lora_rank"] = 512; });
  check_refused(k_flash, "scoring_func", [](json& x) { x["scoring_func"] = "relu"; });
  check_refused(k_flash, "head_dim", [](json& x) { x.erase("head_dim"); });
  check_refused(k_flash, "intermediate_size", [](json& x) { x["intermediate_size"] = 4096; });
  // DeepSeek-V4-Flash-0731's DSpark stages (dspark_*) are modules the class does not build.
  check_refused(k_flash, "dspark_block_size", [](json& x) { x["dspark_block_size"] = 5; });
  // Another family's file with DeepSeek-V4's keys is refused, not counted without them.
  check_refused("deepseek-v3.1.json", "hc_mult", [](json& x) { x["hc_mult"] = 4; });
}

TEST_CASE("deepseek_v4: fp8 with e8m0 block scales and fp4 experts, serving, the cluster and the exports refuse by name") {
  auto m = moeplan::load_model_config(k_hf + k_flash);
  REQUIRE(m.has_value());
  REQUIRE(m->checkpoint_storage.has_value());
  const moeplan::CheckpointStorage& s = *m->checkpoint_storage;
  CHECK(s.routed == 0.5 + 1.0 / 32);  // e2m1 values and an e8m0 byte per 32
  CHECK(s.shared == 1 + 1.0 / (128 * 128));  // e4m3 and an e8m0 byte per 128 x 128 block
  // Attention: 5084807168 weights, 309592064 of them (the compressors' and indexer's kv, gate and
  // weights projections) bf16, the rest fp8.
  CHECK(s.attention == doctest::Approx(((5084807168.0 - 309592064.0) * (1 + 1.0 / 16384) + 309592064.0 * 2) /
                                       5084807168.0));
  CHECK(s.known);
  // Without expert_dtype DeepSeek's model.py builds fp8 experts and vLLM assumes fp4: not guessed.
  json doc = fixture(k_flash);
  doc.erase("expert_dtype");
  const auto path = temp_path("dsv4-no-expert-dtype.json");
  std::ofstream(path) << doc.dump(2);
  const auto unknown = moeplan::load_model_config(path.string());
  std::filesystem::remove(path);
  REQUIRE(unknown.has_value());
  REQUIRE(unknown->checkpoint_storage.has_value());
  CHECK_FALSE(unknown->checkpoint_storage->known);
  CHECK(unknown->checkpoint_storage->description.find("expert_dtype absent") != std::string::npos);
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = 32768;
  const auto f = moeplan::serving_fit(*m, o);  // --serve-kv bf16: vLLM keeps its cache in fp8 only
  REQUIRE_FALSE(f.has_value());
  CHECK(f.error().find("DeepSeek-V4's cache in fp8 only") != std::string::npos);
  o.kv = moeplan::ServePrecision::fp8;  // its cache per token: tests/serving/test_serving_fit.cpp
  CHECK(moeplan::serving_fit(*m, o).has_value());
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("DeepSeek-V4 compressed attention") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + k_flash, "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("hyper-connections") != std::string::npos);
  }
  // moeplan's TOML writes the compressed attention and reads it back to the same counts.
  const auto out = temp_path("dsv4-flash.toml");
  const Run e = run_moeplan({"score", k_hf + k_flash, "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  std::filesystem::remove(out);
  CHECK(size_of(back, "total_params_as_built") == 284332230231.0);
  CHECK(size_of(back, "mtp_params") == 6610048635.0);
}

TEST_CASE("deepseek_v4: the other families' per-layer attention fields are refused beside compressed attention") {
  // compressed_attention_params counts DeepSeek-V4's attention alone: a layer's own query heads,
  // value heads or sinks, an unindexed layer or a head-wise gate would be left out of the count.
  const auto loaded = moeplan::load_model_config(k_hf + k_flash);
  REQUIRE(loaded.has_value());
  const moeplan::ModelConfig base = *loaded;
  REQUIRE_FALSE(base.problem().has_value());
  const auto refused = [&base](const auto& change) {
    moeplan::ModelConfig m = base;
    change(m);
    const auto p = m.problem();
    REQUIRE(p.has_value());
    CHECK(p->key == "model.compressed_attention");
  };
  refused([](moeplan::ModelConfig& m) { m.layers[3].q_heads = 96; });
  refused([](moeplan::ModelConfig& m) { m.layers[3].v_head_dim = 128; });
  refused([](moeplan::ModelConfig& m) { m.layers[3].attention_sinks = true; });
  refused([](moeplan::ModelConfig& m) { m.layers[3].indexed = false; });
  refused([](moeplan::ModelConfig& m) { m.head_wise_attn_gate = true; });
}
