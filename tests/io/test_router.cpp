// The source's router (RouterSpec, docs/model-schema.md "Router"): read from a [router] table
// and from config.json, written back by every export, and what --emit megatron trains with
// (issue 32, item 8: the export replaced DeepSeek's router with paper 000's).
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "moeplan/io/hf_config.hpp"
#include "moeplan/io/model_export.hpp"
#include "moeplan/io/model_loader.hpp"

namespace {

using moeplan::RouterSpec;

const std::string k_router_hf = std::string(MOEPLAN_TEST_DATA_DIR) + "/hf/";

moeplan::ModelConfig hf_fixture(const std::string& name) {
  std::ifstream in(k_router_hf + name);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto m = moeplan::parse_hf_config_json(text, name, name);
  REQUIRE_MESSAGE(m.has_value(), name);
  return *m;
}

// The value after `flag` in a --emit megatron text ("" for a switch); "absent" when missing.
std::string flag_value(const std::string& text, const std::string& flag) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const bool ours = line == flag || line.starts_with(flag + " ");
    if (line.starts_with('#') || !ours) continue;
    std::string rest = line.substr(flag.size());
    if (rest.ends_with(" \\")) rest.resize(rest.size() - 2);
    if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    return rest;
  }
  return "absent";
}

}  // namespace

