// Exports (`--emit toml|hf-config|megatron`): field names and values, and round trips back
// through `moeplan score`.
#include <doctest/doctest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_export.hpp"
#include "moeplan/io/model_loader.hpp"

namespace {

using nlohmann::json;

std::string read_text(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// `suggest --flops 1e22 --no-bench --format json`: the numbers the exports must carry.
const json& winner_1e22() {
  static const json j = [] {
    const Run r = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "--format", "json"});
    REQUIRE(r.code == 0);
    return json::parse(r.out);
  }();
  return j;
}

json score_json(const std::string& config) {
  const Run r = run_moeplan({"score", config, "--format", "json"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out);
  REQUIRE(j.size() == 1);
  return j[0];
}

// Megatron text → flag → value ("" for a switch); checks every non-comment line's shape.
std::map<std::string, std::string> megatron_flags(const std::string& text) {
  std::map<std::string, std::string> flags;
  std::istringstream in(text);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.front() != '#') lines.push_back(line);
  }
  REQUIRE(!lines.empty());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i];
    CAPTURE(line);
    // Every line continues with " \\" but the last, which ends the command.
    REQUIRE(line.ends_with(" \\") == (i + 1 < lines.size()));
    if (i + 1 < lines.size()) line.resize(line.size() - 2);
    std::istringstream words(line);
    std::string flag, value, extra;
    words >> flag >> value >> extra;
    CHECK(flag.starts_with("--"));
    CHECK(extra.empty());
    CHECK(flags.count(flag) == 0);
    flags[flag] = value;
  }
  return flags;
}

}  // namespace

TEST_CASE("export toml: the suggest --flops 1e22 winner, field by field") {
  const json& w = winner_1e22();
  const json& c = w["config"];
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--emit", "toml"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.err.find("no GPU run") == std::string::npos);  // --emit skips the benchmark
  const toml::table doc = toml::parse(r.out);
  CHECK(doc["schema"].value<std::string>() == "moeplan-model/1");
  CHECK(doc["name"].value<std::string>() == "moeplan-suggest-1e+22");
  const auto m = doc["model"];
  CHECK(m["hidden_size"].value<int64_t>() == c["hidden_size"].get<int64_t>());
  CHECK(m["num_hidden_layers"].value<int64_t>() == c["num_layers"].get<int64_t>());
  CHECK(m["first_k_dense_replace"].value<int64_t>() == c["num_dense_layers"].get<int64_t>());
  CHECK(m["intermediate_size"].value<int64_t>() == c["dense_ffn_size"].get<int64_t>());
  CHECK(m["moe_intermediate_size"].value<int64_t>() == c["expert_ffn_size"].get<int64_t>());
  CHECK(m["n_routed_experts"].value<int64_t>() == 288);
  CHECK(m["num_experts_per_tok"].value<int64_t>() == 8);
  CHECK(m["n_shared_experts"].value<int64_t>() == 1);
  CHECK(m["num_attention_heads"].value<int64_t>() == c["num_query_heads"].get<int64_t>());
  CHECK(m["num_key_value_heads"].value<int64_t>() == c["num_kv_heads"].get<int64_t>());
  CHECK(m["head_dim"].value<int64_t>() == c["head_dim"].get<int64_t>());
  CHECK(m["vocab_size"].value<int64_t>() == 152064);
  CHECK(m["tie_word_embeddings"].value<bool>() == false);
  CHECK(!m["kv_lora_rank"]);
  CHECK(doc["training"]["tokens"].value<double>() == w["budget"]["tokens"].get<double>());
  CHECK(doc["training"]["seq_len"].value<int64_t>() == 8192);
}

