#pragma once
/// Candidate ranking for `suggest`: configs around the pipeline optimum of paper 002, each
/// scored with the joint MoE law (paper 001 Eq. 11) and Efficiency Leverage (paper 000 Eq. 4).
///
/// Paper 002 finds the loss flat near its optimum (Sec. 5.3, 5.4: bands within 0.1 % of the
/// minimum; App. F.4: under 1 % change for N/N_a in [18, 25]) but prints no band edges, so
/// the variants are: M/N_a × {0.95, 1, 1.05}, N/N_a ± 1, d at 128-aligned neighbours and at
/// 40 %/60 % of the feasible interval, and N_q, N_kv halved or doubled while N_q·d_qkv stays
/// within a factor 2 of d. Every variant is re-solved by the same pipeline (so it meets
/// Eq. 3 within the tolerance). Ranking: predicted losses within paper 001's practical
/// threshold (0.001, Table 3) of the best are ties — their differences come from integer
/// rounding of N and N_a — and among ties the higher EL wins; the rest follow by loss.
/// Settings the user fixed are not varied.
#include <string>
#include <vector>

#include "moeplan/law_set.hpp"
#include "moeplan/model_config.hpp"
#include "moeplan/pipeline.hpp"

namespace moeplan {

struct RankedCandidate {
  Suggestion suggestion;
  std::string variant;              ///< "pipeline optimum", "M/N_a x0.95", "d = 2560", …
  double predicted_loss = 0;        ///< paper 001 Eq. 11 at (N, D = C/M, N_a, G, S)
  double efficiency_leverage = 0;   ///< paper 000 Eq. 4 at (A, 2d/d_m, C)
};

/// One config scored as the ranking scores it: paper 001 Eq. 11 at (N, D = C/M, N_a, G, S)
/// and paper 000 Eq. 4 at (A, 2d/d_m, C).
RankedCandidate score_suggestion(const LawSet& laws, Suggestion s, std::string variant);

/// Candidates sorted best first; the pipeline optimum is always among them. Empty only if
/// `pipeline` itself cannot be scored (never for a suggestion of `suggest`).
std::vector<RankedCandidate> rank_candidates(const LawSet& laws, const SuggestOptions& options,
                                             const Suggestion& pipeline);

/// The HF-style config of a paper-002 architecture trained on D tokens.
ModelConfig to_model_config(const MoeArchitecture& arch, Tokens D);

}  // namespace moeplan
