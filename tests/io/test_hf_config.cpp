// config.json of the MoE families people download is read by model_type, counted as each
// architecture builds it, and refused (exit 4, naming the key) when moeplan could not count
// it, never read as a dense model (issue: "Read every mainstream MoE config.json correctly").
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/io/hf_config.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

struct Official {
  std::string file, model_type;
  double total = 0, active = 0;
  std::string hf_export;  ///< the class --emit hf-config writes, or "none"
};

std::vector<Official> officials() {
  std::ifstream in(k_hf + "official.csv");
  std::vector<Official> out;
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    if (header) {
      header = false;
      continue;
    }
    std::istringstream row(line);
    Official o;
    std::string total, active;
    std::getline(row, o.file, ',');
    std::getline(row, o.model_type, ',');
    std::getline(row, total, ',');
    std::getline(row, active, ',');
    std::getline(row, o.hf_export, ',');
    o.total = std::stod(total);
    o.active = std::stod(active);
    out.push_back(o);
  }
  return out;
}

json score_json(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

Run score_text(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path) << text;
  Run r = run_moeplan({"score", path.string()});
  std::filesystem::remove(path);
  return r;
}

}  // namespace

TEST_CASE("config.json of every supported model_type: totals within 2 % of the official figures") {
  const std::vector<Official> models = officials();
  REQUIRE(models.size() >= 21);
  std::set<std::string> families;
  for (const Official& o : models) {
    CAPTURE(o.file);
    families.insert(o.model_type);
    const json j = score_json(k_hf + o.file);
    // As built: N with embeddings plus the routers, norms, biases and sinks beside it.
    const double total = j["size"]["total_params_as_built"].get<double>();
    CHECK(total == doctest::Approx(o.total).epsilon(0.02));
    if (o.active < o.total) {  // an MoE model: read as MoE, never as a dense one
      CHECK(j["experts"]["active_experts"].get<double>() >= 1);
      CHECK(j["model"]["moe_layers"].get<int>() > 0);
    } else {
      CHECK(j["model"]["moe_layers"].get<int>() == 0);
    }
  }
  // The families of the first reading of config.json each have an official row.
  for (const char* family : {"deepseek_v2", "deepseek_v3", "kimi_k2", "glm4_moe", "dots1", "qwen2_moe",
                             "qwen3_moe", "mixtral", "olmoe", "gpt_oss", "hunyuan_v1_moe", "llama4",
                             "llama", "mistral", "qwen2", "qwen3", "gemma", "phi3"}) {
    CAPTURE(family);
    CHECK(families.contains(family));
  }
}

TEST_CASE("every model_type the reader names as supported has a public config.json fixture that it reads") {
  namespace fs = std::filesystem;
  // The model_types of the fixtures (a multimodal file counts for its own and its text model's).
  std::set<std::string> fixtures;
  for (const auto& entry : fs::directory_iterator(k_hf)) {
    if (entry.path().extension() != ".json") continue;
    const json j = json::parse(std::ifstream(entry.path()));
    if (j.contains("model_type")) fixtures.insert(j["model_type"].get<std::string>());
    if (j.contains("text_config") && j["text_config"].contains("model_type")) {
      fixtures.insert(j["text_config"]["model_type"].get<std::string>());
    }
  }
  // "supported: a, b (its text_config), c" -> a, b, c.
  std::string list(moeplan::hf_supported_model_types());
  list = list.substr(list.find(": ") + 2);
  int supported = 0;
  for (std::size_t at = 0; at < list.size();) {
    const std::size_t comma = std::min(list.find(", ", at), list.size());
    std::string name = list.substr(at, comma - at);
    name = name.substr(0, name.find(' '));
    at = comma + 2;
    ++supported;
    CAPTURE(name);
    // Text models without a published file of their own (glm4v_moe_text, ...) are read from
    // their multimodal checkpoint's text_config; Ling 2.0 is published as bailing_moe (told
    // apart by its architectures), MiniMax-Text-01 as minimax_text_01 (transformers: minimax).
    const bool text_model = name.ends_with("_text");
    CHECK((fixtures.contains(name) || (text_model && fixtures.contains(name.substr(0, name.size() - 5))) ||
           (name == "bailing_moe_v2" && fixtures.contains("bailing_moe")) ||
           (name == "minimax" && fixtures.contains("minimax_text_01")) ||
           (name == "step3_text" && fixtures.contains("step3_vl")) ||
           // MiniMax-M3's text_config names no model_type (MiniMaxM3VLConfig builds it anyway)
           (name == "minimax_m3" && fixtures.contains("minimax_m3_vl"))));
  }
  CHECK(supported >= 48);
}

