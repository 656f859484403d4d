// config.json of ernie4_5_moe, bailing_moe (Ling v1 and Ling 2.0), minimax_m2, flex_olmo,
// hunyuan (Hunyuan-Large) and solar_open: counted exactly as the transformers class or the
// checkpoint's remote code builds them, and refused (exit 4, naming the key) where moeplan
// could not count them. Expected counts are the printed results of the independent recount
// scripts in tests/data/hf/recount/ (standard-library Python, following the modeling code;
// each test names the script and the number), never moeplan's own output.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

json score_file(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

std::string temp_file(const std::string& name, const std::string& text) {
  const auto path = temp_path("moeplan-ernie-ling-" + name);
  std::ofstream(path) << text;
  return path.string();
}

json score_text(const std::string& name, const std::string& text) {
  const std::string path = temp_file(name, text);
  json j = score_file(path);
  std::filesystem::remove(path);
  return j;
}

Run refused_text(const std::string& text) {
  const std::string path = temp_file("refused.json", text);
  Run r = run_moeplan({"score", path});
  std::filesystem::remove(path);
  return r;
}

std::string read_fixture(const std::string& file) {
  std::ifstream in(k_hf + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The fixture's text with one "key": value pair replaced (the pair must be there).
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

double number(const json& j, const char* section, const char* key) { return j.at(section).at(key).get<double>(); }

// Every law section's law_scope (at least one).
std::vector<std::string> law_scopes(const json& j) {
  std::vector<std::string> out;
  for (const auto& [name, section] : j.items()) {
    if (section.is_object() && section.contains("law_scope")) out.push_back(section["law_scope"].get<std::string>());
  }
  REQUIRE_FALSE(out.empty());
  return out;
}

// Uniform softmax-attention models: the laws' own kind.
void check_as_fitted(const json& j) {
  CHECK(j["model"]["architecture_outside_laws"].empty());
  CHECK(j["model"]["linear_mixer_layers"] == 0);
  for (const std::string& scope : law_scopes(j)) CHECK(scope.starts_with("as fitted"));
}

// --emit toml and back counts the same.
void check_toml_round_trip(const std::string& path) {
  const auto toml = temp_path("moeplan-ernie-ling-round-trip.toml");
  REQUIRE(run_moeplan({"score", path, "--emit", "toml", "-o", toml.string()}).code == 0);
  const json a = score_file(path);
  const json b = score_file(toml.string());
  CHECK(b["size"] == a["size"]);
  CHECK(b["model"] == a["model"]);
  CHECK(b["compute"] == a["compute"]);
  std::filesystem::remove(toml);
}

void check_refused(const std::string& what, const std::string& text, const std::string& key) {
  CAPTURE(what);
  const Run r = refused_text(text);
  CAPTURE(r.err);
  CHECK(r.code == 4);
  CHECK(r.out.empty());
  CHECK(r.err.find(": " + key + ":") != std::string::npos);
}

}  // namespace

TEST_CASE("ernie4_5_moe: ERNIE-4.5-21B-A3B and 300B-A47B counted as Ernie4_5_MoeForCausalLM builds them") {
  // recount/ernie4_5_moe_count.py ernie-4.5-21b-a3b.json: total 21,825,437,888, active
  // 3,352,150,208 (layer 0 dense, 1-27 MoE; tied head; 64 x 27 e_score_correction_bias).
  const json a = score_file(k_hf + "ernie-4.5-21b-a3b.json");
  CHECK(number(a, "size", "total_params_as_built") == 21'825'437'888.0);
  CHECK(number(a, "size", "active_params_as_built") == 3'352'150'208.0);
  CHECK(a["model"]["moe_layers"] == 27);
  CHECK(a["model"]["dense_layers"] == 1);
  CHECK(a["model"]["attention_layers"] == 28);
  CHECK(a["model"]["layer_kinds"] == "attention+dense: 1, attention+moe: 27");
  // The router (64 x 2560) and the correction bias (an nn.Parameter of 64) of each MoE layer.
  CHECK(number(a, "size", "router_params") == 27.0 * 64 * (2560 + 1));
  check_as_fitted(a);
  // The card's 21B / 3B are rounded down: 3.35B with the tied embedding, 3.09B without it
  // (1.029 x 3B), so no convention puts the active count within 2 % of the card's figure.
  // recount: ernie-4.5-300b-a47b.json: total 299,484,163,264, active 47,926,586,560.
  const json b = score_file(k_hf + "ernie-4.5-300b-a47b.json");
  CHECK(number(b, "size", "total_params_as_built") == 299'484'163'264.0);
  CHECK(number(b, "size", "active_params_as_built") == 47'926'586'560.0);
  CHECK(b["model"]["moe_layers"] == 51);
  CHECK(b["model"]["dense_layers"] == 3);
  CHECK(b["model"]["n_shared_experts"] == 0);
  check_as_fitted(b);
  // The card's 47B active counts the embeddings and head (the ERNIE cards' convention).
  CHECK(number(b, "size", "active_params_as_built") == doctest::Approx(47e9).epsilon(0.02));
  // Ernie4_5_MoeConfig ties the head by default: without the key, one V x d matrix.
  const std::string big = read_fixture("ernie-4.5-300b-a47b.json");
  const json tied = score_text("tied.json", with(big, R"(,
  "tie_word_embeddings": false)", ""));
  CHECK(number(tied, "size", "embedding_params") == 103424.0 * 8192);
  // The checkpoints' MTP block: transformers builds none (_keys_to_ignore_on_load_unexpected
  // = ["mtp"]), so the key is accepted and nothing is counted.
  const json mtp = score_text("mtp.json", with(big, R"("moe_k": 8,)", R"("moe_k": 8, "num_nextn_predict_layers": 1,)"));
  CHECK(mtp["size"] == b["size"]);
}

TEST_CASE("ernie4_5_moe: MoE layers start..end every interval-th are read layer by layer") {
  // (i + 1) % 2 == 0 and 1 <= i <= 6: layers 1, 3, 5 MoE, the other five dense. The recount
  // script (recount/ernie4_5_moe_count.py on this text) prints total 170,697,752, active
  // 156,541,976.
  const std::string text = R"({"model_type": "ernie4_5_moe", "hidden_size": 1024, "num_hidden_layers": 8,
    "num_attention_heads": 8, "num_key_value_heads": 2, "intermediate_size": 4096, "vocab_size": 32000,
    "tie_word_embeddings": false, "moe_num_experts": 8, "moe_k": 2, "moe_intermediate_size": 256,
    "moe_num_shared_experts": 1, "moe_layer_start_index": 1, "moe_layer_end_index": 6, "moe_layer_interval": 2})";
  const json j = score_text("interleaved.json", text);
  CHECK(number(j, "size", "total_params_as_built") == 170'697'752.0);
  CHECK(number(j, "size", "active_params_as_built") == 156'541'976.0);
  CHECK(j["model"]["moe_layers"] == 3);
  CHECK(j["model"]["dense_layers"] == 5);
  CHECK(j["model"]["layer_kinds"] == "attention+dense: 5, attention+moe: 3");
  const std::string path = temp_file("interleaved.json", text);
  check_toml_round_trip(path);
  // No class moeplan writes builds that pattern (the uniform ernie4_5_moe export is MoE to the
  // last layer): refused with exit 3.
  CHECK(run_moeplan({"score", path, "--emit", "hf-config"}).code == 3);
  std::filesystem::remove(path);
}

TEST_CASE("ernie4_5_moe: what moeplan cannot count is refused, naming the key") {
  const std::string ernie = read_fixture("ernie-4.5-21b-a3b.json");
  check_refused("use_bias: biases on the dense and shared MLPs and lm_head",
                with(ernie, R"("use_bias": false)", R"("use_bias": true)"), "use_bias");
  check_refused("ERNIE-VL's [text, vision] expert counts",
                with(ernie, R"("moe_num_experts": 64)", R"("moe_num_experts": [64, 64])"), "moe_num_experts");
  check_refused("the start of the MoE layers left to the class default",
                with(ernie, R"("moe_layer_start_index": 1,)", ""), "moe_layer_start_index");
  check_refused("no layer is MoE", with(ernie, R"("moe_layer_start_index": 1)", R"("moe_layer_start_index": 28)"),
                "moe_layer_start_index");
}

TEST_CASE("bailing_moe v1: Ling-lite and Ling-plus as BailingMoeForCausalLM builds them") {
  // recount/bailing_moe_count.py: ling-lite.json total 16,801,974,272, active 2,753,153,024;
  // ling-plus.json total 290,602,910,976, active 29,004,170,496.
  const json lite = score_file(k_hf + "ling-lite.json");
  CHECK(number(lite, "size", "total_params_as_built") == 16'801'974'272.0);
  CHECK(number(lite, "size", "active_params_as_built") == 2'753'153'024.0);
  CHECK(lite["model"]["moe_layers"] == 28);
  CHECK(lite["model"]["dense_layers"] == 0);
  CHECK(lite["model"]["attention_layers"] == 28);
  CHECK(lite["model"]["layer_kinds"] == "attention+moe: 28");
  check_as_fitted(lite);
  const json plus = score_file(k_hf + "ling-plus.json");
  CHECK(number(plus, "size", "total_params_as_built") == 290'602'910'976.0);
  CHECK(number(plus, "size", "active_params_as_built") == 29'004'170'496.0);
  CHECK(plus["model"]["moe_layers"] == 88);
  check_as_fitted(plus);
  // The Ling cards' active figures count the embedding and head: 2.75B, 28.8B.
  CHECK(number(lite, "size", "active_params_as_built") == doctest::Approx(2.75e9).epsilon(0.02));
  CHECK(number(plus, "size", "active_params_as_built") == doctest::Approx(28.8e9).epsilon(0.02));
}

TEST_CASE("bailing_moe v2 (Ling 2.0): told apart by architectures, qk-norm, MTP layers inside num_hidden_layers") {
  // recount/bailing_moe_v2_count.py ling-mini-2.0.json: total 16,255,638,528, active
  // 1,432,968,192 (card: "1.43B activated of 16.26B total params", embeddings included).
  const std::string mini = read_fixture("ling-mini-2.0.json");
  const json v2 = score_file(k_hf + "ling-mini-2.0.json");
  CHECK(number(v2, "size", "total_params_as_built") == 16'255'638'528.0);
  CHECK(number(v2, "size", "active_params_as_built") == 1'432'968'192.0);
  CHECK(number(v2, "size", "active_params_as_built") == doctest::Approx(1.43e9).epsilon(0.02));
  CHECK(v2["model"]["moe_layers"] == 19);
  CHECK(v2["model"]["dense_layers"] == 1);
  CHECK(v2["model"]["attention_layers"] == 20);
  check_as_fitted(v2);
  // query_layernorm and key_layernorm (head_dim 128 each) in every layer: the recount's 89,088.
  CHECK(number(v2, "size", "norm_params") == 89'088.0);
  // The same keys under BailingMoeForCausalLM are Ling v1, which builds no qk-norm.
  // The same keys under BailingMoeForCausalLM are Ling v1: no qk-norm, and use_bias, absent,
  // is BailingMoeConfig's default true (dense.bias, d per layer).
  const json v1 = score_text("as-v1.json", with(mini, "BailingMoeV2ForCausalLM", "BailingMoeForCausalLM"));
  CHECK(number(v1, "size", "norm_params") == 20.0 * 2 * 2048 + 2048);
  CHECK(number(v1, "size", "bias_params") == 20.0 * 2048);
  CHECK(number(v1, "size", "total_params_as_built") == 16'255'638'528.0 - 20.0 * 2 * 128 + 20.0 * 2048);
  // MTP: 21 layers of which the last is a BailingMoeV2MTPLayer. recount (this text): total
  // 17,083,499,776 with the MTP layer's 827,861,248, 16,255,638,528 without; it is outside
  // the as-built total and the active count, and the checkpoint stores no embedding copy.
  std::string mtp = with(mini, R"("num_hidden_layers": 20)", R"("num_hidden_layers": 21, "num_nextn_predict_layers": 1)");
  const json m = score_text("mtp.json", mtp);
  CHECK(m["model"]["num_hidden_layers"] == 20);
  CHECK(number(m, "size", "mtp_params") == 827'861'248.0);
  CHECK(number(m, "size", "total_params_as_built") == 16'255'638'528.0);
  CHECK(number(m, "size", "active_params_as_built") == 1'432'968'192.0);
  // Plus the gates' expert_bias buffers: 19 MoE layers and the MTP layer, 256 each.
  CHECK(number(m, "size", "total_params_in_checkpoint") == 17'083'499'776.0 + 20.0 * 256);
  const std::string path = temp_file("mtp.json", mtp);
  check_toml_round_trip(path);
  std::filesystem::remove(path);
}

TEST_CASE("bailing_moe: what moeplan cannot count is refused, naming the key") {
  const std::string mini = read_fixture("ling-mini-2.0.json");
  check_refused("Ling 2.0 without head_dim (the v2 class has a default of its own)",
                with(mini, R"("head_dim": 128,)", ""), "head_dim");
  check_refused("a shared-expert width the remote code ignores",
                with(mini, R"("moe_shared_expert_intermediate_size": 512)", R"("moe_shared_expert_intermediate_size": 1024)"),
                "moe_shared_expert_intermediate_size");
  check_refused("MTP layers that leave no decoder layer",
                with(mini, R"("num_hidden_layers": 20)", R"("num_hidden_layers": 2, "num_nextn_predict_layers": 2)"),
                "num_nextn_predict_layers");
  const std::string lite = read_fixture("ling-lite.json");
  check_refused("MTP in Ling v1, whose class builds none",
                with(lite, R"("num_hidden_layers": 28)", R"("num_hidden_layers": 28, "num_nextn_predict_layers": 1)"),
                "num_nextn_predict_layers");
  check_refused("an expert count left to the class default", with(lite, R"("num_experts": 64,)", ""), "num_experts");
}

TEST_CASE("minimax_m2: MiniMax-M2 with its full-width q/k norms, its MTP modules not built") {
  // recount/minimax_m2_count.py minimax-m2.json: total 228,689,748,992, active 11,030,537,216
  // (9,801,344,000 without the embedding and head).
  const json j = score_file(k_hf + "minimax-m2.json");
  CHECK(number(j, "size", "total_params_as_built") == 228'689'748'992.0);
  CHECK(number(j, "size", "active_params_as_built") == 11'030'537'216.0);
  CHECK(j["model"]["moe_layers"] == 62);
  CHECK(j["model"]["dense_layers"] == 0);
  CHECK(j["model"]["attention_layers"] == 62);
  check_as_fitted(j);
  // q_norm over 48 x 128, k_norm over 8 x 128 in each layer (the recount's 828,416 norms).
  CHECK(number(j, "size", "norm_params") == 828'416.0);
  // use_mtp with num_mtp_modules 3: declared, but MiniMaxM2ForCausalLM (transformers'
  // modeling_minimax_m2.py) builds none, so their size is unknown: null with the reason, not 0.
  CHECK(j["size"]["mtp_params"].is_null());
  CHECK(j["size"]["mtp_params_reason"].get<std::string>().find("3 MTP module(s)") != std::string::npos);
  CHECK(j["size"]["mtp_params_reason"].get<std::string>().find("modeling_minimax_m2.py builds none") != std::string::npos);
  CHECK(j["size"]["total_params_in_checkpoint"].is_null());
  // --emit toml keeps the reason (mtp_not_counted) and the emitted file scores the same.
  {
    const auto toml = temp_path("moeplan-minimax-m2-mtp.toml");
    REQUIRE(run_moeplan({"score", k_hf + "minimax-m2.json", "--emit", "toml", "-o", toml.string()}).code == 0);
    std::ifstream in(toml);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(text.find("mtp_not_counted = ") != std::string::npos);
    std::filesystem::remove(toml);
  }
  check_toml_round_trip(k_hf + "minimax-m2.json");
  // MiniMax's "10B active" leaves out the embedding and head (9.80B; 11.03B with them).
  const double active_without = number(j, "size", "active_params_as_built") - number(j, "size", "embedding_params");
  CHECK(active_without == 9'801'344'000.0);
  CHECK(active_without == doctest::Approx(10e9).epsilon(0.02));
  const std::string m2 = read_fixture("minimax-m2.json");
  check_refused("a lightning-attention layer in attn_type_list",
                with(m2, "\"attn_type_list\": [\n    1,", "\"attn_type_list\": [\n    0,"), "attn_type_list");
  check_refused("use_qk_norm false (transformers builds the norms, the remote code does not)",
                with(m2, R"("use_qk_norm": true)", R"("use_qk_norm": false)"), "use_qk_norm");
  check_refused("a shared expert", with(m2, R"("shared_intermediate_size": 0)", R"("shared_intermediate_size": 1536)"),
                "shared_intermediate_size");
  check_refused("head_dim left to the class default (128, not d / N_q)", with(m2, R"("head_dim": 128,)", ""), "head_dim");
}

TEST_CASE("flex_olmo: FlexOlmo's class defaults (the fixture is constructed, not a hub file)") {
  // flexolmo-7x7b.json holds FlexOlmoConfig's defaults; recount/flex_olmo_count.py: total
  // 33,270,665,216, active 24,613,621,760 (top-5 of 7). No official active figure exists,
  // so the file has no official.csv row; the card's 33B total is within 1 %.
  const json j = score_file(k_hf + "flexolmo-7x7b.json");
  CHECK(number(j, "size", "total_params_as_built") == 33'270'665'216.0);
  CHECK(number(j, "size", "active_params_as_built") == 24'613'621'760.0);
  CHECK(number(j, "size", "total_params_as_built") == doctest::Approx(33e9).epsilon(0.01));
  CHECK(j["model"]["moe_layers"] == 32);
  CHECK(j["model"]["dense_layers"] == 0);
  check_as_fitted(j);
  // q_norm 32 x 128 and k_norm 32 x 128 per layer, two post-norms per layer and the final one.
  CHECK(number(j, "size", "norm_params") == 32.0 * (2 * 4096 + 64 * 128) + 4096);
  check_toml_round_trip(k_hf + "flexolmo-7x7b.json");
  const std::string f = read_fixture("flexolmo-7x7b.json");
  check_refused("top-k left to the class default", with(f, R"("num_experts_per_tok": 5,)", ""), "num_experts_per_tok");
  check_refused("Qwen's dense-layer list in a FlexOlmo file",
                with(f, R"("num_experts": 7,)", R"("num_experts": 7, "mlp_only_layers": [0],)"), "mlp_only_layers");
}

TEST_CASE("hunyuan: Hunyuan-Large's cross-layer attention, K and V in every second layer") {
  // recount/hunyuan_count.py hunyuan-large.json: total 389,527,159,040, active 52,147,831,040;
  // 32 of 64 layers build k_proj and v_proj (cla_share_factor 2).
  const json j = score_file(k_hf + "hunyuan-large.json");
  CHECK(number(j, "size", "total_params_as_built") == 389'527'159'040.0);
  CHECK(number(j, "size", "active_params_as_built") == 52'147'831'040.0);
  CHECK(j["model"]["moe_layers"] == 64);
  CHECK(j["model"]["attention_layers"] == 64);
  CHECK(j["model"]["layer_kinds"] == "attention+moe: 32, attention (shared kv)+moe: 32");
  CHECK_FALSE(j["model"]["architecture_outside_laws"].empty());
  for (const std::string& scope : law_scopes(j)) CHECK(scope.starts_with("extrapolated"));
  // The card's 389B / 52B count the embeddings and head.
  CHECK(number(j, "size", "total_params_as_built") == doctest::Approx(389e9).epsilon(0.02));
  CHECK(number(j, "size", "active_params_as_built") == doctest::Approx(52e9).epsilon(0.02));
  // A dense Hunyuan with K, V shared by three layers, q/k/v/o biases (the own-kv layers' k, v
  // biases only) and qk-norm: recount (this text) total = active = 169,902,336.
  const std::string dense = R"({"model_type": "hunyuan", "hidden_size": 1024, "num_hidden_layers": 7,
    "num_attention_heads": 8, "num_key_value_heads": 2, "intermediate_size": 4096, "vocab_size": 32000,
    "num_experts": 1, "use_cla": true, "cla_share_factor": 3, "attention_bias": true, "use_qk_norm": true})";
  const json d = score_text("dense-cla.json", dense);
  CHECK(number(d, "size", "total_params_as_built") == 169'902'336.0);
  CHECK(number(d, "size", "active_params_as_built") == 169'902'336.0);
  // Layers 0, 3, 6 compute K and V; 1, 2, 4, 5 reuse them.
  CHECK(d["model"]["layer_kinds"] == "attention+dense: 3, attention (shared kv)+dense: 4");
  CHECK(d["model"]["dense_layers"] == 7);
  const std::string path = temp_file("dense-cla.json", dense);
  check_toml_round_trip(path);
  std::filesystem::remove(path);
  const std::string h = read_fixture("hunyuan-large.json");
  check_refused("Hunyuan-A13B's per-layer top-k in a Hunyuan-Large file",
                with(h, R"("moe_topk": 1)", R"("moe_topk": [1, 1])"), "moe_topk");
  check_refused("a head_dim the remote code does not use",
                with(h, R"("num_key_value_heads": 8,)", R"("num_key_value_heads": 8, "head_dim": 128,)"), "head_dim");
  check_refused("Hunyuan-A13B's expert width, which this remote code does not read",
                with(h, R"("num_experts": 16,)", R"("num_experts": 16, "moe_intermediate_size": 4096,)"),
                "moe_intermediate_size");
}

TEST_CASE("solar_open: Solar-Open-100B, MoE in every layer") {
  // recount/solar_open_count.py solar-open-100b.json: total 102,651,793,408, active
  // 12,054,827,008; the card's 102B / 12B count the embeddings and head.
  const json j = score_file(k_hf + "solar-open-100b.json");
  CHECK(number(j, "size", "total_params_as_built") == 102'651'793'408.0);
  CHECK(number(j, "size", "active_params_as_built") == 12'054'827'008.0);
  CHECK(number(j, "size", "active_params_as_built") == doctest::Approx(12e9).epsilon(0.02));
  CHECK(j["model"]["moe_layers"] == 48);
  CHECK(j["model"]["dense_layers"] == 0);
  check_as_fitted(j);
  const std::string s = read_fixture("solar-open-100b.json");
  check_refused("dense layers the class would not build",
                with(s, R"("first_k_dense_replace": 0)", R"("first_k_dense_replace": 3)"), "first_k_dense_replace");
}

TEST_CASE("official.csv has a row for every family of this group with a real config") {
  std::ifstream in(k_hf + "official.csv");
  std::set<std::string> families;
  std::string line;
  while (std::getline(in, line)) {
    const auto first = line.find(',');
    if (line.empty() || line.front() == '#' || first == std::string::npos) continue;
    families.insert(line.substr(first + 1, line.find(',', first + 1) - first - 1));
  }
  for (const char* family : {"ernie4_5_moe", "bailing_moe", "minimax_m2", "hunyuan", "solar_open"}) {
    CAPTURE(family);
    CHECK(families.contains(family));
  }
  CHECK_FALSE(families.contains("flex_olmo"));  // no verified official active figure
}
