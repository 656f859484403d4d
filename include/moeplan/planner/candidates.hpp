#pragma once
/// Candidate ranking for `suggest`: shapes around the pipeline optimum of paper 002, each
/// scored with the joint MoE law (paper 001 Eq. 11) and Efficiency Leverage (paper 000
/// Eq. 4), and a rule that lets a law decide only what it can see.
///
/// Variants, each re-solved by the same pipeline (so each meets Eq. 3 within tolerance):
///  - shapes that keep the law's targets: d at the 64- and 128-aligned neighbours of the
///    optimum and at ±5 % of the d target, inside the ±d_window of the d target (paper 002
///    prints no edges for its 0.1 % band; moeplan's window is in the laws file); and the
///    heads halved or doubled (N_q·d_qkv within a factor 2 of d);
///  - moves of the targets themselves: M/N_a × {0.95, 1.05}, N/N_a ± 1.
/// Settings the user fixed are not varied.
///
/// Rules (docs/design.md "Ranking"):
///  - paper002 (default): among the shapes that keep the targets and the pipeline's heads,
///    the d nearest paper 002's d (median proxy, d law or anchored shape) wins; d within 1 %
///    of equally near is a near tie, broken by the higher EL (granularity 2d/d_m).
///  - el: among those shapes inside the d window, the highest EL wins (EL within 0.5 % is a
///    near tie). EL sees granularity only: it was fitted with attention and dense layers
///    held fixed, so it cannot weigh what else d changes.
///  - joint-loss: every variant, target moves too, by the joint law's loss; differences
///    below its practical threshold (0.001, paper 001 Table 3) are ties broken by EL. The
///    joint law has no attention term: it rewards moving FLOPs from attention to parameters
///    (lower M/N_a), the fixed-M inflation bias of paper 002 Sec. 4.1.
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/laws/law_set.hpp"
#include "moeplan/model/model_config.hpp"
#include "moeplan/planner/pipeline.hpp"
#include "moeplan/planner/planner.hpp"

namespace moeplan {

enum class RankRule { paper002, efficiency_leverage, joint_loss };
const char* to_string(RankRule r);  ///< "paper002", "el", "joint-loss"
std::optional<RankRule> parse_rank_rule(std::string_view text);

struct RankedCandidate {
  Suggestion suggestion;
  std::string variant;              ///< "pipeline optimum", "M/N_a x0.95", "d = 2560", …
  double predicted_loss = 0;        ///< paper 001 Eq. 11 at (N, D = C/M, N_a, G, S)
  double efficiency_leverage = 0;   ///< paper 000 Eq. 4 at (A, 2d/d_m, C)
  bool keeps_targets = true;        ///< false for M/N_a and N/N_a moves
  bool eligible = true;             ///< may win under the rule in force
};

struct Ranking {
  RankRule rule = RankRule::paper002;
  std::vector<RankedCandidate> candidates;  ///< winner first, then the runner-up, …
  bool near_tie = false;      ///< the runner-up was as good under the rule's main key
  std::string decided_by;     ///< one line: what separated the winner from the runner-up
  std::vector<std::string> warnings;  ///< the rule's law is blind to part of what it ranks
};

/// One config scored as the ranking scores it: paper 001 Eq. 11 at (N, D = C/M, N_a, G, S)
/// and paper 000 Eq. 4 at (A, 2d/d_m, C).
RankedCandidate score_suggestion(const LawSet& laws, Suggestion s, std::string variant);

/// Warnings for figures that are legal but no law describes (man moeplan, LIMITS): a predicted
/// loss above ln V nats/token (worse than guessing uniformly over the vocabulary: the law's
/// coefficients cannot describe this model) and more than k_max_tokens_per_param training
/// tokens per active parameter (beyond any published training). Empty when both are sane.
inline constexpr double k_max_tokens_per_param = 1e5;
std::vector<std::string> implausible_figures(std::optional<double> predicted_loss, int vocab_size,
                                             std::optional<Tokens> D, Params N_a);

/// Candidates ranked by `rule`, winner first; the pipeline optimum is always among them.
/// Each variant is the planner's solve of the pipeline's budget with one Tweak.
Ranking rank_candidates(const LawSet& laws, const Planner& planner, const Suggestion& pipeline,
                        RankRule rule = RankRule::paper002);

/// The plan for a budget, as `suggest` and `plot` make it: the pipeline, then the ranking
/// (with `rank` false, the pipeline optimum alone, unranked).
std::expected<Ranking, ConstraintViolation> plan_for_budget(const LawSet& laws,
                                                            const Planner& planner,
                                                            const ResolvedBudget& budget,
                                                            RankRule rule = RankRule::paper002,
                                                            bool rank = true);
/// The same for options whose goal resolves without a loss law (a Planner made for them).
std::expected<Ranking, ConstraintViolation> plan_for_budget(const LawSet& laws,
                                                            const SuggestOptions& options,
                                                            RankRule rule = RankRule::paper002,
                                                            bool rank = true);

}  // namespace moeplan
