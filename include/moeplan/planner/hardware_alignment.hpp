#pragma once
/// Hardware-aware rounding for `suggest --align auto` (issue 5): trade a negligible
/// predicted loss for GEMM throughput.
///
/// Paper 002 (Sec. 5.3-5.4, "Engineering significance of the near-optimal band") defines
/// the near-optimal band as the configurations whose loss is within 0.1 % of the minimum,
/// and proposes it exactly for this: deviating from d_opt to hardware-friendly values. It
/// prints no band edges, so moeplan applies the definition to the predicted loss itself:
/// a variant is in the band when its joint-law loss (paper 001 Eq. 11, at D = C/M) is
/// within 0.1 % of the lowest loss among the proposal and its variants.
///
/// Variants: for each step s in {64, 128}, d rounded down and up to a multiple of s (d
/// itself when it is one), with
/// d_m (and d_d = γ·d) also multiples of s; each is re-solved by the same pipeline with the
/// proposal's M/N_a, N/N_a and heads held, so it meets the same (M, N_a, N) targets
/// within the same tolerance (paper 002 Eq. 3). Their GEMMs are then timed, and the
/// figure of merit is the GEMM time to spend the whole budget: 3·D·t_fwd/T (forward plus
/// a backward of twice the FLOPs, as in M = 6·N_a + …), since variants differ in M and so
/// in D = C/M.
#include <optional>
#include <string>
#include <vector>

#include "moeplan/planner/candidates.hpp"
#include "moeplan/gemm/gemm_bench.hpp"

namespace moeplan {

struct AlignmentVariant {
  RankedCandidate candidate;  ///< the re-solved config and its predicted loss
  int step = 0;               ///< d and d_m are multiples of this; 0 for the proposal
  bool is_proposal = false;
  double loss_change = 0;     ///< (L − L_min) / L_min, L_min over proposal and variants
  bool in_band = false;       ///< loss_change ≤ band
  std::optional<BenchResult> timing;  ///< its GEMMs and their CPU/GPU runs; nullopt: none derived
  double budget_seconds = 0;  ///< GEMM time to spend C: 3·D·forward_seconds/T, on `device`
  double speedup = 0;         ///< proposal's budget_seconds / this one's (1 = same)
};

struct AlignmentResult {
  std::vector<AlignmentVariant> variants;  ///< the proposal first
  std::size_t chosen = 0;                  ///< fastest in-band variant
  std::string timed_on;                    ///< "gpu" when a GPU run exists, else "cpu"
  double band = 0.001;
  std::vector<std::string> skipped;        ///< variants the pipeline could not solve, why
};

struct AlignmentOptions {
  std::vector<int> steps{64, 128};
  double band = 0.001;  ///< paper 002 Sec. 5.3/5.4: within 0.1 % of the minimum loss
  BenchOptions bench;   ///< bench.cpu_seconds bounds the CPU timing of all variants
};

/// The proposal `winner` (as produced by rank_candidates for `options`) and its aligned
/// variants, each scored and timed; `chosen` is the fastest whose loss is in the band.
AlignmentResult align_for_hardware(const LawSet& laws, const SuggestOptions& options,
                                   const RankedCandidate& winner,
                                   const AlignmentOptions& alignment);

/// The distinct (d, step) pairs tried for a hidden size d: d rounded down and up to a
/// multiple of each step (just d when it is one already: d_m is still re-aligned).
std::vector<std::pair<int, int>> aligned_hidden_sizes(int d, const std::vector<int>& steps);

}  // namespace moeplan
