// Skywork-MoE (skywork_moe): Skywork-13B's layers upcycled to 16 experts of its FFN, top-2, with
// gating logit normalization. The expected counts are printed by the independent recount
// tests/data/hf/recount/skywork_moe_count.py (standard-library Python written from Skywork's vLLM
// model file, not from moeplan). The fixture is rebuilt, not an exact copy of the hub file (its _source).
#include <doctest/doctest.h>

#include <string>

#include "hf_scoring.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/serving/serving_fit.hpp"

using namespace hf_scoring;

namespace {

double skywork_size(const json& j, const char* key) { return j["size"][key].get<double>(); }

const std::string k_skywork = "skywork-moe-base.json";

}  // namespace

TEST_CASE("skywork_moe: Skywork-MoE-Base counted as the recount, 16 experts of 12288 in every layer") {
  // recount/skywork_moe_count.py skywork-moe-base.json: total 146356167168, active 22691308032
  // (the README's 146B and 22B), N 145747869696, N_a 22083010560.
  const json j = score_of(k_hf + k_skywork);
  CHECK(skywork_size(j, "total_params_as_built") == 146356167168.0);
  CHECK(skywork_size(j, "active_params_as_built") == 22691308032.0);
  CHECK(skywork_size(j, "N_nonembedding_total") == 145747869696.0);
  CHECK(skywork_size(j, "N_a_nonembedding_active") == 22083010560.0);
  // By hand: 52 layers of 4 d² attention (36 heads of 128 = d) and 16 experts of 3 d 12288; a
  // router of 16 x d and two norms a layer, a final norm; an untied head.
  const double d = 4608, L = 52;
  CHECK(skywork_size(j, "N_nonembedding_total") == L * (4 * d * d + 16 * 3 * d * 12288));
  CHECK(skywork_size(j, "router_params") == L * 16 * d);
  CHECK(skywork_size(j, "norm_params") == L * 2 * d + d);
  CHECK(skywork_size(j, "embedding_params") == 2.0 * 65536 * d);
  CHECK(j["model"]["moe_layers"] == 52);
  auto m = moeplan::load_model_config(k_hf + k_skywork);
  REQUIRE(m.has_value());
  REQUIRE(m->router.has_value());
  CHECK(m->router->score == moeplan::RouterSpec::Score::softmax);
  CHECK(m->router->norm_topk_prob);
  CHECK(m->router->logit_norm_std == 1.0);
  // The cache by hand: multi-head attention, 2 x 36 x 128 x 2 bytes a token in each of 52 layers.
  moeplan::ServingOptions o;
  o.gpu = *moeplan::embedded_gpu_catalog().find("h200");
  o.gpus = 8;
  o.context = 8192;
  const auto f = moeplan::serving_fit(*m, o);
  REQUIRE(f.has_value());
  CHECK(f->cache_bytes_per_token == doctest::Approx(52.0 * 2 * 36 * 128 * 2));
  CHECK(f->cache_bytes_per_token == doctest::Approx(958464.0));
}

TEST_CASE("skywork_moe: the exports refuse its gating logit normalization by name, the older code's keys refused") {
  for (const char* kind : {"hf-config", "megatron"}) {
    const Run r = run_moeplan({"score", k_hf + k_skywork, "--emit", kind});
    CAPTURE(kind);
    CHECK(r.code == 3);
    CHECK(r.out.empty());
    CHECK(r.err.find("gating logit normalization") != std::string::npos);
  }
  // Through moeplan's TOML the router's normalization is kept.
  const auto out = temp_path("skywork-moe.toml");
  REQUIRE(run_moeplan({"score", k_hf + k_skywork, "--emit", "toml", "-o", out.string()}).code == 0);
  auto back = moeplan::load_model_config(out.string());
  std::filesystem::remove(out);
  REQUIRE(back.has_value());
  REQUIRE(back->router.has_value());
  CHECK(back->router->logit_norm_std == 1.0);
  // Without the normalization the model is Mixtral's layout: Megatron-LM builds it.
  json plain = fixture(k_skywork);
  plain["moe_use_logits_norm"] = false;
  const auto path = temp_path("skywork-plain.json");
  std::ofstream(path) << plain.dump(2);
  const Run mg = run_moeplan({"score", path.string(), "--emit", "megatron"});
  std::filesystem::remove(path);
  CHECK_MESSAGE(mg.code == 0, mg.err);
  CHECK(mg.out.find("--num-experts 16") != std::string::npos);
  // The older remote code's keys where the two versions of Skywork's code build different weights.
  check_refused(k_skywork, "moe_2layer_gate", [](json& x) { x["moe_2layer_gate"] = true; });
  check_refused(k_skywork, "moe_2layer_gate", [](json& x) {
    x.erase("num_local_experts");
    x["num_experts"] = json::array({16});
  });
  check_refused(k_skywork, "moe_expert_interval", [](json& x) { x["moe_expert_interval"] = 2; });
  check_refused(k_skywork, "head_dim", [](json& x) { x["head_dim"] = 256; });
  check_refused(k_skywork, "num_local_experts", [](json& x) { x.erase("num_local_experts"); });
  // The older spelling with its one-matrix router stated is read alike.
  json older = fixture(k_skywork);
  older.erase("num_local_experts");
  older.erase("num_experts_per_tok");
  older["num_experts"] = json::array({16});
  older["moe_2layer_gate"] = false;
  const Run r = score_doc(older, "skywork-older.json");
  REQUIRE_MESSAGE(r.code == 0, r.err);
  CHECK(json::parse(r.out).at(0)["size"]["total_params_as_built"].get<double>() == 146356167168.0);
}
