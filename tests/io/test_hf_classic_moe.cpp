// config.json of the classic MoE families (dbrx, phimoe, granitemoe, granitemoeshared, arctic,
// the text models of glm4v_moe and qwen3_vl_moe), counted as their classes build them, and
// jetmoe refused. The expected counts are the independent recounts of
// tests/data/hf/recount/<family>_count.py (standard-library Python following each modeling
// file), run on the fixture named; the official figures are the model cards' (official.csv).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/io/hf_config.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

json score_json(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

json fixture(const std::string& file) { return json::parse(std::ifstream(k_hf + file)); }

// Scores a config.json given as JSON (a fixture with keys changed).
Run score_doc(const std::string& name, const json& doc, bool as_json = false) {
  const auto path = temp_path("moeplan-classic-" + name + ".json");
  std::ofstream(path) << doc.dump(2);
  std::vector<std::string> args{"score", path.string()};
  if (as_json) {
    args.emplace_back("--format");
    args.emplace_back("json");
  }
  Run r = run_moeplan(args);
  std::filesystem::remove(path);
  return r;
}

json scored(const std::string& name, const json& doc) {
  const Run r = score_doc(name, doc, true);
  INFO(name, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

// Every section of the score that carries a law_scope: all of them start with `prefix`.
void check_law_scopes(const json& j, const std::string& prefix) {
  int sections = 0;
  for (const auto& [name, section] : j.items()) {
    if (!section.is_object() || !section.contains("law_scope")) continue;
    CAPTURE(name);
    ++sections;
    CHECK(section["law_scope"].get<std::string>().starts_with(prefix));
  }
  CHECK(sections >= 3);
}

struct Expected {
  const char* file;
  double total, active;  // the recount script's total_params, active_params
  int moe_layers, dense_layers;
  const char* layer_kinds;
};

}  // namespace

TEST_CASE("classic MoE config.json: as-built totals equal the independent recounts") {
  // Numbers printed by tests/data/hf/recount/<family>_count.py on each fixture:
  //   dbrx_count.py dbrx-instruct.json, phimoe_count.py phi-3.5-moe.json,
  //   granitemoe_count.py granite-3.0-1b-a400m.json granite-3.1-3b-a800m.json,
  //   granitemoeshared_count.py granitemoeshared-constructed.json,
  //   glm4v_moe_count.py glm-4.5v.json (total_params: text model, embeddings and head),
  //   qwen3_vl_moe_count.py qwen3-vl-30b-a3b.json qwen3-vl-235b-a22b.json (the same).
  const std::vector<Expected> cases{
      {"dbrx-instruct.json", 131'596'523'520, 36'469'708'800, 40, 0, "attention+moe: 40"},
      {"phi-3.5-moe.json", 41'873'153'344, 6'640'999'744, 32, 0, "attention+moe: 32"},
      {"granite-3.0-1b-a400m.json", 1'334'625'280, 428'655'616, 24, 0, "attention+moe: 24"},
      {"granite-3.1-3b-a800m.json", 3'298'793'472, 882'874'368, 32, 0, "attention+moe: 32"},
      {"granitemoeshared-constructed.json", 3'449'788'416, 1'033'869'312, 32, 0, "attention+moe: 32"},
      {"glm-4.5v.json", 106'852'245'504, 13'424'123'904, 45, 1, "attention+dense: 1, attention+moe: 45"},
      {"qwen3-vl-30b-a3b.json", 30'532'122'624, 3'353'032'704, 48, 0, "attention+moe: 48"},
      {"qwen3-vl-235b-a22b.json", 235'093'634'560, 22'190'763'520, 94, 0, "attention+moe: 94"},
  };
  for (const Expected& e : cases) {
    CAPTURE(e.file);
    const json j = score_json(k_hf + e.file);
    CHECK(j["size"]["total_params_as_built"].get<double>() == e.total);
    CHECK(j["size"]["active_params_as_built"].get<double>() == e.active);
    CHECK(j["model"]["moe_layers"] == e.moe_layers);
    CHECK(j["model"]["dense_layers"] == e.dense_layers);
    CHECK(j["model"]["attention_layers"] == e.moe_layers + e.dense_layers);
    CHECK(j["model"]["linear_mixer_layers"] == 0);
    CHECK(j["model"]["layer_kinds"] == e.layer_kinds);
    // Uniform softmax-attention MoEs with gated experts: what the laws were fitted on.
    CHECK(j["model"]["architecture_outside_laws"].empty());
    check_law_scopes(j, "as fitted");
  }
}

TEST_CASE("classic MoE config.json: active parameters within 2 % of the model cards") {
  // With embeddings, as the cards count them: DBRX "36B active", Phi-3.5-MoE "6.6B active
  // parameters when using 2 experts", Arctic "17B active", Qwen3-VL A3B / A22B (Qwen3-30B-A3B
  // card 3.3B, Qwen3-235B-A22B card 22B).
  const std::vector<std::pair<const char*, double>> with_embeddings{
      {"dbrx-instruct.json", 36e9}, {"phi-3.5-moe.json", 6.6e9}, {"arctic-instruct.json", 17e9},
      {"qwen3-vl-30b-a3b.json", 3.3e9}, {"qwen3-vl-235b-a22b.json", 22e9}};
  for (const auto& [file, active] : with_embeddings) {
    CAPTURE(file);
    const json s = score_json(k_hf + file)["size"];
    CHECK(s["active_params_as_built"].get<double>() == doctest::Approx(active).epsilon(0.02));
  }
  // Without the embedding and the output head: GLM-4.5V's "12B active" is GLM-4.5-Air's,
  // whose 12B leaves them out (13.42B with them, 12.18B without; glm4v_moe.md); Granite
  // 3.1-3B-A800M's "800M" (0.883B with the tied embedding, 0.807B without). The 1B-A400M's
  // "400M" matches neither convention (0.429B with, 0.378B without): the card's label is
  // nominal, so it is not checked here.
  for (const auto& [file, active] : std::vector<std::pair<const char*, double>>{
           {"glm-4.5v.json", 12e9}, {"granite-3.1-3b-a800m.json", 800e6}}) {
    CAPTURE(file);
    const json s = score_json(k_hf + file)["size"];
    const double without = s["active_params_as_built"].get<double>() - s["embedding_params"].get<double>();
    CHECK(without == doctest::Approx(active).epsilon(0.02));
  }
}

TEST_CASE("DBRX and Phi-3.5-MoE: what they build beside N") {
  // DBRX: LayerNorm without bias (d weights) twice per block and norm_f; a router of 16 x d
  // per block; no bias anywhere (modeling_dbrx.py).
  const json dbrx = score_json(k_hf + "dbrx-instruct.json");
  const double L = 40, d = 6144;
  CHECK(dbrx["size"]["norm_params"].get<double>() == (2 * L + 1) * d);
  CHECK(dbrx["size"]["router_params"].get<double>() == L * 16 * d);
  CHECK(dbrx["size"]["bias_params"] == 0);
  CHECK(dbrx["size"]["embedding_params"].get<double>() == 2 * 100352 * d);  // wte and an untied lm_head
  // PhiMoE: LayerNorms with weight and bias (2d each, 2 per layer and the final one); q, k, v,
  // o biases ((32 + 2·8)·128 + d per layer) and V lm_head biases (modeling_phimoe.py).
  const json phi = score_json(k_hf + "phi-3.5-moe.json")["size"];
  const double Lp = 32, dp = 4096;
  CHECK(phi["norm_params"].get<double>() == (2 * Lp + 1) * 2 * dp);
  CHECK(phi["bias_params"].get<double>() == Lp * ((32 + 2 * 8) * 128 + dp) + 32064);
  // The class's attention_bias and lm_head_bias defaults are False: without the keys, no biases.
  json plain = fixture("phi-3.5-moe.json");
  plain.erase("attention_bias");
  plain.erase("lm_head_bias");
  CHECK(scored("phi-plain", plain)["size"]["bias_params"] == 0);
}

TEST_CASE("Granite MoE Shared: the shared MLP is always on, S = shared_intermediate_size") {
  // granitemoeshared-constructed.json is granite-3.1-3b-a800m.json with S = 1024: 32 layers
  // of 3·d·S more, in the total and the active count alike (GraniteMoeSharedMLP, no gate).
  const json base = score_json(k_hf + "granite-3.1-3b-a800m.json")["size"];
  const json shared = score_json(k_hf + "granitemoeshared-constructed.json");
  const double extra = 32.0 * 3 * 1536 * 1024;
  CHECK(shared["size"]["total_params_as_built"].get<double>() == base["total_params_as_built"].get<double>() + extra);
  CHECK(shared["size"]["active_params_as_built"].get<double>() == base["active_params_as_built"].get<double>() + extra);
  CHECK(shared["model"]["n_shared_experts"] == 1);
  // S = 0 builds no shared MLP: granitemoe's count.
  json none = fixture("granitemoeshared-constructed.json");
  none["shared_intermediate_size"] = 0;
  CHECK(scored("granite-shared-0", none)["size"]["total_params_as_built"] == base["total_params_as_built"]);
  // moeplan's TOML expresses it (the same count back); no transformers class moeplan writes
  // builds a shared expert of another width than the experts' without a gate (exit 3).
  namespace fs = std::filesystem;
  const fs::path toml = temp_path("moeplan-classic-granite-shared.toml");
  REQUIRE(run_moeplan({"score", k_hf + "granitemoeshared-constructed.json", "--emit", "toml", "-o", toml.string()}).code == 0);
  const json back = score_json(toml.string());
  CHECK(back["size"] == shared["size"]);
  CHECK(back["model"] == shared["model"]);
  fs::remove(toml);
  const Run r = run_moeplan({"score", k_hf + "granitemoeshared-constructed.json", "--emit", "hf-config"});
  CHECK(r.code == 3);
  CHECK(r.err.find("none of") != std::string::npos);
}

TEST_CASE("Arctic: a residual dense MLP of width d beside the experts, with a norm of its own") {
  // arctic_count.py arctic-instruct.json: total_params 478,584,608,768, active_params
  // 17,318,647,808 (35 MoE layers, each with residual_mlp of width hidden_size and its
  // residual_layernorm). The fixture is an unverified transcription (its _source says so).
  const json j = score_json(k_hf + "arctic-instruct.json");
  CHECK(j["size"]["total_params_as_built"].get<double>() == 478'584'608'768.0);
  CHECK(j["size"]["active_params_as_built"].get<double>() == 17'318'647'808.0);
  CHECK(j["model"]["moe_layers"] == 35);
  CHECK(j["model"]["dense_layers"] == 0);
  CHECK(j["model"]["attention_layers"] == 35);
  CHECK(j["model"]["linear_mixer_layers"] == 0);
  CHECK(j["model"]["layer_kinds"] == "attention+moe_and_dense: 35");
  const double d = 7168, L = 35;
  CHECK(j["size"]["norm_params"].get<double>() == 3 * L * d + d);  // input, post-attention, residual
  REQUIRE_FALSE(j["model"]["architecture_outside_laws"].empty());
  CHECK(j["model"]["architecture_outside_laws"][0].get<std::string>().find("dense FFN beside the experts") !=
        std::string::npos);
  check_law_scopes(j, "extrapolated");

  // moe_layer_frequency absent: ArcticConfig's default 2 makes layers 1, 3, ..., 33 MoE (with
  // the residual MLP) and the 18 others dense of intermediate_size (modeling_arctic.py).
  json alternate = fixture("arctic-instruct.json");
  alternate.erase("moe_layer_frequency");
  const json a = scored("arctic-alternate", alternate);
  const double E = 128, I = 4864, V = 32000, hd = d / 56;
  const double attention = 2 * d * 56 * hd + 2 * d * 8 * hd;
  const double moe = E * 3 * d * I + E * d + 3 * d * d + d;  // experts, gate, residual MLP and its norm
  const double expected = 2 * V * d + L * (attention + 2 * d) + 17 * moe + 18 * 3 * d * I + d;
  CHECK(a["size"]["total_params_as_built"].get<double>() == expected);
  CHECK(a["size"]["active_params_as_built"].get<double>() == expected - 17 * (E - 2) * 3 * d * I);
  CHECK(a["model"]["moe_layers"] == 17);
  CHECK(a["model"]["dense_layers"] == 18);
  CHECK(a["model"]["layer_kinds"] == "attention+dense: 18, attention+moe_and_dense: 17");
  check_law_scopes(a, "extrapolated");

  // Without the residual MLP (parallel_attn_mlp_res and use_residual false), every layer MoE:
  // a uniform model, the laws' own kind.
  json plain = fixture("arctic-instruct.json");
  plain["parallel_attn_mlp_res"] = false;
  plain["use_residual"] = false;
  const json p = scored("arctic-plain", plain);
  CHECK(p["size"]["total_params_as_built"].get<double>() == 478'584'608'768.0 - L * (3 * d * d + d));
  CHECK(p["model"]["layer_kinds"] == "attention+moe: 35");
  CHECK(p["model"]["architecture_outside_laws"].empty());
  check_law_scopes(p, "as fitted");

  // moeplan's TOML keeps the residual norm (residual_ffn_norm): the same count back.
  namespace fs = std::filesystem;
  const fs::path toml = temp_path("moeplan-classic-arctic.toml");
  REQUIRE(run_moeplan({"score", k_hf + "arctic-instruct.json", "--emit", "toml", "-o", toml.string()}).code == 0);
  std::ifstream in(toml);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("residual_ffn_norm = true") != std::string::npos);
  CHECK(score_json(toml.string())["size"] == j["size"]);
  fs::remove(toml);
}

TEST_CASE("VL MoE files: the text model is counted, the vision tower is not") {
  // GLM-4.5V's language model is GLM-4.5-Air's layout; Qwen3-VL-30B-A3B's is Qwen3-30B-A3B's
  // shapes; the recounts (glm4v_moe_count.py, qwen3_vl_moe_count.py) print the text model's
  // total apart from the vision tower (0.86B, 0.54B).
  for (const char* file : {"glm-4.5v.json", "qwen3-vl-30b-a3b.json"}) {
    CAPTURE(file);
    const Run r = run_moeplan({"score", k_hf + file});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("(the vision tower is not counted)") != std::string::npos);
  }
  // Glm4vMoeTextAttention builds no q/k norm (use_qk_norm is not read) and q, k, v biases but
  // none on o_proj: 2 norms of d per layer and the final one, (96 + 2·8)·128 biases per layer.
  const json g = score_json(k_hf + "glm-4.5v.json")["size"];
  CHECK(g["norm_params"].get<double>() == (2 * 46 + 1) * 4096.0);
  CHECK(g["bias_params"].get<double>() == 46 * (96 + 2 * 8) * 128.0);
  json qk = fixture("glm-4.5v.json");
  qk["text_config"]["use_qk_norm"] = true;
  CHECK(scored("glm4v-qk", qk)["size"] == score_json(k_hf + "glm-4.5v.json")["size"]);
  // Qwen3-VL text: per-head q_norm and k_norm (2·128) beside the 2 norms of d per layer.
  const json q = score_json(k_hf + "qwen3-vl-30b-a3b.json")["size"];
  CHECK(q["norm_params"].get<double>() == 48 * (2 * 2048.0 + 2 * 128) + 2048);
  // transformers 5 writes the expert count under its alias: the same model.
  json alias = fixture("qwen3-vl-30b-a3b.json");
  alias["text_config"]["num_local_experts"] = alias["text_config"]["num_experts"];
  alias["text_config"].erase("num_experts");
  CHECK(scored("qwen3vl-alias", alias)["size"] == score_json(k_hf + "qwen3-vl-30b-a3b.json")["size"]);
}

TEST_CASE("Qwen3-VL text layers: mlp_only_layers and decoder_sparse_step are read layer by layer") {
  // Qwen3MoeDecoderLayer: layer i is MoE unless i is in mlp_only_layers or (i + 1) %
  // decoder_sparse_step != 0; a dense layer is a Qwen3MoeMLP of intermediate_size (6144).
  const double d = 2048, E = 128, Im = 768, I = 6144, K = 8;
  const double moe_layer = E * 3 * d * Im + E * d, dense_layer = 3 * d * I;
  const json base = score_json(k_hf + "qwen3-vl-30b-a3b.json")["size"];
  const double total = base["total_params_as_built"].get<double>();
  const double active = base["active_params_as_built"].get<double>();
  json pattern = fixture("qwen3-vl-30b-a3b.json");
  pattern["text_config"]["mlp_only_layers"] = json::array({5, 10});
  const json p = scored("qwen3vl-mlp-only", pattern);
  CHECK(p["size"]["total_params_as_built"].get<double>() == total - 2 * moe_layer + 2 * dense_layer);
  CHECK(p["size"]["active_params_as_built"].get<double>() ==
        active - 2 * (K * 3 * d * Im + E * d) + 2 * dense_layer);
  CHECK(p["model"]["dense_layers"] == 2);
  CHECK(p["model"]["moe_layers"] == 46);
  CHECK(p["model"]["layer_kinds"] == "attention+moe: 46, attention+dense: 2");  // in order of first use
  // A leading run of dense layers is the uniform layout (first_k_dense_replace).
  json leading = fixture("qwen3-vl-30b-a3b.json");
  leading["text_config"]["mlp_only_layers"] = json::array({0, 1});
  const json l = scored("qwen3vl-leading", leading);
  CHECK(l["size"]["total_params_as_built"] == p["size"]["total_params_as_built"]);
  CHECK(l["model"]["layer_kinds"] == "attention+dense: 2, attention+moe: 46");
  check_law_scopes(l, "as fitted");
  // decoder_sparse_step 2: layers 1, 3, ..., 47 MoE, the 24 others dense.
  json step = fixture("qwen3-vl-30b-a3b.json");
  step["text_config"]["decoder_sparse_step"] = 2;
  const json s = scored("qwen3vl-step", step);
  CHECK(s["size"]["total_params_as_built"].get<double>() == total - 24 * moe_layer + 24 * dense_layer);
  CHECK(s["model"]["moe_layers"] == 24);
  CHECK(s["model"]["dense_layers"] == 24);
}

TEST_CASE("classic MoE families: each refusal names its key (exit 4)") {
  struct Case {
    const char* what;
    json doc;
    const char* key;
  };
  std::vector<Case> cases;
  const auto changed = [](const char* file, auto&& edit) {
    json j = fixture(file);
    edit(j);
    return j;
  };
  cases.push_back({"DBRX with tied embeddings (DbrxForCausalLM raises)",
                   changed("dbrx-instruct.json", [](json& j) { j["tie_word_embeddings"] = true; }),
                   "tie_word_embeddings"});
  cases.push_back({"DBRX leaving kv_n_heads to the class default (1)",
                   changed("dbrx-instruct.json", [](json& j) { j["attn_config"].erase("kv_n_heads"); }),
                   "kv_n_heads"});
  cases.push_back({"DBRX with a non-integer expert count",
                   changed("dbrx-instruct.json", [](json& j) { j["ffn_config"]["moe_num_experts"] = 16.5; }),
                   "moe_num_experts"});
  cases.push_back({"PhiMoE with a top-4 its sparsemixer router cannot route",
                   changed("phi-3.5-moe.json", [](json& j) { j["num_experts_per_tok"] = 4; }),
                   "num_experts_per_tok"});
  cases.push_back({"a shared MLP in a granitemoe file, whose class builds none",
                   changed("granite-3.1-3b-a800m.json", [](json& j) { j["shared_intermediate_size"] = 1024; }),
                   "shared_intermediate_size"});
  cases.push_back({"granitemoeshared leaving the shared width to the class (0 in its code, 1024 in its docs)",
                   changed("granitemoeshared-constructed.json", [](json& j) { j.erase("shared_intermediate_size"); }),
                   "shared_intermediate_size"});
  cases.push_back({"Arctic whose use_residual (vLLM) and parallel_attn_mlp_res (remote code) disagree",
                   changed("arctic-instruct.json", [](json& j) { j["use_residual"] = false; }), "use_residual"});
  cases.push_back({"Arctic with tied embeddings",
                   changed("arctic-instruct.json", [](json& j) { j["tie_word_embeddings"] = true; }),
                   "tie_word_embeddings"});
  cases.push_back({"JetMoE: a mixture of attention heads", fixture("jetmoe-8b.json"), "num_local_experts"});
  cases.push_back({"GLM-4.5V leaving the expert count to the class default",
                   changed("glm-4.5v.json", [](json& j) { j["text_config"].erase("n_routed_experts"); }),
                   "n_routed_experts"});
  cases.push_back({"GLM-4.5V with MTP modules its class does not build",
                   changed("glm-4.5v.json", [](json& j) { j["text_config"]["num_nextn_predict_layers"] = 1; }),
                   "num_nextn_predict_layers"});
  cases.push_back({"Qwen3-VL dense layer index past the last layer",
                   changed("qwen3-vl-30b-a3b.json", [](json& j) { j["text_config"]["mlp_only_layers"] = {3, 48}; }),
                   "mlp_only_layers"});
  cases.push_back({"Qwen3-VL whose file and text_config tie differently",
                   changed("qwen3-vl-30b-a3b.json", [](json& j) { j["text_config"]["tie_word_embeddings"] = true; }),
                   "tie_word_embeddings"});
  cases.push_back({"Qwen3-VL with a shared expert its class does not build",
                   changed("qwen3-vl-235b-a22b.json",
                           [](json& j) { j["text_config"]["shared_expert_intermediate_size"] = 1536; }),
                   "shared_expert_intermediate_size"});
  for (const Case& c : cases) {
    const std::string what = c.what;
    CAPTURE(what);
    const Run r = score_doc("refused", c.doc);
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    // A key inside a nested object is named with its prefix (text_config.KEY, attn_config.KEY).
    CHECK((r.err.find(std::string(": ") + c.key + ":") != std::string::npos ||
           r.err.find(std::string(": text_config.") + c.key + ":") != std::string::npos ||
           r.err.find(std::string(": attn_config.") + c.key + ":") != std::string::npos ||
           r.err.find(std::string(": ffn_config.") + c.key + ":") != std::string::npos));
  }
}

TEST_CASE("classic MoE families: named as supported and each with an official.csv row, jetmoe not") {
  const Run r = score_doc("unknown", json{{"model_type", "frobnitz_moe"}});
  REQUIRE(r.code == 4);
  for (const char* family : {"dbrx", "phimoe", "granitemoe", "granitemoeshared", "arctic",
                             "glm4v_moe (its text_config)", "qwen3_vl_moe (its text_config)"}) {
    CAPTURE(family);
    CHECK(r.err.find(std::string(" ") + family + ",") != std::string::npos);
  }
  CHECK(r.err.find("jetmoe") == std::string::npos);
  std::ifstream in(k_hf + "official.csv");
  const std::string csv((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* row : {",dbrx,", ",phimoe,", ",granitemoe,", ",arctic,", ",glm4v_moe,", ",qwen3_vl_moe,"}) {
    CAPTURE(row);
    CHECK(csv.find(row) != std::string::npos);
  }
}

TEST_CASE("a multimodal config's text_config is read as its own class's text model, whatever it names") {
  // Glm4vMoeConfig builds its Glm4vMoeTextModel from text_config: a model_type "mixtral"
  // there used to pick Mixtral's rule and count another model.
  json j = fixture("glm-4.5v.json");
  const std::string inner = j.at("text_config").at("model_type").get<std::string>();
  CHECK(inner == "glm4v_moe_text");
  j["text_config"]["model_type"] = "mixtral";
  const auto bad = moeplan::parse_hf_config_json(j.dump(), "swapped.json", "swapped");
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().key.find("model_type") != std::string::npos);
  CHECK(bad.error().reason.find("glm4v_moe_text") != std::string::npos);
  // Without a model_type there, it is the class's own.
  j["text_config"].erase("model_type");
  CHECK(moeplan::parse_hf_config_json(j.dump(), "unnamed.json", "unnamed").has_value());
}
