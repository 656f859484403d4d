#pragma once
/// Choosing a parallel layout: enumerate the legal ones, keep those whose memory fits the
/// GPU, rank by predicted step time (docs/cluster.md, "Layout search").
#include <expected>
#include <string>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/memory_model.hpp"
#include "moeplan/cluster/step_time.hpp"

namespace moeplan {

struct LayoutSearchOptions {
  MemoryOptions memory;
  StepTimeOptions time;
  long long global_batch_tokens = 0;  ///< B (tokens per step); rounded to whole micro-batches × dp
  /// Fraction of HBM a layout may plan to use (the rest is headroom for spikes).
  double memory_headroom = 1.0;
  std::vector<int> micro_batches{1, 2, 4};
  std::vector<Recompute> recompute_levels{Recompute::none, Recompute::selective, Recompute::full};
  bool allow_uneven_pipeline = true;  ///< first/last stages one layer short when L % pp != 0
  int max_vpp = 4;
};

/// One layout that was evaluated.
struct LayoutCandidate {
  ParallelLayout layout;
  MemoryBreakdown memory;
  StepTime time;
  bool fits = false;
  double shortfall_bytes = 0;   ///< memory total − usable HBM when it does not fit
};

/// Why a layout is not legal for this model and cluster, or "" when it is: TP divides the
/// query and key/value heads and stays within a node; EP divides N_e; EP·ETP divides
/// TP·CP·DP (parallel folding); PP divides L (or the uneven split is allowed and leaves every
/// stage at least one layer); vpp divides the layers of a stage; dp·tp·cp·pp = world.
std::string layout_illegal_reason(const ModelConfig& m, const Cluster& cluster,
                                  const ParallelLayout& layout, bool allow_uneven_pipeline);

struct LayoutSearchResult {
  std::vector<LayoutCandidate> ranked;  ///< fitting layouts, fastest first (at most a few kept)
  long long evaluated = 0;              ///< legal layouts whose memory and time were computed
  long long illegal = 0;                ///< combinations rejected by the layout rules
  /// Why the runners-up lost to the best: one line each, aligned with ranked[1..].
  std::vector<std::string> why_lost;
};

/// The fastest fitting layouts of `m` on `cluster`, best first; a ConstraintViolation naming
/// the smallest shortfall (which term dominates, how many GiB) when none fits.
std::expected<LayoutSearchResult, ConstraintViolation> search_layouts(
    const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
    const LayoutSearchOptions& options);

}  // namespace moeplan