TEST_CASE("what gpt-oss builds beside N: routers with biases, attention biases and sinks, expert biases") {
  // gpt-oss-20b: L = 24 MoE layers, d = 2880, N_e = 32 experts of d_m = 2880, 64 query and
  // 8 kv heads of 64 (GptOssAttention: q, k, v, o biases and one sink per head; the router
  // Linear has biases; each expert a gate_up bias of 2 d_m and a down bias of d).
  const json s = score_json(k_hf + "gpt-oss-20b.json")["size"];
  const double L = 24, d = 2880, E = 32, dm = 2880, hd = 64, nq = 64, nkv = 8;
  CHECK(s["router_params"].get<double>() == L * E * (d + 1));
  CHECK(s["bias_params"].get<double>() == L * ((nq + 2 * nkv) * hd + d) + L * E * (2 * dm + d));
  CHECK(s["gate_and_sink_params"].get<double>() == L * nq);
  CHECK(s["norm_params"].get<double>() == L * 2 * d + d);
  // Qwen1.5-MoE (qwen2_moe): the shared-expert gate, d weights in each of the 24 MoE layers.
  const json q = score_json(k_hf + "qwen1.5-moe-a2.7b.json")["size"];
  CHECK(q["gate_and_sink_params"].get<double>() == 24.0 * 2048);
}

TEST_CASE("export hf-config round trip for every family: score of the export counts the same") {
  namespace fs = std::filesystem;
  const fs::path dir = temp_path("moeplan-hf-roundtrip");
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const Official& o : officials()) {
    CAPTURE(o.file);
    const std::string out = (dir / o.file).string();
    const json a = score_json(k_hf + o.file);
    // And through moeplan's own TOML, which expresses every model the reader counts.
    const std::string toml = (dir / (o.file + ".toml")).string();
    REQUIRE(run_moeplan({"score", k_hf + o.file, "--emit", "toml", "-o", toml}).code == 0);
    const json c = score_json(toml);
    CHECK(c["size"] == a["size"]);
    CHECK(c["model"] == a["model"]);
    CHECK(c["compute"] == a["compute"]);
    const Run r = run_moeplan({"score", k_hf + o.file, "--emit", "hf-config", "-o", out});
    if (o.hf_export == "none") {  // no class moeplan writes builds it: refused, nothing written
      CHECK(r.code == 3);
      CHECK(r.err.find("none of") != std::string::npos);
      CHECK_FALSE(fs::exists(out));
      continue;
    }
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const json exported = json::parse(std::ifstream(out));
    // The class official.csv names: the source's own (Llama 4's language model is
    // llama4_text; kimi_k2, which has no transformers class, is the DeepSeek-V3 it copies).
    CHECK(exported["model_type"] == o.hf_export);
    const json b = score_json(out);
    for (const char* key : {"N_nonembedding_total", "N_a_nonembedding_active", "embedding_params", "router_params",
                            "norm_params", "bias_params", "gate_and_sink_params", "mtp_params"}) {
      CAPTURE(key);
      CHECK(b["size"][key] == a["size"][key]);
    }
    CHECK(b["model"]["dense_layers"] == a["model"]["dense_layers"]);
    CHECK(b["compute"]["flops_per_token"] == a["compute"]["flops_per_token"]);
  }
  fs::remove_all(dir);
}

