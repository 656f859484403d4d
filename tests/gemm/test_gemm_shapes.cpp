// The GEMMs `moeplan bench` times: shapes and exact FLOP counts, tied to the parameter
// accounting of the configs and to paper 002's M = 6 N_a + 6 S N_q d_qkv L (Eq. 12).
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>

#include "moeplan/planner/candidates.hpp"
#include "moeplan/model/gemm_shapes.hpp"
#include "moeplan/io/model_loader.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/laws/laws_loader.hpp"

using namespace moeplan;

TEST_CASE("balanced routing splits T*K rows over the experts, at most one row apart") {
  const auto rows = balanced_expert_rows(8192, 8, 288);
  REQUIRE(rows.size() == 288);
  CHECK(std::accumulate(rows.begin(), rows.end(), std::int64_t{0}) == 8192 * 8);
  // 65536 = 288 * 227 + 160: 160 experts get 228 rows, 128 get 227.
  CHECK(std::count(rows.begin(), rows.end(), 228) == 160);
  CHECK(std::count(rows.begin(), rows.end(), 227) == 128);
  const auto few = balanced_expert_rows(3, 1, 8);  // fewer routed rows than experts
  CHECK(std::accumulate(few.begin(), few.end(), std::int64_t{0}) == 3);
  CHECK(*std::max_element(few.begin(), few.end()) == 1);
}

TEST_CASE("every preset: GEMM FLOPs without the router are exactly 2 T N_a") {
  for (const std::string& name : model_preset_names()) {
    CAPTURE(name);
    const auto m = load_model_config(name);
    REQUIRE(m.has_value());
    for (std::int64_t T : {1, 4096, 8192}) {
      const auto g = model_gemms(*m, T);
      REQUIRE(g.has_value());
      const double expected = 2.0 * static_cast<double>(T) * count_parameters(*m).N_a.value();
      CHECK(g->flops_counted_in_n_active() == doctest::Approx(expected).epsilon(1e-12));
      CHECK(g->flops() > g->flops_counted_in_n_active() - 1);  // the router adds, never removes
      CHECK(g->dense_layers + g->moe_layers == m->num_hidden_layers);
    }
  }
}

TEST_CASE("a GEMM's FLOPs are 2 m n k summed over its members, exactly") {
  GemmOp op{"x", "", LayerKind::moe, {3, 5, 7}, 11, 13, true};
  CHECK(op.flops() == 2.0 * (3 + 5 + 7) * 11 * 13);
  CHECK(op.grouped());
  CHECK(op.total_rows() == 15);
}

TEST_CASE("suggest 1e22 winner: 3 x forward GEMM FLOPs/token + attention scores = M (paper 002 Eq. 12)") {
  const LawSet laws = builtin_laws();
  SuggestOptions o;
  o.goal.compute = Flops(1e22);
  const auto s = suggest(laws.holistic, o);
  REQUIRE(s.has_value());
  const MoeArchitecture& a = s->solution.arch;
  const auto g = model_gemms(plan_config(*s), 8192);
  REQUIRE(g.has_value());
  const double per_token = g->flops_counted_in_n_active() / 8192.0;
  CHECK(3 * per_token + s->solution.accounting.M_attention_scores.value() ==
        doctest::Approx(s->solution.accounting.M.value()).epsilon(1e-12));
  // The routed experts' gate+up GEMM: 288 members, [t_i x d]·[d x 2 d_m].
  const auto expert = std::find_if(g->moe_layer.begin(), g->moe_layer.end(),
                                   [](const GemmOp& op) { return op.name == "expert_gate_up"; });
  REQUIRE(expert != g->moe_layer.end());
  CHECK(expert->rows.size() == 288);
  CHECK(expert->n == 2 * a.d_m);
  CHECK(expert->k == a.d);
  CHECK(expert->total_rows() == 8192 * 8);
}

