#pragma once
/// The settings of a Megatron-LM run that the step and memory models use, read from its launch
/// script or arguments file as Megatron spells them (megatron/training/arguments.py): the
/// parallel layout, micro and global batch, sequence length, recompute and precision.
///
/// The text is split as a shell would split a command (comments from an unquoted #, a
/// backslash before the line end joins lines, single and double quotes group words); a quoted
/// value holding flags (GPT_ARGS="--tensor-model-parallel-size 2 ...") is read where it is
/// set, and $NAME / ${NAME} take a NAME=VALUE set earlier in the file (nothing else is expanded). Flags are `--name value` or `--name=value`; a flag followed by another
/// flag or by nothing is a switch. Words before the first flag (torchrun, the script) are
/// skipped. A flag moeplan uses with a value it cannot read (not a positive integer, an unknown
/// choice, an unexpanded $VAR) is an InputError naming the file, line and flag, and so is text
/// that is not a text file (a NUL byte, bytes that are not UTF-8). Time and memory are linear
/// in the file's size, and the notes stay few: one per flag moeplan reads, however often it is
/// given.
#include <expected>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/base/errors.hpp"
#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/layout_search.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

/// Megatron-LM's defaults where a launch gives no --rotary-base or --norm-epsilon (d98e8a64:
/// arguments.py's --rotary-base, type=int, default 10000; TransformerConfig.layernorm_epsilon,
/// 1e-5): what a script without them trains, and what an export that writes neither leaves.
constexpr double k_megatron_rotary_base = 10000;
constexpr double k_megatron_norm_epsilon = 1e-5;

/// One of the file's model-size flags (--num-layers, --hidden-size, ...; the last one given).
struct MegatronModelFlag {
  std::string flag;  ///< "--hidden-size"
  int value = 0;
  int line = 0;
};

struct MegatronArgs {
  GivenLayout layout;                     ///< TP, PP, VPP, EP, ETP, CP, micro-batch, recompute
  std::optional<Precision> precision;     ///< --fp8-format: fp8; --bf16: bf16
  bool fp8_param_gather = false;          ///< --fp8-param-gather
  bool grad_reduce_in_bf16 = false;       ///< --grad-reduce-in-bf16 (wins over --accumulate-allreduce-grads-in-fp32)
  /// --use-precision-aware-optimizer with --exp-avg-dtype bf16 and --exp-avg-sq-dtype bf16.
  bool bf16_moments = false;
  bool tp_comm_overlap = false;           ///< --tp-comm-overlap
  bool use_megatron_fsdp = false;         ///< --use-megatron-fsdp
  /// --data-parallel-sharding-strategy as written (Megatron's no_shard, optim, optim_grads,
  /// optim_grads_params); Megatron reads it only with --use-megatron-fsdp.
  std::optional<std::string> dp_sharding;
  int dp_sharding_line = 0;
  /// --overlap-grad-reduce and --overlap-param-gather: Megatron-LM overlaps the data-parallel
  /// reduce-scatter and all-gather only when the script asks (both default off).
  bool overlap_grad_reduce = false;
  bool overlap_param_gather = false;
  bool no_p2p_overlap = false;            ///< --no-overlap-p2p-communication
  /// --cuda-graph-impl (or the deprecated --enable-cuda-graph: local, --external-cuda-graph:
  /// transformer_engine) and --cuda-graph-scope / --cuda-graph-modules, as written (checked
  /// with the command line's flags).
  std::optional<std::string> cuda_graph_impl;
  std::vector<std::string> cuda_graph_scope;
  std::optional<int> mtp_layers;          ///< --mtp-num-layers
  std::optional<long long> global_batch;  ///< --global-batch-size, sequences
  /// The run's length: --train-samples (sequences) or --train-iters (steps of the global
  /// batch); Megatron-LM takes one of the two (arguments.py: "expected sample-based training").
  std::optional<long long> train_samples, train_iters;
  int train_length_line = 0;
  /// --rampup-batch-size START INCREMENT SAMPLES: the global batch from START sequences up by
  /// INCREMENT, in equal steps, over the first SAMPLES sequences (Megatron-LM's
  /// num_microbatches_calculator.py, RampupBatchsizeNumMicroBatchesCalculator).
  struct Rampup {
    long long start = 0, increment = 0, samples = 0;
    int line = 0;
  };
  std::optional<Rampup> rampup;
  std::optional<long long> save_interval;  ///< --save-interval, steps between checkpoint saves
  bool async_save = false;                 ///< --async-save
  /// --eval-interval (steps between evaluations) and --eval-iters (batches one evaluation runs;
  /// Megatron-LM's default 100 when only the interval is given).
  std::optional<long long> eval_interval, eval_iters;
  std::optional<int> seq_length;          ///< --seq-length, tokens
  /// The all-to-all: true with --moe-flex-dispatcher-backend deepep (Megatron-Core 0.20) or its
  /// deprecated --moe-enable-deepep (the flex dispatcher), false with another backend or another
  /// --moe-token-dispatcher-type alone.
  std::optional<bool> deepep;
  /// --moe-flex-dispatcher-num-sms (Megatron-Core 0.20), or its deprecated
  /// --moe-deepep-num-sms: the SMs DeepEP's kernels hold.
  std::optional<int> dispatcher_num_sms;
  /// --moe-router-force-load-balancing: a benchmark's forced balance, routing load 1.
  bool force_load_balancing = false;
  /// Flags it does not use, each once, in file order ("--lr", "--swiglu", ...).
  std::vector<std::string> unused;
  /// The model-size flags the file gives, in order of first appearance, each with its last
  /// value (argparse's): what megatron_model_mismatch compares with the scored model.
  std::vector<MegatronModelFlag> model_flags;
  /// --rotary-percent and its line: the fraction of each head RoPE rotates, compared with the
  /// model's partial_rotary_factor (Megatron's default, 1, when absent: not judged).
  std::optional<double> rotary_percent;
  int rotary_percent_line = 0;
  bool group_query_attention = false;   ///< --group-query-attention (--num-query-groups applies)
  bool multi_latent_attention = false;  ///< --multi-latent-attention
  std::optional<int> num_layers;  ///< --num-layers, to compare with the model's L
  /// --num-layers-per-virtual-pipeline-stage and its line: VPP is L / (PP · it), computed
  /// again when the command line's --pp replaces the file's.
  std::optional<int> layers_per_virtual_stage;
  int layers_per_virtual_stage_line = 0;
  /// A --pipeline-model-parallel-layout (layout.pipeline_layout): its stages give VPP.
  bool custom_pipeline_layout = false;
  bool sequence_parallel = false;      ///< --sequence-parallel
  bool distributed_optimizer = false;  ///< --use-distributed-optimizer
  /// How some flags were read, for stderr ("--fp16: timed at the bf16 rates").
  std::vector<std::string> notes;
  /// --attention-output-gate's line (0: absent), --rotary-base and --norm-epsilon with their
  /// lines: compared with the scored model (megatron_model_mismatch), as --rotary-percent is.
  int attention_output_gate_line = 0;
  std::optional<long long> rotary_base;
  int rotary_base_line = 0;
  std::optional<double> norm_epsilon;
  int norm_epsilon_line = 0;
};

