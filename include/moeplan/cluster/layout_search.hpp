#pragma once
/// Choosing a parallel layout: enumerate the legal ones, keep those whose memory fits the
/// GPU, rank by predicted step time (docs/cluster.md, "Layout search").
#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/memory_model.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/cluster/step_time.hpp"

namespace moeplan {

/// The dimensions of a layout the user fixed (--tp, --pp, ...); the search fills the rest.
struct GivenLayout {
  std::optional<int> tp, cp, pp, vpp, ep, etp, micro_batch;
  /// An uneven pipeline's first and last stages (Megatron-LM's --decoder-first/last-pipeline-
  /// num-layers); the other stages share the rest evenly.
  std::optional<int> first_stage_layers, last_stage_layers;
  /// Megatron's --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-
  /// split (accounted_stage_split): with PP > 1, the split of every layout searched.
  bool embedding_in_split = false, loss_in_split = false;
  /// --pipeline-schedule dualpipe: every layout searched with PP > 1 runs DualPipe (PP even,
  /// VPP 1, micro-batches even and at least 2·PP: dualpipe.py's asserts).
  bool dualpipe = false;
  /// --pipeline-model-parallel-layout (Megatron's grammar; needs PP given): the split and VPP
  /// of every layout searched.
  std::string pipeline_layout;
  std::optional<Recompute> recompute;
  /// With recompute selective: the modules re-run (RecomputeModule bits); unset: core_attn.
  std::optional<unsigned> recompute_modules;
  /// The interleaving --pipeline-schedule asks for: true (interleaved), false (1f1b); unset
  /// otherwise. A layout string of the other kind contradicts it.
  std::optional<bool> interleaved_schedule;
  [[nodiscard]] bool any() const;
  /// "TP, PP, EP" of the given ones, and of the searched ones ("" when none).
  [[nodiscard]] std::string given_names() const;
  [[nodiscard]] std::string searched_names() const;
};

/// Why the given dimensions can make no legal layout of `m` on `cluster` whatever the search
/// fills in (TP not dividing the heads, EP not dividing N_e, a product not dividing the
/// GPUs, ...), naming the rule and the numbers; "" when some layout may be legal. `parsed`: the
/// given --pipeline-model-parallel-layout already parsed on the given PP (the layout search
/// parses it once); null: parsed here.
std::string given_layout_reason(const ModelConfig& m, const Cluster& cluster, const GivenLayout& given, int seq_len,
                                const std::expected<PipelineLayout, std::string>* parsed = nullptr);

struct LayoutSearchOptions {
  MemoryOptions memory;  ///< its seq_len is replaced by time.seq_len (one S for both)
  StepTimeOptions time;  ///< time.seq_len is S
  long long global_batch_tokens = 0;  ///< B (tokens per step); rounded to whole micro-batches × dp
  /// The most sequences a step may hold (the training set, D / S; 0: no bound): a batch
  /// rounded to whole micro-batches × DP past it is rounded down instead.
  long long max_global_batch_sequences = 0;
  /// Fraction of HBM a layout may plan to use (the rest is headroom for spikes).
  double memory_headroom = 1.0;
  std::vector<int> micro_batches{1, 2, 4};
  std::vector<Recompute> recompute_levels{Recompute::none, Recompute::selective, Recompute::full};
  bool allow_uneven_pipeline = true;  ///< first/last stages one layer short when L % pp != 0
  int max_vpp = 4;
  /// Zipf exponent of the routed rows (`bench --routing-skew`); > 0: each layout's expert
  /// load factor, for memory and time alike, is expert_load_factor() of its EP over one
  /// micro-batch of its EP group's tokens, replacing memory/time.expert_load_factor.
  double routing_skew = 0;
  /// Dimensions fixed by the user: only layouts with these values are enumerated (a value
  /// outside the default enumeration, such as CP 2 at S = 4096 or VPP 8, is tried too).
  GivenLayout given;
  /// The batch was given (--global-batch-tokens, a launch script's --global-batch-size), not a
  /// law's: layouts whose micro-batch × DP divides it exactly rank before those that round it
  /// (Megatron refuses a global batch that is not a whole number of micro-batches × DP).
  bool exact_batch = false;
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
  /// Legal layouts × micro-batch sizes × recompute levels whose step time was computed.
  long long evaluated = 0;
  /// Of those, the ones whose memory was computed: in order of tokens/s, until the best few
  /// that fit are known (all of them when none fits). The ranking is the same as if every
  /// one had been; only the work is less.
  long long memory_evaluated = 0;
  /// (TP, CP, PP, VPP, EP, ETP) combinations rejected by the layout rules, × micro-batch
  /// sizes × recompute levels (the units of `evaluated`).
  long long illegal = 0;
  /// Why the runners-up lost to the best: one line each, aligned with ranked[1..].
  std::vector<std::string> why_lost;
  /// The global batch asked for, in sequences (round(global_batch_tokens / S)). The chosen
  /// layout's is larger only when no fitting layout keeps it (batch_raised).
  long long requested_batch = 0;
  /// No layout that fits keeps the batch (DP × micro-batch, × PP under VPP, is above it):
  /// ranked[0] takes the smallest batch any fitting layout takes.
  bool batch_raised = false;
};

/// Why `slower` trains slower than `faster` (same config and cluster): the step-time terms
/// that differ most, signed, at `faster`'s tokens per step ("4.66 s slower per step of the
/// same tokens (19.6 % fewer tokens/s): +4.42 s recompute (full), ...").
std::string why_slower(const LayoutCandidate& faster, const LayoutCandidate& slower, const Cluster& cluster);

/// The fastest fitting layouts of `m` on `cluster`, best first (ties: less memory); a
/// ConstraintViolation naming the smallest shortfall (which term dominates, how many GiB)
/// when none fits, or why no layout is legal (a world that is not whole nodes, no tokens
/// per step). Enumerates TP over the divisors of a node that divide the heads (N_kv = N_q
/// under MLA), CP 1 (2, 4, 8 when S >= 16384 and S/CP >= 4096), PP dividing world/(TP·CP)
/// up to L, VPP up to max_vpp on even splits, EP over the divisors of N_e, ETP 1 or TP.
/// Global batch: round(global_batch_tokens / S) sequences to a multiple of micro × DP (× PP
/// under VPP). Layouts whose unit is at most the batch come first (the batch is the law's or
/// the user's, not the cluster's); only when none of them fits does the search take the
/// fitting layouts of the smallest raised batch, fastest first, and say so (batch_raised).
std::expected<LayoutSearchResult, ConstraintViolation> search_layouts(
    const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
    const LayoutSearchOptions& options);

}  // namespace moeplan
