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
/// in D = C/M. Variants that re-solve to the same config as an earlier one are dropped.
///
/// Timing noise is not a decision. Every variant's shapes are sliced by one rule and timed
/// in the same interleaved rounds, so round r gives a paired sample of every variant; a
/// variant's speedup is the median over rounds of proposal/variant, with its range. The
/// pipeline's d is kept unless an in-band variant is faster in every round (its lowest
/// paired speedup above 1) by at least `min_gain` at the median. With fewer than
/// `min_rounds` CPU rounds (a budget that fits only the warm-up) nothing is decided; on the
/// GPU, whose runs are not paired, the interval is the conservative one from each side's
/// fastest and slowest of its repetitions. So a busy machine gives "kept, within the
/// noise", never a different d on each run.
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
  double speedup = 0;         ///< proposal/this GEMM time to spend C: median of paired rounds
  double speedup_low = 0;     ///< lowest paired-round speedup (or fastest-vs-slowest bound)
  double speedup_high = 0;    ///< highest paired-round speedup (or slowest-vs-fastest bound)
  bool faster_beyond_noise = false;  ///< speedup_low > 1 and speedup ≥ 1 + min_gain
};

struct AlignmentResult {
  std::vector<AlignmentVariant> variants;  ///< the proposal first
  std::size_t chosen = 0;                  ///< the proposal unless a variant is faster beyond the noise
  std::string timed_on;                    ///< "gpu" when a GPU run exists, else "cpu"
  double band = 0.001;
  double min_gain = 0.05;
  int rounds = 0;                          ///< paired CPU timing rounds (0: GPU, unpaired bounds)
  std::string decision;                    ///< one line: why `chosen` (and by how much)
  std::vector<std::string> skipped;        ///< variants the pipeline could not solve, or repeats, why
};

struct AlignmentOptions {
  std::vector<int> steps{64, 128};
  double band = 0.001;  ///< paper 002 Sec. 5.3/5.4: within 0.1 % of the minimum loss
  /// A variant replaces the proposal only if it is this much faster at the median of the
  /// paired rounds (and faster in every round): an engineering threshold, not a paper's —
  /// CPU GEMM timings are a proxy for the training hardware, and a few per cent is what
  /// their round-to-round spread on a shared machine reaches.
  double min_gain = 0.05;
  /// Interleaved CPU rounds asked for (at least; bench.reps if larger), and the fewest
  /// that may decide. A variant no faster than the proposal still wins every one of R
  /// rounds with probability 2^-R under symmetric noise: 0.8 % for R = 7, 0.2 % for 9, per
  /// variant, which keeps a busy machine's answer the same run after run.
  int rounds = 9;
  int min_rounds = 7;
  BenchOptions bench;   ///< bench.cpu_seconds bounds the CPU timing of all variants
};

/// The proposal `winner` (as produced by rank_candidates with `planner`) and its aligned
/// variants, each scored and timed; `chosen` is the fastest in-band variant that is faster
/// than the proposal beyond the timing noise, else the proposal.
AlignmentResult align_for_hardware(const LawSet& laws, const Planner& planner,
                                   const RankedCandidate& winner,
                                   const AlignmentOptions& alignment);

/// The decision of align_for_hardware on variants already scored and timed (`timed_on`
/// names the device; `budget_seconds` and `in_band` set): fills every variant's speedup and
/// range, `rounds`, `chosen` and `decision`.
void choose_aligned_variant(AlignmentResult& result, const AlignmentOptions& alignment);

/// The distinct (d, step) pairs tried for a hidden size d: d rounded down and up to a
/// multiple of each step (just d when it is one already: d_m is still re-aligned).
std::vector<std::pair<int, int>> aligned_hidden_sizes(int d, const std::vector<int>& steps);

}  // namespace moeplan