TEST_CASE("a preset counts exactly as its model's config.json, beside N and MTP included") {
  // Every preset named after a model with a fixture here: the same N, N_a, routers, norms,
  // biases, sinks, MTP modules and as-built totals, and --emit hf-config writes the model's
  // own class (gpt-oss-20b was written as glm4_moe without its biases and sinks).
  for (const char* name : {"qwen3-30b-a3b", "qwen3-235b-a22b", "glm-4.5-air", "glm-4.5", "deepseek-v3.1",
                           "kimi-k2", "gpt-oss-20b", "gpt-oss-120b", "hunyuan-a13b"}) {
    CAPTURE(name);
    json from_json = score_json(k_hf + name + ".json")["size"];
    json from_toml = score_json(name)["size"];
    REQUIRE(from_toml["stated_total_params"].is_number());  // the preset states the card's total
    for (json* s : {&from_json, &from_toml}) {
      s->erase("stated_total_params");
      s->erase("stated_total_params_reason");
    }
    CHECK(from_json == from_toml);
    const Run a = run_moeplan({"score", name, "--emit", "hf-config"});
    const Run b = run_moeplan({"score", k_hf + name + ".json", "--emit", "hf-config"});
    REQUIRE(a.code == 0);
    REQUIRE(b.code == 0);
    CHECK(json::parse(a.out)["model_type"] == json::parse(b.out)["model_type"]);
  }
}

