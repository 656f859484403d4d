// Gemma 4 (gemma4, gemma4_text): full-attention layers with heads of their own size
// (global_head_dim) whose keys are the values (attention_k_eq_v), and 26B-A4B's experts beside
// every layer's MLP. The expected counts are printed by the independent recount
// tests/data/hf/recount/gemma4_count.py (standard-library Python written from transformers'
// modeling_gemma4.py, not from moeplan); the caches and score FLOPs are worked out here from the
// config numbers.
#include <doctest/doctest.h>

#include <cmath>

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

moeplan::ServingFit gemma4_served(const std::string& file, int gpus, std::int64_t context) {
  auto m = moeplan::load_model_config(k_hf + file);
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h100");
  o.gpus = gpus;
  o.context = context;
  auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  return *f;
}

// Twice the mean keys a query scores under a window w of a sequence of S (flops_conventions.cpp).
double window_keys(double w, double S) { return w < S ? 2.0 * w - w * w / S : S; }

}  // namespace

TEST_CASE("gemma4: Gemma 4 31B counted as the recount, its full-attention heads of 512 with keys that are the values") {
  // recount/gemma4_count.py gemma-4-31b-it.json: total 30697345280 (tied embedding), dense.
  const json j = score_of(k_hf + "gemma-4-31b-it.json");
  CHECK(size_of(j, "total_params_as_built") == 30697345280.0);
  CHECK(size_of(j, "active_params_as_built") == 30697345280.0);
  // By hand: 50 sliding layers of q, k, v, o with 32 / 16 heads of 256: 5376 x (2 x 32 x 256 +
  // 2 x 16 x 256); 10 full layers of 32 / 4 heads of 512, no v_proj: 5376 x (2 x 32 x 512 + 4 x 512);
  // 60 MLPs of 3 x 5376 x 21504.
  const double attention = 50.0 * 5376 * (2 * 32 * 256 + 2 * 16 * 256) + 10.0 * 5376 * (2 * 32 * 512 + 4 * 512);
  CHECK(attention == 8477736960.0);  // the recount's attention
  CHECK(size_of(j, "N_nonembedding_total") == attention + 60.0 * 3 * 5376 * 21504);
  // Four norms of d a layer, q_norm and k_norm of the layer's head size, the final norm.
  CHECK(size_of(j, "norm_params") == 60.0 * 4 * 5376 + 50.0 * 2 * 256 + 10.0 * 2 * 512 + 5376);
  CHECK(size_of(j, "embedding_params") == 262144.0 * 5376);
  // Score FLOPs, each layer with its own head size: 3 S_eff N_q (h + h).
  const double S = j["model"]["seq_len"].get<double>();
  const double scores = 3.0 * 32 * (10 * S * 2 * 512 + 50 * window_keys(1024, S) * 2 * 256);
  CHECK(j["compute"]["flops_per_token"].get<double>() ==
        doctest::Approx(6.0 * size_of(j, "N_a_nonembedding_active") + scores).epsilon(1e-12));
  const std::string outside = j["model"]["architecture_outside_laws"].dump();
  CHECK(outside.find("attention heads of their own size (up to 512, head_dim 256) in 10 of 60 layers") != std::string::npos);
  CHECK(outside.find("keys that are also the values (k_proj, no v_proj) in 10 of 60 layers") != std::string::npos);
  // The cache: vLLM keeps K and V of the k_eq_v layers too (V = v_norm(k), K = RoPE(k_norm(k))):
  // 10 full layers x 2 x 4 kv heads x 512 x 2 bytes a token for every position; the 50 sliding
  // layers 2 x 16 x 256 x 2 bytes for the last 1024 positions only.
  const auto f = gemma4_served("gemma-4-31b-it.json", 1, 32768);
  CHECK(f.cache_bytes_per_token == doctest::Approx(10.0 * 2 * 4 * 512 * 2));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(10.0 * 2 * 4 * 512 * 2 * 32768 + 50.0 * 2 * 16 * 256 * 2 * 1024));
  // vLLM loads the k_eq_v layers' K weights into their qkv_proj's V slot as well: 10 x 5376 x 4 x 512 more.
  CHECK(f.served_params == doctest::Approx(30697345280.0 + 10.0 * 5376 * 4 * 512));
  // vLLM's hybrid manager first unifies the page size (kv_cache_utils.py,
  // unify_kv_cache_spec_page_size): a full layer keeps 8,192 bytes a token, a sliding one 16,384,
  // so the full layers' blocks hold 2 x 16 = 32 tokens. Groups of 10 layers (the fewest of a
  // kind; 50 is not under 1.5 x 10): 1 full group and 5 sliding ones, 6 in all, each block a
  // page of 16 x 16,384 bytes x 10 layers. The engine reports blocks / 6 x 16 tokens (the least
  // block size); a 32,768-token request takes 32768 / 32 = 1,024 blocks in the full group and
  // cdiv(1023 + 8192, 16) + 1 = 577 in each sliding one: 1,024 + 5 x 577 = 3,909.
  const double blocks = std::floor(f.cache_budget_per_gpu / (16.0 * 16384) / 10);  // bytes
  CHECK(f.kv_cache_tokens == static_cast<std::int64_t>(std::floor(blocks / 6) * 16));
  CHECK(f.max_concurrency == doctest::Approx(blocks / 3909.0));
  CHECK(f.max_concurrency < 1);  // one 32k request does not fit: vLLM would not start
  CHECK_FALSE(f.fits);
}

