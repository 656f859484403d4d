#include "moeplan/planner/pipeline.hpp"

#include <cmath>

#include <fmt/format.h>

#include "moeplan/base/number_parse.hpp"
#include "moeplan/planner/planner.hpp"

namespace moeplan {

const char* to_string(DSource s) {
  switch (s) {
    case DSource::median_of_feasible_interval: return "median-of-feasible-interval";
    case DSource::d_law: return "d-law";
    case DSource::shape_extrapolation: return "shape-extrapolation";
    case DSource::ranking: return "ranking";
    case DSource::user: return "user";
  }
  return "?";
}

const char* to_string(HeadsSource s) {
  switch (s) {
    case HeadsSource::table4_schedule: return "table4-schedule";
    case HeadsSource::extrapolated: return "extrapolated";
    case HeadsSource::ranking: return "ranking";
    case HeadsSource::user: return "user";
  }
  return "?";
}

std::expected<Suggestion, ConstraintViolation> suggest(const HolisticLaws& laws,
                                                       const SuggestOptions& o) {
  const Planner planner(laws, o);
  auto budget = planner.resolve(o.goal);
  if (!budget) return std::unexpected(budget.error());
  return planner.solve(*budget);
}

std::vector<std::string> plan_notes(const Suggestion& s) {
  std::vector<std::string> out;
  if (!s.fitted_range_warning.empty()) out.push_back(s.fitted_range_warning);
  out.insert(out.end(), s.warnings.begin(), s.warnings.end());
  if (!s.extrapolation) return out;
  const ShapeAnchor& a = s.extrapolation->anchor;
  const AttentionHeads& h = s.solution.arch.family.heads;
  std::string ratio;
  switch (s.m_over_na_source) {
    case RatioSource::shape_extrapolation:
      ratio = fmt::format("M/N_a = {:.4g} follows from Eq. 5 for that shape", s.m_over_na_target);
      break;
    case RatioSource::user:
      ratio = fmt::format("M/N_a = {:.4g} was fixed (by --m-over-na, or by the family a --days or --target-loss "
                          "search chose: its section's moved)",
                          s.m_over_na_target);
      break;
    default:
      ratio = fmt::format("M/N_a = {:.4g} ({})", s.m_over_na_target, to_string(s.m_over_na_source));
  }
  out.push_back(fmt::format(
      "past Table 4's last row (C = {:.3g}) the plan keeps the shape of the plan there "
      "(d/L = {:.3g}, L_d/L = {:.3g}, d_m/d = {:.3g}, attention width {:.3g} d), rounded; {}; "
      "heads N_q = {}, N_kv = {}, d_qkv = {} ({})",
      a.compute, a.aspect_ratio, a.dense_layer_fraction, a.expert_width_ratio,
      a.attention_width_ratio, ratio, h.n_q, h.n_kv, h.d_qkv, to_string(s.heads_source)));
  return out;
}

std::string layers_note(const Suggestion& s) {
  if (!s.heads_widened || s.heads_source != HeadsSource::table4_schedule) return "";
  const HeadWidening& w = *s.heads_widened;
  const AttentionHeads& now = w.row.heads;
  const AttentionHeads& was = w.below.heads;
  const Accounting& a = s.solution.accounting;
  // Eq. 3 (Appendix A Eq. 12): M - 6 N_a = 6 S N_q d_qkv L, so L at the narrower heads.
  const double narrow_L = (a.M.value() - 6.0 * a.N_a.value()) /
                          (6.0 * s.solution.arch.family.seq_len * double(was.n_q) * was.d_qkv);
  return fmt::format(
      "L = {}, fewer layers than budgets below get with narrower heads: paper 002 Table 4 (Appendix F.1) "
      "widens the attention at its {:g} row, the row nearest C' = {:.3g}: N_q x d_qkv = {} x {} = {} against "
      "{} x {} = {} at {:g}, and Eq. 3 (Appendix A Eq. 12) gives L = (M - 6 N_a) / (6 S N_q d_qkv), so L "
      "falls by that factor where the heads widen (with the {:g} row's heads this plan would have L = {:.1f}). "
      "The paper's own d sweeps at the optimal (M, N_a, N) step the same way (Tables 16-21: L 9-10 at "
      "1e18, 7-8 at 3e18, 13 at 1e19, 10-11 at 3e19, 18-19 at 1e20, 16 at 3e20)",
      s.solution.arch.layers(), w.row.compute, s.resolved.shape_compute.value(), now.n_q, now.d_qkv,
      now.n_q * now.d_qkv, was.n_q, was.d_qkv, was.n_q * was.d_qkv, w.below.compute, w.below.compute, narrow_L);
}

ModelConfig plan_config(const Suggestion& s) {
  ModelConfig m = model_config_of(s.solution.arch);
  m.training = TrainingSetup{.tokens = s.tokens, .compute = {}, .seq_len = s.solution.arch.family.seq_len,
                             .unique_tokens = {}};
  // The budget in full, so the name and description give back the --flops that made it.
  const std::string C = shortest_scientific(s.budget.C.value());
  m.name = "moeplan-suggest-" + C;
  m.description = fmt::format("moeplan suggest --flops {}: compute-optimal MoE of paper 002 Sec. 7", C);
  m.source = "moeplan suggest (paper 002, arXiv:2603.21862)";
  return m;
}

}  // namespace moeplan
