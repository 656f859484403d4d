// The holistic pipeline (paper 002 Sec. 7) end to end in the core.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "moeplan/laws/laws_loader.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "paper_tables.hpp"

using namespace moeplan;

namespace {
Suggestion must_suggest(SuggestOptions o) {
  auto s = suggest(builtin_holistic_laws(), o);
  if (!s) {
    FAIL("infeasible: " << s.error().to_string());
  }
  return *s;
}
}  // namespace

TEST_CASE("at the paper's six scales the suggestion lands in the paper's bands") {
  const double scales[] = {1e18, 3e18, 1e19, 3e19, 1e20, 3e20};
  for (int i = 0; i < 6; ++i) {
    const double C = scales[i];
    CAPTURE(C);
    const Suggestion s = must_suggest({.goal = {.compute = Flops(C)}});
    const Accounting& a = s.solution.accounting;
    // M/N_a within 5 % of the paper's optimum at this scale (the median over its Sec. 6
    // table, Table 16 + i), the paper's own M tolerance (Table 4 note).
    CHECK(a.m_over_na() == doctest::Approx(paper002::sec6_optimum(16 + i).m_over_na).epsilon(0.05));
    // N/N_a inside the flat band of Appendix F.4 (loss changes < 1 % in [18, 25]).
    CHECK(a.n_over_na() >= 18.0);
    CHECK(a.n_over_na() <= 25.0);
    // Heads as Table 4, d inside its feasible interval, every target met within 5 %.
    CHECK(s.solution.arch.family.heads == paper002::table4_heads(C));
    CHECK(s.d_interval.contains(s.solution.arch.d));
    CHECK(s.solution.max_abs_error() <= 0.05);
    CHECK(s.solution.arch.d % 8 == 0);
    CHECK(s.solution.arch.d_m % 8 == 0);
    CHECK(s.solution.arch.d_d == 3 * s.solution.arch.d);
    CHECK((a.M * s.tokens).value() == doctest::Approx(C).epsilon(1e-12));
    CHECK(s.warnings.empty());
  }
}

TEST_CASE("1e22 extrapolates with a warning that says how far") {
  const Suggestion s = must_suggest({.goal = {.compute = Flops(1e22)}});
  CHECK(s.fitted_range_warning.find("1.52 decades above") != std::string::npos);
  const std::vector<std::string> notes = plan_notes(s);  // what stderr says, this first
  REQUIRE_FALSE(notes.empty());
  CHECK(notes.front() == s.fitted_range_warning);
  CHECK(s.heads_source == HeadsSource::extrapolated);
  CHECK(s.solution.accounting.m_over_na() > 6.0);
  CHECK(s.solution.max_abs_error() <= 0.05);
}

TEST_CASE("plan_config: the plan's architecture on its D and S, named after its budget") {
  // The figures of `moeplan suggest --flops 1e22 --emit toml` (tests/data/golden/suggest-1e22.*
  // print the same plan): d 3520, L 32 of which 4 dense, d_m 1456, 32/16 heads of 128.
  const Suggestion s = must_suggest({.goal = {.compute = Flops(1e22)}});
  const ModelConfig m = plan_config(s);
  CHECK(m.name == "moeplan-suggest-1e+22");
  CHECK(m.description == "moeplan suggest --flops 1e+22: compute-optimal MoE of paper 002 Sec. 7");
  CHECK(m.hidden_size == 3520);
  CHECK(m.num_hidden_layers == 32);
  CHECK(m.first_k_dense_replace == 4);
  CHECK(m.intermediate_size == 10560);
  CHECK(m.moe_intermediate_size == 1456);
  CHECK(m.num_attention_heads == 32);
  CHECK(m.num_key_value_heads == 16);
  CHECK(m.head_dim == 128);
  CHECK(m.n_routed_experts == 288);
  CHECK(m.num_experts_per_tok == 8);
  CHECK(m.n_shared_experts == 1);
  REQUIRE(m.training.has_value());
  REQUIRE(m.training->tokens.has_value());
  CHECK(m.training->tokens->value() == s.tokens.value());
  CHECK(m.training->seq_len == 8192);
}

TEST_CASE("overrides are honoured") {
  SuggestOptions o{.goal = {.compute = Flops(1e20)}};
  o.d = 1536;
  o.n_over_na = 20;
  const Suggestion s = must_suggest(o);
  CHECK(s.solution.arch.d == 1536);
  CHECK(s.d_source == DSource::user);
  CHECK(s.n_over_na_target == 20.0);
}