TEST_CASE("export megatron of deepseek-v3.1 trains DeepSeek-V3's router, not paper 000's") {
  const Run r = run_moeplan({"score", "deepseek-v3.1", "--emit", "megatron"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(flag_value(r.out, "--moe-router-score-function") == "sigmoid");
  CHECK(flag_value(r.out, "--moe-router-enable-expert-bias").empty());
  CHECK(flag_value(r.out, "--moe-router-bias-update-rate") == "1e-3");
  CHECK(flag_value(r.out, "--moe-router-num-groups") == "8");
  CHECK(flag_value(r.out, "--moe-router-group-topk") == "4");
  CHECK(flag_value(r.out, "--moe-router-topk-scaling-factor") == "2.5");
  CHECK(flag_value(r.out, "--moe-router-load-balancing-type") == "seq_aux_loss");
  CHECK(flag_value(r.out, "--moe-aux-loss-coeff") == "0.0001");
  CHECK(flag_value(r.out, "--moe-z-loss-coeff") == "absent");
  CHECK(flag_value(r.out, "--moe-router-pre-softmax") == "absent");
  CHECK(flag_value(r.out, "--mtp-num-layers") == "1");
}

TEST_CASE("a model that states no router gets paper 000's, and the export says so") {
  const Run r = run_moeplan({"suggest", "--flops", "1e21", "--no-bench", "--emit", "megatron"});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(flag_value(r.out, "--moe-router-load-balancing-type") == "aux_loss");
  CHECK(flag_value(r.out, "--moe-aux-loss-coeff") == "0.01");
  CHECK(flag_value(r.out, "--moe-z-loss-coeff") == "0.001");
  CHECK(flag_value(r.out, "--moe-router-score-function") == "absent");
  CHECK(r.out.find("states no router of its own") != std::string::npos);
}

TEST_CASE("config.json: the router keys each family writes") {
  SUBCASE("Ling 2.0: sigmoid, expert bias, 8 groups top-4, scale 2.5") {
    const auto m = hf_fixture("ling-mini-2.0.json");
    REQUIRE(m.router.has_value());
    CHECK(m.router->score == RouterSpec::Score::sigmoid);
    CHECK(m.router->expert_bias);
    CHECK(m.router->num_groups == 8);
    CHECK(m.router->group_topk == 4);
    CHECK(m.router->topk_scaling_factor == 2.5);
    CHECK(m.router->norm_topk_prob);
    CHECK_FALSE(m.router->balance_loss_stated);
  }
  SUBCASE("MiniMax-M2: sigmoid scores with a routing bias") {
    const auto m = hf_fixture("minimax-m2.json");
    REQUIRE(m.router.has_value());
    CHECK(m.router->score == RouterSpec::Score::sigmoid);
    CHECK(m.router->expert_bias);
  }
  SUBCASE("GLM-4.5: the class's sigmoid and bias, the file's scale") {
    const auto m = hf_fixture("glm-4.5.json");
    REQUIRE(m.router.has_value());
    CHECK(m.router->score == RouterSpec::Score::sigmoid);
    CHECK(m.router->expert_bias);
    CHECK(m.router->topk_scaling_factor == 2.5);
  }
  SUBCASE("FlexOlmo: softmax probabilities not renormalised -> pre-softmax") {
    const auto m = hf_fixture("flexolmo-7x7b.json");
    REQUIRE(m.router.has_value());
    CHECK(m.router->score == RouterSpec::Score::softmax);
    CHECK_FALSE(m.router->norm_topk_prob);
    moeplan::TrainingHyperparameters h;
    const std::string text = moeplan::to_megatron_args(m, h, nullptr);
    CHECK(flag_value(text, "--moe-router-pre-softmax").empty());
  }
  SUBCASE("DeepSeek-V3.1's file leaves the groups and scale out: DeepseekV3Config's 8, 4, 2.5") {
    const auto m = hf_fixture("deepseek-v3.1.json");
    REQUIRE(m.router.has_value());
    CHECK(m.router->num_groups == 8);
    CHECK(m.router->group_topk == 4);
    CHECK(m.router->topk_scaling_factor == 2.5);
    CHECK(m.router->expert_bias);
  }
  SUBCASE("a dense model has none") {
    CHECK_FALSE(hf_fixture("llama-3.1-8b.json").router.has_value());
  }
}

TEST_CASE("the router survives --emit toml and --emit hf-config") {
  const auto m = moeplan::load_model_config("deepseek-v3.1");
  REQUIRE(m.has_value());
  REQUIRE(m->router.has_value());
  const auto back = moeplan::parse_model_config(moeplan::to_model_toml(*m), "back.toml");
  REQUIRE(back.has_value());
  CHECK(back->router == m->router);
  const auto hf = moeplan::to_hf_config_json(*m);
  REQUIRE(hf.has_value());
  const auto from_hf = moeplan::parse_hf_config_json(*hf, "back.json", "x");
  REQUIRE(from_hf.has_value());
  REQUIRE(from_hf->router.has_value());
  CHECK(from_hf->router->num_groups == 8);
  CHECK(from_hf->router->group_topk == 4);
  CHECK(from_hf->router->topk_scaling_factor == 2.5);
  CHECK(from_hf->router->expert_bias);
}

TEST_CASE("a bad router value: exit 4 naming the file, the key and the reason") {
  const auto base = moeplan::load_model_config("moe-mini");
  REQUIRE(base.has_value());
  const std::string model = moeplan::to_model_toml(*base);
  const auto path = temp_path("router-bad.toml");
  SUBCASE("an unknown score function") {
    std::ofstream(path) << model << "\n[router]\nscore_function = \"tanh\"\n";
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(path.string()) != std::string::npos);
    CHECK(r.err.find("router.score_function: must be one of \"softmax\", \"sigmoid\", \"sqrtsoftplus\", got \"tanh\"") !=
          std::string::npos);
  }
  SUBCASE("groups that do not divide the experts") {
    std::ofstream(path) << model << "\n[router]\nnum_groups = " << base->n_routed_experts + 1 << "\n";
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find("router.num_groups: must be positive and divide n_routed_experts") != std::string::npos);
  }
  SUBCASE("config.json: n_group that does not divide n_routed_experts") {
    const auto json_path = temp_path("router-bad.json");
    std::ofstream(json_path) << R"({"model_type": "deepseek_v3", "hidden_size": 1024, "num_hidden_layers": 4,
      "num_attention_heads": 8, "vocab_size": 1000, "n_routed_experts": 8, "moe_intermediate_size": 256,
      "n_shared_experts": 0, "first_k_dense_replace": 0, "num_experts_per_tok": 2, "n_group": 3,
      "topk_group": 1, "kv_lora_rank": 64, "qk_nope_head_dim": 32, "qk_rope_head_dim": 16, "v_head_dim": 32})";
    const Run r = run_moeplan({"score", json_path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find("n_group: must be positive and divide n_routed_experts: 3 groups of 8 experts") !=
          std::string::npos);
  }
}