TEST_CASE("MTP modules: counted beside the model, against DeepSeek's 671B + 14B = 685B") {
  // DeepSeek-V3's README_WEIGHTS.md: main model 671B; one MTP module of 11.5B unique
  // parameters plus the embedding and head the checkpoint stores with it; 685B on HF.
  const json s = score_json(k_hf + "deepseek-v3.1.json")["size"];
  CHECK(s["total_params_as_built"].get<double>() == doctest::Approx(671e9).epsilon(0.005));
  CHECK(s["mtp_params"].get<double>() == doctest::Approx(11.5e9).epsilon(0.015));
  CHECK(s["total_params_in_checkpoint"].get<double>() == doctest::Approx(685e9).epsilon(0.005));
  // Exactly: as built, the module, its embedding and head copies (2 x 129280 x 7168) and the
  // e_score_correction_bias buffers of the 58 MoE layers and the module's (59 x 256).
  CHECK(s["total_params_in_checkpoint"].get<double>() == s["total_params_as_built"].get<double>() +
                                                              s["mtp_params"].get<double>() + 2.0 * 129280 * 7168 +
                                                              59.0 * 256);
  // The module is outside N, N_a, M and the as-built total: the same file without it.
  std::ifstream in(k_hf + "deepseek-v3.1.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string key = "\"num_nextn_predict_layers\": 1";
  REQUIRE(text.find(key) != std::string::npos);
  text.replace(text.find(key), key.size(), "\"num_nextn_predict_layers\": 0");
  const auto path = temp_path("moeplan-hf-no-mtp.json");
  std::ofstream(path) << text;
  const json without = score_json(path.string());
  std::filesystem::remove(path);
  CHECK(without["size"]["mtp_params"] == 0);
  // Without the module the checkpoint holds the model and the 58 MoE layers' buffers (58 x 256).
  CHECK(without["size"]["total_params_in_checkpoint"].get<double>() ==
        without["size"]["total_params_as_built"].get<double>() + 58.0 * 256);
  const json with = score_json(k_hf + "deepseek-v3.1.json");
  for (const char* key2 : {"N_nonembedding_total", "N_a_nonembedding_active", "total_params_as_built",
                           "active_params_as_built"}) {
    CAPTURE(key2);
    CHECK(with["size"][key2] == without["size"][key2]);
  }
  CHECK(with["compute"]["flops_per_token"] == without["compute"]["flops_per_token"]);
  // GLM-4.5: the module is one of its MoE layers with the same q/k/v biases and qk-norm.
  const json g = score_json(k_hf + "glm-4.5.json")["size"];
  const double d = 5120, hd = 128, nq = 96, nkv = 8, E = 160;
  const double layer = 2 * d * nq * hd + 2 * d * nkv * hd + 3 * d * 1536 * (E + 1) + E * d + 2 * d +
                       (nq + 2 * nkv) * hd + 2 * hd;
  CHECK(g["mtp_params"].get<double>() == 2 * d + 2 * d * d + layer + d);
}

TEST_CASE("config.json that moeplan cannot count is refused with the key named (exit 4)") {
  struct Case {
    const char* what;
    std::string text;
    const char* key;
  };
  const std::string base = R"("hidden_size": 1024, "num_hidden_layers": 8, "num_attention_heads": 8,
    "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 4096, "vocab_size": 32000)";
  const std::vector<Case> cases{
      {"no model_type", "{" + base + "}", "model_type"},
      {"an unknown model_type", R"({"model_type": "frobnitz_moe", )" + base + "}", "model_type"},
      {"a model_type not yet counted (zamba2 shares attention blocks between Mamba layers)",
       R"({"model_type": "zamba2", "mamba_d_state": 64, "num_experts": 16, )" + base + "}",
       "model_type"},
      {"Hunyuan's per-layer top-k that differs between layers",
       R"({"model_type": "hunyuan_v1_moe", "num_experts": 8, "moe_topk": [2, 2, 4, 2, 2, 2, 2, 2], )" + base + "}",
       "moe_topk"},
      {"Llama 4 MoE layers that are not every k-th", R"({"model_type": "llama4_text", "num_local_experts": 4,
           "num_experts_per_tok": 1, "interleave_moe_layer_step": 2, "intermediate_size_mlp": 8192,
           "moe_layers": [1, 2, 5, 7], )" + base + "}",
       "moe_layers"},
      {"gpt-oss top-k written twice, differently", R"({"model_type": "gpt_oss", "num_local_experts": 8,
           "num_experts_per_tok": 2, "experts_per_token": 4, )" + base + "}",
       "experts_per_token"},
      {"latent attention in a class that builds none", R"({"model_type": "glm4_moe", "n_routed_experts": null, "kv_lora_rank": 512,
           "qk_nope_head_dim": 64, "qk_rope_head_dim": 32, "v_head_dim": 64, )" + base + "}",
       "kv_lora_rank"},
      {"Llama 4's dense width in a Mixtral file", R"({"model_type": "mixtral", "num_local_experts": 8,
           "num_experts_per_tok": 2, "intermediate_size_mlp": 8192, )" + base + "}",
       "intermediate_size_mlp"},
      {"a DeepSeek file that leaves the expert count to the class default",
       R"({"model_type": "deepseek_v3", "kv_lora_rank": 512, "qk_nope_head_dim": 64, "qk_rope_head_dim": 32,
           "v_head_dim": 64, )" + base + "}",
       "n_routed_experts"},
      {"a Mixtral file that leaves N_kv to the class default (8, not N_q)",
       R"({"model_type": "mixtral", "num_local_experts": 8, "num_experts_per_tok": 2, "hidden_size": 1024,
           "num_hidden_layers": 8, "num_attention_heads": 16, "intermediate_size": 4096, "vocab_size": 32000})",
       "num_key_value_heads"},
      {"a shared expert in Qwen3-MoE, which builds none", R"({"model_type": "qwen3_moe", "num_experts": 8,
           "num_experts_per_tok": 2, "moe_intermediate_size": 256, "shared_expert_intermediate_size": 512, )" + base + "}",
       "shared_expert_intermediate_size"},
      {"MLA ranks without kv_lora_rank", R"({"model_type": "deepseek_v3", "n_routed_experts": null,
           "q_lora_rank": 512, "qk_nope_head_dim": 64, "qk_rope_head_dim": 32, "v_head_dim": 64, )" + base + "}",
       "q_lora_rank"},
      {"Hunyuan experts narrower than the shared MLP (the two Hunyuan codes build different models)",
       R"({"model_type": "hunyuan_v1_moe", "num_experts": 8, "moe_topk": 2, "moe_intermediate_size": 1024, )" + base + "}",
       "moe_intermediate_size"},
      {"kv heads that do not divide the query heads", R"({"model_type": "llama", "hidden_size": 1024,
           "num_hidden_layers": 8, "num_attention_heads": 12, "num_key_value_heads": 5, "intermediate_size": 4096,
           "vocab_size": 32000})",
       "num_key_value_heads"},
      {"an unknown model_type whose other keys are wrong too (the family is judged first)",
       R"({"model_type": "mpt", "d_model": 6144, "n_layers": 40})", "model_type"},
      {"a dense family with expert keys", R"({"model_type": "llama", "num_experts_per_tok": 2, )" + base + "}",
       "num_experts_per_tok"},
      {"DeepSeek's key in a Qwen file",
       R"({"model_type": "qwen3_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256,
           "n_routed_experts": 8, )" + base + "}",
       "n_routed_experts"},
      {"Qwen MoE every other layer", R"({"model_type": "qwen2_moe", "num_experts": 8, "num_experts_per_tok": 2,
           "moe_intermediate_size": 256, "decoder_sparse_step": 2, )" + base + "}",
       "decoder_sparse_step"},
      {"MTP modules in a family whose modules moeplan does not count",
       R"({"model_type": "qwen3_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256,
           "num_nextn_predict_layers": 1, )" + base + "}",
       "num_nextn_predict_layers"},
      {"Qwen dense layers that are not leading", R"({"model_type": "qwen3_moe", "num_experts": 8,
           "num_experts_per_tok": 2, "moe_intermediate_size": 256, "mlp_only_layers": [3, 5], )" + base + "}",
       "mlp_only_layers"},
  };
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    const Run r = score_text("moeplan-hf-refused.json", c.text);
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(std::string(": ") + c.key + ":") != std::string::npos);
  }
}

