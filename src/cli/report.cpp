#include "report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace moeplan::cli {

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
       {{"compute", "C", "FLOPs", C, "training compute budget"},
        {"flops_per_token_opt", "M_opt", "FLOPs/token", s.budget.M.value(), "compute-optimal training FLOPs per token"},
        {"tokens_opt", "D_opt", "tokens", s.budget.D.value(), "compute-optimal training tokens"},
        {"tokens", "D", "tokens", s.tokens.value(), "tokens that spend C on this config (C / M)"},
        {"in_fitted_range", "", "", in_range, "C inside the budgets the laws were fitted on"}}});
  r.sections.push_back(
      {"targets", "Targets (paper 002 Sec. 7)",
       {{"m_over_na", "M/N_a", "", s.m_over_na_target, s.m_over_na_overridden ? "set by --m-over-na or a ranking variant (ranking.variant)" : "optimal, from the M/N_a law (Fig. 5b)"},
        {"n_over_na", "N/N_a", "", s.n_over_na_target, s.n_over_na_overridden ? "set by --n-over-na or a ranking variant (ranking.variant)" : "from the Appendix F.4 schedule"},
        {"active_params", "N_a", "params", s.targets.N_a.value(), "target active parameters (M_opt / (M/N_a))"},
        {"total_params", "N", "params", s.targets.N.value(), "target total parameters"}}});
  r.sections.push_back(
      {"config", "Architecture",
       {{"hidden_size", "d", "", i64(a.d), "hidden size"},
        {"num_layers", "L", "", i64(a.layers()), "layers, L = L_d + L_m"},
        {"num_dense_layers", "L_d", "", i64(a.L_d), "dense FFN layers"},
        {"num_moe_layers", "L_m", "", i64(a.L_m), "MoE layers"},
        {"dense_ffn_size", "d_d", "", i64(a.d_d), "dense FFN intermediate size"},
        {"expert_ffn_size", "d_m", "", i64(a.d_m), "routed and shared expert intermediate size"},
        {"num_query_heads", "N_q", "", i64(f.heads.n_q), "query heads"},
        {"num_kv_heads", "N_kv", "", i64(f.heads.n_kv), "key/value heads (GQA)"},
        {"head_dim", "d_qkv", "", i64(f.heads.d_qkv), "attention head size"},
        {"seq_len", "S", "tokens", i64(f.seq_len), "training sequence length"},
        {"num_experts", "N_e", "", i64(f.n_experts), "routed experts per MoE layer"},
        {"top_k", "K", "", i64(f.top_k), "routed experts activated per token"},
        {"num_shared_experts", "", "", i64(f.n_shared_experts), "shared experts per MoE layer"},
        {"vocab_size", "V", "", i64(f.vocab_size), "vocabulary size"}}});
  r.sections.push_back(
      {"accounting", "Accounting (paper 002 Eq. 3-4, Appendix A)",
       {{"flops_per_token", "M", "FLOPs/token", acc.M.value(), "training FLOPs per token (C = M D), 6 N_a + 6 S N_q d_qkv L"},
        {"active_params", "N_a", "params", acc.N_a.value(), "active parameters, no embeddings"},
        {"total_params", "N", "params", acc.N.value(), "total parameters, no embeddings"},
        {"embedding_params", "", "params", acc.embedding.value(), "input embedding + untied output head, 2 V d"},
        {"m_over_na", "M/N_a", "", acc.m_over_na(), "of this config"},
        {"n_over_na", "N/N_a", "", acc.n_over_na(), "of this config"},
        {"r_attention", "r_a", "", acc.r_a, "attention share of M"},
        {"r_dense", "r_d", "", acc.r_d, "dense FFN share of M"},
        {"r_moe", "r_m", "", acc.r_m, "MoE share of M"},
        {"error_flops_per_token", "dM/M", "", s.solution.error_M, "relative miss of the M target"},
        {"error_active_params", "dN_a/N_a", "", s.solution.error_N_a, "relative miss of the N_a target"},
        {"error_total_params", "dN/N", "", s.solution.error_N, "relative miss of the N target"}}});
  r.sections.push_back(
      {"provenance", "How it was chosen",
       {{"d_source", "", "", std::string(to_string(s.d_source)), "where the hidden size came from"},
        {"d_target", "", "", s.d_target, "hidden size before alignment"},
        {"d_feasible_min", "", "", s.d_interval.d_min, "smallest feasible d (L_m = 1)"},
        {"d_feasible_max", "", "", s.d_interval.d_max, "largest feasible d (L_d = 0)"},
        {"heads_source", "", "", std::string(to_string(s.heads_source)), "where N_q, N_kv, d_qkv came from"},
        {"alignment", "", "", i64(s.alignment), "d and d_m are multiples of this"},
        {"tolerance", "", "", s.tolerance, "max relative miss of M, N_a, N"},
        {"laws", "", "", laws.name, "law preset"},
        {"laws_source", "", "", law_set.holistic_sources(), "file(s) the holistic laws were read from"},
        {"convention", "", "", std::string("holistic-002"), "FLOP/parameter counting of paper 002 Appendix A"}}});
  return r;
}

