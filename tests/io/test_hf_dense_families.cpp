// Dense families of issue 51: smollm3 (SmolLM3-3B: RoPE in three layers of four, NoPE in every
// fourth), gpt_bigcode (SantaCoder: multi-query attention, a learned position table, GELU,
// biases everywhere) and nemotron (Nemotron-4 4B: squared ReLU, LayerNorms with biases); ALiBi
// models (BLOOM) in the exports. Expected counts are printed by the independent recounts
// tests/data/hf/recount/smollm3_count.py, gpt_bigcode_count.py and nemotron_count.py
// (standard-library Python from the modeling code); the caches are worked out here from the
// config numbers.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double size_of(const json& j, const char* key) { return j["size"][key].get<double>(); }

double cache_per_token(const std::string& path) {
  auto m = moeplan::load_model_config(path);
  REQUIRE(m.has_value());
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h100");
  o.gpus = 1;
  o.context = 2048;
  auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  return f->cache_bytes_per_token;
}

const std::string k_bloom = std::string(MOEPLAN_SOURCE_DIR) + "/bench/validation/trainings/bloom-176b.toml";

}  // namespace

TEST_CASE("smollm3: SmolLM3-3B counted as the recount and its checkpoint, NoPE layers exported by name") {
  const json j = score_of(k_hf + "smollm3-3b.json");
  // recount/smollm3_count.py: 3,075,098,624 (tied embedding), 2 bytes each = 6,150,197,248 of
  // the checkpoint's 6,150,235,008 bytes (the rest: two safetensors headers).
  CHECK(size_of(j, "total_params_as_built") == 3075098624.0);
  CHECK(size_of(j, "active_params_as_built") == 3075098624.0);
  CHECK(size_of(j, "embedding_params") == 128256.0 * 2048);  // no tie_word_embeddings key: SmolLM3Config's True
  const json outside = j["model"]["architecture_outside_laws"];
  CHECK(outside.dump().find("no RoPE in 9 of 36 layers") != std::string::npos);
  // Every layer keeps K and V (NoPE changes no cache): 36 x 2 x 4 kv heads x 128 x 2 bytes.
  CHECK(cache_per_token(k_hf + "smollm3-3b.json") == doctest::Approx(36.0 * 2 * 4 * 128 * 2));
  // mlp_bias: SmolLM3MLP's gate, up and down biases, 2 x 11008 + 2048 a layer.
  json biased = fixture("smollm3-3b.json");
  biased["mlp_bias"] = true;
  const Run r = score_doc(biased, "smollm3-mlp-bias.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "bias_params") == 36.0 * (2 * 11008 + 2048));
  // SmolLM3Config's num_key_value_heads default (4) is not guessed; a malformed list is refused.
  check_refused("smollm3-3b.json", "num_key_value_heads", [](json& x) { x.erase("num_key_value_heads"); });
  check_refused("smollm3-3b.json", "no_rope_layers", [](json& x) { x["no_rope_layers"] = {1, 0}; });
  // Without no_rope_layers the class derives them from no_rope_layer_interval: the same 9.
  json derived = fixture("smollm3-3b.json");
  derived.erase("no_rope_layers");
  derived["no_rope_layer_interval"] = 6;
  const Run d = score_doc(derived, "smollm3-interval.json");
  REQUIRE_MESSAGE(d.code == 0, d.err);
  CHECK(json::parse(d.out).at(0)["model"]["architecture_outside_laws"].dump().find("no RoPE in 6 of 36 layers") !=
        std::string::npos);
  // Megatron-LM builds the NoPE layers with --no-rope-freq (1 marks one); no transformers class
  // moeplan writes skips RoPE: --emit hf-config refuses by name.
  const Run meg = run_moeplan({"score", k_hf + "smollm3-3b.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(meg.code == 0, meg.err);
  std::string pattern;
  for (int i = 0; i < 36; ++i) pattern += fmt::format("{}{}", i > 0 ? "," : "", i % 4 == 3 ? 1 : 0);
  CHECK(meg.out.find(fmt::format("--no-rope-freq '[{}]'", pattern)) != std::string::npos);
  CHECK(meg.out.find("--position-embedding-type rope") != std::string::npos);
  const Run hf = run_moeplan({"score", k_hf + "smollm3-3b.json", "--emit", "hf-config"});
  CHECK(hf.code == 3);
  CHECK(hf.err.find("no_rope_layers") != std::string::npos);
}

TEST_CASE("gpt_bigcode: SantaCoder counted as the recount, its learned positions in the embedding") {
  const json j = score_of(k_hf + "santacoder.json");
  // recount/gpt_bigcode_count.py santacoder.json: 1,124,886,528 (the card's 1.1B).
  CHECK(size_of(j, "total_params_as_built") == 1124886528.0);
  // wte (tied) and wpe: 49280 x 2048 + 2048 x 2048.
  CHECK(size_of(j, "embedding_params") == 49280.0 * 2048 + 2048.0 * 2048);
  // Multi-query attention: c_attn is d x (d + 2 x 128), the checkpoint's [2304, 2048].
  CHECK(j["model"]["attention"] == "GQA");
  CHECK(size_of(j, "N_nonembedding_total") == 24.0 * (2048.0 * 2304 + 2048.0 * 2048 + 2 * 2048.0 * 8192));
  // Biases: c_attn 2304, c_proj 2048, c_fc 8192, mlp c_proj 2048 a layer; LayerNorms with
  // biases: 2 x 2 x 2048 a layer and ln_f.
  CHECK(size_of(j, "bias_params") == 24.0 * (2304 + 2048 + 8192 + 2048));
  CHECK(size_of(j, "norm_params") == 24.0 * 4 * 2048 + 2 * 2048);
  // One kv head: 24 layers x 2 x 1 x 128 x 2 bytes.
  CHECK(cache_per_token(k_hf + "santacoder.json") == doctest::Approx(24.0 * 2 * 1 * 128 * 2));
  check_refused("santacoder.json", "multi_query", [](json& x) { x.erase("multi_query"); });
  check_refused("santacoder.json", "n_positions", [](json& x) { x.erase("n_positions"); });
  // n_inner null: GPTBigCodeMLP's 4 x n_embd (8192 here too).
  json inner = fixture("santacoder.json");
  inner["n_inner"] = nullptr;
  const Run r = score_doc(inner, "santacoder-inner.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "total_params_as_built") == 1124886528.0);
  // Megatron-LM: learned_absolute positions with the table's 2048 rows, no --swiglu, biases on.
  const Run meg = run_moeplan({"score", k_hf + "santacoder.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(meg.code == 0, meg.err);
  CHECK(meg.out.find("--position-embedding-type learned_absolute") != std::string::npos);
  CHECK(meg.out.find("--max-position-embeddings 2048") != std::string::npos);
  CHECK(meg.out.find("--num-query-groups 1") != std::string::npos);
  CHECK(meg.out.find("\n--swiglu") == std::string::npos);  // (the comments name it)
  CHECK(meg.out.find("\n--disable-bias-linear") == std::string::npos);
  const Run hf = run_moeplan({"score", k_hf + "santacoder.json", "--emit", "hf-config"});
  CHECK(hf.code == 3);
  CHECK(hf.err.find("learned absolute") != std::string::npos);
  // The TOML keeps the positions: read back, the same count.
  const auto toml = temp_path("santacoder.toml");
  const Run t = run_moeplan({"score", k_hf + "santacoder.json", "--emit", "toml", "-o", toml.string()});
  REQUIRE_MESSAGE(t.code == 0, t.err);
  const json back = score_of(toml.string());
  std::filesystem::remove(toml);
  CHECK(back["size"]["embedding_params"] == j["size"]["embedding_params"]);
}

TEST_CASE("ALiBi (BLOOM): no weight, named outside the laws, refused by both exports by name") {
  const json j = score_of(k_bloom);
  CHECK(j["model"]["architecture_outside_laws"].dump().find("ALiBi") != std::string::npos);
  // ALiBi builds nothing: the embedding is the tied vocabulary table alone.
  CHECK(size_of(j, "embedding_params") == 250880.0 * 14336);
  // Megatron-LM's --position-embedding-type has no alibi: refused rather than written as RoPE.
  const Run meg = run_moeplan({"score", k_bloom, "--emit", "megatron"});
  CHECK(meg.code == 3);
  CHECK(meg.out.empty());
  CHECK(meg.err.find("ALiBi") != std::string::npos);
  CHECK(meg.err.find("--position-embedding-type") != std::string::npos);
  const Run hf = run_moeplan({"score", k_bloom, "--emit", "hf-config"});
  CHECK(hf.code == 3);
  CHECK(hf.err.find("ALiBi") != std::string::npos);
  // --emit toml keeps it.
  const Run t = run_moeplan({"score", k_bloom, "--emit", "toml"});
  REQUIRE_MESSAGE(t.code == 0, t.err);
  CHECK(t.out.find("position_embedding = \"alibi\"") != std::string::npos);
}

TEST_CASE("gpt_bigcode: a --seq-len past the learned table's rows exits 3 naming them, RoPE models are not concerned") {
  // SantaCoder's n_positions is 2048: position 2048 has no row, and a learned table cannot be
  // extrapolated.
  const Run past = run_moeplan({"score", k_hf + "santacoder.json", "--tokens", "1e10", "--seq-len", "4096"});
  CHECK(past.code == 3);
  CHECK(past.out.empty());
  CHECK(past.err.find("--seq-len 4096 is longer than the learned position table's 2048 rows") != std::string::npos);
  CHECK(past.err.find("cannot be extrapolated") != std::string::npos);
  const Run at = run_moeplan({"score", k_hf + "santacoder.json", "--tokens", "1e10", "--seq-len", "2048"});
  CHECK_MESSAGE(at.code == 0, at.err);
  // A RoPE model past its max_position_embeddings (Nemotron-4's 4096) is scored.
  const Run rope = run_moeplan({"score", k_hf + "nemotron-4-4b.json", "--tokens", "1e10", "--seq-len", "16384"});
  CHECK_MESSAGE(rope.code == 0, rope.err);
}

TEST_CASE("partial rotary: partial_rotary_factor read, --emit megatron writes --rotary-percent and reads it back") {
  // Nemotron-4 4B writes 0.5; --emit megatron states it (Megatron's default is 1.0).
  const Run meg = run_moeplan({"score", k_hf + "nemotron-4-4b.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(meg.code == 0, meg.err);
  CHECK(meg.out.find("\n--rotary-percent 0.5 ") != std::string::npos);
  // Absent, NemotronConfig's default (0.5); a written 1.0 rotates all of each head, no flag.
  json absent = fixture("nemotron-4-4b.json");
  absent.erase("partial_rotary_factor");
  const auto absent_file = temp_path("nemotron-absent-rotary.json");
  std::ofstream(absent_file) << absent.dump();
  const Run a = run_moeplan({"score", absent_file.string(), "--emit", "megatron"});
  REQUIRE_MESSAGE(a.code == 0, a.err);
  CHECK(a.out.find("\n--rotary-percent 0.5 ") != std::string::npos);
  json full = fixture("nemotron-4-4b.json");
  full["partial_rotary_factor"] = 1.0;
  const auto full_file = temp_path("nemotron-full-rotary.json");
  std::ofstream(full_file) << full.dump();
  const Run f = run_moeplan({"score", full_file.string(), "--emit", "megatron"});
  REQUIRE_MESSAGE(f.code == 0, f.err);
  CHECK(f.out.find("--rotary-percent") == std::string::npos);
  // A fraction outside (0, 1]: exit 4 naming the key.
  check_refused("nemotron-4-4b.json", "partial_rotary_factor", [](json& x) { x["partial_rotary_factor"] = 1.5; });
  // Qwen3.5 writes it inside rope_parameters (transformers 5).
  const auto qwen = temp_path("qwen35.toml");
  const Run q = run_moeplan({"score", k_hf + "qwen3.5-4b.json", "--emit", "toml", "-o", qwen.string()});
  REQUIRE_MESSAGE(q.code == 0, q.err);
  std::stringstream qwen_text;
  qwen_text << std::ifstream(qwen).rdbuf();
  CHECK(qwen_text.str().find("partial_rotary_factor = 0.25") != std::string::npos);
  // --emit hf-config: Glm4MoeConfig has the key; GLM-4.5-Air's 0.5 is written and read back.
  const Run glm = run_moeplan({"score", k_hf + "glm-4.5-air.json", "--emit", "hf-config"});
  REQUIRE_MESSAGE(glm.code == 0, glm.err);
  CHECK(json::parse(glm.out).at("partial_rotary_factor") == 0.5);
  // Read back by the launch-script reader: the same model passes, another factor is named.
  const auto script = temp_path("nemotron-rotary.sh");
  std::ofstream(script) << meg.out;
  const Run back = run_moeplan({"score", k_hf + "nemotron-4-4b.json", "--gpus", "8", "--gpu", "h100", "--tokens", "1e10",
                                "--megatron-args", script.string(), "--format", "json"});
  CHECK_MESSAGE(back.code == 0, back.err);
  CHECK(back.err.find("--rotary-percent") == std::string::npos);  // read, not listed as ignored
  const Run other = run_moeplan({"score", full_file.string(), "--gpus", "8", "--gpu", "h100", "--tokens", "1e10",
                                 "--megatron-args", script.string()});
  CHECK(other.code == 4);
  CHECK(other.err.find("--rotary-percent") != std::string::npos);
  CHECK(other.err.find("0.5 but the scored model rotates 1 of each head") != std::string::npos);
  for (const auto& p : {absent_file, full_file, qwen, script}) std::filesystem::remove(p);
}

TEST_CASE("nemotron: a Nemotron-4 4B config counted as the recount, squared ReLU exported as such") {
  const json j = score_of(k_hf + "nemotron-4-4b.json");
  // recount/nemotron_count.py nemotron-4-4b.json: 4,190,509,056 (untied), matrices 2,617,245,696.
  CHECK(size_of(j, "total_params_as_built") == 4190509056.0);
  CHECK(size_of(j, "N_nonembedding_total") == 2617245696.0);
  // Two matrices an FFN (up, down): 32 x 2 x 3072 x 9216 of the matrices.
  CHECK(size_of(j, "embedding_params") == 2.0 * 256000 * 3072);
  // NemotronLayerNorm1P: weight and bias, two a layer and the final one.
  CHECK(size_of(j, "norm_params") == 32.0 * 2 * 2 * 3072 + 2 * 3072);
  // GQA cache: 32 layers x 2 x 8 kv heads x 128 x 2 bytes.
  CHECK(cache_per_token(k_hf + "nemotron-4-4b.json") == doctest::Approx(32.0 * 2 * 8 * 128 * 2));
  check_refused("nemotron-4-4b.json", "num_key_value_heads", [](json& x) { x.erase("num_key_value_heads"); });
  check_refused("nemotron-4-4b.json", "hidden_act", [](json& x) { x["hidden_act"] = "swiglu"; });
  // mlp_bias: up (9216) and down (3072) biases a layer.
  json biased = fixture("nemotron-4-4b.json");
  biased["mlp_bias"] = true;
  const Run r = score_doc(biased, "nemotron-mlp-bias.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(size_of(json::parse(r.out).at(0), "bias_params") == 32.0 * (9216 + 3072));
  const Run meg = run_moeplan({"score", k_hf + "nemotron-4-4b.json", "--emit", "megatron"});
  REQUIRE_MESSAGE(meg.code == 0, meg.err);
  CHECK(meg.out.find("--squared-relu") != std::string::npos);
  CHECK(meg.out.find("\n--swiglu") == std::string::npos);  // (the comments name it)
  CHECK(meg.out.find("--normalization LayerNorm") != std::string::npos);
  CHECK(meg.out.find("\n--apply-layernorm-1p") != std::string::npos);
  CHECK(meg.out.find("--untie-embeddings-and-output-weights") != std::string::npos);
}

TEST_CASE("positions in TOML: bad values exit 4 naming the key, and a context past a learned table is not exported") {
  const auto write = [](const std::string& name, const std::string& model_lines) {
    const auto path = temp_path(name);
    std::ofstream(path) << "schema = \"moeplan-model/1\"\nname = \"p\"\n[model]\nhidden_size = 256\n"
                           "num_hidden_layers = 4\nnum_attention_heads = 4\nintermediate_size = 1024\n"
                           "first_k_dense_replace = 4\nvocab_size = 1000\n"
                        << model_lines << "[training]\ntokens = 1e9\nseq_len = 2048\n";
    return path;
  };
  const auto check_bad = [&](const std::string& name, const std::string& lines, const std::string& key) {
    const auto path = write(name, lines);
    const Run r = run_moeplan({"score", path.string()});
    std::filesystem::remove(path);
    CAPTURE(r.err);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(key) != std::string::npos);
  };
  check_bad("pos-bad.toml", "position_embedding = \"sinusoidal\"\n", "model.position_embedding");
  check_bad("pos-no-table.toml", "position_embedding = \"learned_absolute\"\n", "model.max_position_embeddings");
  check_bad("pos-nope-range.toml", "no_rope_layers = [4]\n", "model.no_rope_layers[0]");
  check_bad("pos-act.toml", "ffn_gated = false\nffn_activation = \"swish\"\n", "model.ffn_activation");
  // A table of 1024 rows and S = 2048: positions 1024.. have no embedding, so no launch is written.
  const auto path = write("pos-short-table.toml", "position_embedding = \"learned_absolute\"\nmax_position_embeddings = 1024\n");
  const Run meg = run_moeplan({"score", path.string(), "--emit", "megatron"});
  const Run ok = run_moeplan({"score", path.string(), "--format", "json"});
  std::filesystem::remove(path);
  CHECK(meg.code == 3);
  CHECK(meg.out.empty());
  CHECK(meg.err.find("seq_len 2048 is longer than the learned position table's 1024 rows") != std::string::npos);
  // Scoring counts the table: 1000 x 256 x 2 (untied) + 1024 x 256.
  REQUIRE_MESSAGE(ok.code == 0, ok.err);
  CHECK(json::parse(ok.out).at(0)["size"]["embedding_params"] == 1000.0 * 256 * 2 + 1024.0 * 256);
}

TEST_CASE("rope_theta and the norms' epsilon: read, written by --emit megatron as --rotary-base and --norm-epsilon, kept by --emit toml") {
  // Qwen3-30B-A3B writes rope_theta 1,000,000 and rms_norm_eps 1e-6 (Megatron's defaults are
  // 10,000 and 1e-5: a launch without them trains another model).
  const auto megatron_of = [](const std::string& path) {
    const Run r = run_moeplan({"score", path, "--emit", "megatron"});
    REQUIRE_MESSAGE(r.code == 0, r.err);
    return r.out;
  };
  const std::string meg = megatron_of(k_hf + "qwen3-30b-a3b.json");
  CHECK(meg.find("\n--rotary-base 1000000 ") != std::string::npos);
  CHECK(meg.find("\n--norm-epsilon 1e-06 ") != std::string::npos);
  // transformers 5 writes the base inside rope_parameters.
  json nested = fixture("qwen3-30b-a3b.json");
  nested.erase("rope_theta");
  nested["rope_parameters"] = json{{"rope_type", "default"}, {"rope_theta", 5000000}};
  const auto nested_file = temp_path("qwen3-rope-parameters.json");
  std::ofstream(nested_file) << nested.dump();
  CHECK(megatron_of(nested_file.string()).find("\n--rotary-base 5000000 ") != std::string::npos);
  // Megatron's --rotary-base is an integer: a fractional base is said, not written.
  json fractional = fixture("qwen3-30b-a3b.json");
  fractional["rope_theta"] = 10000.5;
  const auto fractional_file = temp_path("qwen3-fractional-rope.json");
  std::ofstream(fractional_file) << fractional.dump();
  const std::string f = megatron_of(fractional_file.string());
  CHECK(f.find("--rotary-base") == f.find("--rotary-base takes an integer"));
  CHECK(f.find("\n--rotary-base ") == std::string::npos);
  // Unstated (a moeplan plan, or a file without them): no flag, Megatron's defaults.
  json unstated = fixture("qwen3-30b-a3b.json");
  unstated.erase("rope_theta");
  unstated.erase("rms_norm_eps");
  const auto unstated_file = temp_path("qwen3-unstated-rope.json");
  std::ofstream(unstated_file) << unstated.dump();
  const std::string u = megatron_of(unstated_file.string());
  CHECK(u.find("--rotary-base") == std::string::npos);
  CHECK(u.find("--norm-epsilon") == std::string::npos);
  // --emit toml keeps both; the TOML read back writes the same flags.
  const Run toml = run_moeplan({"score", k_hf + "qwen3-30b-a3b.json", "--emit", "toml"});
  REQUIRE_MESSAGE(toml.code == 0, toml.err);
  const auto toml_file = temp_path("qwen3-rope.toml");
  std::ofstream(toml_file) << toml.out;
  const std::string back = megatron_of(toml_file.string());
  CHECK(back.find("\n--rotary-base 1000000 ") != std::string::npos);
  CHECK(back.find("\n--norm-epsilon 1e-06 ") != std::string::npos);
  for (const auto& p : {nested_file, fractional_file, unstated_file, toml_file}) std::filesystem::remove(p);
  // rope_parameters wins over a top-level base (transformers 5 builds RoPE from it).
  json both = fixture("qwen3-30b-a3b.json");
  both["rope_parameters"] = json{{"rope_type", "default"}, {"rope_theta", 2000000}};
  const auto both_file = temp_path("qwen3-two-rope-bases.json");
  std::ofstream(both_file) << both.dump();
  CHECK(megatron_of(both_file.string()).find("\n--rotary-base 2000000 ") != std::string::npos);
  std::filesystem::remove(both_file);
  // Gemma 3's sliding layers rotate by rope_local_base_freq (10,000), its full ones by
  // rope_theta (1e6): Megatron takes one base, so none is written and a note says why.
  const std::string gemma = megatron_of(k_hf + "gemma-3-1b.json");
  CHECK(gemma.find("\n--rotary-base ") == std::string::npos);
  CHECK(gemma.find("RoPE's base is 1e+06 in the full-attention layers and 10000 in the sliding ones") !=
        std::string::npos);
  // Not a positive number: exit 4 naming the key.
  check_refused("qwen3-30b-a3b.json", "rope_theta", [](json& x) { x["rope_theta"] = -1; });
  check_refused("qwen3-30b-a3b.json", "rope_theta", [](json& x) { x["rope_theta"] = "1e6"; });
  check_refused("qwen3-30b-a3b.json", "rms_norm_eps", [](json& x) { x["rms_norm_eps"] = 0; });
}