TEST_CASE("Qwen's leading dense layers (mlp_only_layers 0..k-1) are the first_k_dense_replace of the count") {
  const std::string text = R"({"model_type": "qwen3_moe", "hidden_size": 1024, "num_hidden_layers": 8,
    "num_attention_heads": 8, "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 4096, "vocab_size": 32000,
    "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256, "mlp_only_layers": [0, 1]})";
  const auto path = temp_path("moeplan-hf-dense-lead.json");
  std::ofstream(path) << text;
  const json j = score_json(path.string());
  CHECK(j["model"]["dense_layers"] == 2);
  CHECK(j["model"]["moe_layers"] == 6);
  std::filesystem::remove(path);
}

TEST_CASE("score config.json --tokens/--flops: a downloaded config gets a training budget") {
  const std::string path = k_hf + "qwen3-30b-a3b.json";
  const json none = score_json(path);
  CHECK(none["joint_law"]["predicted_loss"].is_null());
  const Run r = run_moeplan({"score", path, "--tokens", "36e12", "--format", "json"});
  REQUIRE(r.code == 0);
  const json with = json::parse(r.out).at(0);
  CHECK(with["compute"]["tokens"].get<double>() == 36e12);
  CHECK(with["joint_law"]["predicted_loss"].is_number());
  // The same budget as the preset's [training] gives the preset's numbers.
  const json preset = score_json("qwen3-30b-a3b");
  CHECK(with["joint_law"]["predicted_loss"] == preset["joint_law"]["predicted_loss"]);
  const Run flops = run_moeplan({"score", path, "--flops", "1e24", "--format", "json"});
  REQUIRE(flops.code == 0);
  CHECK(json::parse(flops.out).at(0)["compute"]["compute"].get<double>() == 1e24);
  CHECK(run_moeplan({"score", path, "--tokens", "1e12", "--flops", "1e24"}).code == 2);
  CHECK(run_moeplan({"score", path, "--seq-len", "4096"}).code == 2);
}

TEST_CASE("a model no transformers class builds as counted is refused by --emit hf-config (exit 3)") {
  // MoE every second layer without Llama 4's shared expert: glm4_moe, qwen2_moe and
  // llama4_text all build something else, so writing any of them would be a wrong file.
  const auto path = temp_path("moeplan-hf-unexportable.toml");
  std::ofstream(path) << R"(schema = "moeplan-model/1"
name = "interleaved"
[model]
hidden_size = 1024
num_hidden_layers = 8
moe_layer_interval = 2
intermediate_size = 4096
moe_intermediate_size = 512
n_routed_experts = 8
num_experts_per_tok = 2
num_attention_heads = 8
vocab_size = 32000
)";
  const Run r = run_moeplan({"score", path.string(), "--emit", "hf-config"});
  CHECK(r.code == 3);
  CHECK(r.out.empty());
  CHECK(r.err.find("glm4_moe, qwen2_moe, llama4_text") != std::string::npos);
  const json j = score_json(path.string());
  CHECK(j["model"]["moe_layers"] == 4);  // layers 1, 3, 5, 7
  CHECK(j["model"]["dense_layers"] == 4);
  std::filesystem::remove(path);
}

