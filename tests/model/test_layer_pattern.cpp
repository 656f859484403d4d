// Per-layer models (docs/hybrid-layers.md): a uniform model written out layer by layer counts
// the same; hybrid layers are counted by hand here; the TOML keys of per-layer models are read,
// refused with the key named, and written back; the laws say when they extrapolate, and the
// cluster, GEMM and Megatron models refuse what they cannot lay out.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/model/model_config.hpp"

using namespace moeplan;
using nlohmann::json;

namespace {

ModelConfig small_moe() {
  ModelConfig m;
  m.hidden_size = 256;
  m.num_hidden_layers = 6;
  m.first_k_dense_replace = 1;
  m.intermediate_size = 768;
  m.moe_intermediate_size = 64;
  m.n_routed_experts = 8;
  m.num_experts_per_tok = 2;
  m.n_shared_experts = 1;
  m.num_attention_heads = 4;
  m.num_key_value_heads = 2;
  m.head_dim = 64;
  m.vocab_size = 1000;
  return m;
}

// M at S = 4096 (paper 002's convention), the attention-span tests' figure.
double m_at_4096(const ModelConfig& m) { return flops_per_token(m, FlopsConvention::holistic_002, 4096).M().value(); }

// small_moe with layers 0, 2 and 4 (3 of 6) changed by `set`, listed layer by layer.
template <class Set>
ModelConfig small_moe_every_other_layer(Set set) {
  ModelConfig m = small_moe();
  m.layers = m.layer_specs();
  for (std::size_t i = 0; i < m.layers.size(); i += 2) set(m.layers[i]);
  return m;
}

// The score FLOPs a token spends per key in one of small_moe's attention layers: 3 (forward and
// backward) x 4 query heads x (64 + 64) for q.k and the weighted sum of V.
constexpr double k_small_moe_scores_per_key = 3.0 * 4 * (64 + 64);

// 6 layers: layer 0 dense; 1-5 linear, linear, attention, linear, linear; all MoE after 0.
const char* k_hybrid_toml = R"(schema = "moeplan-model/1"
name = "toy-hybrid"
[model]
hidden_size = 256
num_hidden_layers = 6
intermediate_size = 768
moe_intermediate_size = 64
n_routed_experts = 8
num_experts_per_tok = 2
n_shared_experts = 1
num_attention_heads = 4
num_key_value_heads = 2
head_dim = 64
vocab_size = 1000
layer_mixers = ["attention", "toy", "toy", "attention", "toy", "toy"]
layer_ffns = ["dense", "moe", "moe", "moe", "moe", "moe"]
[[model.linear_mixers]]
kind = "toy"
matrix_params = 100000
other_params = 1000
state_flops = 50000
[training]
tokens = 1e9
seq_len = 4096
)";

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = temp_path(name);
  std::ofstream(path) << text;
  return path.string();
}

