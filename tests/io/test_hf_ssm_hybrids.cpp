// config.json of the SSM hybrids (jamba, granitemoehybrid, nemotron_h, lfm2_moe) and of
// DeciLM's NAS models (nemotron-nas): counted layer by layer as their classes build them,
// against independent recounts (tests/data/hf/recount/*_count.py, standard-library Python
// that follows the same modeling code), the official figures, and refused (exit 4, the key
// named) where moeplan could not count them.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/serving/serving_fit.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

json score_json(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(path, "\n", r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

json score_of_text(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path) << text;
  json j = score_json(path.string());
  std::filesystem::remove(path);
  return j;
}

Run score_text(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path) << text;
  Run r = run_moeplan({"score", path.string()});
  std::filesystem::remove(path);
  return r;
}

std::string fixture_text(const std::string& file) {
  std::ifstream in(k_hf + file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The fixture's text with one `"key": value` replaced (the value as written in the file).
std::string with_key(const std::string& file, const std::string& from, const std::string& to) {
  std::string text = fixture_text(file);
  const auto at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  text.replace(at, from.size(), to);
  return text;
}

// Hybrids are outside what the papers' laws were fitted on: every law section says so.
void check_extrapolated(const json& j) {
  REQUIRE(j["model"]["architecture_outside_laws"].is_array());
  CHECK_FALSE(j["model"]["architecture_outside_laws"].empty());
  int sections = 0;
  for (const auto& [name, section] : j.items()) {
    if (!section.is_object() || !section.contains("law_scope")) continue;
    CAPTURE(name);
    ++sections;
    CHECK(section["law_scope"].get<std::string>().starts_with("extrapolated"));
  }
  CHECK(sections >= 4);  // leverage, joint_law, allocation, activation_rate
}

struct Expected {
  const char* file;
  double total, active;  // the recount's printed total_params / active_params
  int moe, dense, attention, linear;
  const char* kinds;
};

void check_counts(const Expected& e) {
  CAPTURE(e.file);
  const json j = score_json(k_hf + e.file);
  CHECK(j["size"]["total_params_as_built"].get<double>() == e.total);
  CHECK(j["size"]["active_params_as_built"].get<double>() == e.active);
  CHECK(j["model"]["moe_layers"] == e.moe);
  CHECK(j["model"]["dense_layers"] == e.dense);
  CHECK(j["model"]["attention_layers"] == e.attention);
  CHECK(j["model"]["linear_mixer_layers"] == e.linear);
  CHECK(j["model"]["layer_kinds"] == e.kinds);
  check_extrapolated(j);
}

void check_refused(const char* what, const std::string& text, const char* key) {
  CAPTURE(what);
  const Run r = score_text("moeplan-hf-ssm-refused.json", text);
  CAPTURE(r.err);
  CHECK(r.code == 4);
  CHECK(r.out.empty());
  CHECK(r.err.find(std::string(": ") + key + ":") != std::string::npos);
}

}  // namespace

TEST_CASE("jamba: Mamba and attention layers by period/offset, MoE every other layer, as the recount") {
  // python3 tests/data/hf/recount/jamba_count.py jamba-v0.1.json:
  //   total_params 51,570,323,328, active_params 12,110,311,296. Layers 4, 12, 20, 28 are
  //   attention (4 % 8), the odd ones MoE (1 % 2).
  check_counts({"jamba-v0.1.json", 51'570'323'328, 12'110'311'296, 16, 16, 4, 28,
                "mamba+dense: 12, mamba+moe: 16, attention+dense: 4"});
  const json j = score_json(k_hf + "jamba-v0.1.json");
  // The card's "12B active / 52B total" counts embeddings (without them 11.6B).
  CHECK(j["size"]["active_params_as_built"].get<double>() == doctest::Approx(12e9).epsilon(0.02));
  // JambaMambaMixer, H 4096, I 8192, N 16, d_conv 4, dt_rank 256: in_proj, x_proj, dt_proj,
  // out_proj are the matrices; conv1d (+bias), dt_proj bias, A_log, D and the dt/B/C norms
  // beside them. Forward state FLOPs per token: 7 I N + 3 I (scan, D skip, gate) + 2 I K
  // (conv) = 942,080 + 65,536 (jamba.md (d)).
  const double H = 4096, I = 8192, N = 16, K = 4, R = 256, mamba = 28;
  const double matrices = H * 2 * I + I * (R + 2 * N) + R * I + I * H;
  const double other = I * K + I + I + I * N + I + R + 2 * N;
  const double state = 942'080 + 65'536;
  CHECK(j["size"]["linear_mixer_params"].get<double>() == mamba * matrices);
  CHECK(j["size"]["mixer_other_params"].get<double>() == mamba * other);
  CHECK(j["compute"]["linear_mixer_flops_per_token"].get<double>() == mamba * 3 * (2 * matrices + state));
  // mamba_dt_rank "auto" is ceil(H / 16) = 256 (JambaConfig): the same model.
  const json automatic = score_of_text("moeplan-hf-jamba-auto.json",
                                       with_key("jamba-v0.1.json", "\"mamba_dt_rank\": 256", "\"mamba_dt_rank\": \"auto\""));
  CHECK(automatic["size"] == j["size"]);
}

TEST_CASE("jamba: what moeplan cannot count is refused") {
  check_refused("the remote code's Mamba without its dt/B/C norms (transformers always builds them)",
                with_key("jamba-v0.1.json", "\"mamba_d_state\": 16", "\"mamba_d_state\": 16, \"mamba_inner_layernorms\": false"),
                "mamba_inner_layernorms");
  check_refused("the attention pattern left to the class default",
                with_key("jamba-v0.1.json", "\"attn_layer_period\": 8,", ""), "attn_layer_period");
  check_refused("a head_dim that JambaAttention did not use",
                with_key("jamba-v0.1.json", "\"num_key_value_heads\": 8,", "\"num_key_value_heads\": 8, \"head_dim\": 256,"),
                "head_dim");
}

TEST_CASE("granitemoehybrid: Mamba2 and attention by layer_types, experts and the shared MLP in every layer") {
  // python3 tests/data/hf/recount/granitemoehybrid_count.py granite-4.0-h-{small,tiny,micro}.json:
  //   small 32,207,337,984 / 8,803,121,664; tiny 6,939,037,248 / 1,465,470,528;
  //   micro (dense: the shared MLP is every layer's FFN) 3,191,396,096 / 3,191,396,096.
  check_counts({"granite-4.0-h-small.json", 32'207'337'984, 8'803'121'664, 40, 0, 4, 36,
                "mamba2+moe: 36, attention+moe: 4"});
  check_counts({"granite-4.0-h-tiny.json", 6'939'037'248, 1'465'470'528, 40, 0, 4, 36,
                "mamba2+moe: 36, attention+moe: 4"});
  check_counts({"granite-4.0-h-micro.json", 3'191'396'096, 3'191'396'096, 0, 40, 4, 36,
                "mamba2+dense: 36, attention+dense: 4"});
  // The card's figures are one significant digit (32B / 9B, 7B / 1B, 3B): the counts round
  // to them (h-small's 8.80B active is 2.2 % under "9B", h-tiny's 1.47B is "1B", h-micro's
  // 3.19B is "3B"; granitemoehybrid.md (f)).
  const json small = score_json(k_hf + "granite-4.0-h-small.json");
  const json tiny = score_json(k_hf + "granite-4.0-h-tiny.json");
  const json micro = score_json(k_hf + "granite-4.0-h-micro.json");
  CHECK(std::round(small["size"]["active_params_as_built"].get<double>() / 1e9) == 9);
  CHECK(std::round(tiny["size"]["active_params_as_built"].get<double>() / 1e9) == 1);
  CHECK(std::round(micro["size"]["total_params_as_built"].get<double>() / 1e9) == 3);
  // Mamba2 of H-Small: H 4096, 128 heads of 64 (I 8192), 1 group, N 128, d_conv 4:
  // conv_dim 8448, in_proj 4096 x 16768 (granitemoehybrid.md), out_proj 8192 x 4096;
  // state FLOPs 6 I N + 3 I + 2 conv_dim d_conv (the research's 6,307,840 counts 2 I: the
  // output gate's I more here) + 67,584.
  const double H = 4096, I = 8192, N = 128, conv_dim = 8448;
  const double matrices = H * 16768 + I * H;
  const double state = 6 * I * N + 3 * I + 2 * conv_dim * 4;
  CHECK(state == 6'307'840 + I + 67'584);
  CHECK(small["size"]["linear_mixer_params"].get<double>() == 36 * matrices);
  CHECK(small["size"]["mixer_other_params"].get<double>() == 36 * (conv_dim * 4 + conv_dim + 3 * 128 + I));
  CHECK(small["compute"]["linear_mixer_flops_per_token"].get<double>() == 36 * 3 * (2 * matrices + state));
  // The shared MLP is a shared expert of width 1536 in every layer; 72 experts, top 10.
  CHECK(small["experts"]["active_experts"].get<double>() == 11);
}

TEST_CASE("granitemoehybrid: what moeplan cannot count is refused") {
  check_refused("a layer kind GraniteMoeHybridConfig does not allow",
                with_key("granite-4.0-h-tiny.json", "\"attention\",", "\"linear_attention\","), "layer_types");
  check_refused("Mamba heads that do not split mamba_expand * hidden_size",
                with_key("granite-4.0-h-tiny.json", "\"mamba_d_head\": 64", "\"mamba_d_head\": 48"), "mamba_d_head");
  check_refused("the expert count left to the class default (8)",
                with_key("granite-4.0-h-tiny.json", "\"num_local_experts\": 64,", ""), "num_local_experts");
}

TEST_CASE("nemotron_h: one block per layer (M, *, -, E), squared-ReLU MLPs and experts without a gate") {
  // python3 tests/data/hf/recount/nemotron_h_count.py nemotron-h-8b.json nemotron-3-nano-30b-a3b.json:
  //   8B 8,100,852,736 (dense); Nano 31,577,937,344 / 3,580,073,408.
  check_counts({"nemotron-h-8b.json", 8'100'852'736, 8'100'852'736, 0, 24, 4, 24,
                "mamba2+none: 24, none+dense: 24, attention+none: 4"});
  check_counts({"nemotron-3-nano-30b-a3b.json", 31'577'937'344, 3'580'073'408, 23, 0, 6, 23,
                "mamba2+none: 23, none+moe: 23, attention+none: 6"});
  const json h8 = score_json(k_hf + "nemotron-h-8b.json");
  const json nano = score_json(k_hf + "nemotron-3-nano-30b-a3b.json");
  // Cards: Nemotron-H-8B "8B"; Nemotron 3 Nano "3.2B active (3.6B with embeddings), 31.6B
  // total": 3.6B counts the embedding and the output head, 3.2B leaves the input embedding
  // (V x H) out.
  CHECK(h8["size"]["total_params_as_built"].get<double>() == doctest::Approx(8e9).epsilon(0.02));
  const double nano_active = nano["size"]["active_params_as_built"].get<double>();
  CHECK(nano_active == doctest::Approx(3.6e9).epsilon(0.02));
  CHECK(nano_active - 131072.0 * 2688 == doctest::Approx(3.2e9).epsilon(0.02));
  // One RMSNorm per layer (NemotronHBlock.norm) and the final norm_f.
  CHECK(h8["size"]["norm_params"].get<double>() == 53 * 4096.0);
  CHECK(nano["size"]["norm_params"].get<double>() == 53 * 2688.0);
  // Ungated: the 24 MLPs of the 8B are up and down, 2 x 4096 x 21504 each; Nano's experts
  // 2 x 2688 x 1856 (128, top 6) and one shared MLP of 3712.
  const double attention8 = 4 * (2 * 4096.0 * 32 * 128 + 2 * 4096.0 * 8 * 128);
  const double mamba8 = 24 * (4096.0 * (8192 + 10240 + 128) + 8192.0 * 4096);
  CHECK(h8["size"]["N_nonembedding_total"].get<double>() == attention8 + mamba8 + 24 * 2 * 4096.0 * 21504);
  const double d = 2688;
  const double attention = 6 * (2 * d * 32 * 128 + 2 * d * 2 * 128);
  const double mamba = 23 * (d * (4096 + 6144 + 64) + 4096 * d);
  CHECK(nano["size"]["N_nonembedding_total"].get<double>() ==
        attention + mamba + 23 * (128 * 2 * d * 1856 + 2 * d * 3712));
  CHECK(nano["size"]["N_a_nonembedding_active"].get<double>() == attention + mamba + 23 * (6 * 2 * d * 1856 + 2 * d * 3712));
  CHECK(nano["size"]["router_params"].get<double>() == 23 * 128 * d);
}

TEST_CASE("nemotron_h: the layer list may be written as layers_block_type, and must agree with the pattern") {
  // transformers' NemotronHConfig writes layers_block_type (alias layer_types) with these
  // names; the legacy pattern string says the same.
  const std::string pattern = "\"hybrid_override_pattern\": \"M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-\",";
  std::string list = "\"layers_block_type\": [";
  for (const char ch : std::string("M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-")) {
    list += std::string(list.back() == '[' ? "" : ", ") +
            (ch == 'M' ? "\"linear_attention\"" : ch == '*' ? "\"full_attention\"" : "\"mlp\"");
  }
  list += "],";
  json a = score_json(k_hf + "nemotron-h-8b.json");
  json b = score_of_text("moeplan-hf-nemotron-list.json", with_key("nemotron-h-8b.json", pattern, list));
  a["model"].erase("name");  // the file's name
  b["model"].erase("name");
  CHECK(b["size"] == a["size"]);
  CHECK(b["model"] == a["model"]);
  std::string other = list;
  other.replace(other.find("\"mlp\""), 5, "\"moe\"");
  check_refused("a layer list that differs from the pattern",
                with_key("nemotron-h-8b.json", pattern, pattern + other), "layers_block_type");
}

TEST_CASE("nemotron_h: what moeplan cannot count is refused") {
  check_refused("an unknown pattern character",
                with_key("nemotron-h-8b.json", "\"M-M-M-M*", "\"M-M-M-X*"), "hybrid_override_pattern");
  check_refused("a layer count the pattern does not have",
                with_key("nemotron-h-8b.json", "\"num_hidden_layers\": 52", "\"num_hidden_layers\": 54"), "num_hidden_layers");
  check_refused("two shared experts where NemotronHMoE builds one",
                with_key("nemotron-3-nano-30b-a3b.json", "\"n_shared_experts\": 1", "\"n_shared_experts\": 2"),
                "n_shared_experts");
  // MTP: vLLM's NemotronHMultiTokenPredictor asserts one step and builds * and E layers only.
  check_refused("two MTP steps",
                with_key("nemotron-3-super-120b-a12b.json", "\"num_nextn_predict_layers\": 1", "\"num_nextn_predict_layers\": 2"),
                "num_nextn_predict_layers");
  check_refused("a Mamba MTP layer",
                with_key("nemotron-3-super-120b-a12b.json", "\"mtp_hybrid_override_pattern\": \"*E\"",
                         "\"mtp_hybrid_override_pattern\": \"M*E\""),
                "mtp_hybrid_override_pattern");
  check_refused("MTP layers in another order",
                with_key("nemotron-3-super-120b-a12b.json", "\"mtp_hybrid_override_pattern\": \"*E\"",
                         "\"mtp_hybrid_override_pattern\": \"E*\""),
                "mtp_hybrid_override_pattern");
  check_refused("an MTP layer list that differs from the pattern",
                with_key("nemotron-3-super-120b-a12b.json", "\"mtp_hybrid_override_pattern\": \"*E\",",
                         "\"mtp_hybrid_override_pattern\": \"*E\", \"mtp_layers_block_type\": [\"moe\"],"),
                "mtp_layers_block_type");
  // The class default MTP layers are *E: Nemotron-H-8B has no E layer whose experts they would take.
  check_refused("an MoE MTP layer in a model without experts",
                with_key("nemotron-h-8b.json", "\"num_hidden_layers\": 52", "\"num_hidden_layers\": 52, \"num_nextn_predict_layers\": 1"),
                "mtp_hybrid_override_pattern");
  check_refused("expert and latent-projection biases (mlp_bias)",
                with_key("nemotron-3-super-120b-a12b.json", "\"mlp_bias\": false", "\"mlp_bias\": true"), "mlp_bias");
  check_refused("moe_latent_size in a family that builds no latent MoE",
                with_key("jamba-v0.1.json", "\"num_hidden_layers\": 32", "\"num_hidden_layers\": 32, \"moe_latent_size\": 1024"),
                "moe_latent_size");
}

TEST_CASE("nemotron_h: Nemotron 3 Super's latent MoE and MTP layer, counted as the recount") {
  // python3 tests/data/hf/recount/nemotron_h_count.py nemotron-3-super-120b-a12b.json:
  //   120,668,687,360 total / 12,770,216,960 active; mtp_params 2,942,324,736; checkpoint
  //   123,611,012,096. Card (NVIDIA-Nemotron-3-Super-120B-A12B): "120B total, 12B active". A
  //   public test of the BF16 checkpoint's safetensors headers states 123,611,012,096 BF16 weights
  //   (MTP 2,942,324,736) and 12,770,216,960 active: the same figures.
  check_counts({"nemotron-3-super-120b-a12b.json", 120'668'687'360, 12'770'216'960, 40, 0, 8, 40,
                "mamba2+none: 40, none+moe: 40, attention+none: 8"});
  const json j = score_json(k_hf + "nemotron-3-super-120b-a12b.json");
  CHECK(j["model"]["moe_latent_size"] == 1024);
  CHECK(j["size"]["mtp_params"].get<double>() == 2'942'324'736.0);
  // The BF16 weights and the e_score_correction_bias buffers of the 40 MoE layers and the MTP
  // layer's (41 x 512), which the checkpoint stores too.
  CHECK(j["size"]["total_params_in_checkpoint"].get<double>() == 123'611'012'096.0 + 41.0 * 512);
  // By hand: d 4096, latent 1024, 512 experts of 2688 (top 22), one shared MLP of 5376.
  const double d = 4096, l = 1024, w = 2688;
  const double attention = 8 * (2 * d * 32 * 128 + 2 * d * 2 * 128);
  const double mamba = 40 * (d * (8192 + 10240 + 128) + 8192 * d);  // in_proj, out_proj
  const double latent = 40 * 2 * d * l;                              // fc1_latent_proj, fc2_latent_proj
  CHECK(j["size"]["latent_projection_params"].get<double>() == latent);
  CHECK(latent == 335'544'320.0);
  // Routed experts at the latent: up 2688 x 1024 and down 1024 x 2688 each (not 2 x 4096 x 2688).
  CHECK(j["size"]["N_nonembedding_total"].get<double>() == attention + mamba + latent + 40 * (512 * 2 * l * w + 2 * d * 5376));
  CHECK(j["size"]["N_a_nonembedding_active"].get<double>() == attention + mamba + latent + 40 * (22 * 2 * l * w + 2 * d * 5376));
  CHECK(j["size"]["router_params"].get<double>() == 40 * 512 * d);  // the router reads d
  CHECK(j["size"]["N_a_nonembedding_active"].get<double>() == 11'609'833'472.0);
  // Without the latent the experts read d: N_a 22 x 2 x 2688 x 3072 more a layer, less the projections,
  // and M changes by 6 FLOPs per active weight exactly (the scores and Mamba states stay).
  std::string text = fixture_text("nemotron-3-super-120b-a12b.json");
  text.replace(text.find("\"moe_latent_size\": 1024,"), std::string("\"moe_latent_size\": 1024,").size(), "");
  const json full = score_of_text("moeplan-hf-super-nolatent.json", text);
  const double na = j["size"]["N_a_nonembedding_active"].get<double>();
  const double na_full = full["size"]["N_a_nonembedding_active"].get<double>();
  CHECK(na_full - na == 40 * (22 * 2 * w * (d - l) - 2 * d * l));
  CHECK(full["size"]["latent_projection_params"].get<double>() == 0);
  CHECK(full["model"]["moe_latent_size"] == 0);
  const double m = j["compute"]["flops_per_token"].get<double>(), m_full = full["compute"]["flops_per_token"].get<double>();
  CHECK(m - 6 * na == doctest::Approx(m_full - 6 * na_full).epsilon(1e-12));
  // The laws were not fitted on it: named.
  bool named = false;
  for (const auto& line : j["model"]["architecture_outside_laws"]) named |= line.get<std::string>().starts_with("latent MoE");
  CHECK(named);
}

TEST_CASE("nemotron_h: the latent MoE in every FLOP convention, serving, and the refusals of the cluster and exports") {
  const auto m = moeplan::load_model_config(k_hf + "nemotron-3-super-120b-a12b.json");
  REQUIRE(m.has_value());
  CHECK(m->moe_latent_size == 1024);
  CHECK(m->expert_io_width() == 1024);
  CHECK_FALSE(m->problem().has_value());
  for (const auto& change : {+[](moeplan::ModelConfig& x) { x.moe_latent_size = -1; },
                             +[](moeplan::ModelConfig& x) { x.extras.expert_bias = true; }}) {  // biases not counted on it
    moeplan::ModelConfig x = *m;
    change(x);
    const auto p = x.problem();
    REQUIRE(p.has_value());
    CHECK(p->key == "model.moe_latent_size");
  }
  // Expert FLOPs per token by hand, 40 MoE layers, d 4096, l 1024, w 2688, E 512, K 22, one
  // shared MLP of 5376, ungated (2 matrices), the projections 2·4096·1024 = 8,388,608 weights:
  // holistic-002: 6 x (22·2·1024·2688 + 2·4096·5376 + 8,388,608) x 40 = 41,649,438,720.
  using moeplan::FlopsConvention;
  CHECK(moeplan::flops_per_token(*m, FlopsConvention::holistic_002, 4096).experts == 41'649'438'720.0);
  // leverage-000: 3·((2/3)·(6·1024·22·2688 + 4·4096·5376) + 2·8,388,608)·40 = 38,126,223,360.
  CHECK(moeplan::flops_per_token(*m, FlopsConvention::leverage_000, 4096).experts ==
        doctest::Approx(38'126'223'360.0).epsilon(1e-12));
  // allocation-004: 3·(2·4096·512 + 2·2·2688·(1024·22 + 4096·1) + 2·8,388,608)·40 = 36,867,932,160.
  CHECK(moeplan::flops_per_token(*m, FlopsConvention::allocation_004, 4096).experts == 36'867'932'160.0);
  // moe-vs-dense-003: 3·2·(active experts and projections) = the holistic figure.
  CHECK(moeplan::flops_per_token(*m, FlopsConvention::moe_vs_dense_003, 4096).experts == 41'649'438'720.0);
  // Serving: vLLM keeps fc1/fc2_latent_proj whole on every TP rank (ReplicatedLinear), the rest of
  // a layer split over TP 8: the busiest GPU holds 40·8,388,608 latent weights in bf16, whole.
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = 8192;
  const auto f = moeplan::serving_fit(*m, o);
  REQUIRE_MESSAGE(f.has_value(), (f ? std::string() : f.error()));
  CHECK(f->served_params == 120'668'687'360.0);
  const double latent = 40 * 8'388'608.0;
  CHECK(f->weight_bytes == 2.0 * (120'668'687'360.0 + 7 * latent));  // 8 copies of the projections
  CHECK(f->weight_bytes_per_gpu == doctest::Approx(2.0 * ((120'668'687'360.0 - latent) / 8 + latent)).epsilon(1e-12));
  // The cluster, GEMM and Megatron models, and the hf-config writer, name it and refuse.
  const auto why = moeplan::non_uniform_layers(*m);
  REQUIRE(why.has_value());
  CHECK(why->find("latent MoE") != std::string::npos);
  const Run cluster = run_moeplan({"score", k_hf + "nemotron-3-super-120b-a12b.json", "--tokens", "1e12", "--gpus", "64",
                                   "--gpu", "h100"});
  CHECK(cluster.code == 3);
  CHECK(cluster.out.empty());
  CHECK(cluster.err.find("latent MoE") != std::string::npos);
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + "nemotron-3-super-120b-a12b.json", "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("latent MoE") != std::string::npos);
  }
  // moeplan's TOML writes the latent and the MTP layer and reads them back to the same counts.
  const auto out = temp_path("nemotron-super.toml");
  const Run e = run_moeplan({"score", k_hf + "nemotron-3-super-120b-a12b.json", "--emit", "toml", "-o", out.string()});
  REQUIRE_MESSAGE(e.code == 0, e.err);
  const json back = score_json(out.string());
  std::filesystem::remove(out);
  const json j = score_json(k_hf + "nemotron-3-super-120b-a12b.json");
  CHECK(back["size"] == j["size"]);
  CHECK(back["compute"]["flops_per_token"] == j["compute"]["flops_per_token"]);
}

TEST_CASE("lfm2_moe: short convolutions and attention by layer_types, num_dense_layers leading dense FFNs") {
  // python3 tests/data/hf/recount/lfm2_moe_count.py lfm2-8b-a1b.json: 8,339,929,856 / 1,557,740,288.
  check_counts({"lfm2-8b-a1b.json", 8'339'929'856, 1'557'740'288, 22, 2, 6, 18,
                "short_conv+dense: 2, attention+moe: 6, short_conv+moe: 16"});
  const json j = score_json(k_hf + "lfm2-8b-a1b.json");
  // The card's "8.3B total / 1.5B active" is the count cut to 0.1B (1.56B active counted:
  // 3.8 % over 1.5B, and 5 % under it without the tied embedding, lfm2_moe.md (e)); no
  // convention reaches 1.5B within 2 %.
  CHECK(std::floor(j["size"]["total_params_as_built"].get<double>() / 1e8) == 83);
  CHECK(std::floor(j["size"]["active_params_as_built"].get<double>() / 1e8) == 15);
  // Lfm2MoeShortConv, H 2048, L 3: in_proj 3 H^2 and out_proj H^2; the conv H L beside
  // them; (2 L + 2) H = 16,384 state FLOPs per token (lfm2_moe.md (d)).
  const double H = 2048;
  CHECK(j["size"]["linear_mixer_params"].get<double>() == 18 * 4 * H * H);
  CHECK(j["size"]["mixer_other_params"].get<double>() == 18 * 3 * H);
  CHECK(j["compute"]["linear_mixer_flops_per_token"].get<double>() == 18 * 3 * (2 * 4 * H * H + 16'384));
  // Per-head q/k norms (64) in the 6 attention layers, 2 norms per layer, the final norm.
  CHECK(j["size"]["norm_params"].get<double>() == 6 * 2 * 64 + 24 * 2 * H + H);
  // tie_embedding (the original LFM2 key) false unties the head.
  const json untied = score_of_text("moeplan-hf-lfm2-untied.json",
                                    with_key("lfm2-8b-a1b.json", "\"tie_word_embeddings\": true", "\"tie_embedding\": false"));
  CHECK(untied["size"]["embedding_params"].get<double>() == 2 * 65536 * H);
}

TEST_CASE("lfm2_moe: what moeplan cannot count is refused") {
  check_refused("a layer kind that is neither full_attention nor conv",
                with_key("lfm2-8b-a1b.json", "\"full_attention\",", "\"sliding_attention\","), "layer_types");
  check_refused("the dense layers left to the class default",
                with_key("lfm2-8b-a1b.json", "\"num_dense_layers\": 2,", ""), "num_dense_layers");
}

TEST_CASE("nemotron-nas: block_configs give each layer its kv heads, FFN width, or no block at all") {
  // python3 tests/data/hf/recount/nemotron_nas_count.py nemotron-super-49b.json: 49,867,145,216
  // (dense), attention 7,398,752,256 + FFNs 40,365,981,696 = N; 49 attention blocks, 31
  // no_op; norms only where a block is: (49 + 80 + 1) x 8192.
  check_counts({"nemotron-super-49b.json", 49'867'145'216, 49'867'145'216, 0, 80, 49, 0,
                "attention+dense: 49, none+dense: 31"});
  const json j = score_json(k_hf + "nemotron-super-49b.json");
  CHECK(j["size"]["N_nonembedding_total"].get<double>() == 7'398'752'256.0 + 40'365'981'696.0);
  CHECK(j["size"]["norm_params"].get<double>() == 1'064'960);
  CHECK(j["size"]["total_params_as_built"].get<double>() == doctest::Approx(49e9).epsilon(0.02));  // card: 49B
  // attention replace_with_linear (H x H), ffn no_op, attention no_op, and ffn_mult through
  // _ffn_mult_to_intermediate_size: 2.625 -> int(1792.0) = 1792, 1.3 -> int(887.47) = 887
  // -> 1024 (the next multiple of 256).
  const json small = score_of_text("moeplan-hf-nas.json", R"({"model_type": "nemotron-nas", "hidden_size": 1024,
    "num_hidden_layers": 3, "num_attention_heads": 8, "num_key_value_heads": null, "intermediate_size": null,
    "vocab_size": 1000, "block_configs": [
      {"attention": {"n_heads_in_group": 4, "no_op": false, "replace_with_linear": false},
       "ffn": {"ffn_mult": 2.625, "no_op": false, "replace_with_linear": false}},
      {"attention": {"n_heads_in_group": null, "no_op": false, "replace_with_linear": true},
       "ffn": {"ffn_mult": null, "no_op": true, "replace_with_linear": false}},
      {"attention": {"n_heads_in_group": null, "no_op": true, "replace_with_linear": false},
       "ffn": {"ffn_mult": 1.3, "no_op": false, "replace_with_linear": false}}]})");
  const double d = 1024;
  CHECK(small["size"]["N_nonembedding_total"].get<double>() ==
        (2 * d * 8 * 128 + 2 * d * 2 * 128) + d * d + 3 * d * (1792 + 1024));
  CHECK(small["size"]["norm_params"].get<double>() == (2 + 1 + 1 + 1) * d);
  CHECK(small["model"]["layer_kinds"] == "attention+dense: 1, linear+none: 1, none+dense: 1");
  check_extrapolated(small);
}

TEST_CASE("nemotron-nas: what moeplan cannot count is refused") {
  const std::string text = fixture_text("nemotron-super-49b.json");
  const std::string first = R"("ffn": {
        "ffn_mult": 2.625,
        "no_op": false,
        "replace_with_linear": false
      })";
  REQUIRE(text.find(first) != std::string::npos);
  check_refused("an FFN replaced by one linear map",
                with_key("nemotron-super-49b.json", first,
                         R"("ffn": {"ffn_mult": null, "no_op": false, "replace_with_linear": true})"),
                "block_configs");
  check_refused("attention sink tokens (not counted)",
                with_key("nemotron-super-49b.json", "\"n_heads_in_group\": 8,", "\"n_heads_in_group\": 8, \"num_sink_tokens\": 4,"),
                "block_configs");
  check_refused("a block key moeplan does not know",
                with_key("nemotron-super-49b.json", first, std::string(first) + R"(, "mixer": {"kind": "mamba"})"),
                "block_configs");
  check_refused("fewer blocks than layers",
                with_key("nemotron-super-49b.json", "\"num_hidden_layers\": 80", "\"num_hidden_layers\": 81"),
                "block_configs");
}

TEST_CASE("offsets past their period and Mamba2 groups that do not divide the heads are refused") {
  json jamba = json::parse(fixture_text("jamba-v0.1.json"));
  jamba["attn_layer_offset"] = jamba["attn_layer_period"].get<int>() + 1;  // JambaConfig raises here
  Run r = score_text("jamba-offset.json", jamba.dump());
  CHECK(r.code == 4);
  CHECK(r.err.find("attn_layer_offset: is") != std::string::npos);
  jamba = json::parse(fixture_text("jamba-v0.1.json"));
  jamba["expert_layer_offset"] = jamba["expert_layer_period"];
  r = score_text("jamba-expert-offset.json", jamba.dump());
  CHECK(r.code == 4);
  CHECK(r.err.find("expert_layer_offset: is") != std::string::npos);
  json nano = json::parse(fixture_text("nemotron-3-nano-30b-a3b.json"));
  const char* groups = nano.contains("mamba_n_groups") ? "mamba_n_groups" : "n_groups";
  nano[groups] = 7;
  r = score_text("nemotron-groups.json", nano.dump());
  CHECK(r.code == 4);
  CHECK(r.err.find("groups do not divide") != std::string::npos);
}