TEST_CASE("export toml round trip: suggest, then score the file, gives suggest's N, N_a, M and loss") {
  const json& w = winner_1e22();
  const auto path = temp_path("export-roundtrip.toml");
  std::filesystem::remove(path);
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--emit", "toml", "-o", path.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(r.out.empty());
  const json s = score_json(path.string());
  const json& acc = w["accounting"];
  CHECK(s["size"]["N_nonembedding_total"].get<double>() == doctest::Approx(acc["N_nonembedding_total"].get<double>()).epsilon(1e-12));
  CHECK(s["size"]["N_a_nonembedding_active"].get<double>() == doctest::Approx(acc["N_a_nonembedding_active"].get<double>()).epsilon(1e-12));
  CHECK(s["compute"]["flops_per_token"].get<double>() == doctest::Approx(acc["flops_per_token"].get<double>()).epsilon(1e-12));
  CHECK(s["compute"]["tokens"].get<double>() == w["budget"]["tokens"].get<double>());
  CHECK(s["compute"]["compute"].get<double>() == doctest::Approx(1e22).epsilon(1e-12));
  CHECK(s["joint_law"]["predicted_loss"].get<double>() ==
        doctest::Approx(w["ranking"]["predicted_loss"].get<double>()).epsilon(1e-12));
  std::filesystem::remove(path);
}

TEST_CASE("export toml round trip: every field of deepseek-v3.1 (MLA, training, reference)") {
  const auto m = moeplan::load_model_config("deepseek-v3.1");
  REQUIRE(m.has_value());
  const auto back = moeplan::parse_model_config(moeplan::to_model_toml(*m), "export.toml");
  REQUIRE_MESSAGE(back.has_value(), back.error().to_string());
  CHECK(back->name == m->name);
  CHECK(back->description == m->description);
  CHECK(back->source == m->source);
  CHECK(back->hidden_size == m->hidden_size);
  CHECK(back->num_hidden_layers == m->num_hidden_layers);
  CHECK(back->first_k_dense_replace == m->first_k_dense_replace);
  CHECK(back->intermediate_size == m->intermediate_size);
  CHECK(back->moe_intermediate_size == m->moe_intermediate_size);
  CHECK(back->n_routed_experts == m->n_routed_experts);
  CHECK(back->num_experts_per_tok == m->num_experts_per_tok);
  CHECK(back->n_shared_experts == m->n_shared_experts);
  CHECK(back->shared_expert_intermediate_size == m->shared_expert_intermediate_size);
  CHECK(back->num_attention_heads == m->num_attention_heads);
  CHECK(back->num_key_value_heads == m->num_key_value_heads);
  CHECK(back->head_dim == m->head_dim);
  REQUIRE(back->latent_attention.has_value());
  CHECK(back->latent_attention->q_lora_rank == 1536);
  CHECK(back->latent_attention->kv_lora_rank == 512);
  CHECK(back->latent_attention->qk_nope_head_dim == 128);
  CHECK(back->latent_attention->qk_rope_head_dim == 64);
  CHECK(back->latent_attention->v_head_dim == 128);
  CHECK(back->vocab_size == m->vocab_size);
  CHECK(back->tie_word_embeddings == m->tie_word_embeddings);
  REQUIRE(back->training.has_value());
  CHECK(back->training->tokens == m->training->tokens);
  CHECK(back->training->seq_len == m->training->seq_len);
  REQUIRE(back->stated.has_value());
  CHECK(back->stated->total == m->stated->total);
  CHECK(back->stated->active == m->stated->active);
  CHECK(back->stated->includes_embeddings == m->stated->includes_embeddings);
}