TEST_CASE("gemma4: Gemma 4 26B-A4B counted as the recount, experts beside every layer's MLP") {
  // recount/gemma4_count.py gemma-4-26b-a4b-it.json: total 25233141760, active 3822530560
  // (Google's 25.2B and 3.8B).
  const json j = score_of(k_hf + "gemma-4-26b-a4b-it.json");
  CHECK(size_of(j, "total_params_as_built") == 25233141760.0);
  CHECK(size_of(j, "active_params_as_built") == 3822530560.0);
  CHECK(j["model"]["moe_layers"] == 30);
  CHECK(j["model"]["layer_kinds"] == "attention+moe_and_dense: 30");
  // Gemma4TextRouter: proj 128 x 2816, scale 2816, per_expert_scale 128, in each of 30 layers.
  CHECK(size_of(j, "router_params") == 30.0 * (128 * 2816 + 2816 + 128));
  // Seven norms of d a layer with the MoE block, q/k norms of 256 (25 sliding) and 512 (5 full).
  CHECK(size_of(j, "norm_params") == 30.0 * 7 * 2816 + 25.0 * 2 * 256 + 5.0 * 2 * 512 + 2816);
  // 5 full layers x 2 x 2 kv heads x 512 x 2 bytes; 25 sliding layers x 2 x 8 x 256 x 2 bytes, capped at 1024.
  const auto f = gemma4_served("gemma-4-26b-a4b-it.json", 1, 32768);
  CHECK(f.cache_bytes_per_token == doctest::Approx(5.0 * 2 * 2 * 512 * 2));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(5.0 * 2 * 2 * 512 * 2 * 32768 + 25.0 * 2 * 8 * 256 * 2 * 1024));
  // The router as Gemma4TextRouter's code fixes it: softmax, top-K renormalised.
  auto m = moeplan::load_model_config(k_hf + "gemma-4-26b-a4b-it.json");
  REQUIRE(m.has_value());
  REQUIRE(m->router.has_value());
  CHECK(m->router->score == moeplan::RouterSpec::Score::softmax);
  CHECK(m->router->norm_topk_prob);
  check_refused("gemma-4-26b-a4b-it.json", "expert_intermediate_size",
                [](json& x) { x["text_config"]["expert_intermediate_size"] = 1408; });
  check_refused("gemma-4-26b-a4b-it.json", "top_k_experts", [](json& x) { x["text_config"].erase("top_k_experts"); });
}