void add_ranking(Report& report, const std::vector<RankedCandidate>& ranked, std::size_t top) {
  const RankedCandidate& best = ranked.front();
  report.sections.push_back(
      {"ranking", "Ranking (paper 001 Eq. 11 loss, then paper 000 EL)",
       {{"variant", "", "", best.variant, "how the winner differs from the pipeline optimum"},
        {"predicted_loss", "L", "", best.predicted_loss, "joint MoE law at D = C / M"},
        {"efficiency_leverage", "EL", "", best.efficiency_leverage, "Eq. 4, A = (K+1)/(N_e+1), G = 2d/d_m"},
        {"candidates", "", "", static_cast<std::int64_t>(ranked.size()), "feasible distinct candidates scored"}}});
  for (std::size_t k = 0; k < std::min(top, ranked.size()); ++k) {
    const RankedCandidate& c = ranked[k];
    const MoeArchitecture& a = c.suggestion.solution.arch;
    const Accounting& acc = c.suggestion.solution.accounting;
    report.sections.push_back(
        {fmt::format("candidate_{}", k + 1), fmt::format("Candidate {}", k + 1),
         {{"variant", "", "", c.variant, "change from the pipeline optimum"},
          {"hidden_size", "d", "", i64(a.d), ""},
          {"num_dense_layers", "L_d", "", i64(a.L_d), ""},
          {"num_moe_layers", "L_m", "", i64(a.L_m), ""},
          {"expert_ffn_size", "d_m", "", i64(a.d_m), ""},
          {"num_query_heads", "N_q", "", i64(a.family.heads.n_q), ""},
          {"num_kv_heads", "N_kv", "", i64(a.family.heads.n_kv), ""},
          {"m_over_na", "M/N_a", "", acc.m_over_na(), ""},
          {"n_over_na", "N/N_a", "", acc.n_over_na(), ""},
          {"predicted_loss", "L", "", c.predicted_loss, "paper 001 Eq. 11"},
          {"delta_loss", "dL", "", c.predicted_loss - best.predicted_loss, "against the winner"},
          {"efficiency_leverage", "EL", "", c.efficiency_leverage, "paper 000 Eq. 4"},
          {"delta_efficiency_leverage", "dEL", "", c.efficiency_leverage - best.efficiency_leverage, "against the winner"}}});
  }
}

Report compact_suggest_report(const Report& full) {
  const auto field = [&](const std::string& section, const std::string& key) -> const Field* {
    for (const Section& s : full.sections) {
      if (s.key != section) continue;
      for (const Field& f : s.fields) {
        if (f.key == key) return &f;
      }
    }
    return nullptr;
  };
  using Pick = std::pair<const char*, const char*>;  // section key, field key
  const auto section = [&](std::string key, std::string title, std::initializer_list<Pick> picks) {
    Section out{std::move(key), std::move(title), {}};
    for (const auto& [sec, name] : picks) {
      if (const Field* f = field(sec, name)) out.fields.push_back(*f);
    }
    return out;
  };
  Report r;
  const Field* C = field("budget", "compute");
  r.sections.push_back(section(
      "plan", C ? fmt::format("Plan for C = {:.3g} FLOPs", std::get<double>(C->value)) : "Plan",
      {{"accounting", "total_params"}, {"accounting", "active_params"}, {"budget", "tokens"},
       {"accounting", "flops_per_token"}, {"ranking", "predicted_loss"},
       {"ranking", "efficiency_leverage"}}));
  r.sections.push_back(section(
      "shape", "Shape",
      {{"config", "hidden_size"}, {"config", "num_layers"}, {"config", "num_dense_layers"},
       {"config", "num_moe_layers"}, {"config", "expert_ffn_size"}, {"config", "dense_ffn_size"},
       {"config", "num_experts"}, {"config", "top_k"}, {"config", "num_shared_experts"},
       {"config", "num_query_heads"}, {"config", "num_kv_heads"}, {"config", "head_dim"},
       {"config", "seq_len"}}));
  Section speed = section("speed", "Speed (forward GEMMs of one micro-batch)",
                          {{"alignment", "chosen"}, {"alignment", "speedup"},
                           {"alignment", "loss_change"}});
  for (const char* dev : {"gpu", "cpu"}) {
    for (const char* key : {"rate", "fraction_of_peak", "tokens_per_second"}) {
      if (const Field* f = field(std::string(dev) + "_bench", key)) {
        Field g = *f;
        g.symbol = fmt::format("{} {}", dev, key);  // both devices' fields share keys
        speed.fields.push_back(std::move(g));
      }
    }
  }
  if (!speed.fields.empty()) r.sections.push_back(std::move(speed));
  return r;
}

}  // namespace moeplan::cli