/// Megatron's VPP from --num-layers-per-virtual-pipeline-stage: L / (PP · layers per virtual
/// stage), or why there is none ("6 layers per virtual stage x PP 5 does not divide --num-layers
/// 48"); `pp_from` follows PP in that reason (" (--pp)" when the command line gave it).
std::expected<int, std::string> virtual_stages(int num_layers, int pp, int layers_per_virtual_stage,
                                               std::string_view pp_from = "");

/// The tokens the file's run trains: --train-samples × S, or --train-iters × the global batch
/// (`batch_tokens` when the command line sets it, else --global-batch-size × S); nullopt when the
/// file gives no run length, or iterations without a batch.
std::optional<double> megatron_run_tokens(const MegatronArgs& args, int seq_len, std::optional<double> batch_tokens);

/// Reads `text` (`source` names it in errors). VPP comes from --num-virtual-stages-per-pipeline-rank,
/// or from --num-layers-per-virtual-pipeline-stage with --num-layers and
/// --pipeline-model-parallel-size (VPP = L / (PP · layers per virtual stage)).
std::expected<MegatronArgs, InputError> read_megatron_args(std::string_view text, const std::string& source);

/// The model-size flags Megatron-LM builds a model from and that moeplan compares with the
/// model it scores (--num-layers, --hidden-size, --ffn-hidden-size, --num-attention-heads,
/// --num-query-groups, --kv-channels, --num-experts, --moe-router-topk, --moe-ffn-hidden-size,
/// --moe-shared-expert-intermediate-size); not --vocab-size (Megatron pads it) nor --seq-length.
bool is_megatron_model_flag(std::string_view flag);

/// A layout dimension as moeplan's flag and Megatron-LM's name it, and where it lands in a
/// GivenLayout: the one table the launch-script reader and its error messages share.
struct MegatronLayoutFlag {
  const char* moeplan;   ///< "--tp"
  const char* megatron;  ///< "--tensor-model-parallel-size"
  std::optional<int> GivenLayout::* value;
};
std::span<const MegatronLayoutFlag> megatron_layout_flags();

/// The first of the file's model-size flags that builds another model than `m` (a launch
/// script for another model): an InputError naming `source`, the flag's line, the flag and
/// both values ("run.sh:12: --num-layers: 24 but the scored model has 48"); nullopt when every
/// flag that applies to `m` agrees. A flag that does not apply is skipped, not judged:
/// --kv-channels beside MLA, --num-query-groups without --group-query-attention, the MoE flags
/// of a dense model (but --num-experts, which would make it an MoE).
std::optional<InputError> megatron_model_mismatch(const MegatronArgs& args, const ModelConfig& m,
                                                  const std::string& source);

}  // namespace moeplan