TEST_CASE("model_gemms refuses tokens < 1 and an invalid config") {
  const auto m = load_model_config("moe-mini");
  REQUIRE(m.has_value());
  CHECK_FALSE(model_gemms(*m, 0).has_value());
  ModelConfig bad = *m;
  bad.hidden_size = 0;
  const auto r = model_gemms(bad, 8);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().find("hidden_size") != std::string::npos);
}

TEST_CASE("Zipf-skewed routing: T·K rows in all, at most T per expert, falling with the rank") {
  CHECK(zipf_expert_rows(8192, 8, 128, 0.0) == balanced_expert_rows(8192, 8, 128));
  for (double skew : {0.5, 1.0, 2.0, 8.0}) {
    CAPTURE(skew);
    const auto rows = zipf_expert_rows(8192, 8, 128, skew);
    REQUIRE(rows.size() == 128);
    std::int64_t total = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      total += rows[i];
      CHECK(rows[i] >= 0);
      CHECK(rows[i] <= 8192);  // a token picks an expert once
      if (i > 0) CHECK(rows[i] <= rows[i - 1] + 1);  // rank order, up to integer rounding
    }
    CHECK(total == 8192 * 8);
    CHECK(rows.front() > rows.back());
  }
  // Expert 1 of a 1/i share: 1/H_E of the rows, capped at T (here 2^13 of 2^16 routed).
  const auto mild = zipf_expert_rows(8192, 8, 128, 1.0);
  CHECK(mild.front() == 8192);
  const auto bad = model_gemms(*load_model_config("moe-mini"), 64, -1.0);
  CHECK_FALSE(bad.has_value());
}

TEST_CASE("gemm shapes: an ungated FFN is one up GEMM of width w and one down") {
  ModelConfig m;  // a dense model: d 4096, 2 layers, 32 heads (8 kv) of 128, w 12288
  m.name = "ungated";
  m.hidden_size = 4096;
  m.num_hidden_layers = 2;
  m.intermediate_size = 12288;
  m.num_attention_heads = 32;
  m.num_key_value_heads = 8;
  m.head_dim = 128;
  m.vocab_size = 32000;
  m.ffn_gated = false;
  const auto g = model_gemms(m, 4096);
  REQUIRE(g);
  const auto named = [&](const std::string& name) {
    return std::find_if(g->dense_layer.begin(), g->dense_layer.end(), [&](const GemmOp& op) { return op.name == name; });
  };
  CHECK(named("dense_gate_up") == g->dense_layer.end());
  REQUIRE(named("dense_up") != g->dense_layer.end());
  CHECK(named("dense_up")->n == 12288);  // [T x d] . [d x w]: n = w, k = d
  CHECK(named("dense_up")->k == 4096);
  REQUIRE(named("dense_down") != g->dense_layer.end());
  CHECK(named("dense_down")->n == 4096);
  CHECK(named("dense_down")->k == 12288);
}

TEST_CASE("gated attention: its gate is a GEMM of its own, and the GEMMs still sum to 2 T N_a") {
  // A review found bench leaving the gate (N_q·d_h x d a layer, in N_a) out of its FLOPs.
  auto m = load_model_config("qwen3-30b-a3b");
  REQUIRE(m.has_value());
  m->gated_attention = true;
  const std::int64_t T = 4096;
  const auto g = model_gemms(*m, T);
  REQUIRE(g.has_value());
  CHECK(g->flops_counted_in_n_active() ==
        doctest::Approx(2.0 * static_cast<double>(T) * count_parameters(*m).N_a.value()).epsilon(1e-12));
  const auto gate = std::find_if(g->moe_layer.begin(), g->moe_layer.end(),
                                 [](const GemmOp& op) { return op.name == "attn_gate"; });
  REQUIRE(gate != g->moe_layer.end());
  CHECK(gate->n == static_cast<std::int64_t>(m->num_attention_heads) * m->head_size());
  CHECK(gate->k == m->hidden_size);
}
