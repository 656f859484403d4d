// minimax_m3 (MiniMax-M3's language model, top level or as minimax_m3_vl's text_config) of
// issue 51: GQA with MiniMax Sparse Attention's block indexer in 57 of 60 layers, dense FFNs
// of dense_intermediate_size in the first three, 128 experts and a shared one in the others.
// Fixture tests/data/hf/minimax-m3.json: the hub file at revision f0e1c1e0 byte for byte (less its
// _source line it has the SHA-256 a validator pins; recount/hub_sha256.py). The expected counts are printed by the
// independent recount tests/data/hf/recount/minimax_m3_count.py (standard-library Python
// written from transformers' modeling_minimax_m3_vl.py, not from moeplan); the cache is worked
// out here from the config numbers.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double m3_size(const json& j, const char* key) { return j["size"][key].get<double>(); }

json m3_scored(const json& doc, const std::string& name) {
  const Run r = score_doc(doc, name);
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

}  // namespace

TEST_CASE("minimax_m3: MiniMax-M3 counted as the recount, its indexer in N, declared MTP not counted") {
  // recount/minimax_m3_count.py minimax-m3.json: total 426174565632 (embedding and lm_head
  // included), active 25962466560, N 423670579200, N_a 23458480128; routers 44826624, norms
  // 773376. The card: ~428B with the vision tower, ~23B activated (N_a, no embeddings).
  const json j = score_of(k_hf + "minimax-m3.json");
  CHECK(m3_size(j, "total_params_as_built") == 426174565632.0);
  CHECK(m3_size(j, "active_params_as_built") == 25962466560.0);
  CHECK(m3_size(j, "N_nonembedding_total") == 423670579200.0);
  CHECK(m3_size(j, "N_a_nonembedding_active") == 23458480128.0);
  CHECK(m3_size(j, "router_params") == 44826624.0);
  CHECK(m3_size(j, "norm_params") == 773376.0);
  // num_mtp_modules 7 (num_nextn_predict_layers 1): configuration_minimax_m3_vl.py says
  // "ignored at inference", modeling_minimax_m3_vl.py builds none: null with why, not 0.
  CHECK(j["size"]["mtp_params"].is_null());
  CHECK(j["size"]["mtp_params_reason"].get<std::string>().find("7 declared MTP module(s)") != std::string::npos);
  CHECK(j["size"]["total_params_in_checkpoint"].is_null());
  // The vision tower (vision_config) is not counted: null with why, the totals text-only.
  CHECK(j["size"]["vision_params"].is_null());
  CHECK(j["size"]["vision_params_reason"].get<std::string>().find("vision_config") != std::string::npos);
  CHECK(j["model"]["dense_layers"] == 3);
  CHECK(j["model"]["moe_layers"] == 57);
  // By hand: the indexer of a sparse layer is q_proj d x 4 x 128 and k_proj d x 128.
  const double d = 6144;
  json dense_attention = fixture("minimax-m3.json");
  auto& s = dense_attention["text_config"]["sparse_attention_config"];
  for (auto& v : s["sparse_attention_freq"]) v = 0;
  const json plain = m3_scored(dense_attention, "minimax-m3-no-msa.json");
  CHECK(m3_size(j, "N_nonembedding_total") - m3_size(plain, "N_nonembedding_total") == 57 * (d * 4 * 128 + d * 128));
  CHECK(m3_size(j, "norm_params") - m3_size(plain, "norm_params") == 57 * 2 * 128.0);
  // The same text model at the top level (minimax_m3), and whatever model_type the text_config
  // names (MiniMaxM3VLConfig pops it: checkpoints write minimax_m2 there).
  json top = fixture("minimax-m3.json")["text_config"];
  top["model_type"] = "minimax_m3";
  json text_only_size = j["size"];  // no vision_config at the top level: no vision_params
  text_only_size.erase("vision_params");
  text_only_size.erase("vision_params_reason");
  CHECK(m3_scored(top, "minimax-m3-top.json")["size"] == text_only_size);
  json m2_named = fixture("minimax-m3.json");
  m2_named["text_config"]["model_type"] = "minimax_m2";
  CHECK(m3_scored(m2_named, "minimax-m3-m2-named.json")["size"] == j["size"]);
}

TEST_CASE("minimax_m3: the cache keeps K and V in every layer and the indexer's key in the 57 sparse ones") {
  auto m = moeplan::load_model_config(k_hf + "minimax-m3.json");
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = 65536;
  auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  // 60 x 2 (K, V) x 4 kv heads x 128 x 2 bytes, + 57 x 128 x 2 bytes of index keys (bf16).
  CHECK(f->cache_bytes_per_token == doctest::Approx(60.0 * 2 * 4 * 128 * 2 + 57.0 * 128 * 2));
  CHECK(f->cache_bytes_per_sequence == doctest::Approx((60.0 * 2 * 4 * 128 * 2 + 57.0 * 128 * 2) * 65536));
}

TEST_CASE("minimax_m3: what transformers would build otherwise is refused by name") {
  const std::string f = "minimax-m3.json";
  check_refused(f, "moe_layer_freq", [](json& x) { x["text_config"].erase("moe_layer_freq"); });
  check_refused(f, "use_qk_norm", [](json& x) { x["text_config"]["use_qk_norm"] = false; });
  check_refused(f, "attention_output_gate", [](json& x) { x["text_config"]["attention_output_gate"] = true; });
  check_refused(f, "sparse_attention_config", [](json& x) {
    x["text_config"]["sparse_attention_config"]["sparse_disable_index_value"][5] = 0;
  });
  check_refused(f, "sparse_attention_config", [](json& x) {
    x["text_config"]["sparse_attention_config"].erase("sparse_index_dim");
  });
  check_refused(f, "layer_types", [](json& x) { x["text_config"]["layer_types"] = json::array({"linear_attention"}); });
  check_refused(f, "head_dim", [](json& x) { x["text_config"].erase("head_dim"); });
  check_refused(f, "shared_intermediate_size", [](json& x) { x["text_config"].erase("shared_intermediate_size"); });
}

TEST_CASE("minimax_m3: TOML round trip, hf-config, megatron and the cluster refuse its indexer by name") {
  const auto out = temp_path("minimax-m3.toml");
  const Run e = run_moeplan({"score", k_hf + "minimax-m3.json", "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  auto m = moeplan::load_model_config(out.string());
  std::filesystem::remove(out);
  const json j = score_of(k_hf + "minimax-m3.json");
  CHECK(back["size"] == j["size"]);
  CHECK(back["compute"] == j["compute"]);
  REQUIRE(m.has_value());
  REQUIRE(m->indexer.has_value());
  CHECK(m->indexer->kind == moeplan::AttentionIndexer::Kind::msa);
  CHECK(m->indexer->keys_attended() == 17.0 * 128);
  CHECK_FALSE(m->layers[2].indexed);
  CHECK(m->layers[3].indexed);
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("block-sparse attention indexer") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + "minimax-m3.json", "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("block-sparse attention indexer") != std::string::npos);
  }
}