TEST_CASE("export hf-config: a GQA plan is a glm4_moe config with the 1e22 winner's values") {
  const json& c = winner_1e22()["config"];
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--emit", "hf-config"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(r.out);
  // transformers' DeepseekV3 class always builds MLA; Glm4MoeForCausalLM builds GQA with
  // head_dim, shared experts and leading dense layers: the counted model.
  CHECK(j["architectures"] == json::array({"Glm4MoeForCausalLM"}));
  CHECK(j["model_type"] == "glm4_moe");
  CHECK(j["attention_bias"] == false);
  CHECK(j["use_qk_norm"] == false);
  CHECK(j["hidden_size"] == c["hidden_size"]);
  CHECK(j["intermediate_size"] == c["dense_ffn_size"]);
  CHECK(j["moe_intermediate_size"] == c["expert_ffn_size"]);
  CHECK(j["num_hidden_layers"] == c["num_layers"]);
  CHECK(j["first_k_dense_replace"] == c["num_dense_layers"]);
  CHECK(j["n_routed_experts"] == 288);
  CHECK(j["n_shared_experts"] == 1);
  CHECK(j["num_experts_per_tok"] == 8);
  CHECK(j["num_attention_heads"] == c["num_query_heads"]);
  CHECK(j["num_key_value_heads"] == c["num_kv_heads"]);
  CHECK(j["head_dim"] == c["head_dim"]);
  CHECK(j["vocab_size"] == 152064);
  CHECK(j["max_position_embeddings"] == 8192);
  CHECK(j["tie_word_embeddings"] == false);
  CHECK(j["moe_layer_freq"] == 1);
  CHECK(j["hidden_act"] == "silu");
  CHECK(j["torch_dtype"] == "bfloat16");
  CHECK(!j.contains("kv_lora_rank"));  // the winner uses GQA
  // What the class builds beside N: one router of N_e x d per MoE layer, and the norms.
  const int moe_layers = c["num_layers"].get<int>() - c["num_dense_layers"].get<int>();
  const double d = c["hidden_size"].get<double>();
  CHECK(j["_moeplan_beside_n"]["routers"].get<double>() == doctest::Approx(moe_layers * 288 * d));
  CHECK(j["_moeplan_beside_n"]["norms"].get<double>() ==
        doctest::Approx((2.0 * c["num_layers"].get<double>() + 1.0) * d));
  CHECK(r.err.find("model_type glm4_moe") != std::string::npos);
}

TEST_CASE("export hf-config round trip: deepseek-v3.1 read back by score has the same sizes") {
  const auto path = temp_path("export-deepseek.json");
  std::filesystem::remove(path);
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--emit", "hf-config", "-o", path.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json j = json::parse(read_text(path));
  CHECK(j["model_type"] == "deepseek_v3");  // MLA: the DeepSeek-V3 class
  CHECK(j["architectures"] == json::array({"DeepseekV3ForCausalLM"}));
  CHECK(j["q_lora_rank"] == 1536);
  CHECK(j["kv_lora_rank"] == 512);
  CHECK(j["qk_nope_head_dim"] == 128);
  CHECK(j["qk_rope_head_dim"] == 64);
  CHECK(j["v_head_dim"] == 128);
  // DeepseekV3Config derives head_dim from qk_rope_head_dim; a head_dim key would override it.
  CHECK(!j.contains("head_dim"));
  CHECK(j["first_k_dense_replace"] == 3);
  CHECK(j["n_routed_experts"] == 256);
  CHECK(j["max_position_embeddings"] == 4096);
  const json a = score_json("deepseek-v3.1");
  const json b = score_json(path.string());
  for (const char* key : {"N_nonembedding_total", "N_a_nonembedding_active", "total_params_with_embeddings",
                          "active_params_with_embeddings", "embedding_params"}) {
    CAPTURE(key);
    CHECK(b["size"][key] == a["size"][key]);
  }
  CHECK(b["model"]["name"] == "DeepSeek-V3.1");
  std::filesystem::remove(path);
}