TEST_CASE("infeasible requests name the violated constraint and the numbers") {
  struct Case {
    const char* what;
    SuggestOptions options;
    const char* constraint;
  };
  std::vector<Case> cases;
  cases.push_back({"N/N_a above its bound", {.goal = {.compute = Flops(1e20)}, .n_over_na = 40.0}, "N/N_a"});
  cases.push_back({"N/N_a at 1", {.goal = {.compute = Flops(1e20)}, .n_over_na = 1.0}, "N/N_a"});
  cases.push_back({"M/N_a at 6", {.goal = {.compute = Flops(1e20)}, .m_over_na = 6.0}, "M/N_a > 6"});
  cases.push_back({"K >= N_e", {.goal = {.compute = Flops(1e20)}, .n_experts = 8, .top_k = 8}, "K < N_e"});
  cases.push_back({"budget too small for one layer", {.goal = {.compute = Flops(1e15)}}, "L >= 1"});
  SuggestOptions bad_d{.goal = {.compute = Flops(1e20)}};
  bad_d.d = 8000;
  cases.push_back({"d outside its interval", bad_d, "feasible interval"});
  SuggestOptions unaligned{.goal = {.compute = Flops(1e20)}};
  unaligned.d = 1537;
  cases.push_back({"d not aligned", unaligned, "multiple of the alignment"});
  cases.push_back({"no plan at the anchor to extrapolate from (S = 128)",
                   {.goal = {.compute = Flops(1e30)}, .seq_len = 128}, "aligned d inside the feasible interval"});
  cases.push_back({"millions of layers (short S below the table)",
                   {.goal = {.compute = Flops(3e20)}, .seq_len = 1}, "layer search limit"});
  // Found in review: each used to give a wrong exit-0 config or a misleading message.
  cases.push_back({"d_d overflowing an int", {.goal = {.compute = Flops(1e22)}, .dense_ffn_ratio = 1e9},
                   "integer layer config"});
  cases.push_back({"K + shared overflowing an int",
                   {.goal = {.compute = Flops(1e22)}, .n_over_na = 1.00000001, .n_shared_experts = 2147483647},
                   "<= 1e6"});
  // Past 3e20 M/N_a follows the anchored shape (holistic_targets.hpp), so the largest
  // double no longer underflows the M/N_a law; it asks for more layers than are searched.
  cases.push_back({"the largest double", {.goal = {.compute = Flops(1.7e308)}}, "layer search limit"});
  cases.push_back({"s(C) outside (0, 1) below the table", {.goal = {.compute = Flops(1e10)}}, "s(C)"});
  SuggestOptions few_experts{.goal = {.compute = Flops(1e20)}, .n_experts = 16};
  cases.push_back({"N_e too small for N/N_a = 22", few_experts, "N/N_a"});
  // Issue 22: N/N_a = 1.0001 used to give 55 dense layers and one MoE layer of d_m = 8, exit
  // 0; N/N_a = 2 with 288 experts gave experts 24 wide (2d/d_m = 415).
  cases.push_back({"a MoE part collapsed into one layer", {.goal = {.compute = Flops(1e22)}, .n_over_na = 1.0001},
                   "L_m >= L_d"});
  cases.push_back({"experts far finer than paper 000 trained", {.goal = {.compute = Flops(1e22)}, .n_over_na = 2.0},
                   "2d/d_m <= 64"});
  for (const Case& c : cases) {
    CAPTURE(c.what);
    auto s = suggest(builtin_holistic_laws(), c.options);
    REQUIRE_FALSE(s.has_value());
    CHECK(s.error().constraint.find(c.constraint) != std::string::npos);
    CHECK_FALSE(s.error().detail.empty());
  }
}

TEST_CASE("the default plans from 1e18 to 1e26 are MoEs by the collapse rule, with room") {
  for (double exponent = 18; exponent <= 26; exponent += 1) {
    CAPTURE(exponent);
    const auto s = suggest(builtin_holistic_laws(), {.goal = {.compute = Flops(std::pow(10.0, exponent))}});
    REQUIRE_MESSAGE(s.has_value(), s.error().to_string());
    const MoeArchitecture& a = s->solution.arch;
    CHECK(a.L_m >= 4 * a.L_d);        // the rule asks L_m >= L_d
    CHECK(2.0 * a.d / a.d_m <= 32);   // the rule asks <= 64
  }
}

TEST_CASE("a suggestion is deterministic") {
  const Suggestion a = must_suggest({.goal = {.compute = Flops(3.5e21)}});
  const Suggestion b = must_suggest({.goal = {.compute = Flops(3.5e21)}});
  CHECK(a.solution.arch.d == b.solution.arch.d);
  CHECK(a.solution.arch.L_d == b.solution.arch.L_d);
  CHECK(a.solution.arch.L_m == b.solution.arch.L_m);
  CHECK(a.solution.arch.d_m == b.solution.arch.d_m);
  CHECK(a.solution.objective() == b.solution.objective());
}

TEST_CASE("every half decade from 1e15 to 1e30: a feasible config or a named constraint") {
  for (double e = 15.0; e <= 30.0 + 1e-9; e += 0.5) {
    const double C = std::pow(10.0, e);
    CAPTURE(C);
    auto s = suggest(builtin_holistic_laws(), {.goal = {.compute = Flops(C)}});
    if (!s) {
      CHECK_FALSE(s.error().constraint.empty());
      continue;
    }
    const Accounting& a = s->solution.accounting;
    CHECK(std::isfinite(a.M.value()));
    CHECK(a.m_over_na() > 6.0);
    CHECK(a.n_over_na() > 1.0);
    CHECK(a.n_over_na() < max_n_over_na(s->solution.arch.family));
    CHECK(s->solution.arch.L_m >= 1);
    CHECK(s->solution.arch.L_d >= 0);
    CHECK(s->solution.max_abs_error() <= s->tolerance);
  }
}

TEST_CASE("a [d_law] in the laws replaces the median proxy") {
  HolisticLaws laws = builtin_holistic_laws();
  laws.d_law = PowerLaw{12.0, 0.1};  // d(1e20) = 12 * 1e2 = 1200, inside [d_min, d_max]
  auto s = suggest(laws, {.goal = {.compute = Flops(1e20)}});
  REQUIRE(s.has_value());
  CHECK(s->d_source == DSource::d_law);
  CHECK(s->d_target == doctest::Approx(1200.0));
  CHECK(std::abs(s->solution.arch.d - 1200) <= 2 * 8);

  laws.d_law = PowerLaw{100.0, 0.1};  // d(1e20) = 10000: outside the feasible interval
  auto out = suggest(laws, {.goal = {.compute = Flops(1e20)}});
  REQUIRE_FALSE(out.has_value());
  CHECK(out.error().constraint.find("d law") != std::string::npos);
}

