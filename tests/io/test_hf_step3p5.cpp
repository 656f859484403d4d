// step3p5 (Step-3.5-Flash) and step3p7 (Step-3.7-Flash, its text_config) of issue 51: sliding
// layers with query heads of their own, a head-wise attention gate, MoE layers by
// moe_layers_enum and three MTP modules of the layer pattern's own kinds. Fixtures:
// tests/data/hf/step-3.5-flash.json (the config.json as Megatron-Bridge vendors it) and
// step-3.7-flash.json (constructed: see its _source and official.csv). The expected counts are
// printed by the independent recount tests/data/hf/recount/step3p5_count.py (standard-library
// Python written from vLLM's step3p5.py and step3p5_mtp.py, not from moeplan); the caches are
// worked out here from the config numbers.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double step_size(const json& j, const char* key) { return j["size"][key].get<double>(); }

moeplan::ServingFit step_served(const std::string& file, std::int64_t context, bool mtp) {
  auto m = moeplan::load_model_config(k_hf + file);
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = context;
  o.count_mtp = mtp;
  auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  return *f;
}

}  // namespace

TEST_CASE("step3p5 and step3p7: Step-3.5/3.7-Flash counted as the recount, MTP beside the model") {
  // recount/step3p5_count.py on both fixtures: total 196956130368 (embedding and lm_head
  // included), active 11987323968, N 195850272768, N_a 10881466368; routers (gate and
  // router_bias) 49557312, norms 384256 (the final one included); MTP modules 844296960 and their heads 1583874048:
  // checkpoint 199384301376. The card: 196B total, 11B active (N_a, no embeddings).
  for (const char* file : {"step-3.5-flash.json", "step-3.7-flash.json"}) {
    CAPTURE(file);
    const json j = score_of(k_hf + file);
    CHECK(step_size(j, "total_params_as_built") == 196956130368.0);
    CHECK(step_size(j, "active_params_as_built") == 11987323968.0);
    CHECK(step_size(j, "N_nonembedding_total") == 195850272768.0);
    CHECK(step_size(j, "N_a_nonembedding_active") == 10881466368.0);
    CHECK(step_size(j, "router_params") == 49557312.0);
    CHECK(step_size(j, "norm_params") == 384256.0);
    CHECK(step_size(j, "mtp_params") == 844296960.0);
    CHECK(step_size(j, "total_params_in_checkpoint") == 199384301376.0);
    CHECK(j["model"]["moe_layers"] == 42);
    CHECK(j["model"]["dense_layers"] == 3);
  }
  // By hand, one full (64 query heads) and one sliding (96) attention layer of d = 4096, 8 kv
  // heads of 128, the head-wise gate d x N_q: their difference is 32 heads' q, o and gate.
  const double d = 4096, hd = 128;
  const double full = d * (64 + 16) * hd + 64 * hd * d + d * 64;
  const double sliding = d * (96 + 16) * hd + 96 * hd * d + d * 96;
  CHECK(sliding - full == 32 * (2 * hd * d + d));
  const json j = score_of(k_hf + "step-3.5-flash.json");
  const double dense = 3 * d * 11264, shared = 3 * d * 1280, experts = 288 * 3 * d * 1280;
  CHECK(step_size(j, "N_nonembedding_total") == 12 * full + 33 * sliding + 3 * dense + 42 * (shared + experts));
  // Without the gate, d x N_q fewer weights in every layer (12 x 64 + 33 x 96 heads).
  json plain = fixture("step-3.5-flash.json");
  plain["use_head_wise_attn_gate"] = false;
  const Run r = score_doc(plain, "step3p5-no-gate.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(step_size(json::parse(r.out).at(0), "N_nonembedding_total") ==
        step_size(j, "N_nonembedding_total") - d * (12 * 64 + 33 * 96));
}