TEST_CASE("gemma4: E2B/E4B's features and unwritten class defaults refused by name") {
  const std::string f = "gemma-4-31b-it.json";
  check_refused(f, "hidden_size_per_layer_input", [](json& x) { x["text_config"]["hidden_size_per_layer_input"] = 256; });
  // Absent, the class's default (256) builds the per-layer inputs.
  check_refused(f, "hidden_size_per_layer_input", [](json& x) { x["text_config"].erase("hidden_size_per_layer_input"); });
  check_refused(f, "num_kv_shared_layers", [](json& x) { x["text_config"]["num_kv_shared_layers"] = 20; });
  check_refused(f, "global_head_dim", [](json& x) { x["text_config"].erase("global_head_dim"); });
  check_refused(f, "num_global_key_value_heads", [](json& x) { x["text_config"].erase("num_global_key_value_heads"); });
  check_refused(f, "use_bidirectional_attention", [](json& x) { x["text_config"]["use_bidirectional_attention"] = "all"; });
  check_refused(f, "intermediate_size", [](json& x) { x["text_config"].erase("intermediate_size"); });
  check_refused(f, "layer_types", [](json& x) { x["text_config"]["layer_types"][3] = "linear_attention"; });
  check_refused(f, "model_type", [](json& x) { x["text_config"]["model_type"] = "gemma3_text"; });
  // Without attention_k_eq_v the full layers build v_proj of num_key_value_heads (16) heads of 512.
  json with_v = fixture(f);
  with_v["text_config"]["attention_k_eq_v"] = false;
  const Run r = score_doc(with_v, "gemma4-with-v.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "total_params_as_built") ==
        30697345280.0 + 10.0 * 5376 * (2 * 16 * 512 - 4 * 512));
  // The class makes the last layer full attention whatever layer_types says.
  json last_sliding = fixture(f);
  last_sliding["text_config"]["layer_types"][59] = "sliding_attention";
  const auto path = temp_path("gemma4-last-sliding.json");
  std::ofstream(path) << last_sliding.dump(2);
  auto m = moeplan::load_model_config(path.string());
  std::filesystem::remove(path);
  REQUIRE(m.has_value());
  CHECK(m->layers.back().window == 0);
  CHECK(m->layers.back().head_dim == 512);
}

TEST_CASE("gemma4: --emit toml writes layer_head_dims and layer_k_eq_v, hf-config, megatron and the cluster refuse them") {
  const auto out = temp_path("gemma4-26b.toml");
  const Run e = run_moeplan({"score", k_hf + "gemma-4-26b-a4b-it.json", "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  auto m = moeplan::load_model_config(out.string());
  std::filesystem::remove(out);
  CHECK(size_of(back, "total_params_as_built") == 25233141760.0);
  CHECK(size_of(back, "active_params_as_built") == 3822530560.0);
  CHECK(size_of(back, "router_params") == 30.0 * (128 * 2816 + 2816 + 128));
  REQUIRE(m.has_value());
  CHECK(m->layers[5].head_dim == 512);
  CHECK(m->layers[5].k_eq_v);
  CHECK(m->layers[5].kv_heads == 2);
  CHECK_FALSE(m->layers[4].k_eq_v);
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("heads of their own size") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + "gemma-4-31b-it.json", "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("keys that are also the values") != std::string::npos);
  }
}

TEST_CASE("gemma4: listed among the supported model_types an unknown one's error names") {
  const Run unknown = score_doc(json{{"model_type", "frobnitz_moe"}}, "unknown-type-gemma4.json");
  REQUIRE(unknown.code == 4);
  CHECK(unknown.err.find("gemma4 (its text_config)") != std::string::npos);
  CHECK(unknown.err.find("gemma4_text") != std::string::npos);
}