TEST_CASE("config.json: a router key with a value moeplan does not know exits 4 naming the file, key and value") {
  std::ifstream in(k_router_hf + "deepseek-v3.1.json");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto path = temp_path("router-unknown.json");
  // the key added beside model_type, as a config.json of the family writes it
  const auto with = [&](const std::string& key, const std::string& value) {
    std::string edited = text;
    const std::string type = "\"model_type\": \"deepseek_v3\",";
    const std::size_t at = edited.find(type);
    REQUIRE(at != std::string::npos);
    edited.insert(at + type.size(), " \"" + key + "\": \"" + value + "\",");
    std::ofstream(path) << edited;
  };
  struct Case {
    const char* key;
    const char* value;
  };
  for (const Case& c : {Case{"scoring_func", "tanh"}, Case{"topk_method", "aux_free_v2"}}) {
    CAPTURE(c.key);
    with(c.key, c.value);
    for (const std::vector<std::string>& args : {std::vector<std::string>{"score", path.string(), "--emit", "megatron"},
                                                 std::vector<std::string>{"score", path.string()}}) {
      const Run r = run_moeplan(args);
      CHECK(r.code == 4);
      CHECK(r.out.empty());
      CHECK(r.err.find(path.string()) != std::string::npos);
      CHECK(r.err.find(std::string(c.key) + ": \"" + c.value + "\" is a router moeplan does not know") != std::string::npos);
      CHECK(r.err.find("states no router of its own") == std::string::npos);
    }
  }
  // Ling 2.0's score_function, the same way
  std::ifstream ling_in(k_router_hf + "ling-mini-2.0.json");
  const std::string ling((std::istreambuf_iterator<char>(ling_in)), std::istreambuf_iterator<char>());
  std::string edited = ling;
  const std::size_t at = edited.find("\"score_function\": \"sigmoid\"");
  REQUIRE(at != std::string::npos);
  edited.replace(at, std::string("\"score_function\": \"sigmoid\"").size(), "\"score_function\": \"softplus\"");
  std::ofstream(path) << edited;
  const Run r = run_moeplan({"score", path.string(), "--emit", "megatron"});
  CHECK(r.code == 4);
  CHECK(r.err.find("score_function: \"softplus\" is a router moeplan does not know") != std::string::npos);
  std::filesystem::remove(path);
}