json score_json(const std::string& path) {
  const Run r = run_moeplan({"score", path, "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  return json::parse(r.out).at(0);
}

}  // namespace

TEST_CASE("a uniform model written out layer by layer counts exactly as the uniform one") {
  for (int interval : {1, 2}) {
    CAPTURE(interval);
    ModelConfig m = small_moe();
    m.moe_layer_interval = interval;
    m.extras.qk_norm = QkNorm::full_width;
    m.extras.qkv_bias = true;
    m.extras.router_bias = true;
    ModelConfig listed = m;
    listed.layers = m.layer_specs();
    REQUIRE(listed.layers.size() == 6);
    CHECK(listed.dense_layers() == m.dense_layers());
    CHECK(listed.moe_layers() == m.moe_layers());
    const ParameterCounts a = count_parameters(m), b = count_parameters(listed);
    CHECK(a.N == b.N);
    CHECK(a.N_a == b.N_a);
    CHECK(a.attention == b.attention);
    const BesideN x = count_beside_n(m), y = count_beside_n(listed);
    CHECK(x.total == y.total);
    CHECK(x.norms == y.norms);
    CHECK(x.routers == y.routers);
    for (FlopsConvention c : {FlopsConvention::holistic_002, FlopsConvention::leverage_000,
                              FlopsConvention::moe_vs_dense_003, FlopsConvention::allocation_004}) {
      CAPTURE(to_string(c));
      CHECK(flops_per_token(listed, c, 4096).M().value() == flops_per_token(m, c, 4096).M().value());
    }
    // Layer i >= first_k is MoE when (i - first_k + 1) % interval == 0.
    CHECK(listed.layers[0].ffn == FfnKind::dense);
    CHECK(listed.layers[1].ffn == (interval == 1 ? FfnKind::moe : FfnKind::dense));
    CHECK(listed.layers[2].ffn == FfnKind::moe);
    CHECK(listed.outside_law_architecture().empty());
  }
}

TEST_CASE("a hybrid counted by hand: linear mixers in N, their extras beside it, FLOPs with attention") {
  const auto m = parse_model_config(k_hybrid_toml, "toy.toml");
  REQUIRE_MESSAGE(m.has_value(), m.error().to_string());
  const double d = 256;
  const double attention = 2 * d * (4 * 64) + 2 * d * (2 * 64);  // Q, O; K, V
  const double expert = 3 * d * 64;
  const ParameterCounts p = count_parameters(*m);
  CHECK(m->attention_layers() == 2);
  CHECK(m->dense_layers() == 1);
  CHECK(m->moe_layers() == 5);
  CHECK(p.attention.value() == 2 * attention);
  CHECK(p.linear_mixers.value() == 4 * 100000.0);
  CHECK(p.N.value() == 2 * attention + 4 * 100000.0 + 3 * d * 768 + 5 * expert * (8 + 1));
  CHECK(p.N_a.value() == 2 * attention + 4 * 100000.0 + 3 * d * 768 + 5 * expert * (2 + 1));
  const BesideN b = count_beside_n(*m);
  CHECK(b.mixer_other.value() == 4 * 1000.0);
  CHECK(b.norms.value() == 6 * 2 * d + d);  // mixer and FFN norm in each layer, the final norm
  CHECK(b.routers.value() == 5 * 8 * d);
  // holistic-002: 6 per active weight (mixer matrices included) + scores of the 2 attention
  // layers + 3 x the mixers' state FLOPs.
  const double scores = 3.0 * 4096 * 4 * (64 + 64) * 2;
  CHECK(flops_per_token(*m, FlopsConvention::holistic_002, 4096).M().value() ==
        6 * p.N_a.value() + scores + 3 * 4 * 50000.0);
  CHECK(flops_per_token(*m, FlopsConvention::holistic_002, 4096).linear_mixers ==
        3 * 4 * (2 * 100000.0 + 50000.0));
  const auto outside = m->outside_law_architecture();
  REQUIRE(outside.size() == 1);
  CHECK(outside.front() == "toy mixers (not softmax attention) in 4 of 6 layers");
}

TEST_CASE("single-block layers, shared K/V, zero-width experts, an indexer, each counted by its rule") {
  ModelConfig m = small_moe();
  m.layers = m.layer_specs();
  m.layers[1].ffn = FfnKind::none;        // a layer with a mixer only: one norm
  m.layers[2].mixer = MixerKind::none;    // an FFN only: one norm, no attention
  m.layers[3].own_kv = false;             // reuses layer 2's K, V... (a rule of the layer alone)
  m.layers[4].ffn = FfnKind::moe_and_dense;
  m.layers[4].dense_width = 256;          // Arctic: a residual MLP of width d
  m.zero_experts = 4;
  const double d = 256;
  const BesideN b = count_beside_n(m);
  CHECK(b.norms.value() == (6 * 2 - 2) * d + d);
  CHECK(b.routers.value() == m.moe_layers() * (8 + 4) * d);  // the router scores zero experts
  const ParameterCounts p = count_parameters(m);
  const double attention = 2 * d * (4 * 64) + 2 * d * (2 * 64);
  CHECK(p.attention.value() == 4 * attention + 2 * d * (4 * 64));  // layer 3: Q and O only
  CHECK(p.dense_ffn.value() == 3 * d * 768 + 3 * d * 256);
  CHECK(m.moe_layers() == 4);  // layers 2-5 (layer 1 has no FFN)
  const auto outside = m.outside_law_architecture();
  CHECK(outside.size() == 5);  // no mixer, no FFN, residual FFN, shared K/V, zero experts

  // The indexer: matrices in N, k_norm beside it; S_eff = 2·topk − topk²/S when topk < S.
  ModelConfig mla = small_moe();
  mla.latent_attention = LatentAttention{128, 64, 32, 16, 32};
  const double without = count_parameters(mla).attention.value();
  const double m_without = flops_per_token(mla, FlopsConvention::holistic_002, 4096).M().value();
  mla.indexer = AttentionIndexer{.n_heads = 4, .head_dim = 32, .topk = 1024};
  CHECK(count_parameters(mla).attention.value() == without + 6 * (128.0 * 4 * 32 + d * 32 + d * 4));
  const double s_eff = 2.0 * 1024 - 1024.0 * 1024 / 4096;
  const double qk_v = 4 * ((32 + 16) + 32);
  const double expected = m_without + 6 * 6 * (128.0 * 4 * 32 + d * 32 + d * 4) +
                          3.0 * (s_eff - 4096) * qk_v * 6 + 3.0 * 4096 * 4 * 32 * 6;
  CHECK(flops_per_token(mla, FlopsConvention::holistic_002, 4096).M().value() == doctest::Approx(expected).epsilon(1e-12));
  mla.latent_attention->q_lora_rank = 0;
  REQUIRE(mla.problem().has_value());
  CHECK(mla.problem()->key == "model.index_n_heads");
}

TEST_CASE("per-layer TOML: written back by --emit toml and read to the same counts") {
  const std::string path = write_temp("moeplan-toy-hybrid.toml", k_hybrid_toml);
  const std::string out = (temp_path("moeplan-toy-hybrid-back.toml")).string();
  const Run r = run_moeplan({"score", path, "--emit", "toml", "-o", out});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  const json a = score_json(path);
  const json b = score_json(out);
  CHECK(a["size"] == b["size"]);
  CHECK(a["model"] == b["model"]);
  CHECK(a["compute"] == b["compute"]);
  CHECK(a["model"]["layer_kinds"] == "attention+dense: 1, toy+moe: 4, attention+moe: 1");
  CHECK(a["model"]["linear_mixer_layers"] == 4);
  CHECK(a["size"]["linear_mixer_params"] == 400000.0);
  CHECK(a["size"]["mixer_other_params"] == 4000.0);
  std::filesystem::remove(path);
  std::filesystem::remove(out);
}

TEST_CASE("per-layer TOML errors name the key and the line, exit 4, nothing on stdout") {
  const std::string base = k_hybrid_toml;
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string t = base;
    const auto at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
  };
  struct Case {
    std::string text, key, reason;
  };
  const Case cases[] = {
      {with(R"(layer_mixers = ["attention", "toy", "toy", "attention", "toy", "toy"])",
            R"(layer_mixers = ["attention", "toy", "toy", "attention", "toy"])"),
       "model.layer_mixers", "has 5 entries, num_hidden_layers is 6"},
      {with(R"("toy", "toy"])", R"("toy", "mamba"])"), "model.layer_mixers", "neither"},
      {with(R"(layer_ffns = ["dense",)", R"(layer_ffns = ["dens",)"), "model.layer_ffns", "is not one of"},
      {with(R"(layer_ffns = ["dense", "moe", "moe", "moe", "moe", "moe"])", ""), "model.layer_ffns", "missing"},
      {with("matrix_params = 100000", "matrix_params = -1"), "model.linear_mixers[0]", "must not be negative"},
      {with("matrix_params = 100000", "matrix_params = 100000.5"), "model.linear_mixers[0].matrix_params", "whole number"},
      {with("matrix_params = 100000", "matrix_params = 1e300"), "model.linear_mixers[0].matrix_params", "up to 1e15"},
      {with("layer_ffns = [", "first_k_dense_replace = 1\nlayer_ffns = ["), "model.first_k_dense_replace", "conflicts with layer_ffns"},
      {with("[[model.linear_mixers]]", "layer_own_kv = [false, true, true, true, true, true]\n[[model.linear_mixers]]"),
       "model.layer_own_kv", "an earlier attention layer"},
      {with("[[model.linear_mixers]]", "layer_own_kv = [true, false, true, true, true, true]\n[[model.linear_mixers]]"),
       "model.layer_own_kv", "needs attention"},
      {with("[[model.linear_mixers]]", "layer_windows = [0, 128, 0, 0, 0, 0]\n[[model.linear_mixers]]"),
       "model.layer_windows", "needs an attention layer"},
      {with("[training]", "[[model.linear_mixers]]\nkind = \"unused\"\nmatrix_params = 1\nother_params = 0\nstate_flops = 0\n[training]"),
       "model.linear_mixers[1]", "no layer of layer_mixers uses it"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.key);
    const std::string path = write_temp("moeplan-bad-hybrid.toml", c.text);
    const Run r = run_moeplan({"score", path});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(c.key) != std::string::npos);
    CHECK(r.err.find(c.reason) != std::string::npos);
    CHECK(r.err.find("moeplan-bad-hybrid.toml:") != std::string::npos);
    std::filesystem::remove(path);
  }
  // Mixers described but no layer uses them: refused, not ignored.
  std::string orphan = base;
  orphan.erase(orphan.find("layer_mixers"), orphan.find("[[model.linear_mixers]]") - orphan.find("layer_mixers"));
  const std::string path = write_temp("moeplan-orphan-mixer.toml", orphan);
  const Run r = run_moeplan({"score", path});
  CHECK(r.code == 4);
  CHECK(r.err.find("model.linear_mixers") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("the laws say they extrapolate to a hybrid, and cluster, bench, Megatron and hf-config refuse it") {
  const std::string path = write_temp("moeplan-toy-hybrid2.toml", k_hybrid_toml);
  const json h = score_json(path);
  for (const char* section : {"leverage", "joint_law", "allocation", "activation_rate"}) {
    CAPTURE(section);
    CHECK(h[section]["law_scope"].get<std::string>().starts_with("extrapolated"));
  }
  CHECK(h["model"]["architecture_outside_laws"].size() == 1);
  CHECK(h["holistic"]["in_family"] == false);
  const json u = score_json("qwen3-30b-a3b");
  for (const char* section : {"leverage", "joint_law", "allocation", "activation_rate"}) {
    CAPTURE(section);
    CHECK(u[section]["law_scope"].get<std::string>().starts_with("as fitted"));
  }
  CHECK(u["model"]["architecture_outside_laws"].empty());

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"score", path, "--gpus", "64", "--gpu", "h100"},
        std::vector<std::string>{"score", path, "--emit", "megatron"},
        std::vector<std::string>{"score", path, "--emit", "hf-config"},
        std::vector<std::string>{"bench", path, "--seconds", "0.01"}}) {
    CAPTURE(fmt_args(args));
    const Run r = run_moeplan(args);
    CHECK(r.code == 3);
    // score of several configs prints each one's report and fails the one a cluster cannot take
    if (args[2] != "--gpus") CHECK(r.out.empty());
    if (args.size() < 4 || args[3] != "hf-config") CHECK(r.err.find("not uniform") != std::string::npos);
  }
  std::filesystem::remove(path);
}