TEST_CASE("export megatron: the flags parse back to the 1e22 winner's integers") {
  const json& w = winner_1e22();
  const json& c = w["config"];
  const Run r = run_moeplan({"suggest", "--flops", "1e22", "--emit", "megatron"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto f = megatron_flags(r.out);
  const auto as_int = [&](const char* flag) {
    CAPTURE(flag);
    REQUIRE(f.count(flag) == 1);
    return std::stoll(f.at(flag));
  };
  CHECK(as_int("--num-layers") == c["num_layers"].get<int64_t>());
  CHECK(as_int("--hidden-size") == c["hidden_size"].get<int64_t>());
  CHECK(as_int("--ffn-hidden-size") == c["dense_ffn_size"].get<int64_t>());
  CHECK(as_int("--num-experts") == 288);
  CHECK(as_int("--moe-router-topk") == 8);
  CHECK(as_int("--moe-ffn-hidden-size") == c["expert_ffn_size"].get<int64_t>());
  CHECK(as_int("--moe-shared-expert-intermediate-size") == c["expert_ffn_size"].get<int64_t>());
  CHECK(as_int("--num-attention-heads") == c["num_query_heads"].get<int64_t>());
  CHECK(as_int("--num-query-groups") == c["num_kv_heads"].get<int64_t>());
  CHECK(as_int("--kv-channels") == c["head_dim"].get<int64_t>());
  CHECK(as_int("--seq-length") == 8192);
  CHECK(as_int("--vocab-size") == 152064);
  CHECK(f.at("--moe-layer-freq") == "'([0]*" + std::to_string(c["num_dense_layers"].get<int>()) +
                                        "+[1]*" + std::to_string(c["num_moe_layers"].get<int>()) + ")'");
  CHECK((f.count("--group-query-attention") == 1) ==
        (c["num_kv_heads"].get<int>() < c["num_query_heads"].get<int>()));
  for (const char* sw : {"--swiglu", "--moe-grouped-gemm", "--untie-embeddings-and-output-weights"}) {
    CAPTURE(sw);
    CHECK(f.count(sw) == 1);
    CHECK(f.at(sw).empty());
  }
  // C = 1e22 is past Table 4's last row (3e20): paper 000 Eq. 5 instead of a held row,
  // eta_opt = 1.1576 C^-0.1529 and B_opt = 0.0694 C^0.3644 tokens (App. E.1), here in
  // sequences of S = 8192 (issue 24: the 3e20 row's 288 sequences held for any C).
  const double C = w["budget"]["compute"].get<double>();
  CHECK(std::stod(f.at("--lr")) == doctest::Approx(1.1576 * std::pow(C, -0.1529)).epsilon(2e-3));
  CHECK(as_int("--global-batch-size") == std::llround(0.0694 * std::pow(C, 0.3644) / 8192));
  CHECK(r.out.find("paper 000 Eq. 5") != std::string::npos);
  CHECK(as_int("--train-samples") == std::llround(w["budget"]["tokens"].get<double>() / 8192));
  CHECK(f.at("--adam-beta2") == "0.95");
  // Every flag is explained in the comment block.
  for (const auto& [flag, value] : f) {
    CAPTURE(flag);
    CHECK(r.out.find("#   " + flag + (value.empty() ? ": " : " " + value + ": ")) !=
          std::string::npos);
  }
}

TEST_CASE("export megatron of deepseek-v3.1: latent attention, summed shared experts, layer pattern") {
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--emit", "megatron"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const auto f = megatron_flags(r.out);
  CHECK(f.count("--multi-latent-attention") == 1);
  CHECK(f.at("--q-lora-rank") == "1536");
  CHECK(f.at("--kv-lora-rank") == "512");
  CHECK(f.at("--qk-head-dim") == "128");
  CHECK(f.at("--qk-pos-emb-head-dim") == "64");
  CHECK(f.at("--v-head-dim") == "128");
  CHECK(f.count("--num-query-groups") == 0);
  CHECK(f.at("--moe-layer-freq") == "'([0]*3+[1]*58)'");
  CHECK(f.at("--moe-shared-expert-intermediate-size") == "2048");
  CHECK(f.at("--ffn-hidden-size") == "18432");
  CHECK(f.at("--seq-length") == "4096");
  CHECK(std::stoll(f.at("--train-samples")) == std::llround(14.8e12 / 4096));
}

TEST_CASE("export megatron: --kv-channels of an MLA model from config.json is the preset's (v_head_dim), not d / heads") {
  const std::string hf = MOEPLAN_TEST_DATA_DIR "/hf/";
  for (const auto& [config, preset] : {std::pair<std::string, std::string>{hf + "deepseek-v3.1.json", "deepseek-v3.1"},
                                       {hf + "kimi-k2.json", "kimi-k2"}}) {
    CAPTURE(config);
    const Run from_json = run_moeplan({"score", config, "--emit", "megatron"});
    REQUIRE_MESSAGE(from_json.code == 0, from_json.err);
    const Run from_preset = run_moeplan({"score", preset, "--emit", "megatron"});
    REQUIRE_MESSAGE(from_preset.code == 0, from_preset.err);
    const auto j = megatron_flags(from_json.out);
    const auto p = megatron_flags(from_preset.out);
    CHECK(j.at("--kv-channels") == "128");  // v_head_dim; 7168 / 128 = 56 before
    CHECK(j.at("--kv-channels") == p.at("--kv-channels"));
    CHECK(j.at("--kv-channels") == j.at("--v-head-dim"));
  }
  // GQA: the head size as before (Qwen3: head_dim 128, not 2048 / 32)
  const auto q = megatron_flags(run_moeplan({"score", hf + "qwen3-30b-a3b.json", "--emit", "megatron"}).out);
  CHECK(q.at("--kv-channels") == "128");
}

TEST_CASE("export megatron: sliding windows as Megatron-LM's --window-size and --window-attn-skip-freq") {
  // gpt-oss: sliding_window 128 on the even layers (layer_types), full attention on the odd ones
  for (const std::string& model : {std::string("gpt-oss-20b"), std::string(MOEPLAN_TEST_DATA_DIR "/hf/gpt-oss-20b.json")}) {
    CAPTURE(model);
    const Run r = run_moeplan({"score", model, "--emit", "megatron"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    const auto f = megatron_flags(r.out);
    CHECK(f.at("--window-size") == "127,0");  // a query sees 128 positions, itself included
    CHECK(f.at("--window-attn-skip-freq") == "2");  // layers 2, 4, ... (1-based) full attention
    CHECK(r.out.find("#   --window-size 127,0: sliding_window 128") != std::string::npos);
  }
  auto m = moeplan::load_model_config("gpt-oss-20b");
  REQUIRE(m.has_value());
  const auto path = temp_path("windows.toml");
  const auto emit = [&](const moeplan::ModelConfig& c) {
    write_text(path, moeplan::to_model_toml(c));
    return run_moeplan({"score", path.string(), "--emit", "megatron"});
  };
  // every layer windowed: no skip frequency
  moeplan::ModelConfig all = *m;
  for (auto& l : all.layers) l.window = 4096;
  const Run a = emit(all);
  REQUIRE_MESSAGE(a.code == 0, a.err);
  CHECK(megatron_flags(a.out).at("--window-size") == "4095,0");
  CHECK(megatron_flags(a.out).count("--window-attn-skip-freq") == 0);
  // a pattern no period gives: the list, 1 for a windowed layer
  moeplan::ModelConfig irregular = *m;
  irregular.layers[0].window = 0;
  const Run i = emit(irregular);
  REQUIRE_MESSAGE(i.code == 0, i.err);
  std::string pattern = "'[0,0";
  for (std::size_t k = 2; k < irregular.layers.size(); ++k) pattern += k % 2 == 0 ? ",1" : ",0";
  CHECK(megatron_flags(i.out).at("--window-attn-skip-freq") == pattern + "]'");
  // windows of two sizes: Megatron has one --window-size, so the export is refused by name
  moeplan::ModelConfig mixed = *m;
  mixed.layers[0].window = 64;
  const Run x = emit(mixed);
  CHECK(x.code == 3);
  CHECK(x.out.empty());
  CHECK(x.err.find("sliding windows of different sizes (64 in 1 layers, 128 in 11 layers)") != std::string::npos);
  // no window: no flag
  CHECK(megatron_flags(run_moeplan({"score", "qwen3-30b-a3b", "--emit", "megatron"}).out).count("--window-size") == 0);
  std::filesystem::remove(path);
}

TEST_CASE("a bad config.json: exit 4, the file, place, key and reason on stderr") {
  const auto path = temp_path("export-bad.json");
  SUBCASE("syntax error") {
    write_text(path, "{\n  \"hidden_size\": 1024,,\n}\n");
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(path.string() + ":2:") != std::string::npos);
    CHECK(r.err.find("invalid JSON") != std::string::npos);
  }
  SUBCASE("missing key") {
    write_text(path, R"({"model_type": "llama", "hidden_size": 1024, "num_hidden_layers": 4, "num_attention_heads": 8})");
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find(path.string()) != std::string::npos);
    CHECK(r.err.find("vocab_size: missing integer") != std::string::npos);
  }
  SUBCASE("wrong type") {
    write_text(path, "{\n  \"model_type\": \"llama\",\n  \"hidden_size\": \"big\",\n  \"num_hidden_layers\": 4\n}\n");
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find(path.string() + ":3:3: hidden_size: must be an integer, got a string") !=
          std::string::npos);
  }
  SUBCASE("inconsistent values") {
    write_text(path, R"({"model_type": "deepseek_v3", "hidden_size": 1024, "num_hidden_layers": 4,
      "num_attention_heads": 8, "vocab_size": 1000, "n_routed_experts": 8, "moe_intermediate_size": 256,
      "n_shared_experts": 0, "first_k_dense_replace": 0, "num_experts_per_tok": 9})");
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find("num_experts_per_tok: must be in [1, n_routed_experts]") != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("emit usage errors (bad kind, two configs, with --format) exit 2 and write nothing") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"suggest", "--flops", "1e22", "--emit", "nonsense"},
        {"score", "moe-mini", "--emit", "nonsense"},
        {"score", "moe-mini", "kimi-k2", "--emit", "toml"},
        {"score", "moe-mini", "--emit", "toml", "--format", "json"}}) {
    CAPTURE(args.back());
    const Run r = run_moeplan(args);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(!r.err.empty());
  }
  const Run two = run_moeplan({"score", "moe-mini", "kimi-k2", "--emit", "toml"});
  CHECK(two.err.find("moeplan: error: --emit writes one config; got 2") == 0);
}

