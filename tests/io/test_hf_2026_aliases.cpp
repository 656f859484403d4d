// config.json of the 2026 generation whose layouts moeplan already counts under another name
// (issue 51): qwen3_5_moe and qwen3_5 (Qwen3.5 / Qwen3.6: the qwen3_next layout in a multimodal
// text_config), kimi_k25 (Kimi-K2.5: Kimi-K2's text_config) and glm_moe_dsa (GLM-5 / GLM-5.1:
// DeepSeek-V3.2's layout). Each fixture's _source names where it was read; the expected counts
// are printed by the independent recounts tests/data/hf/recount/qwen3_5_count.py and
// glm_moe_dsa_count.py (standard-library Python written from the modeling code, not from
// moeplan). The serving caches are worked out here from the config numbers.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "hf_scoring.hpp"
#include "moeplan/io/hf_config.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double size_of(const json& j, const char* key) { return j["size"][key].get<double>(); }

moeplan::ServingFit served(const std::string& file, const char* gpu, int gpus, std::int64_t context,
                           bool fp8_weights = false) {
  auto m = moeplan::load_model_config(k_hf + file);
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find(gpu);
  o.gpus = gpus;
  o.context = context;
  if (fp8_weights) o.weights = moeplan::ServePrecision::fp8;
  auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  return *f;
}

}  // namespace

TEST_CASE("qwen3_5_moe: Qwen3.5-35B-A3B counted as the recount, its MTP module beside the model") {
  const json j = score_of(k_hf + "qwen3.5-35b-a3b.json");
  // recount/qwen3_5_count.py qwen3.5-35b-a3b.json: total 34660610688, active 3454988928
  // [embedding + head included], MTP 844640768 (not in the totals).
  CHECK(size_of(j, "total_params_as_built") == 34660610688.0);
  CHECK(size_of(j, "active_params_as_built") == 3454988928.0);
  CHECK(size_of(j, "mtp_params") == 844640768.0);
  // The MTP module shares embed_tokens and lm_head: no copies in the checkpoint.
  CHECK(size_of(j, "total_params_in_checkpoint") == 34660610688.0 + 844640768.0);
  CHECK(j["model"]["moe_layers"] == 40);
  CHECK(j["model"]["attention_layers"] == 10);
  CHECK(j["model"]["linear_mixer_layers"] == 30);
  // Routers (256 x 2048) and shared-expert gates (2048) of the 40 MoE layers.
  CHECK(size_of(j, "router_params") == 40.0 * 256 * 2048);
  CHECK(size_of(j, "gate_and_sink_params") == 40.0 * 2048);
  // The class builds the same FFN in every layer: what would make dense layers is refused.
  check_refused("qwen3.5-35b-a3b.json", "mlp_only_layers", [](json& x) { x["text_config"]["mlp_only_layers"] = {3}; });
  check_refused("qwen3.5-35b-a3b.json", "decoder_sparse_step", [](json& x) { x["text_config"]["decoder_sparse_step"] = 2; });
  check_refused("qwen3.5-35b-a3b.json", "mtp_use_dedicated_embeddings",
                [](json& x) { x["text_config"]["mtp_use_dedicated_embeddings"] = true; });
  check_refused("qwen3.5-35b-a3b.json", "num_experts", [](json& x) { x["text_config"].erase("num_experts"); });
  check_refused("qwen3.5-35b-a3b.json", "model_type", [](json& x) { x["text_config"]["model_type"] = "qwen3_next"; });
  // No MTP key: none built.
  json none = fixture("qwen3.5-35b-a3b.json");
  none["text_config"].erase("mtp_num_hidden_layers");
  const Run r = score_doc(none, "qwen35-no-mtp.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "mtp_params") == 0.0);
}

TEST_CASE("qwen3_5: Qwen3.5-4B, the dense hybrid, counted as the recount") {
  const json j = score_of(k_hf + "qwen3.5-4b.json");
  // recount/qwen3_5_count.py qwen3.5-4b.json: total = active 4205751296 (tied embedding), MTP 120599552.
  CHECK(size_of(j, "total_params_as_built") == 4205751296.0);
  CHECK(size_of(j, "active_params_as_built") == 4205751296.0);
  CHECK(size_of(j, "mtp_params") == 120599552.0);
  CHECK(size_of(j, "embedding_params") == 248320.0 * 2560);  // tied: once
  CHECK(j["model"]["dense_layers"] == 32);
  check_refused("qwen3.5-4b.json", "intermediate_size", [](json& x) { x["text_config"].erase("intermediate_size"); });
  check_refused("qwen3.5-4b.json", "num_experts", [](json& x) { x["text_config"]["num_experts"] = 8; });
}

TEST_CASE("Qwen3.5 serving caches: GQA in the full-attention layers, a fixed gated-DeltaNet state in the others") {
  // Qwen3.5-35B-A3B: 10 full-attention layers of 2 kv heads of 256, K and V, bf16:
  // 10 x 2 x 2 x 256 x 2 = 20,480 bytes a token. 30 gated DeltaNet layers, as vLLM sizes them
  // (gated_delta_net_state_shape): a conv cache of (4 - 1) x (2 x 16 x 128 + 32 x 128) =
  // 24,576 elements and a state of 32 x 128 x 128 = 524,288, bf16: 30 x 548,864 x 2 bytes a sequence.
  const auto moe = served("qwen3.5-35b-a3b.json", "h100", 1, 32768);
  CHECK(moe.cache_bytes_per_token == doctest::Approx(20480.0));
  CHECK(moe.cache_fixed_bytes == doctest::Approx(30.0 * 548864 * 2));
  CHECK(moe.cache_bytes_per_sequence == doctest::Approx(20480.0 * 32768 + 30.0 * 548864 * 2));
  // Qwen3.5-4B: 8 full-attention layers of 4 kv heads of 256; 24 DeltaNet layers of the same state.
  const auto dense = served("qwen3.5-4b.json", "h100", 1, 8192);
  CHECK(dense.cache_bytes_per_token == doctest::Approx(8.0 * 2 * 4 * 256 * 2));
  CHECK(dense.cache_fixed_bytes == doctest::Approx(24.0 * 548864 * 2));
}

TEST_CASE("Qwen3.5 hybrids are refused by name where the cluster, Megatron and transformers export cannot build them") {
  for (const char* emit : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + "qwen3.5-35b-a3b.json", "--emit", emit});
    CAPTURE(emit);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("gated_deltanet") != std::string::npos);
  }
}