TEST_CASE("sliding-window layers score fewer keys, keep their weights, and are laid out like their uniform self") {
  const double full = m_at_4096(small_moe());
  ModelConfig m = small_moe_every_other_layer([](LayerSpec& l) { l.window = 128; });
  CHECK(count_parameters(m).N == count_parameters(small_moe()).N);
  CHECK(count_beside_n(m).total == count_beside_n(small_moe()).total);
  // A windowed query scores min(i, w) keys: S_eff = 2w - w²/S in place of S (Eq. 11's S).
  const double s_eff = 2.0 * 128 - 128.0 * 128 / 4096;
  CHECK(m_at_4096(m) == doctest::Approx(full - 3 * k_small_moe_scores_per_key * (4096 - s_eff)).epsilon(1e-12));
  const auto outside = m.outside_law_architecture();
  REQUIRE(outside.size() == 1);
  CHECK(outside.front() == "sliding-window attention (window up to 128) in 3 of 6 layers");
  CHECK_FALSE(non_uniform_layers(m).has_value());  // the cluster model takes it
  // Leading dense layers listed layer by layer (a TOML's layer_ffns) are still the uniform
  // layout, whatever first_k_dense_replace says.
  ModelConfig listed = m;
  for (std::size_t i = 0; i < 2; ++i) listed.layers[i].ffn = FfnKind::dense;
  listed.first_k_dense_replace = 0;
  CHECK_FALSE(non_uniform_layers(listed).has_value());
  m.layers[4].ffn = FfnKind::dense;  // a dense layer after MoE ones, a real per-layer pattern: it does not
  CHECK(non_uniform_layers(m).has_value());
}

