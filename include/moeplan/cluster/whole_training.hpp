#pragma once
/// A whole training's wall time beside its steady state (docs/cluster.md, "Whole training"):
/// the steady-state steps (step_time.hpp) plus what a team sees on top of them: interruptions
/// and the restarts and lost work they cost, checkpoint saves, evaluations. Context-extension
/// stages are not in it (give them as a run of their own).
#include <optional>
#include <string>

namespace moeplan {

struct WholeTrainingOptions {
  /// Unexpected interruptions per GPU-hour. Llama 3 (arXiv 2407.21783, Sec. 3.3.4): 419
  /// unexpected interruptions in 54 days of pre-training on 16,384 H100, 21.2M GPU-hours: one
  /// per 50,700 GPU-hours (planned ones, 47 there, are the team's to add).
  double interruptions_per_gpu_hour = 419.0 / (16384.0 * 54.0 * 24.0);
  /// Minutes from an interruption to training again: detection, rescheduling, process and
  /// communicator start, checkpoint load. An engineering figure: MegaScale (NSDI'24) reports
  /// "tens of minutes"; Llama 3's "> 90 %" effective training time over its 466 interruptions
  /// bounds restart and lost work together at 16.7 minutes each (0.1 × 54 days / 466).
  double restart_minutes = 10.0;
  /// Minutes of training between checkpoint saves; unset: Young–Daly, sqrt(2 × blocking save
  /// × MTBF) (Young 1974; Daly 2006), which minimises saves plus lost work.
  std::optional<double> checkpoint_interval_minutes;
  /// The same in steps (Megatron-LM's --save-interval): the caller, which knows the step,
  /// turns it into minutes (cluster_fit.cpp).
  std::optional<long long> checkpoint_interval_steps;
  /// GB/s one GPU writes its shard of a checkpoint at. Measured: NVIDIA-NeMo/Automodel PR 635,
  /// Llama 3 8B with its optimizer state (14 bytes a parameter, 112 GB) saved synchronously by
  /// 8 H100 in 27.34 s: 0.51 GB/s per GPU.
  double checkpoint_write_gb_per_s = 112.4 / 27.34 / 8.0;
  /// Asynchronous saves (Megatron's --async-save): training blocks only while the shard is
  /// copied to host memory, then the write runs in the background; a save that comes before
  /// the previous write ends waits for it (Megatron's async save finalizes the previous one
  /// first).
  bool async_checkpoint = false;
  /// GB/s one GPU copies its shard to host memory at, the blocking part of an asynchronous
  /// save. Measured: the same PR's asynchronous save blocked 0.54 s for the 112.4 GB of 8 H100,
  /// 14.05 GB a GPU: 26.0 GB/s (a PCIe Gen5 x16 link's order; the storage write does not enter it).
  double host_copy_gb_per_s = 112.4 / 8.0 / 0.54;
  /// An evaluation every `eval_interval_steps` steps taking `eval_minutes` (0: none).
  long long eval_interval_steps = 0;
  double eval_minutes = 0;
  /// Batches one evaluation runs (Megatron-LM's --eval-iters), in place of eval_minutes: each a
  /// forward pass of the global batch, a third of a training step (2 of the 6 FLOPs a parameter
  /// and token; an estimate: the forward's share of communication is taken alike).
  std::optional<long long> eval_iters;
};

/// Two losses within this share of each other are both named the costliest (an engineering
/// threshold: Young–Daly's interval makes saves and lost work about equal by construction).
inline constexpr double k_costliest_tie = 0.05;

struct WholeTraining {
  double steady_seconds = 0;        ///< the steps alone (TrainingTime::seconds)
  double wall_seconds = 0;          ///< what the team sees
  double wall_days = 0;
  double wall_gpu_hours = 0;
  double goodput = 1;               ///< steady / wall
  double interruptions = 0;         ///< expected unexpected interruptions over the wall time
  double restart_seconds = 0;       ///< interruptions × restart
  double lost_work_seconds = 0;     ///< interruptions × half a checkpoint interval
  double checkpoint_seconds = 0;    ///< saves × their blocking time
  double eval_seconds = 0;
  double checkpoint_bytes_per_gpu = 0;
  double checkpoint_save_seconds = 0;      ///< blocking seconds of one save (async: copy and any wait)
  double checkpoint_write_seconds = 0;     ///< the shard over --checkpoint-write-gbps (async: in the background)
  double checkpoint_interval_seconds = 0;  ///< of training between saves
  bool interval_from_young_daly = true;
  /// How the interval was bounded, "" when it was not: a given interval under one step is one
  /// step (Megatron saves at step boundaries: --save-interval counts steps); an asynchronous
  /// save sooner than the previous write ends waits for it.
  std::string interval_note;
  bool interval_in_steps = false;  ///< given as --save-interval (steps at the step time)
  double evaluations = 0;           ///< floor(steps / --eval-interval)
  /// The loss that costs most ("restarts", "lost work", ...); two within k_costliest_tie of
  /// each other both, the larger first ("lost work, checkpoint saves").
  std::string costliest;
  /// false: the cluster fails faster than it makes progress (λ (restart + lost) ≥ 1); then
  /// only the checkpoint's size, save time and interval are set.
  bool makes_progress = true;
};

/// The wall time of `steady_seconds` of `steps` steps (the full batch's of `step_seconds` each;
/// a batch ramp's are more and shorter) on `gpus` GPUs, each of which writes
/// `checkpoint_bytes_per_gpu` a save. With failure rate λ (per second, all GPUs) and checkpoint
/// interval τ (at least one step): W = (T + saves × save + evals) / (1 − λ (restart + min(τ, T)/2)),
/// saves = floor(T/τ), evals = floor(steps / eval interval); makes_progress false when
/// λ (restart + min(τ, T)/2) ≥ 1.
WholeTraining whole_training(double steady_seconds, double step_seconds, double steps, int gpus,
                             double checkpoint_bytes_per_gpu, const WholeTrainingOptions& options);

}  // namespace moeplan
