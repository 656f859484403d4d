// config.json of the MoE families people download is read by model_type, counted as each
// architecture builds it, and refused (exit 4, naming the key) when moeplan could not count
// it, never read as a dense model (issue: "Read every mainstream MoE config.json correctly").
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.hpp"

using nlohmann::json;

namespace {

const std::string k_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

struct Official {
  std::string file, model_type;
  double total = 0, active = 0;
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
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  Run r = run_moeplan({"score", path.string()});
  std::filesystem::remove(path);
  return r;
}

}  // namespace

TEST_CASE("config.json of eight model_types: totals within 2 % of the official figures") {
  const std::vector<Official> models = officials();
  REQUIRE(models.size() >= 8);
  for (const Official& o : models) {
    CAPTURE(o.file);
    const json j = score_json(k_hf + o.file);
    const double total = j["size"]["total_params_with_embeddings"].get<double>();
    CHECK(total == doctest::Approx(o.total).epsilon(0.02));
    CHECK(j["experts"]["active_experts"].get<double>() >= 1);  // read as MoE, never dense
    CHECK(j["model"]["moe_layers"].get<int>() > 0);
  }
}

TEST_CASE("a config.json counts exactly as the matching preset TOML") {
  for (const char* name : {"qwen3-30b-a3b", "qwen3-235b-a22b", "glm-4.5-air", "deepseek-v3.1", "kimi-k2"}) {
    CAPTURE(name);
    const json from_json = score_json(k_hf + name + ".json");
    const json from_toml = score_json(name);
    CHECK(from_json["size"]["total_params"] == from_toml["size"]["total_params"]);
    CHECK(from_json["size"]["active_params"] == from_toml["size"]["active_params"]);
  }
}

TEST_CASE("config.json that moeplan cannot count is refused with the key named (exit 4)") {
  struct Case {
    const char* what;
    std::string text;
    const char* key;
  };
  const std::string base = R"("hidden_size": 1024, "num_hidden_layers": 8, "num_attention_heads": 8,
    "num_key_value_heads": 8, "intermediate_size": 4096, "vocab_size": 32000)";
  const std::vector<Case> cases{
      {"no model_type", "{" + base + "}", "model_type"},
      {"an unknown model_type", R"({"model_type": "frobnitz_moe", )" + base + "}", "model_type"},
      {"a model_type not yet counted (llama4 interleaves MoE layers)",
       R"({"model_type": "llama4_text", "num_local_experts": 16, "interleave_moe_layer_step": 2, )" + base + "}",
       "model_type"},
      {"a dense family with expert keys", R"({"model_type": "llama", "num_experts_per_tok": 2, )" + base + "}",
       "num_experts_per_tok"},
      {"DeepSeek's key in a Qwen file",
       R"({"model_type": "qwen3_moe", "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256,
           "n_routed_experts": 8, )" + base + "}",
       "n_routed_experts"},
      {"Qwen MoE every other layer", R"({"model_type": "qwen2_moe", "num_experts": 8, "num_experts_per_tok": 2,
           "moe_intermediate_size": 256, "decoder_sparse_step": 2, )" + base + "}",
       "decoder_sparse_step"},
      {"Qwen dense layers that are not leading", R"({"model_type": "qwen3_moe", "num_experts": 8,
           "num_experts_per_tok": 2, "moe_intermediate_size": 256, "mlp_only_layers": [3, 5], )" + base + "}",
       "mlp_only_layers"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const Run r = score_text("moeplan-hf-refused.json", c.text);
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(std::string(": ") + c.key + ":") != std::string::npos);
  }
}

TEST_CASE("Qwen's leading dense layers (mlp_only_layers 0..k-1) are the first_k_dense_replace of the count") {
  const std::string text = R"({"model_type": "qwen3_moe", "hidden_size": 1024, "num_hidden_layers": 8,
    "num_attention_heads": 8, "num_key_value_heads": 8, "intermediate_size": 4096, "vocab_size": 32000,
    "num_experts": 8, "num_experts_per_tok": 2, "moe_intermediate_size": 256, "mlp_only_layers": [0, 1]})";
  const auto path = std::filesystem::temp_directory_path() / "moeplan-hf-dense-lead.json";
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