TEST_CASE("step3p5: the KV cache keeps 12 full layers whole and 33 sliding ones for 512 tokens") {
  // 2 (K, V) x 8 kv heads x 128 x 2 bytes = 4096 bytes a token and layer, every layer.
  const double layer = 2.0 * 8 * 128 * 2;
  const auto f = step_served("step-3.5-flash.json", 32768, false);
  CHECK(f.cache_bytes_per_token == doctest::Approx(12 * layer));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(12 * layer * 32768 + 33 * layer * 512));
  // Served with its three MTP modules (layer_types 45-47: sliding), three more windowed layers.
  const auto m = step_served("step-3.5-flash.json", 32768, true);
  CHECK(m.cache_bytes_per_token == doctest::Approx(12 * layer));
  CHECK(m.cache_bytes_per_sequence == doctest::Approx(12 * layer * 32768 + 36 * layer * 512));
  CHECK(m.mtp_params == doctest::Approx(844296960.0));
}

TEST_CASE("step3p5: what moeplan would have to guess is refused by name") {
  const std::string f = "step-3.5-flash.json";
  check_refused(f, "tie_word_embeddings", [](json& x) { x["tie_word_embeddings"] = true; });
  check_refused(f, "use_qk_norm", [](json& x) { x["use_qk_norm"] = false; });
  check_refused(f, "att_impl_type", [](json& x) { x["att_impl_type"] = "MFA"; });
  check_refused(f, "use_moe_router_bias", [](json& x) { x["use_moe_router_bias"] = false; });
  check_refused(f, "swa_num_attention_heads", [](json& x) { x["swa_num_attention_heads"] = 96; });
  check_refused(f, "moe_router_activation", [](json& x) { x["moe_router_activation"] = "tanh"; });
  check_refused(f, "moe_layers_enum", [](json& x) { x["moe_layers_enum"] = "3,4,99"; });
  check_refused(f, "layer_types", [](json& x) { x["layer_types"].erase(x["layer_types"].size() - 1); });
  check_refused(f, "layer_types", [](json& x) { x["layer_types"][2] = "linear_attention"; });
  check_refused(f, "num_attention_groups", [](json& x) { x.erase("num_attention_groups"); });
  check_refused(f, "share_expert_dim", [](json& x) { x.erase("share_expert_dim"); });
  // A kv-head count that does not divide the query heads is named by the file's own key (the
  // model's num_key_value_heads is read from num_attention_groups), and a per-layer list that
  // changes no count still needs an entry per layer.
  check_refused(f, "num_attention_groups", [](json& x) { x["num_attention_groups"] = 7; });
  check_refused(f, "swiglu_limits", [](json& x) { x["swiglu_limits"] = json::array({0, 0, 0}); });
  check_refused(f, "partial_rotary_factors", [](json& x) { x["partial_rotary_factors"] = json::array({1.0}); });
  // Step-3.7's text_config is step3p5; another model_type there is refused.
  check_refused("step-3.7-flash.json", "model_type", [](json& x) { x["text_config"]["model_type"] = "deepseek_v3"; });
}

TEST_CASE("step3p5: TOML round trip, hf-config, megatron and the cluster refuse it by name") {
  const auto out = temp_path("step-3.5-flash.toml");
  const Run e = run_moeplan({"score", k_hf + "step-3.5-flash.json", "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  auto m = moeplan::load_model_config(out.string());
  std::filesystem::remove(out);
  const json j = score_of(k_hf + "step-3.5-flash.json");
  CHECK(back["size"] == j["size"]);
  CHECK(back["compute"] == j["compute"]);
  REQUIRE(m.has_value());
  CHECK(m->layers[1].q_heads == 96);
  CHECK(m->layers[0].q_heads == 0);
  CHECK(m->layers[1].window == 512);
  REQUIRE(m->extras.mtp_layers.size() == 3);
  CHECK(m->extras.mtp_layers[0].ffn == moeplan::FfnKind::dense);
  CHECK(m->extras.mtp_layers[0].window == 512);
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("query heads of their own") != std::string::npos);
  CHECK(why->find("head-wise attention output gate") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + "step-3.7-flash.json", "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("query heads of their own") != std::string::npos);
  }
}
