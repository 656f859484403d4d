#pragma once
/// Writing a model config out for other tools: the moeplan TOML that `score` reads
/// (schema moeplan-model/1, docs/model-schema.md) and Megatron-LM MoE arguments (the
/// HuggingFace config.json is hf_config.hpp). Pure functions: text in, text out; the CLI
/// decides where it goes (`--emit`, `-o`).
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/host_launches.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/laws/training_hyperparameters.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

/// The TOML `parse_model_config` reads, with every field of `m` (training, reference and
/// latent attention included when present), so parse(to_model_toml(m)) == m.
std::string to_model_toml(const ModelConfig& m);

/// Megatron-LM `pretrain_gpt.py` arguments: a comment block citing every value, then one
/// `--flag value` per line, each ending in " \" so the lines paste into a shell command.
/// With a layout (suggest/score --gpus), its parallelism flags too, and the layout's global
/// batch (the laws' batch rounded to whole micro-batches on every data-parallel rank).
/// What a cluster fit timed: the layout and what the step time assumed beyond it.
struct MegatronRun {
  ParallelLayout layout;
  Precision precision = Precision::bf16;  ///< fp8: --fp8-format hybrid
  bool deepep = true;                     ///< the all-to-all deduplicated per node: the flex dispatcher with DeepEP
  double a2a_overlap = 0;                 ///< of the all-to-all hidden behind compute (no Megatron flag: a header line)
  bool fp8_param_gather = false;          ///< fp8 weights only: --fp8-param-gather
  bool grad_reduce_in_bf16 = false;       ///< bf16 gradients: --grad-reduce-in-bf16
  bool bf16_moments = false;              ///< Adam's m, v in bf16: --use-precision-aware-optimizer --exp-avg(-sq)-dtype bf16
  bool tp_comm_overlap = false;           ///< TP collectives overlapped with GEMMs: --tp-comm-overlap (TP > 1)
  bool p2p_overlap = true;                ///< false: --no-overlap-p2p-communication (VPP > 1)
  /// MTP modules the run trained and timed (--mtp-num-layers; the fit's config), which can
  /// differ from the model's num_nextn_predict_layers.
  std::optional<int> mtp_layers{};
  CudaGraphs cuda_graphs{};  ///< --cuda-graph-impl and --cuda-graph-modules, as the host term counts them
  /// SwiGLU inputs kept in fp8 (TransformerConfig.activation_func_fp8_input_store): no Megatron-LM
  /// 0.20 flag sets it, so a run with it is refused by --emit megatron.
  bool activation_fp8_input_store = false;
  /// SMs DeepEP's kernels hold: --moe-flex-dispatcher-num-sms when not Megatron's unset 20.
  int a2a_comm_sms = 20;
  /// The data-parallel overlaps the step time counted: --overlap-grad-reduce, --overlap-param-gather.
  bool overlap_grad_reduce = true, overlap_param_gather = true;
  /// The whole training as timed: the batch ramp (--batch-ramp START:TOKENS; 0: none), written
  /// as --rampup-batch-size; --async-save; --save-interval and --eval-interval/--eval-iters
  /// where they were given in steps and batches.
  long long ramp_start_sequences = 0;
  double ramp_tokens = 0;
  bool async_save = false;
  std::optional<long long> save_interval_steps{}, eval_interval_steps{}, eval_iters{};
  /// Megatron-FSDP's strategy where --use-megatron-fsdp was given (optim too: the distributed
  /// optimizer's model, Megatron-FSDP's script), as the memory and step time counted it:
  /// written as --use-megatron-fsdp --data-parallel-sharding-strategy. nullopt: no FSDP.
  std::optional<DpSharding> megatron_fsdp{};
  /// How the save and evaluation flags came about where the plan timed them in other units: the
  /// checkpoint interval in minutes (given, or Young-Daly's) and an evaluation in minutes, each
  /// converted to steps and batches at the step time; no evaluation timed is written as
  /// --eval-iters 0 (Megatron-LM would otherwise evaluate 100 batches every 1000 steps).
  double save_interval_minutes = 0;  ///< > 0: save_interval_steps was converted from it
  double eval_minutes = 0;           ///< > 0: eval_iters was converted from it
  bool no_evaluation = false;
  /// --load-imbalance 1 given on an MoE: routing forced to balance, --moe-router-force-load-balancing.
  bool force_load_balancing = false;
};
std::string to_megatron_args(const ModelConfig& m, const TrainingHyperparameters& hyper,
                             const MegatronRun* run = nullptr);

/// Why to_megatron_args cannot write `m`'s sliding windows (layers windowed by different
/// sizes: Megatron-LM's --window-size is one size for every windowed layer), naming the sizes;
/// nullopt when it can (one window, with --window-attn-skip-freq for the full layers among them).
std::optional<std::string> megatron_window_problem(const ModelConfig& m);

/// Why to_megatron_args cannot write `m`'s positions (ALiBi, which Megatron-LM's
/// --position-embedding-type does not offer; a training context longer than a learned
/// position table), naming it; nullopt when it can.
std::optional<std::string> megatron_position_problem(const ModelConfig& m);

}  // namespace moeplan