TEST_CASE("a config.json with sliding_attention layer_types is read with windows and written back so") {
  json j = json::parse(std::ifstream(std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/gpt-oss-20b.json"));
  const int L = j["num_hidden_layers"];
  j["layer_types"] = json::array();
  for (int i = 0; i < L; ++i) j["layer_types"].push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
  const std::string path = write_temp("gpt-oss-swa.json", j.dump());
  const json a = score_json(path);
  // Without layer_types GptOssConfig alternates the same way (its default): the fixture, trimmed
  // of the key, reads as the windowed model.
  CHECK(score_json(std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/gpt-oss-20b.json")["compute"] == a["compute"]);
  json all_full = j;
  for (auto& t : all_full["layer_types"]) t = "full_attention";
  const json full = score_json(write_temp("gpt-oss-full.json", all_full.dump()));
  CHECK(a["size"] == full["size"]);  // the same weights
  CHECK(a["compute"]["flops_per_token"].get<double>() < full["compute"]["flops_per_token"].get<double>());
  CHECK(a["leverage"]["law_scope"] == "extrapolated");
  const std::string out = temp_path("gpt-oss-swa-back.json").string();
  REQUIRE(run_moeplan({"score", path, "--emit", "hf-config", "-o", out}).code == 0);
  const json b = score_json(out);
  CHECK(b["compute"] == a["compute"]);
  CHECK(b["size"] == a["size"]);
  // Too few entries, or a window missing: refused naming the key.
  j["layer_types"].erase(j["layer_types"].begin());
  Run r = run_moeplan({"score", write_temp("gpt-oss-swa-short.json", j.dump())});
  CHECK(r.code == 4);
  CHECK(r.err.find("layer_types: has 23 entries") != std::string::npos);
  j["layer_types"].push_back("sliding_attention");
  j.erase("sliding_window");
  r = run_moeplan({"score", write_temp("gpt-oss-swa-nowin.json", j.dump())});
  CHECK(r.code == 4);
  CHECK(r.err.find("sliding_window: missing") != std::string::npos);
}


TEST_CASE("chunked-attention layers score the keys of their own chunk and keep their weights") {
  const double full = m_at_4096(small_moe());
  ModelConfig m = small_moe_every_other_layer([](LayerSpec& l) { l.chunk = 1000; });
  CHECK(count_parameters(m).N == count_parameters(small_moe()).N);
  // By hand: S = 4096 = 4 chunks of 1000 and 96 positions; query i scores (i mod 1000) + 1 keys,
  // about 1000/2 a query in a whole chunk and 96/2 in the last: twice the mean is
  // (4 x 1000² + 96²) / 4096 = 978.8 keys in place of S.
  const double s_eff = (4.0 * 1000 * 1000 + 96.0 * 96) / 4096;
  CHECK(s_eff == doctest::Approx(978.80).epsilon(1e-4));
  CHECK(m_at_4096(m) == doctest::Approx(full - 3 * k_small_moe_scores_per_key * (4096 - s_eff)).epsilon(1e-12));
  // A chunk of at least S masks nothing: full causal attention, to the last bit.
  m = small_moe_every_other_layer([](LayerSpec& l) { l.chunk = 4096; });
  CHECK(m_at_4096(m) == full);
  const auto outside = m.outside_law_architecture();
  REQUIRE(outside.size() == 1);
  CHECK(outside.front() == "chunked attention (chunks of up to 4096 positions) in 3 of 6 layers");
  CHECK_FALSE(non_uniform_layers(m).has_value());  // the cluster model takes it
  m.layers[0].window = 128;  // one layer cannot be both
  REQUIRE(m.problem().has_value());
  CHECK(m.problem()->key == "model.layer_chunks");
}

TEST_CASE("Llama 4's chunked layers are read from config.json with the class defaults and written back") {
  // Llama4TextConfig: attention_chunk_size 8192 by default; the RoPE layers (all but every fourth)
  // attend in chunks. The fixture omits the key, so it reads with the default.
  const std::string fixture = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/llama-4-scout.json";
  json j = json::parse(std::ifstream(fixture));
  json& t = j.contains("text_config") ? j["text_config"] : j;
  const int L = t["num_hidden_layers"];
  const auto m_at = [](const std::string& path, const std::string& seq) {
    const Run r = run_moeplan({"score", path, "--tokens", "1e12", "--seq-len", seq, "--format", "json"});
    REQUIRE(r.code == 0);
    return json::parse(r.out)[0]["compute"]["flops_per_token"].get<double>();
  };
  t["attention_chunk_size"] = nullptr;  // null: no chunks
  const std::string none = write_temp("llama4-nochunk.json", j.dump());
  t.erase("attention_chunk_size");
  const std::string defaulted = write_temp("llama4-default.json", j.dump());
  // At S = 8192 a chunk of 8192 masks nothing; at 4 x 8192 the chunked layers score 8192 keys.
  CHECK(m_at(defaulted, "8192") == m_at(none, "8192"));
  const double chunked_layers = L - L / 4;
  const double drop = m_at(none, "32768") - m_at(defaulted, "32768");
  const double per_key = (m_at(none, "32768") - m_at(none, "8192")) / (double(L) * (32768 - 8192));
  CHECK(drop == doctest::Approx(chunked_layers * per_key * (32768 - 8192)).epsilon(1e-9));
  // layer_types wins over no_rope_layers; an unknown kind is refused naming the key.
  t["attention_chunk_size"] = 8192;
  t["layer_types"] = json::array();
  for (int i = 0; i < L; ++i) t["layer_types"].push_back(i == 0 ? "chunked_attention" : "full_attention");
  const std::string one = write_temp("llama4-one.json", j.dump());
  CHECK(m_at(one, "32768") == doctest::Approx(m_at(none, "32768") - per_key * (32768 - 8192)).epsilon(1e-9));
  // transformers reads layer_types, vLLM no_rope_layers: where they name other layers, refused.
  json both = j;
  both["text_config"]["no_rope_layers"] = json::array();
  for (int i = 0; i < L; ++i) both["text_config"]["no_rope_layers"].push_back(1);
  const Run two = run_moeplan({"score", write_temp("llama4-two-models.json", both.dump())});
  CHECK(two.code == 4);
  CHECK(two.err.find("layer_types: names other chunked layers than no_rope_layers") != std::string::npos);
  t["layer_types"][1] = "sliding_attention";
  const Run bad = run_moeplan({"score", write_temp("llama4-bad.json", j.dump())});
  CHECK(bad.code == 4);
  CHECK(bad.err.find("layer_types: lists \"sliding_attention\"") != std::string::npos);
  // hf-config and TOML exports read back as the same chunks; Megatron-LM has none past S.
  for (const char* emit : {"hf-config", "toml"}) {
    const std::string out = temp_path(std::string("llama4-back.") + (emit == std::string("toml") ? "toml" : "json")).string();
    REQUIRE(run_moeplan({"score", defaulted, "--emit", emit, "-o", out}).code == 0);
    CHECK(m_at(out, "32768") == m_at(defaulted, "32768"));
    if (emit == std::string("hf-config")) {  // vLLM's key written too: 1 on the chunked layers
      const json back = json::parse(std::ifstream(out));
      REQUIRE(back.contains("no_rope_layers"));
      for (int i = 0; i < L; ++i) CHECK(back["no_rope_layers"][i] == ((i + 1) % 4 != 0 ? 1 : 0));
    }
  }
  const Run meg = run_moeplan({"score", defaulted, "--tokens", "1e12", "--seq-len", "16384", "--emit", "megatron"});
  CHECK(meg.code == 3);
  CHECK(meg.err.find("chunks of 8192 positions, shorter than S = 16384") != std::string::npos);
  const Run ok = run_moeplan({"score", defaulted, "--tokens", "1e12", "--seq-len", "8192", "--emit", "megatron"});
  CHECK(ok.code == 0);
  CHECK(ok.err.find("written as full attention") != std::string::npos);
  // Serving: vLLM turns its hybrid KV cache manager off for chunked local attention by default,
  // so a chunked layer keeps the whole context as a full one: 48 layers x 131,072 tokens x 4,096
  // bytes (8 KV heads of 128, bf16), 24 GiB a sequence either way; a decode step scores only its
  // chunk's keys: at 131,072 tokens, 8,192 in 36 layers, 131,072 in 12.
  const auto served = [](const std::string& path) {
    const Run r = run_moeplan({"score", path, "--serve-gpus", "8", "--serve-gpu", "h200", "--serve-context",
                               "131072", "--format", "json"});
    REQUIRE(r.code == 0);
    return json::parse(r.out)[0]["serving"];
  };
  const json chunked = served(defaulted), unchunked = served(none);
  CHECK(chunked["cache_per_sequence"].get<double>() == doctest::Approx(48.0 * 131072 * 4096 / (1u << 30)).epsilon(1e-12));
  CHECK(chunked["cache_per_sequence"] == unchunked["cache_per_sequence"]);
  CHECK(chunked["max_batch"] == unchunked["max_batch"]);
  CHECK(chunked["decode_compute_time"].get<double>() < unchunked["decode_compute_time"].get<double>());
}

TEST_CASE("gated attention is laid out as Megatron-Core builds it, but not with MLA, which has no output gate there") {
  ModelConfig m = small_moe();
  m.gated_attention = true;
  CHECK_FALSE(non_uniform_layers(m).has_value());
  m.latent_attention = LatentAttention{128, 64, 32, 16, 32};  // MLATransformerConfig raises for it
  REQUIRE(non_uniform_layers(m).has_value());
  CHECK(non_uniform_layers(m)->find("output gate with MLA") != std::string::npos);
}
