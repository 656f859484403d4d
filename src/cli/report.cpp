#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"

namespace moeplan::cli {

namespace {

std::string ratio_origin(RatioSource source, const char* flag) {
  switch (source) {
    case RatioSource::law: return "optimal, from the M/N_a law (Fig. 5b)";
    case RatioSource::schedule: return "from the Appendix F.4 schedule";
    case RatioSource::shape_extrapolation:
      return "Eq. 5 for the shape held from the last Table 4 row (docs/design.md)";
    case RatioSource::ranking: return "moved by the ranking variant (ranking.variant)";
    case RatioSource::user: return fmt::format("set by {}", flag);
  }
  return "";
}

}  // namespace

Report suggest_report(const Suggestion& s, const LawSet& law_set) {
  const HolisticLaws& laws = law_set.holistic;
  const MoeArchitecture& a = s.solution.arch;
  const ArchitectureFamily& f = a.family;
  const Accounting& acc = s.solution.accounting;
  const double C = s.budget.C.value();
  const bool in_range = C >= laws.fitted_compute_min && C <= laws.fitted_compute_max;

  Report r;
  r.sections.push_back(
      {"budget", "Budget (paper 002 Eq. 2)",
       {{"compute", "C", "FLOPs", C, s.resolved.compute_given ? "training compute budget" : "training compute, M D of the targets (the goal fixed D and the size)",
         s.resolved.compute_given && !s.resolved.compute_searched},
        {"flops_per_token_opt", "M_opt", "FLOPs/token", s.budget.M.value(), "compute-optimal training FLOPs per token"},
        {"tokens_opt", "D_opt", "tokens", s.budget.D.value(), "compute-optimal training tokens"},
        {"tokens", "D", "tokens", s.tokens.value(),
         s.resolved.kind == GoalKind::inference_aware ? "training tokens, chosen with the model for the least lifetime FLOPs"
         : s.resolved.fixed_tokens ? "training tokens, fixed by the goal" : "tokens that spend C on this config (C / M)",
         false, Summary::plan_tokens},
        {"in_fitted_range", "", "", in_range, "C inside the budgets the laws were fitted on"}}});
  r.sections.push_back(
      {"targets", "Targets (paper 002 Sec. 7)",
       {{"m_over_na", "M/N_a", "", s.m_over_na_target, ratio_origin(s.m_over_na_source, "--m-over-na")},
        {"n_over_na", "N/N_a", "", s.n_over_na_target, ratio_origin(s.n_over_na_source, "--n-over-na")},
        {"N_a_nonembedding_active", "N_a", "params", s.targets.N_a.value(), "target N_a (M_opt / (M/N_a)), no embeddings, routers, norms"},
        {"N_nonembedding_total", "N", "params", s.targets.N.value(), "target N, no embeddings, routers, norms (not a model card's total)"}}});
  r.sections.push_back(
      {"config", "Architecture",
       {{"hidden_size", "d", "", i64(a.d), "hidden size", false, Summary::shape_hidden_size},
        {"num_layers", "L", "", i64(a.layers()), "layers, L = L_d + L_m", false, Summary::shape_layers},
        {"num_dense_layers", "L_d", "", i64(a.L_d), "dense FFN layers", false, Summary::shape_dense_layers},
        {"num_moe_layers", "L_m", "", i64(a.L_m), "MoE layers", false, Summary::shape_moe_layers},
        {"dense_ffn_size", "d_d", "", i64(a.d_d), "dense FFN intermediate size", false, Summary::shape_dense_ffn_size},
        {"expert_ffn_size", "d_m", "", i64(a.d_m), "routed and shared expert intermediate size", false, Summary::shape_expert_ffn_size},
        {"num_query_heads", "N_q", "", i64(f.heads.n_q), "query heads", false, Summary::shape_query_heads},
        {"num_kv_heads", "N_kv", "", i64(f.heads.n_kv), "key/value heads (GQA)", false, Summary::shape_kv_heads},
        {"head_dim", "d_qkv", "", i64(f.heads.d_qkv), "attention head size", false, Summary::shape_head_dim},
        {"seq_len", "S", "tokens", i64(f.seq_len), "training sequence length", false, Summary::shape_seq_len},
        {"num_experts", "N_e", "", i64(f.n_experts), "routed experts per MoE layer", false, Summary::shape_experts},
        {"top_k", "K", "", i64(f.top_k), "routed experts activated per token", false, Summary::shape_top_k},
        {"num_shared_experts", "", "", i64(f.n_shared_experts), "shared experts per MoE layer", false, Summary::shape_shared_experts},
        {"vocab_size", "V", "", i64(f.vocab_size), "vocabulary size"}}});
  r.sections.push_back(
      {"accounting", "Accounting (paper 002 Eq. 3-4, Appendix A)",
       {{"flops_per_token", "M", "FLOPs/token", acc.M.value(), "training FLOPs per token (C = M D), 6 N_a + 6 S N_q d_qkv L", false, Summary::plan_flops_per_token},
        {"N_a_nonembedding_active", "N_a", "params", acc.N_a.value(), "paper 002's N_a: active, no embeddings, routers, norms", false, Summary::plan_active_params},
        {"N_nonembedding_total", "N", "params", acc.N.value(), "paper 002's N: no embeddings, routers, norms (not a model card's total)", false, Summary::plan_total_params},
        {"embedding_params", "", "params", acc.embedding.value(), "input embedding + untied output head, 2 V d"},
        {"m_over_na", "M/N_a", "", acc.m_over_na(), "of this config"},
        {"n_over_na", "N/N_a", "", acc.n_over_na(), "of this config"},
        // r_a is paper 002's attention share; paper 003's activation rate, also written r_a,
        // is score's activation_rate (N_a/N): the keys say which is meant.
        {"attention_share", "r_a", "", acc.r_a, "attention share of M (as score's compute.attention_share)"},
        {"dense_share", "r_d", "", acc.r_d, "dense FFN share of M"},
        {"moe_share", "r_m", "", acc.r_m, "MoE share of M"},
        {"error_flops_per_token", "dM/M", "", s.solution.error_M, "relative miss of the M target"},
        {"error_active_params", "dN_a/N_a", "", s.solution.error_N_a, "relative miss of the N_a target"},
        {"error_total_params", "dN/N", "", s.solution.error_N, "relative miss of the N target"}}});
  r.sections.push_back(
      {"provenance", "How it was chosen",
       {{"m_over_na_source", "", "", std::string(to_string(s.m_over_na_source)), "where the M/N_a target came from"},
        {"n_over_na_source", "", "", std::string(to_string(s.n_over_na_source)), "where the N/N_a target came from"},
        {"d_source", "", "", std::string(to_string(s.d_source)), "where the hidden size came from"},
        {"d_target", "", "", s.d_target, "hidden size before alignment"},
        {"d_feasible_min", "", "", s.d_interval.d_min, "smallest feasible d (L_m = 1)"},
        {"d_feasible_max", "", "", s.d_interval.d_max, "largest feasible d (L_d = 0)"},
        {"heads_source", "", "", std::string(to_string(s.heads_source)), "where N_q, N_kv, d_qkv came from"},
        {"alignment", "", "", i64(s.alignment), "d and d_m are multiples of this"},
        {"tolerance", "", "", s.tolerance, "max relative miss of M, N_a, N"},
        {"d_over_l_min", "", "", s.d_over_l.min, "smallest credible d/L"},
        {"d_over_l_max", "", "", s.d_over_l.max, "largest credible d/L"},
        {"laws", "", "", laws.name, "law preset"},
        {"laws_source", "", "", law_set.holistic_sources(), "file(s) the holistic laws were read from"},
        {"convention", "", "", std::string("holistic-002"), "FLOP/parameter counting of paper 002 Appendix A"}}});
  // Always present (empty where Table 4 did not widen the heads here): a sweep's columns are
  // every plan's.
  r.sections.back().fields.push_back({"layers_note", "", "", layers_note(s),
                                      "why L is below a smaller budget's: Table 4 widened the heads here"});
  return r;
}

namespace {

/// The printed loss is the joint law's whatever the rule; say when it is not what decided.
std::string loss_description(RankRule rule) {
  if (rule == RankRule::joint_loss) {
    return "joint law (paper 001 Eq. 11) at D = C / M: what --rank-by joint-loss ranks by";
  }
  return "joint law (paper 001 Eq. 11) at D = C / M; not what chose the plan: it cannot see d "
         "or attention (man moeplan-suggest, RANKING)";
}

/// The figure the rule in force compared (the winner's).
double ranking_figure(RankRule rule, const RankedCandidate& c) {
  switch (rule) {
    case RankRule::paper002: {
      const Suggestion& s = c.suggestion;
      return s.d_target > 0 ? std::abs(s.solution.arch.d - s.d_target) / s.d_target : 0.0;
    }
    case RankRule::efficiency_leverage: return c.efficiency_leverage;
    case RankRule::joint_loss: return c.predicted_loss;
  }
  return 0;
}

std::string ranking_figure_description(RankRule rule) {
  switch (rule) {
    case RankRule::paper002: return "what chose the plan: |d - d_target| / d_target (paper 002; lower wins)";
    case RankRule::efficiency_leverage: return "what chose the plan: EL (paper 000 Eq. 4; higher wins)";
    case RankRule::joint_loss: return "what chose the plan: the joint-law loss (lower wins)";
  }
  return "";
}

}  // namespace

void add_ranking(Report& report, const Ranking& ranking, std::size_t top) {
  const std::vector<RankedCandidate>& ranked = ranking.candidates;
  const RankedCandidate& best = ranked.front();
  Section section{"ranking", fmt::format("Ranking (--rank-by {})", to_string(ranking.rule)),
                  {{"rule", "", "", std::string(to_string(ranking.rule)), "what decides (man moeplan-suggest, RANKING)"},
                   {"variant", "", "", best.variant, "how the winner differs from the pipeline optimum"},
                   {"predicted_loss", "loss", "nats/token", best.predicted_loss, loss_description(ranking.rule), false, Summary::plan_loss},
                   {"ranking_figure", "rank by", "", ranking_figure(ranking.rule, best), ranking_figure_description(ranking.rule), false, Summary::plan_ranking_figure},
                   {"efficiency_leverage", "EL", "", best.efficiency_leverage, "paper 000 Eq. 4, A = (K+1)/(N_e+1), G = 2d/d_m", false, Summary::plan_efficiency_leverage},
                   {"near_tie", "", "", ranking.near_tie, "the runner-up was as good under the rule's main key"},
                   {"decided_by", "", "", ranking.decided_by, "what separated the winner from the runner-up", false, Summary::plan_decided_by},
                   {"candidates_scored", "", "", static_cast<std::int64_t>(ranked.size()), "feasible distinct candidates scored"}}};
  if (ranked.size() >= 2) {
    const RankedCandidate& u = ranked[1];
    section.fields.push_back({"runner_up", "", "", u.variant, "second under the rule"});
    section.fields.push_back({"runner_up_hidden_size", "d", "", i64(u.suggestion.solution.arch.d), "runner-up's hidden size"});
    section.fields.push_back({"runner_up_predicted_loss", "loss", "nats/token", u.predicted_loss, "runner-up's joint-law loss"});
    section.fields.push_back({"runner_up_efficiency_leverage", "EL", "", u.efficiency_leverage, "runner-up's EL"});
  }
  report.sections.push_back(std::move(section));
  for (std::size_t k = 0; k < std::min(top, ranked.size()); ++k) {
    const RankedCandidate& c = ranked[k];
    const MoeArchitecture& a = c.suggestion.solution.arch;
    const Accounting& acc = c.suggestion.solution.accounting;
    const LayerSolution& sol = c.suggestion.solution;
    report.sections.push_back(
        {"candidates", fmt::format("Candidate {}", k + 1),
         {{"variant", "", "", c.variant, "change from the pipeline optimum"},
          {"keeps_targets", "", "", c.keeps_targets, "M/N_a and N/N_a are the law's (not moved)"},
          {"eligible", "", "", c.eligible, "may win under the rule in force"},
          {"hidden_size", "d", "", i64(a.d), ""},
          {"num_layers", "L", "", i64(a.layers()), ""},
          {"num_dense_layers", "L_d", "", i64(a.L_d), ""},
          {"num_moe_layers", "L_m", "", i64(a.L_m), ""},
          {"expert_ffn_size", "d_m", "", i64(a.d_m), ""},
          {"num_query_heads", "N_q", "", i64(a.family.heads.n_q), ""},
          {"num_kv_heads", "N_kv", "", i64(a.family.heads.n_kv), ""},
          {"m_over_na", "M/N_a", "", acc.m_over_na(), ""},
          {"n_over_na", "N/N_a", "", acc.n_over_na(), ""},
          {"error_flops_per_token", "dM/M", "", sol.error_M, "against the law's targets"},
          {"error_active_params", "dN_a/N_a", "", sol.error_N_a, "against the law's targets"},
          {"error_total_params", "dN/N", "", sol.error_N, "against the law's targets"},
          {"predicted_loss", "loss", "nats/token", c.predicted_loss, "paper 001 Eq. 11"},
          {"delta_loss", "dloss", "", c.predicted_loss - best.predicted_loss, "against the winner"},
          {"efficiency_leverage", "EL", "", c.efficiency_leverage, "paper 000 Eq. 4"},
          {"delta_efficiency_leverage", "dEL", "", c.efficiency_leverage - best.efficiency_leverage, "against the winner"}},
         true});
  }
}

std::string sweep_table(const std::vector<SweepRow>& rows) {
  // Budgets print in full (shortest round trip), so a row's C can be passed back to --flops.
  std::string out = fmt::format("{:>12} {:>10} {:>10} {:>10} {:>6} {:>5} {:>4} {:>4} {:>6} {:>10} {:>6} {:>5} {:>5} {:>7}\n",
                                "C", "N", "N_a", "D", "d", "L", "L_d", "L_m", "d_m",
                                "heads", "M/N_a", "N/N_a", "d/L", "loss");
  for (const SweepRow& row : rows) {
    const std::string C = shortest_scientific(row.C.value());
    if (!row.winner) {
      out += fmt::format("{:>12} no plan: {}\n", C, row.reason);
      continue;
    }
    const Suggestion& s = row.winner->suggestion;
    const MoeArchitecture& a = s.solution.arch;
    const Accounting& acc = s.solution.accounting;
    const AttentionHeads& h = a.family.heads;
    out += fmt::format(
        "{:>12} {:>10.4g} {:>10.4g} {:>10.4g} {:>6} {:>5} {:>4} {:>4} {:>6} {:>10} {:>6.3f} {:>5.2f} {:>5.0f} {:>7.4f}\n",
        C, acc.N.value(), acc.N_a.value(), s.tokens.value(), a.d, a.layers(), a.L_d, a.L_m, a.d_m,
        fmt::format("{}/{}/{}", h.n_q, h.n_kv, h.d_qkv), acc.m_over_na(), acc.n_over_na(),
        double(a.d) / a.layers(), row.winner->predicted_loss);
  }
  return out;
}

namespace {

Value number_or(std::optional<double> v, const std::string& reason) {
  if (v && std::isfinite(*v)) return *v;
  return Missing{reason};
}

// The one-screen table's places of a plan's figures (the plan's, or the compute-optimal one's).
struct FigureSlots {
  Summary tokens_per_active_param, loss, inference_flops_per_token, weight_bytes;
};

void add_figures(std::vector<Field>& out, const std::string& prefix, const std::string& whose,
                 const std::optional<PlanFigures>& f, const std::string& reason,
                 const std::string& loss_basis, const FigureSlots& slots) {
  const auto v = [&](auto get) -> Value {
    return f ? number_or(get(*f), reason) : Value(Missing{reason});
  };
  // The compute-optimal plan's rows get their own symbols: a side-by-side table (score of
  // several configs) shows symbols without descriptions.
  const std::string opt = prefix.empty() ? "" : " (opt)";
  const auto sym = [&](const char* s) { return std::string(s) + opt; };
  out.push_back({prefix + "N_a_nonembedding_active", sym("N_a"), "params",
                 v([](const PlanFigures& x) { return x.N_a.value(); }), whose + ": active parameters"});
  out.push_back({prefix + "tokens", sym("D"), "tokens", v([](const PlanFigures& x) { return x.D.value(); }),
                 whose + ": training tokens"});
  out.push_back({prefix + "tokens_per_active_param", sym("D/N_a"), "", v([](const PlanFigures& x) {
                   return x.tokens_per_active_param; }), whose + ": training tokens per active parameter", false,
                 slots.tokens_per_active_param});
  out.push_back({prefix + "predicted_loss", sym("loss"), "nats/token",
                 v([](const PlanFigures& x) { return x.predicted_loss; }),
                 whose + ": paper 001 Eq. 11 " + loss_basis, false, slots.loss});
  out.push_back({prefix + "training_compute", sym("C_train"), "FLOPs",
                 v([](const PlanFigures& x) { return x.training_compute.value(); }), whose + ": M D"});
  out.push_back({prefix + "inference_flops_per_token", sym("M/3"), "FLOPs/token",
                 v([](const PlanFigures& x) { return x.inference_flops_per_token.value(); }),
                 whose + ": forward pass, a third of M (paper 002 Eq. 12 counts forward + backward)", false,
                 slots.inference_flops_per_token});
  out.push_back({prefix + "weight_bytes_bf16", "", "bytes",
                 v([](const PlanFigures& x) { return x.weight_bytes_bf16; }),
                 whose + ": weights to serve in bf16, 2 (N + embeddings)", false, slots.weight_bytes});
}

}  // namespace

Section price_section(const PlanPrice& p, PriceOf of) {
  const bool config = of == PriceOf::config;
  const std::string self = config ? "this config" : "this plan";
  const std::string on_curve = "on paper 002's target curve (N, N_a at C', D)";
  Section sec{"price", "Price of leaving the compute-optimal line (paper 001 Eq. 11 on paper 002's curves)", {}};
  add_figures(sec.fields, "", self, p.plan, "the joint law has no loss here",
              config ? "at this config's own N, N_a and D" : on_curve,
              {Summary::price_tokens_per_active_param, Summary::price_loss,
               Summary::price_inference_flops_per_token, Summary::price_weight_bytes});
  add_figures(sec.fields, "compute_optimal_", "paper 002's compute-optimal plan for the same C",
              p.compute_optimal, "no compute-optimal plan at this C", on_curve,
              {Summary::price_optimal_tokens_per_active_param, Summary::price_optimal_loss,
               Summary::price_optimal_inference_flops_per_token, Summary::price_optimal_weight_bytes});
  const std::string why = p.overhead_note.empty() ? "no equal-loss compute" : p.overhead_note;
  sec.fields.push_back({"equal_loss_compute", "C*", "FLOPs",
                        number_or(p.equal_loss_compute ? std::optional(p.equal_loss_compute->value()) : std::nullopt, why),
                        "compute at which the compute-optimal plan reaches " + self + "'s loss", false,
                        Summary::price_equal_loss_compute});
  sec.fields.push_back({"overhead", "C/C*-1", "", number_or(p.overhead, why),
                        "compute overhead of " + self + " against the compute-optimal line", false,
                        Summary::price_overhead});
  sec.fields.push_back({"overhead_note", "", "", p.overhead_note, "why the overhead is negative or missing (else empty)"});
  sec.fields.push_back({"joint_optimum_tokens_ratio", "", "",
                        number_or(p.joint_optimum_tokens_ratio, "the joint law has no minimum along D here"),
                        "where the joint law's loss is least along D at this C, as D / D_opt"});
  if (p.inference_tokens) {
    sec.fields.push_back({"inference_tokens", "T", "tokens", p.inference_tokens->value(), "lifetime inference tokens"});
    sec.fields.push_back({"lifetime_compute", "", "FLOPs",
                          number_or(p.lifetime_compute ? std::optional(p.lifetime_compute->value()) : std::nullopt, "n/a"),
                          "this plan: C_train + T M/3"});
    sec.fields.push_back({"compute_optimal_lifetime_compute", "", "FLOPs",
                          number_or(p.compute_optimal_lifetime_compute
                                        ? std::optional(p.compute_optimal_lifetime_compute->value()) : std::nullopt,
                                    "no compute-optimal plan at this C"),
                          "paper 002's plan for the reference C: C + T M/3"});
    sec.fields.push_back({"lifetime_saving", "", "", number_or(p.lifetime_saving, "no compute-optimal plan at this C"),
                          "1 - lifetime / compute-optimal lifetime", false, Summary::price_lifetime_saving});
  }
  // A plan is a uniform softmax-attention MoE of paper 002's family; score replaces this
  // with the config's own (score_report.cpp).
  sec.fields.push_back({"law_scope", "", "", std::string("as fitted"),
                        "the law was fitted on models like this one (uniform softmax-attention layers)"});
  return sec;
}

Section missing_price_section(const std::string& reason, const std::string& note) {
  Section sec = price_section(PlanPrice{}, PriceOf::config);
  for (Field& f : sec.fields) {
    if (f.key == "overhead_note") {
      f.value = note;
    } else if (std::holds_alternative<double>(f.value) || std::holds_alternative<std::int64_t>(f.value) ||
               std::holds_alternative<Missing>(f.value)) {
      f.value = Missing{reason};
    }
  }
  return sec;
}

void add_goal_and_price(Report& report, const Suggestion& s, const PlanPrice& price) {
  const ResolvedBudget& b = s.resolved;
  Section goal{"goal", "Goal (what was fixed, and how C, M, D followed)",
               {{"kind", "", "", std::string(to_string(b.kind)), "the form of the goal", false, Summary::price_goal_kind},
                {"how", "", "", b.how, "how C, M and D followed from it"},
                {"shape_compute", "C'", "FLOPs", b.shape_compute.value(),
                 "the budget whose compute-optimal plan has this M: the shape laws are read there"},
                {"flops_per_token_target", "M", "FLOPs/token", b.M.value(), "the M the layer solve aimed for"},
                {"total_params_cap", "N_max", "params",
                 b.total_params_cap ? Value(b.total_params_cap->value()) : Value(Missing{"no cap"}),
                 "cap on total non-embedding parameters (--total-params)"}}};
  auto at = report.sections.begin();
  while (at != report.sections.end() && at->key != "budget") ++at;
  if (at != report.sections.end()) ++at;
  at = report.sections.insert(at, std::move(goal));
  report.sections.insert(at + 1, price_section(price));
}

Report compact_suggest_report(const Report& full, const Suggestion& s) {
  constexpr auto k_slots = static_cast<std::size_t>(Summary::count);
  std::vector<const Field*> at(k_slots, nullptr);
  for (const Section& sec : full.sections) {
    for (const Field& f : sec.fields) {
      if (f.summary == Summary::none || f.summary == Summary::detail) continue;
      const auto slot = static_cast<std::size_t>(f.summary);
      if (at[slot]) throw std::logic_error("one-screen table: two fields for one place (" + f.key + ")");
      at[slot] = &f;
    }
  }
  // The fields of the places first..last the report has, in that order.
  const auto part = [&](std::string key, std::string title, Summary first, Summary last) {
    Section out{std::move(key), std::move(title), {}};
    for (auto slot = static_cast<std::size_t>(first); slot <= static_cast<std::size_t>(last); ++slot) {
      if (at[slot]) out.fields.push_back(*at[slot]);
    }
    return out;
  };
  const double C = s.budget.C.value();
  Report r;
  r.sections.push_back(part(
      "plan", fmt::format("Plan for C = {} FLOPs", s.resolved.compute_given && !s.resolved.compute_searched
                                                        ? shortest_scientific(C)  // as typed
                                                        : fmt::format("{:.4g}", C)),
      Summary::plan_total_params, Summary::plan_efficiency_leverage));
  if (Section price = part("price", "Price (this plan | paper 002's compute-optimal plan for C)",
                           Summary::price_goal_kind, Summary::price_lifetime_saving);
      !price.fields.empty()) {
    r.sections.push_back(std::move(price));
  }
  r.sections.push_back(part("shape", "Shape", Summary::shape_hidden_size, Summary::shape_seq_len));
  Section speed = part("speed", "Speed (forward GEMMs of one micro-batch)", Summary::speed_alignment_chosen,
                       Summary::speed_cpu_tokens_per_second);
  for (Field& f : speed.fields) {  // both devices' fields share keys: the symbol says which
    if (f.summary >= Summary::speed_gpu_rate) {
      f.symbol = fmt::format("{} {}", f.summary >= Summary::speed_cpu_rate ? "cpu" : "gpu", f.key);
    }
  }
  if (!speed.fields.empty()) r.sections.push_back(std::move(speed));
  for (const Section& sec : full.sections) {  // the sections shown whole (the cluster's)
    if (!sec.summary) continue;
    r.sections.push_back(sec);
    std::erase_if(r.sections.back().fields, [](const Field& f) { return f.summary == Summary::detail; });
  }
  return r;
}

}  // namespace moeplan::cli