TEST_CASE("Megatron export of config.json models: balance loss on, full-rank queries without a rank flag") {
  const Run r = run_moeplan({"score", k_hf + "deepseek-v2-lite.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  // Megatron's default aux-loss coefficient is 0 (no balancing); paper 000 uses 0.01 and a
  // z-loss of 0.001. q_lora_rank null is full rank, which Megatron spells by leaving the
  // flag out (0 would build a rank-0 query bottleneck).
  CHECK(r.out.find("--moe-aux-loss-coeff 0.01 \\\n") != std::string::npos);
  CHECK(r.out.find("--moe-z-loss-coeff 0.001") != std::string::npos);
  CHECK(r.out.find("--q-lora-rank") == std::string::npos);
  CHECK(r.out.find("--kv-lora-rank 512") != std::string::npos);
  CHECK(r.out.back() == '\n');
  CHECK(!r.out.ends_with("\\\n"));  // the last flag ends the command
}

TEST_CASE("config.json edge cases: a number past 2^63, a name without .json, a budget keeps S") {
  namespace fs = std::filesystem;
  const std::string base = R"("model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 8,
    "num_attention_heads": 8, "intermediate_size": 4096, "vocab_size": )";
  const Run huge = score_text("moeplan-hf-huge.json", "{" + base + "18446744073709551615}");
  CHECK(huge.code == 4);
  CHECK(huge.err.find("vocab_size: must be in [1, 1e9], got 18446744073709551615") != std::string::npos);
  // A config.json saved under another name is still read as JSON (by its first character).
  const fs::path plain = temp_path("moeplan-hf-config");
  std::ofstream(plain) << "{" + base + "32000}";
  const Run r = run_moeplan({"score", plain.string(), "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json::parse(r.out).at(0)["model"]["moe_layers"] == 0);
  fs::remove(plain);
  // Giving a budget does not change S (the laws' S without a [training] table), so M is the
  // same with and without one.
  const std::string path = k_hf + "qwen3-30b-a3b.json";
  const json without = score_json(path);
  const Run with = run_moeplan({"score", path, "--flops", "1e24", "--format", "json"});
  REQUIRE(with.code == 0);
  CHECK(json::parse(with.out).at(0)["compute"]["flops_per_token"] == without["compute"]["flops_per_token"]);
  CHECK(json::parse(with.out).at(0)["model"]["seq_len"] == without["model"]["seq_len"]);
}

TEST_CASE("a number too large for a double is invalid JSON (exit 4), not a crash") {
  // nlohmann reports it as out_of_range.406, not as a parse error (found by fuzz_hf_config).
  const Run r = score_text("moeplan-hf-overflow.json", R"({"model_type": "llama", "hidden_size": 1E999999})");
  CHECK(r.code == 4);
  CHECK(r.out.empty());
  CHECK(r.err.find("invalid JSON: number overflow") != std::string::npos);
}

TEST_CASE("hf-config export of a model without dense layers writes an integer intermediate_size") {
  // glm4_moe (and the DeepSeek and Qwen MoE classes) type intermediate_size as an int and
  // size only dense layers from it: written as the expert width, it builds nothing extra.
  const auto path = temp_path("moeplan-hf-no-dense.toml");
  std::ofstream(path) << R"(schema = "moeplan-model/1"
name = "all-moe"
[model]
hidden_size = 1024
num_hidden_layers = 8
moe_intermediate_size = 512
n_routed_experts = 8
num_experts_per_tok = 2
num_attention_heads = 8
vocab_size = 32000
)";
  const auto out = temp_path("moeplan-hf-no-dense.json");
  const Run r = run_moeplan({"score", path.string(), "--emit", "hf-config", "-o", out.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(std::ifstream(out));
  CHECK(j["model_type"] == "glm4_moe");
  CHECK(j["first_k_dense_replace"] == 0);
  REQUIRE(j.contains("intermediate_size"));
  CHECK(j["intermediate_size"].is_number_integer());
  CHECK(j["intermediate_size"] == 512);
  // The same model, but a checkpoint of the glm4_moe class also stores its router's
  // e_score_correction_bias buffer (Glm4MoeTopkRouter): 8 MoE layers x 8 experts.
  json written = score_json(out.string())["size"];
  json source = score_json(path.string())["size"];
  CHECK(written["total_params_in_checkpoint"].get<double>() - source["total_params_in_checkpoint"].get<double>() == 8.0 * 8);
  written.erase("total_params_in_checkpoint");
  source.erase("total_params_in_checkpoint");
  CHECK(written == source);
  std::filesystem::remove(path);
  std::filesystem::remove(out);
}

TEST_CASE("NaN, Infinity and -Infinity: read where Python's json reads them, never a count") {
  // Python's json.loads (transformers' loader) accepts the bare tokens; NVIDIA's Nemotron-H and
  // Nemotron 3 Super config.json files write "time_step_limit": [0.0, Infinity], which moeplan
  // stopped at ("invalid JSON: ... '0.0,<U+000A>        I'").
  std::ifstream in(k_hf + "nemotron-h-8b.json");
  const std::string fixture((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::string text = fixture;
  text.insert(text.find('{') + 1, "\n  \"time_step_limit\": [\n    0.0,\n    Infinity\n  ],\n  \"x\": [-Infinity, NaN],");
  const auto path = temp_path("moeplan-hf-infinity.json");
  std::ofstream(path) << text;
  // Read, and counted as the file without them.
  CHECK(score_json(path.string())["size"] == score_json(k_hf + "nemotron-h-8b.json")["size"]);
  std::filesystem::remove(path);
  // In a size key: exit 4 naming the file, the key and the token; nothing printed.
  const auto refused = [&](const std::string& key, const std::string& from, const std::string& token) {
    std::string bad = text;
    const auto at = bad.find(from);
    REQUIRE(at != std::string::npos);
    bad.replace(at, from.size(), "\"" + key + "\": " + token);
    const Run r = score_text("moeplan-hf-nonfinite-size.json", bad);
    CAPTURE(key);
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find("moeplan-hf-nonfinite-size.json:") != std::string::npos);
    CHECK(r.err.find(": " + key + ": is " + token + ": a size or count must be a finite integer") != std::string::npos);
    CHECK(r.err.find("moeplan:NaN") == std::string::npos);
  };
  refused("hidden_size", "\"hidden_size\": 4096", "Infinity");
  refused("intermediate_size", "\"intermediate_size\": 21504", "NaN");
  refused("num_hidden_layers", "\"num_hidden_layers\": 52", "-Infinity");
  // The library directly: the line and column are the file's, before and after a rewrite on
  // the same line; a string holding the words is left alone.
  const auto m = moeplan::parse_hf_config_json(
      "{\"model_type\": \"llama\", \"_name_or_path\": \"NaN Infinity\",\n"
      " \"rope_scaling\": {\"factor\": Infinity}, \"hidden_size\": NaN,\n"
      " \"num_hidden_layers\": 2}", "nan.json", "x");
  REQUIRE(!m.has_value());
  CHECK(m.error().key == "hidden_size");
  CHECK(m.error().line == 2);
  CHECK(m.error().column == 40);
  CHECK(m.error().reason == "is NaN: a size or count must be a finite integer");
  const auto syntax = moeplan::parse_hf_config_json("{\"a\": [NaN, -Infinity], \"b\": tru}", "syntax.json", "x");
  REQUIRE(!syntax.has_value());
  CHECK(syntax.error().line == 1);
  CHECK(syntax.error().column == 33);  // where parsing stopped in the file (the } after tru), not in the rewritten text
  CHECK(syntax.error().reason.find("moeplan:") == std::string::npos);
  // A non-finite value where a string or a flag is read is named as what it is.
  const auto name = moeplan::parse_hf_config_json("{\"model_type\": NaN}", "type.json", "x");
  REQUIRE(!name.has_value());
  CHECK(name.error().key == "model_type");
  CHECK(name.error().reason == "must be a string, got the non-finite number NaN");
}
