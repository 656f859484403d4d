// MiMo-V2-Flash (mimo_v2_flash): sliding-window and full-attention layers with kv heads of
// their own, value heads (v_head_dim 128) smaller than the key heads (head_dim 192), attention
// sinks in the sliding layers only. The expected counts are printed by the independent recount
// tests/data/hf/recount/mimo_v2_flash_count.py (standard-library Python written from transformers'
// modular_mimo_v2_flash.py, not from moeplan); the cache and score FLOPs are worked out here from
// the config numbers. The fixture is rebuilt, not an exact copy of the hub file (its _source).
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double mimo_size(const json& j, const char* key) { return j["size"][key].get<double>(); }

// Twice the mean keys a query scores under a window w of a sequence of S (flops_conventions.cpp).
double mimo_window_keys(double w, double S) { return w < S ? 2.0 * w - w * w / S : S; }

const std::string k_mimo = "mimo-v2-flash.json";

}  // namespace

TEST_CASE("mimo_v2_flash: MiMo-V2-Flash counted as the recount, value heads of 128 beside key heads of 192") {
  // recount/mimo_v2_flash_count.py mimo-v2-flash.json: total 308778768832, active 15445924288
  // (the card's 309B and 15B), N 307479183360, N_a 14146338816.
  const json j = score_of(k_hf + k_mimo);
  CHECK(mimo_size(j, "total_params_as_built") == 308778768832.0);
  CHECK(mimo_size(j, "active_params_as_built") == 15445924288.0);
  CHECK(mimo_size(j, "N_nonembedding_total") == 307479183360.0);
  CHECK(mimo_size(j, "N_a_nonembedding_active") == 14146338816.0);
  // By hand: q d x 64·192, k d x N_kv·192, v d x N_kv·128, o 64·128 x d; 9 full layers of 4 kv
  // heads, 39 sliding ones of 8.
  const double d = 4096;
  const double full = d * (64 * 192 + 4 * 192 + 4 * 128 + 64 * 128);
  const double sliding = d * (64 * 192 + 8 * 192 + 8 * 128 + 64 * 128);
  CHECK(full == 89128960.0);
  CHECK(9 * full + 39 * sliding == 4482662400.0);  // the recount's attention
  // One sink logit per query head in each of the 39 sliding layers; routers of 256 x d in the
  // 47 MoE layers; two norms a layer and the final one; no bias.
  CHECK(mimo_size(j, "gate_and_sink_params") == 39.0 * 64);
  CHECK(mimo_size(j, "router_params") == 47.0 * 256 * 4096);
  CHECK(mimo_size(j, "norm_params") == 48.0 * 2 * 4096 + 4096);
  CHECK(mimo_size(j, "bias_params") == 0.0);
  CHECK(mimo_size(j, "embedding_params") == 2.0 * 152576 * 4096);
  // The checkpoint stores MTP layers (model.mtp.*) that transformers does not build and no config
  // numbers: mtp_params and the checkpoint total are null with that reason, not 0 and as built.
  CHECK(j["size"]["mtp_params"].is_null());
  CHECK(j["size"]["total_params_in_checkpoint"].is_null());
  CHECK(j["size"]["total_params_in_checkpoint_reason"].get<std::string>().find("model.mtp.*") != std::string::npos);
  CHECK(j["model"]["moe_layers"] == 47);
  // Score FLOPs: 3 N_q (d_k + d_v) per key, the sliding layers' keys capped by the window of 128.
  const double S = j["model"]["seq_len"].get<double>();
  const double scores = 3.0 * 64 * (9 * S * (192 + 128) + 39 * mimo_window_keys(128, S) * (192 + 128));
  CHECK(j["compute"]["flops_per_token"].get<double>() ==
        doctest::Approx(6.0 * mimo_size(j, "N_a_nonembedding_active") + scores).epsilon(1e-12));
  const std::string outside = j["model"]["architecture_outside_laws"].dump();
  CHECK(outside.find("value heads of another size than the key heads (v_head_dim up to 128, head_dim 192) in 48 of "
                     "48 layers") != std::string::npos);
  CHECK(outside.find("attention sinks (a learned logit per query head) in 39 of 48 layers") != std::string::npos);
  // The sigmoid router with e_score_correction_bias (DeepseekV3MoE's), one group.
  auto m = moeplan::load_model_config(k_hf + k_mimo);
  REQUIRE(m.has_value());
  REQUIRE(m->router.has_value());
  CHECK(m->router->score == moeplan::RouterSpec::Score::sigmoid);
  CHECK(m->router->expert_bias);
  CHECK(m->layers[0].ffn == moeplan::FfnKind::dense);
  CHECK(m->layers[0].window == 0);
  CHECK(m->layers[1].window == 128);
  CHECK(m->layers[1].kv_heads == 8);
  CHECK(m->layers[5].window == 0);
  CHECK(m->layers[5].v_head_dim == 128);
}