TEST_CASE("kimi_k25: Kimi-K2.5's text_config is Kimi-K2's layout, counted as the recount") {
  const json j = score_of(k_hf + "kimi-k2.5.json");
  // recount/glm_moe_dsa_count.py kimi-k2.5.json: total 1026408209408, active 32861477888, no MTP.
  CHECK(size_of(j, "total_params_as_built") == 1026408209408.0);
  CHECK(size_of(j, "active_params_as_built") == 32861477888.0);
  CHECK(size_of(j, "mtp_params") == 0.0);
  // The same model as Kimi-K2 (kimi-k2.json, read by the kimi_k2 rule).
  CHECK(size_of(score_of(k_hf + "kimi-k2.json"), "total_params_as_built") == 1026408209408.0);
  CHECK(j["model"]["dense_layers"] == 1);
  // text_config may name kimi_k2 (the hub's) or deepseek_v3 (the remote code's class); not another family.
  json k2 = fixture("kimi-k2.5.json");
  k2["text_config"]["model_type"] = "kimi_k2";
  const Run r = score_doc(k2, "kimi-k25-as-k2.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "total_params_as_built") == 1026408209408.0);
  check_refused("kimi-k2.5.json", "model_type", [](json& x) { x["text_config"]["model_type"] = "glm4_moe"; });
  check_refused("kimi-k2.5.json", "text_config", [](json& x) { x.erase("text_config"); });
  // MLA's cache: kv_lora_rank + qk_rope_head_dim per token and layer, bf16: 61 x 576 x 2.
  CHECK(served("kimi-k2.5.json", "h200", 8, 32768, true).cache_bytes_per_token == doctest::Approx(61.0 * 576 * 2));
}

TEST_CASE("glm_moe_dsa: GLM-5.1 counted as the recount and as its checkpoint's tensor list") {
  const json j = score_of(k_hf + "glm-5.1.json");
  // recount/glm_moe_dsa_count.py glm-5.1.json: total 743911199232, active 41784709632, MTP 9952920320.
  CHECK(size_of(j, "total_params_as_built") == 743911199232.0);
  CHECK(size_of(j, "active_params_as_built") == 41784709632.0);
  CHECK(size_of(j, "mtp_params") == 9952920320.0);
  // The checkpoint's safetensors list sums to 753,864,139,008 values: the model, its MTP layer
  // (no embedding or head copy) and the e_score_correction_bias buffers (not parameters) of its
  // 75 MoE layers and the MTP layer, 76 x 256, which total_params_in_checkpoint counts.
  CHECK(size_of(j, "total_params_in_checkpoint") == 753864139008.0);
  CHECK(size_of(j, "total_params_in_checkpoint") - size_of(j, "total_params_as_built") - size_of(j, "mtp_params") ==
        76.0 * 256);
  CHECK(j["model"]["dense_layers"] == 3);
  CHECK(j["model"]["attention"] == "MLA");
  // GlmMoeDsaTopkRouter: DeepSeek-V3's sigmoid router with the expert bias, scaled by 2.5.
  const Run m = run_moeplan({"score", k_hf + "glm-5.1.json", "--emit", "megatron"});
  CHECK(m.code == 3);  // the indexer: no Megatron model builds it (refused by name)
  CHECK(m.err.find("indexer") != std::string::npos);
  // mlp_layer_types decides the dense layers; what the class would not build is refused.
  json doc = fixture("glm-5.1.json");
  doc["mlp_layer_types"] = json::array();
  for (int i = 0; i < 78; ++i) doc["mlp_layer_types"].push_back(i < 3 ? "dense" : "sparse");
  const Run same = score_doc(doc, "glm51-mlp-layer-types.json");
  REQUIRE_MESSAGE(same.code == 0, same.err);
  CHECK(size_of(json::parse(same.out).at(0), "total_params_as_built") == 743911199232.0);
  check_refused("glm-5.1.json", "first_k_dense_replace", [](json& x) {
    x["mlp_layer_types"] = json::array();
    for (int i = 0; i < 78; ++i) x["mlp_layer_types"].push_back(i < 4 ? "dense" : "sparse");
  });
  // A schedule of sharing layers without indexer_types (the implementations derive it differently),
  // or a "shared" layer before any "full" one, is refused.
  check_refused("glm-5.1.json", "index_topk_freq", [](json& x) { x["index_topk_freq"] = 4; });
  check_refused("glm-5.1.json", "indexer_types", [](json& x) {
    x["indexer_types"] = json::array();
    for (int i = 0; i < 78; ++i) x["indexer_types"].push_back(i % 4 == 1 ? "full" : "shared");
  });
  check_refused("glm-5.1.json", "qk_head_dim", [](json& x) { x["qk_head_dim"] = 192; });
  check_refused("glm-5.1.json", "index_n_heads", [](json& x) { x.erase("index_n_heads"); });
  // The cache: MLA's latent (512 + 64, bf16) and the indexer's fp8 key of 128 with an fp32
  // scale, per token and layer: 78 x (576 x 2 + 128 + 4) bytes.
  CHECK(served("glm-5.1.json", "h200", 8, 32768, true).cache_bytes_per_token ==
        doctest::Approx(78.0 * (576 * 2 + 128 + 4)));
}

TEST_CASE("glm_moe_dsa: GLM-5.2's IndexShare layers build no indexer and score none, attending the top-k all the same") {
  // GLM-5.2's schedule (index_topk_freq 4, index_skip_topk_offset 3): layers 0-2 and every fourth
  // from 6 run their indexer, 57 of 78 reuse the last one's top-k.
  json doc = fixture("glm-5.1.json");
  doc["indexer_types"] = json::array();
  int shared = 0;
  for (int i = 0; i < 78; ++i) {
    const bool full = i < 3 || (i - 3) % 4 == 3;
    doc["indexer_types"].push_back(full ? "full" : "shared");
    shared += full ? 0 : 1;
  }
  REQUIRE(shared == 57);
  doc["index_topk_freq"] = 4;
  doc["index_skip_topk_offset"] = 3;
  doc["index_share_for_mtp_iteration"] = true;
  const Run r = score_doc(doc, "glm52-indexshare.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out).at(0);
  // By hand, one indexer (DeepSeek-V3.2's, with MLA): wq_b q_lora_rank x n_heads·head_dim = 2048 x
  // 32 x 128, wk d x head_dim = 6144 x 128, weights_proj d x n_heads = 6144 x 32; its k_norm a
  // LayerNorm of 128 with bias (beside N).
  const double indexer = 2048.0 * 32 * 128 + 6144.0 * 128 + 6144.0 * 32;
  CHECK(size_of(j, "total_params_as_built") == 743911199232.0 - 57 * (indexer + 256));
  // Its FLOPs: the projections (6 a weight) and its scores, 3 x S x n_heads x head_dim a token,
  // gone from 57 layers; the attention itself still scores the top-k keys.
  const json full = score_of(k_hf + "glm-5.1.json");
  const auto flops = [](const std::string& path) {
    const Run x = run_moeplan({"score", path, "--tokens", "1e12", "--seq-len", "4096", "--format", "json"});
    REQUIRE(x.code == 0);
    return json::parse(x.out).at(0).at("compute").at("flops_per_token").get<double>();
  };
  const std::string path = temp_path("glm52-flops.json").string();
  std::ofstream(path) << doc.dump();
  CHECK(flops(k_hf + "glm-5.1.json") - flops(path) == doctest::Approx(57 * (6 * indexer + 3.0 * 4096 * 32 * 128)).epsilon(1e-12));
  // A model (a TOML's layer lists) whose shared layer has no indexer before it is refused.
  auto model = moeplan::load_model_config(path);
  REQUIRE(model.has_value());
  CHECK_FALSE(model->problem().has_value());
  model->layers[0].indexed = false;
  model->layers[0].indexer_shared = true;
  REQUIRE(model->problem().has_value());
  CHECK(model->problem()->key == "model.layer_indexer_shared");
  std::filesystem::remove(path);
  CHECK(j.at("model").at("architecture_outside_laws").dump().find("IndexShare) in 57 of 78 layers") != std::string::npos);
  // The cache: the latent in every layer, the indexer's fp8 key and fp32 scale in the 21 full ones.
  const std::string served_path = temp_path("glm52-served.json").string();
  std::ofstream(served_path) << doc.dump();
  const Run sv = run_moeplan({"score", served_path, "--serve-gpus", "8", "--serve-gpu", "h200", "--serve-weights",
                              "fp8", "--serve-context", "32768", "--format", "json"});
  REQUIRE_MESSAGE(sv.code == 0, sv.err);
  CHECK(json::parse(sv.out).at(0).at("serving").at("cache_per_token").get<double>() * 1024 ==
        doctest::Approx(78.0 * 576 * 2 + 21.0 * (128 + 4)));
  std::filesystem::remove(served_path);
}

TEST_CASE("granite and olmo2: dense families counted as the recount, their caches by hand") {
  // recount/granite_olmo2_count.py: granite-3.3-8b 8170864640 (tied), olmo-2-7b 7298617344.
  const json g = score_of(k_hf + "granite-3.3-8b.json");
  CHECK(size_of(g, "total_params_as_built") == 8170864640.0);
  CHECK(size_of(g, "active_params_as_built") == 8170864640.0);
  CHECK(size_of(g, "embedding_params") == 49159.0 * 4096);  // tie_word_embeddings: once
  const json o = score_of(k_hf + "olmo-2-7b.json");
  CHECK(size_of(o, "total_params_as_built") == 7298617344.0);
  // Olmo2Attention's q_norm and k_norm over all heads (32 x 128 each) beside the two norms a
  // layer and the final one: 32 x (2 x 4096 + 2 x 4096) + 4096.
  CHECK(size_of(o, "norm_params") == 32.0 * 4 * 4096 + 4096);
  // attention_bias and mlp_bias: q/k/v/o biases counted; FFN biases refused (not counted by moeplan).
  json biased = fixture("granite-3.3-8b.json");
  biased["attention_bias"] = true;
  const Run r = score_doc(biased, "granite-attention-bias.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "bias_params") == 40.0 * (4096 + 2 * 1024 + 4096));
  check_refused("granite-3.3-8b.json", "mlp_bias", [](json& x) { x["mlp_bias"] = true; });
  // GQA caches: 40 layers x 2 x 8 kv heads x 128 x 2 bytes; OLMo 2: 32 x 2 x 32 x 128 x 2.
  CHECK(served("granite-3.3-8b.json", "h100", 1, 8192).cache_bytes_per_token == doctest::Approx(40.0 * 2 * 8 * 128 * 2));
  CHECK(served("olmo-2-7b.json", "h100", 1, 4096).cache_bytes_per_token == doctest::Approx(32.0 * 2 * 32 * 128 * 2));
  // Granite's layer is Llama's: --emit hf-config writes llama and reads back the same count;
  // OLMo 2's full-width qk-norm has no class moeplan writes: refused by name.
  const auto out = temp_path("granite-as-llama.json");
  const Run e = run_moeplan({"score", k_hf + "granite-3.3-8b.json", "--emit", "hf-config", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_of(out.string());
  std::filesystem::remove(out);
  CHECK(back["size"]["total_params_as_built"] == g["size"]["total_params_as_built"]);
  const Run refused = run_moeplan({"score", k_hf + "olmo-2-7b.json", "--emit", "hf-config"});
  CHECK(refused.code == 3);
  CHECK(refused.err.find("none of") != std::string::npos);
}

TEST_CASE("moeplan-score(1) names every model_type the reader supports, and README says how many") {
  // The registry's list (the error message's, hf_supported_model_types) is the truth: each name
  // must appear in the man page as a word ("\-" is the man page's hyphen), and README's count
  // must be the list's length.
  std::string list(moeplan::hf_supported_model_types());
  list = list.substr(list.find(": ") + 2);
  std::vector<std::string> names;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(", ", at), list.size());
    const std::string name = list.substr(at, comma - at);
    names.push_back(name.substr(0, name.find(' ')));
    at = comma + 2;
  }
  const auto text_of = [](const std::string& file) {
    std::ifstream in(std::string(MOEPLAN_SOURCE_DIR) + "/" + file);
    const std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::string all;  // "\-" read as "-", line ends as spaces
    for (std::size_t i = 0; i < raw.size(); ++i) {
      if (raw[i] == '\\' && i + 1 < raw.size() && raw[i + 1] == '-') continue;
      all.push_back(raw[i] == '\n' ? ' ' : raw[i]);
    }
    return all;
  };
  const std::string man = text_of("man/moeplan-score.1");
  const auto word_char = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-'; };
  for (const std::string& name : names) {
    CAPTURE(name);
    bool found = false;
    for (std::size_t at = man.find(name); at != std::string::npos && !found; at = man.find(name, at + 1)) {
      const bool left = at == 0 || !word_char(man[at - 1]);
      const bool right = at + name.size() >= man.size() || !word_char(man[at + name.size()]);
      found = left && right;
    }
    CHECK(found);
  }
  // (scripts/update-figures.sh writes both from the binary; this holds them to the registry too)
  CHECK(text_of("README.md").find(fmt::format("-->{}<!-- /model-types-count --> model_types", names.size())) !=
        std::string::npos);
}

TEST_CASE("gemma2: Gemma 2 9B counted as the recount, four norms a layer, every other layer windowed") {
  // recount/gemma2_count.py gemma-2-9b.json: 9241705984 (tied embedding; Google's 9.24B).
  const json j = score_of(k_hf + "gemma-2-9b.json");
  CHECK(size_of(j, "total_params_as_built") == 9241705984.0);
  CHECK(size_of(j, "norm_params") == 42.0 * 4 * 3584 + 3584);  // post_block_norms: 4 of d a layer
  CHECK(size_of(j, "embedding_params") == 256000.0 * 3584);
  // Gemma2Config's defaults differ from what moeplan would assume: written, or refused.
  check_refused("gemma-2-9b.json", "head_dim", [](json& x) { x.erase("head_dim"); });
  check_refused("gemma-2-9b.json", "num_key_value_heads", [](json& x) { x.erase("num_key_value_heads"); });
  // The cache: the 21 full-attention layers (1, 3, ...) keep every position, 2 x 8 kv heads x
  // 256 x 2 bytes a token; the 21 sliding ones (0, 2, ...) keep the last 4096 positions only.
  const auto f = served("gemma-2-9b.json", "h100", 1, 8192);
  CHECK(f.cache_bytes_per_token == doctest::Approx(21.0 * 2 * 8 * 256 * 2));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(21.0 * 2 * 8 * 256 * 2 * 8192 + 21.0 * 2 * 8 * 256 * 2 * 4096));
  // layer_types, when written, decides the windows instead.
  json all_full = fixture("gemma-2-9b.json");
  all_full["layer_types"] = json::array();
  for (int i = 0; i < 42; ++i) all_full["layer_types"].push_back("full_attention");
  const auto path = temp_path("gemma2-all-full.json");
  std::ofstream(path) << all_full.dump(2);
  auto m = moeplan::load_model_config(path.string());
  std::filesystem::remove(path);
  REQUIRE(m.has_value());
  for (const auto& l : m->layer_specs()) CHECK(l.window == 0);
  // Megatron-LM builds no norm after a block: --emit megatron says so.
  const Run mg = run_moeplan({"score", k_hf + "gemma-2-9b.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(mg.code == 0, mg.err);
  CHECK(mg.out.find("the norms after each block") != std::string::npos);
}

TEST_CASE("gemma3: Gemma 3 1B (gemma3_text) and 4B (its text_config) counted as the recount, windows by the pattern") {
  // recount/gemma3_count.py: gemma-3-1b 999885952, gemma-3-4b's text model 3880263168 (tied).
  const json one = score_of(k_hf + "gemma-3-1b.json");
  CHECK(size_of(one, "total_params_as_built") == 999885952.0);
  // Four norms of 1152 and q_norm, k_norm of 256 a layer, and the final norm.
  CHECK(size_of(one, "norm_params") == 26.0 * (4 * 1152 + 2 * 256) + 1152);
  CHECK(size_of(score_of(k_hf + "gemma-3-4b.json"), "total_params_as_built") == 3880263168.0);
  // sliding_window_pattern 6: layers 5, 11, 17, 23 keep every position (1 kv head of 256, K
  // and V, bf16), the other 22 the last 512 only.
  const auto f = served("gemma-3-1b.json", "h100", 1, 32768);
  CHECK(f.cache_bytes_per_token == doctest::Approx(4.0 * 2 * 1 * 256 * 2));
  CHECK(f.cache_bytes_per_sequence == doctest::Approx(4.0 * 1024 * 32768 + 22.0 * 1024 * 512));
  // Gemma 3 4B: 5 full layers of 4 kv heads (29 of 34 windowed by 1024).
  const auto g = served("gemma-3-4b.json", "h100", 1, 32768);
  CHECK(g.cache_bytes_per_token == doctest::Approx(5.0 * 2 * 4 * 256 * 2));
  check_refused("gemma-3-4b.json", "model_type", [](json& x) { x["text_config"]["model_type"] = "gemma2"; });
}
