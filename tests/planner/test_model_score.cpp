// Model configs: every preset loads, counts to its stated size, and scores (the presets
// embedded and bad files refused: tests/io/test_model_loader.cpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/planner/model_score.hpp"
#include "moeplan/base/presets.hpp"

using namespace moeplan;

TEST_CASE("every preset's parameter count matches its official total within 2 %") {
  for (const std::string& name : model_preset_names()) {
    CAPTURE(name);
    auto m = load_model_config(name);
    REQUIRE_MESSAGE(m.has_value(), m.error().to_string());
    REQUIRE(m->stated.has_value());
    REQUIRE(m->stated->total.has_value());
    const ParameterCounts p = count_parameters(*m);
    const double counted = m->stated->includes_embeddings ? p.N_with_embedding().value() : p.N.value();
    CHECK(counted / m->stated->total->value() == doctest::Approx(1.0).epsilon(0.02));
  }
}

TEST_CASE("MoE-mini and Dense-6.1B (paper 000 Table 1)") {
  auto mini = load_model_config("moe-mini");
  auto dense = load_model_config("dense-6.1b");
  REQUIRE(mini.has_value());
  REQUIRE(dense.has_value());
  const ExpertShape s = expert_shape(*mini);
  CHECK(s.activation_ratio == doctest::Approx(13.0 / 385));
  CHECK(s.granularity == doctest::Approx(2.0 * 2048 / 384));
  CHECK(s.active_experts == 13);
  CHECK(s.shared_ratio == doctest::Approx(1.0 / 13));
  CHECK(count_parameters(*dense).N.value() == doctest::Approx(6.11e9).epsilon(0.005));
  CHECK(expert_shape(*dense).activation_ratio == 1.0);
}

TEST_CASE("scoring every preset gives finite numbers and names its conventions") {
  const LawSet& laws = builtin_laws();
  for (const std::string& name : model_preset_names()) {
    CAPTURE(name);
    auto m = load_model_config(name);
    REQUIRE(m.has_value());
    const ModelScore s = score_model(laws, *m);
    CHECK(std::isfinite(s.flops.M().value()));
    CHECK(s.flops.convention == FlopsConvention::holistic_002);
    CHECK(s.active_ratio > 0);
    CHECK(s.active_ratio <= 1);
    CHECK(s.attention_share_000 > 0);
    CHECK(s.attention_share_000 < 1);
    if (m->training) {
      REQUIRE(s.C.has_value());
      REQUIRE(s.efficiency_leverage.has_value());
      CHECK(std::isfinite(*s.efficiency_leverage));
      if (m->is_moe()) {
        REQUIRE(s.predicted_loss.has_value());
        CHECK(*s.predicted_loss > laws.joint.epsilon);
        CHECK(*s.efficiency_leverage > 1);
        REQUIRE(s.optimal_ratio.has_value());
      } else {
        CHECK(*s.efficiency_leverage == doctest::Approx(1.0).epsilon(0.02));
      }
    }
  }
}

TEST_CASE("a model in paper 002's family is checked against Eq. 3 at its own budget") {
  // The 1e20 optimum of Table 17's family: build it from its Eq. 2 budget.
  ModelConfig m;
  m.name = "holistic-1e20";
  m.hidden_size = 1024;
  m.num_hidden_layers = 20;
  m.first_k_dense_replace = 4;
  m.intermediate_size = 3072;
  m.moe_intermediate_size = 256;
  m.n_routed_experts = 288;
  m.num_experts_per_tok = 8;
  m.n_shared_experts = 1;
  m.num_attention_heads = 8;
  m.num_key_value_heads = 4;
  m.head_dim = 128;
  m.vocab_size = 152064;
  m.training = TrainingSetup{.tokens = {}, .compute = Flops(1e20), .seq_len = 8192, .unique_tokens = {}};
  const ModelScore s = score_model(builtin_laws(), m);
  CHECK(s.holistic.in_family);
  CHECK(std::isfinite(s.holistic.error_M));
  // With compute given, D = C/M, so C = M·D holds exactly.
  CHECK((s.flops.M() * *s.D).value() == doctest::Approx(1e20));
  m.latent_attention = LatentAttention{0, 512, 64, 64, 128};
  CHECK_FALSE(score_model(builtin_laws(), m).holistic.in_family);
}

TEST_CASE("a user laws file overlays only the sections it holds") {
  const LawSet& base = builtin_laws();
  auto laws = parse_laws("schema = \"moeplan-laws/1\"\nname = \"mine\"\n[joint_loss]\n"
                         "e = 0.2\nf = 7.2\nm = 5\nn = -3\nk = 0.001\nh = 0.05\na = 38\n"
                         "alpha = 0.24\nb = 27000\nbeta = 0.47\nc = 31\nepsilon = 1.8\n",
                         "mine.toml", base);
  REQUIRE_MESSAGE(laws.has_value(), laws.error().to_string());
  CHECK(laws->joint.e == 0.2);
  CHECK(laws->leverage.a == base.leverage.a);
  CHECK(laws->holistic.compute_optimal.flops_per_token.exponent ==
        base.holistic.compute_optimal.flops_per_token.exponent);
  CHECK(laws->source_of("joint_loss") == "mine.toml");
  CHECK(base.source_of("joint_loss") == "<embedded:laws/joint_moe.toml>");
  auto unknown = parse_laws("schema = \"moeplan-laws/1\"\nname = \"x\"\n[jiont_loss]\ne = 1\n", "x.toml", base);
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().key == "jiont_loss");
  CHECK(unknown.error().line == 3);
}