TEST_CASE("mimo_v2_flash: its KV cache by hand, keys of 192 and values of 128, the sliding layers capped at 128") {
  auto m = moeplan::load_model_config(k_hf + k_mimo);
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = 32768;
  const auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  // 9 full layers x 4 kv heads x (192 + 128) x 2 bytes for every position: 23,040 bytes a token;
  // 39 sliding layers x 8 x (192 + 128) x 2 bytes for the last 128 positions only.
  CHECK(f->cache_bytes_per_token == doctest::Approx(9.0 * 4 * (192 + 128) * 2));
  CHECK(f->cache_bytes_per_token == doctest::Approx(23040.0));
  CHECK(f->cache_bytes_per_sequence == doctest::Approx(23040.0 * 32768 + 39.0 * 8 * 320 * 2 * 128));
  CHECK(f->cache_formula.find("N_kv (d_k + d_v) per token and layer, each layer's own (4 x (192 + 128) in 9 layers, "
                              "8 x (192 + 128) in 39 layers)") != std::string::npos);
}

TEST_CASE("mimo_v2_flash: --emit toml keeps the value heads and sinks, hf-config, megatron and the cluster refuse them") {
  const auto out = temp_path("mimo-v2-flash.toml");
  const Run e = run_moeplan({"score", k_hf + k_mimo, "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  auto m = moeplan::load_model_config(out.string());
  std::filesystem::remove(out);
  CHECK(mimo_size(back, "total_params_as_built") == 308778768832.0);
  CHECK(mimo_size(back, "gate_and_sink_params") == 39.0 * 64);
  REQUIRE(m.has_value());
  CHECK(m->layers[1].v_head_dim == 128);
  CHECK(m->layers[1].attention_sinks);
  CHECK_FALSE(m->layers[0].attention_sinks);
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("value heads of another size than the key heads") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + k_mimo, "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("value heads of another size than the key heads") != std::string::npos);
  }
}

TEST_CASE("mimo_v2_flash: where the remote code and transformers would build different weights, refused by name") {
  check_refused(k_mimo, "swa_num_key_value_heads", [](json& x) { x["swa_num_key_value_heads"] = 4; });
  check_refused(k_mimo, "swa_v_head_dim", [](json& x) { x["swa_v_head_dim"] = 192; });
  check_refused(k_mimo, "swa_head_dim", [](json& x) { x["swa_head_dim"] = 128; });
  check_refused(k_mimo, "add_full_attention_sink_bias", [](json& x) { x["add_full_attention_sink_bias"] = true; });
  check_refused(k_mimo, "add_swa_attention_sink_bias", [](json& x) { x["add_swa_attention_sink_bias"] = false; });
  check_refused(k_mimo, "hybrid_layer_pattern", [](json& x) { x.erase("hybrid_layer_pattern"); });
  check_refused(k_mimo, "hybrid_layer_pattern", [](json& x) { x["hybrid_layer_pattern"][3] = 2; });
  check_refused(k_mimo, "moe_layer_freq", [](json& x) { x.erase("moe_layer_freq"); });
  check_refused(k_mimo, "v_head_dim", [](json& x) { x.erase("v_head_dim"); });
  check_refused(k_mimo, "n_shared_experts", [](json& x) { x["n_shared_experts"] = 1; });
  check_refused(k_mimo, "sliding_window_size", [](json& x) { x["sliding_window_size"] = 256; });
  // attention_bias: q, k and v biases (o_proj has none), v's of the value heads; the recount
  // prints biases 701184, total 308779470016.
  json biased = fixture(k_mimo);
  biased["attention_bias"] = true;
  const Run b = score_doc(biased, "mimo-v2-flash-biased.json");
  REQUIRE_MESSAGE(b.code == 0, b.err);
  CHECK(mimo_size(json::parse(b.out).at(0), "bias_params") ==
        48.0 * 64 * 192 + 9.0 * (4 * 192 + 4 * 128) + 39.0 * (8 * 192 + 8 * 128));
  CHECK(mimo_size(json::parse(b.out).at(0), "total_params_as_built") == 308779470016.0);
  // transformers' own spellings are read alike: layer_types and mlp_layer_types in place of the hub's.
  json renamed = fixture(k_mimo);
  nlohmann::json types = nlohmann::json::array(), mlp = nlohmann::json::array();
  for (int i = 0; i < 48; ++i) {
    types.push_back(renamed["hybrid_layer_pattern"][static_cast<std::size_t>(i)] == 1 ? "sliding_attention"
                                                                                       : "full_attention");
    mlp.push_back(i == 0 ? "dense" : "sparse");
  }
  renamed.erase("hybrid_layer_pattern");
  renamed.erase("moe_layer_freq");
  renamed["layer_types"] = types;
  renamed["mlp_layer_types"] = mlp;
  const Run r = score_doc(renamed, "mimo-v2-flash-renamed.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(mimo_size(json::parse(r.out).at(0), "total_params_as_built") == 308778768832.0);
}