TEST_CASE("routers Megatron-LM would refuse are refused with the rule, and defaults are labelled as moeplan's") {
  const auto ds = moeplan::load_model_config("deepseek-v3.1");
  REQUIRE(ds.has_value());
  const auto refused = [](moeplan::ModelConfig m, const char* key) {
    CAPTURE(key);
    const auto path = temp_path("router-rule.toml");
    std::ofstream(path) << moeplan::to_model_toml(m);
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.out.empty());
    CHECK(r.err.find(key) != std::string::npos);
  };
  SUBCASE("a bias with softmax scores") {
    auto m = *ds;
    m.router->score = RouterSpec::Score::softmax;
    refused(m, "router.expert_bias: needs score_function \"sigmoid\"");
  }
  SUBCASE("groups that cannot hold K experts") {
    auto m = *ds;
    m.router->num_groups = 256;  // groups of one expert, 4 of them chosen, K = 8
    refused(m, "router.group_topk: 4 of 256 groups of 1 experts: must be at most K = 8 and hold K experts");
  }
  SUBCASE("sigmoid gates left unnormalised over K > 1") {
    auto m = *ds;
    m.router->norm_topk_prob = false;
    refused(m, "router.norm_topk_prob: false with sigmoid scores and K > 1");
  }
  SUBCASE("an empty table, and a coefficient without a loss") {
    const std::string model = moeplan::to_model_toml(*moeplan::load_model_config("moe-mini"));
    const auto path = temp_path("router-empty.toml");
    std::ofstream(path) << model << "\n[router]\n";
    const Run empty = run_moeplan({"score", path.string()});
    CHECK(empty.code == 4);
    CHECK(empty.err.find("router: states nothing") != std::string::npos);
    std::ofstream(path) << model << "\n[router]\nbalance_loss = \"none\"\nbalance_loss_coeff = 0.01\n";
    const Run none = run_moeplan({"score", path.string()});
    CHECK(none.code == 4);
    CHECK(none.err.find("router.balance_loss_coeff: has no loss to weigh") != std::string::npos);
  }
  SUBCASE("a router on a dense model") {
    auto m = *moeplan::load_model_config("dense-6.1b");
    m.router = RouterSpec{};
    refused(m, "router: describes a router, but the model has no experts");
  }
  SUBCASE("half a balance loss") {
    const auto path = temp_path("router-half-loss.toml");
    std::ofstream(path) << moeplan::to_model_toml(*moeplan::load_model_config("moe-mini"))
                        << "\n[router]\nbalance_loss_coeff = 0.001\n";
    const Run r = run_moeplan({"score", path.string()});
    CHECK(r.code == 4);
    CHECK(r.err.find("router.balance_loss_coeff: needs balance_loss and balance_loss_coeff together") !=
          std::string::npos);
  }
  SUBCASE("a bias-balanced router without a stated loss: DeepSeek-V3's complement, said so") {
    const Run r = run_moeplan({"score", "kimi-k2", "--emit", "megatron"});
    REQUIRE(r.code == 0);
    CHECK(flag_value(r.out, "--moe-router-load-balancing-type") == "seq_aux_loss");
    CHECK(flag_value(r.out, "--moe-aux-loss-coeff") == "1e-4");
    CHECK(r.out.find("not stated by the source: DeepSeek-V3 Sec. 4.2's alpha") != std::string::npos);
  }
  SUBCASE("top-1: Megatron needs the softmax before the top-K; Llama 4 scores with a sigmoid") {
    auto m = *moeplan::load_model_config("moe-mini");
    m.num_experts_per_tok = 1;
    moeplan::TrainingHyperparameters h;
    CHECK(flag_value(moeplan::to_megatron_args(m, h, nullptr), "--moe-router-pre-softmax").empty());
    const auto scout = hf_fixture("llama-4-scout.json");
    REQUIRE(scout.router.has_value());
    CHECK(scout.router->score == RouterSpec::Score::sigmoid);
    CHECK(scout.router->probs_on_input);
    CHECK(flag_value(moeplan::to_megatron_args(scout, h, nullptr), "--moe-apply-probs-on-input").empty());
    CHECK(flag_value(moeplan::to_megatron_args(scout, h, nullptr), "--moe-router-pre-softmax") == "absent");
  }
}

TEST_CASE("hf-config says when the class's router is not the model's") {
  const auto path = temp_path("router-class.json");
  const Run plan = run_moeplan({"suggest", "--flops", "1e22", "--no-bench", "--emit", "hf-config", "-o", path.string()});
  REQUIRE(plan.code == 0);
  CHECK(plan.err.find("class routes with sigmoid scores and a correction bias, not with the router moeplan's plan "
                      "assumes (softmax scores") != std::string::npos);
  const Run ds = run_moeplan({"score", "deepseek-v3.1", "--emit", "hf-config", "-o", path.string()});
  REQUIRE(ds.code == 0);
  CHECK(ds.err.find("class routes with") == std::string::npos);  // DeepSeek-V3's own class
}
