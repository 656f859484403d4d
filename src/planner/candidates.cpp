#include "moeplan/planner/candidates.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "moeplan/planner/model_score.hpp"

namespace moeplan {

const char* to_string(RankRule r) {
  switch (r) {
    case RankRule::paper002: return "paper002";
    case RankRule::efficiency_leverage: return "el";
    case RankRule::joint_loss: return "joint-loss";
  }
  return "?";
}

std::optional<RankRule> parse_rank_rule(std::string_view text) {
  for (RankRule r : {RankRule::paper002, RankRule::efficiency_leverage, RankRule::joint_loss}) {
    if (text == to_string(r)) return r;
  }
  return std::nullopt;
}

RankedCandidate score_suggestion(const LawSet& laws, Suggestion s, std::string variant) {
  const Accounting& acc = s.solution.accounting;
  const ExpertShape shape = expert_shape(plan_config(s));
  RankedCandidate c;
  const RankingLaws r = ranking_laws(laws, acc.N, acc.N_a, s.tokens, s.budget.C, shape);
  c.predicted_loss = r.predicted_loss;
  c.efficiency_leverage = r.efficiency_leverage;
  c.suggestion = std::move(s);
  c.variant = std::move(variant);
  return c;
}

std::vector<std::string> implausible_figures(std::optional<double> predicted_loss, int vocab_size,
                                             std::optional<Tokens> D, Params N_a) {
  std::vector<std::string> out;
  const double uniform = vocab_size > 1 ? std::log(double(vocab_size)) : 0.0;
  if (predicted_loss && uniform > 0 && !(*predicted_loss <= uniform)) {
    out.push_back(fmt::format("the predicted loss {:.4g} nats/token is above ln V = {:.4g} (guessing uniformly over "
                              "the {} tokens of the vocabulary): the law's coefficients do not describe this model "
                              "(check --laws)",
                              *predicted_loss, uniform, vocab_size));
  }
  // Qwen3-0.6B, among the most over-trained published models: 36e12 tokens (Qwen3 technical
  // report, arXiv:2505.09388) on 0.44e9 non-embedding parameters (its model card), 8.2e4.
  if (D && N_a.value() > 0 && D->value() / N_a.value() > k_max_tokens_per_param) {
    out.push_back(fmt::format("{:.3g} training tokens per active parameter: beyond any published training "
                              "(Qwen3-0.6B: 8.2e4) and far outside what the laws were fitted on",
                              D->value() / N_a.value()));
  }
  return out;
}

namespace {

struct Variant {
  Tweak tweak;
  std::string label;
};

std::vector<Variant> variants(const LawSet& laws, const SuggestOptions& options,
                              const Suggestion& pipeline) {
  // Each variant is one Tweak of the pipeline's own choice.
  std::vector<Variant> out;
  const MoeArchitecture& a = pipeline.solution.arch;
  // Shapes that keep the targets: d near the optimum, inside the window around the d target.
  if (!options.d) {
    const double window = laws.holistic.ranking_d_window;
    std::set<int> picks;
    for (int step : {64, 128}) {
      picks.insert(a.d / step * step);
      picks.insert((a.d + step - 1) / step * step);
    }
    picks.insert(round_to_multiple(pipeline.d_target * 0.95, 64));
    picks.insert(round_to_multiple(pipeline.d_target * 1.05, 64));
    for (int d : picks) {
      if (d != a.d && d > 0 && std::abs(d / pipeline.d_target - 1.0) <= window) {
        out.push_back({Tweak{.d = d}, fmt::format("d = {}", d)});
      }
    }
  }
  if (!options.heads) {  // N_q·d_qkv within a factor 2 of d (moeplan's rule)
    const AttentionHeads h = a.family.heads;
    const auto add = [&](int n_q, int n_kv) {
      const double width = double(n_q) * h.d_qkv;
      if (n_kv >= 1 && width >= a.d / 2.0 && width <= 2.0 * a.d) {
        out.push_back({Tweak{.heads = AttentionHeads{n_q, n_kv, h.d_qkv}},
                       fmt::format("heads {}/{}", n_q, n_kv)});
      }
    };
    add(h.n_q * 2, h.n_kv * 2);
    if (h.n_kv % 2 == 0 && h.n_q % 2 == 0) add(h.n_q / 2, h.n_kv / 2);
  }
  // Moves of the targets (shown; they win only under --rank-by joint-loss).
  if (!options.m_over_na) {
    for (double f : {0.95, 1.05}) {
      out.push_back({Tweak{.m_over_na = pipeline.m_over_na_target * f}, fmt::format("M/N_a x{:g}", f)});
    }
  }
  if (!options.n_over_na) {
    for (double delta : {-1.0, 1.0}) {
      out.push_back({Tweak{.n_over_na = pipeline.n_over_na_target + delta}, fmt::format("N/N_a {:+g}", delta)});
    }
  }
  return out;
}

bool rounded_shape(const RankedCandidate& c) {  // the pipeline's plan past Table 4
  return c.variant == "pipeline optimum" && c.suggestion.d_source == DSource::shape_extrapolation;
}

double d_distance(const RankedCandidate& c) {  // |ln(d / d_target)| of paper 002's d choice
  return std::abs(std::log(c.suggestion.solution.arch.d / c.suggestion.d_target));
}

}  // namespace

Ranking rank_candidates(const LawSet& laws, const Planner& planner, const Suggestion& pipeline,
                        RankRule rule) {
  Ranking r;
  r.rule = rule;
  r.candidates.push_back(score_suggestion(laws, pipeline, "pipeline optimum"));

  using Key = std::tuple<int, int, int, int, int, int, int>;
  std::set<Key> seen;
  const auto key_of = [](const MoeArchitecture& a) {
    return Key{a.d, a.L_d, a.L_m, a.d_m, a.family.heads.n_q, a.family.heads.n_kv, a.family.heads.d_qkv};
  };
  seen.insert(key_of(pipeline.solution.arch));
  for (const Variant& v : variants(laws, planner.options(), pipeline)) {
    // The same budget, one tweak: the planner reports what the tweak moved as the
    // ranking's, and measures the variant against the law's targets.
    auto s = planner.solve(pipeline.resolved, v.tweak);
    if (!s || !seen.insert(key_of(s->solution.arch)).second) {
      continue;  // infeasible variant, or the same integers as one already scored
    }
    RankedCandidate c = score_suggestion(laws, std::move(*s), v.label);
    c.keeps_targets = !v.tweak.moves_targets();
    r.candidates.push_back(std::move(c));
  }

  const AttentionHeads heads = pipeline.solution.arch.family.heads;
  const double window = laws.holistic.ranking_d_window;
  for (RankedCandidate& c : r.candidates) {
    const bool same_heads = c.suggestion.solution.arch.family.heads == heads;
    switch (rule) {
      case RankRule::paper002: c.eligible = c.keeps_targets && same_heads; break;
      case RankRule::efficiency_leverage:  // the pipeline optimum is always a candidate
        c.eligible = c.keeps_targets && same_heads &&
                     (c.variant == "pipeline optimum" || d_distance(c) <= std::log1p(window));
        break;
      case RankRule::joint_loss: c.eligible = true; break;
    }
  }
  double best_loss = r.candidates.front().predicted_loss;
  for (const RankedCandidate& c : r.candidates) {
    if (c.eligible) best_loss = std::min(best_loss, c.predicted_loss);
  }
  const double loss_tie = laws.joint_analysis.practical_threshold;  // 0.001, paper 001 Table 3
  constexpr double d_tie = 0.01;    // paper002: d within 1 % of equally near
  constexpr double el_tie = 0.005;  // el: EL within 0.5 %
  const auto better = [&](const RankedCandidate& x, const RankedCandidate& y) {
    if (x.eligible != y.eligible) return x.eligible;
    if (!x.eligible) return x.predicted_loss < y.predicted_loss;  // shown for information
    switch (rule) {
      case RankRule::paper002:
        if (std::abs(d_distance(x) - d_distance(y)) >= d_tie) return d_distance(x) < d_distance(y);
        // Past the last Table 4 row the pipeline's plan is the anchored shape rounded
        // (holistic_targets.hpp): its d is the shape's own, and keeping it on a near tie is
        // what makes plans grow smoothly with the budget. Inside the table d is the median
        // proxy of Sec. 4.3, and EL breaks the tie.
        if (rounded_shape(x) != rounded_shape(y)) return rounded_shape(x);
        return x.efficiency_leverage > y.efficiency_leverage;
      case RankRule::efficiency_leverage:
        return x.efficiency_leverage > y.efficiency_leverage;
      case RankRule::joint_loss: {
        const bool x_tied = x.predicted_loss - best_loss <= loss_tie;
        const bool y_tied = y.predicted_loss - best_loss <= loss_tie;
        if (x_tied != y_tied) return x_tied;
        if (x_tied && x.efficiency_leverage != y.efficiency_leverage) {
          return x.efficiency_leverage > y.efficiency_leverage;
        }
        return x.predicted_loss < y.predicted_loss;
      }
    }
    return false;
  };
  std::stable_sort(r.candidates.begin(), r.candidates.end(), better);

  if (r.candidates.size() >= 2 && r.candidates[1].eligible) {
    const RankedCandidate& w = r.candidates[0];
    const RankedCandidate& u = r.candidates[1];
    switch (rule) {
      case RankRule::paper002:
        r.near_tie = std::abs(d_distance(w) - d_distance(u)) < d_tie;
        r.decided_by = r.near_tie && rounded_shape(w)
            ? fmt::format("near tie in d (d = {} and {} are within 1 % of equally near the d "
                          "target {:.0f}); the anchored shape's own d is kept past Table 4 (EL "
                          "{:.6g} vs {:.6g})",
                          w.suggestion.solution.arch.d, u.suggestion.solution.arch.d,
                          w.suggestion.d_target, w.efficiency_leverage, u.efficiency_leverage)
            : r.near_tie
            ? fmt::format("near tie in d (d = {} and {} are within 1 % of equally near the d "
                          "target {:.0f}); the higher EL ({:.6g} vs {:.6g}) decided",
                          w.suggestion.solution.arch.d, u.suggestion.solution.arch.d,
                          w.suggestion.d_target, w.efficiency_leverage, u.efficiency_leverage)
            : fmt::format("d = {} is nearer the d target {:.0f} than the runner-up's {}",
                          w.suggestion.solution.arch.d, w.suggestion.d_target,
                          u.suggestion.solution.arch.d);
        break;
      case RankRule::efficiency_leverage:
        r.near_tie = u.efficiency_leverage >= w.efficiency_leverage * (1.0 - el_tie);
        r.decided_by = fmt::format("EL {:.6g} vs the runner-up's {:.6g}{}", w.efficiency_leverage,
                                   u.efficiency_leverage, r.near_tie ? " (within 0.5 %: a near tie)" : "");
        break;
      case RankRule::joint_loss:
        r.near_tie = u.predicted_loss - w.predicted_loss <= loss_tie;
        r.decided_by = r.near_tie
            ? fmt::format("losses within {:g} (a tie under the joint law); the higher EL "
                          "({:.6g} vs {:.6g}) decided",
                          loss_tie, w.efficiency_leverage, u.efficiency_leverage)
            : fmt::format("loss {:.5g} vs the runner-up's {:.5g}", w.predicted_loss, u.predicted_loss);
        break;
    }
  } else {
    r.decided_by = "no other eligible shape (the law's targets and the pipeline's heads kept)";
  }
  {
    const RankedCandidate& w = r.candidates.front();
    const Suggestion& s = w.suggestion;
    for (std::string& note : implausible_figures(w.predicted_loss, s.solution.arch.family.vocab_size, s.tokens,
                                                 s.solution.accounting.N_a)) {
      r.warnings.push_back(std::move(note));
    }
  }
  if (rule == RankRule::efficiency_leverage) {
    r.warnings.push_back(
        "--rank-by el: EL (paper 000) sees granularity 2d/d_m only; it was fitted with "
        "attention and dense layers held fixed, so it cannot weigh what else d changes "
        "(paper 002 Sec. 6 has its own d optimum)");
  } else if (rule == RankRule::joint_loss) {
    r.warnings.push_back(
        "--rank-by joint-loss: the joint law (paper 001 Eq. 11) has no attention term, so it "
        "cannot weigh what an M/N_a move costs in attention and always rewards trading "
        "attention FLOPs for parameters (the fixed-M inflation bias of paper 002 Sec. 4.1)");
  }
  return r;
}

std::expected<Ranking, ConstraintViolation> plan_for_budget(const LawSet& laws,
                                                            const Planner& planner,
                                                            const ResolvedBudget& budget,
                                                            RankRule rule, bool rank) {
  auto s = planner.solve(budget);
  if (!s) return std::unexpected(s.error());
  if (rank) return rank_candidates(laws, planner, *s, rule);
  Ranking r;
  r.rule = rule;
  r.candidates.push_back(score_suggestion(laws, std::move(*s), "pipeline optimum"));
  r.decided_by = "unranked (--candidates 0)";
  return r;
}

std::expected<Ranking, ConstraintViolation> plan_for_budget(const LawSet& laws,
                                                            const SuggestOptions& options,
                                                            RankRule rule, bool rank) {
  const Planner planner(laws.holistic, options);
  auto budget = planner.resolve(options.goal);
  if (!budget) return std::unexpected(budget.error());
  return plan_for_budget(laws, planner, *budget, rule, rank);
}

}  // namespace moeplan