TEST_CASE("emit to an unwritable -o: exit 5, nothing left behind") {
  const auto dir = temp_path("export-no-such-dir");
  std::filesystem::remove_all(dir);
  const Run r = run_moeplan({"score", "moe-mini", "--emit", "hf-config", "-o", (dir / "c.json").string()});
  CHECK(r.code == 5);
  CHECK(r.out.empty());
  CHECK(!std::filesystem::exists(dir));
}

TEST_CASE("a hostile model name cannot escape the Megatron file's comments: bash runs nothing of it") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "moeplan-megatron-hostile";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const Run preset = run_moeplan({"presets", "show", "moe-mini"});
  REQUIRE(preset.code == 0);
  std::string text = preset.out;
  const auto at = text.find("name = ");
  REQUIRE(at != std::string::npos);
  const auto end = text.find('\n', at);
  text.replace(at, end - at, "name = \"evil\\n$(touch pwned)\\ntouch pwned2 #\"");
  write_text(dir / "evil.toml", text);
  const Run r = run_moeplan({"score", (dir / "evil.toml").string(), "--emit", "megatron", "-o",
                             (dir / "args.sh").string()});
  REQUIRE(r.code == 0);
  const std::string args = read_text(dir / "args.sh");
  CHECK(args.find("--normalization RMSNorm") != std::string::npos);
  CHECK(args.find("--disable-bias-linear") != std::string::npos);
  const std::string cmd = "cd '" + dir.string() + "' && bash args.sh >/dev/null 2>&1";
  (void)std::system(cmd.c_str());  // Megatron's flags are no commands: bash fails, harmlessly
  CHECK_FALSE(fs::exists(dir / "pwned"));
  CHECK_FALSE(fs::exists(dir / "pwned2"));
  fs::remove_all(dir);
}

TEST_CASE("export toml: any name survives the round trip (a newline and three quotes included)") {
  namespace fs = std::filesystem;
  const Run preset = run_moeplan({"presets", "show", "moe-mini"});
  REQUIRE(preset.code == 0);
  std::string text = preset.out;
  const auto at = text.find("name = ");
  REQUIRE(at != std::string::npos);
  text.replace(at, text.find('\n', at) - at, R"(name = "two\nlines ''' and \"quotes\"")");
  const fs::path in = temp_path("export-odd-name.toml");
  const fs::path out = temp_path("export-odd-name-back.toml");
  write_text(in, text);
  const Run r = run_moeplan({"score", in.string(), "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json a = score_json(in.string());
  const json b = score_json(out.string());
  CHECK(b["model"]["name"] == "two\nlines ''' and \"quotes\"");
  CHECK(b["model"]["name"] == a["model"]["name"]);
  fs::remove(in);
  fs::remove(out);
}
