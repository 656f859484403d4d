// The cluster flags and the report sections of a fit on a cluster (docs/cluster.md).
#include "cluster_flags.hpp"

#include <cmath>
#include <utility>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common_flags.hpp"
#include "moeplan/base/bounded_read.hpp"
#include "moeplan/base/number_parse.hpp"
#include "moeplan/calibration/step_parameters.hpp"
#include "moeplan/calibration/step_profile.hpp"
#include "moeplan/cluster/attention_rate.hpp"
#include "moeplan/cluster/gemm_table.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/cluster/validation_spread.hpp"
#include "moeplan/io/megatron_args.hpp"

namespace moeplan::cli {

namespace {

// What the wall-days band is (issue 48's review: it is the first predictions' spread, not the
// spread of the binary that prints it): "x 0.47: the fastest of 28 published whole trainings
// against moeplan's first prediction of each (bench/validation/trainings_first_predictions.md
// (2026-11-28); docs/validation.md)", the file and date the preset's source names.
std::string wall_band_low_words(const ValidationSpread& v) {
  return fmt::format("x {:g}: the fastest of {} published whole trainings against moeplan's first prediction of "
                     "each ({}; docs/validation.md)",
                     v.speed_ratio_min, v.runs, v.source.substr(0, v.source.find(':')));
}

// The days of a run as the validation table's published runs spread them (issue 34): the
// predicted days times the least and the largest predicted/published speed ratio; with a
// --step-profile, its leave-one-out spread (docs/calibration.md).
void add_validation_range(std::vector<Field>& fields, double days, double gpu_hours, const ValidationSpread& v) {
  if (v.kind == ValidationSpread::Kind::whole_training) {  // wall days: the whole trainings' spread
    fields.push_back({"days_low", "", "days", v.days_low(days), wall_band_low_words(v)});
    fields.push_back({"days_high", "", "days", v.days_high(days), fmt::format("x {:g}: the slowest of them", v.speed_ratio_max)});
    fields.push_back({"gpu_hours_low", "", "GPU-hours", v.days_low(gpu_hours), "GPU-hours, x the same", false,
                      Summary::detail});
    fields.push_back({"gpu_hours_high", "", "GPU-hours", v.days_high(gpu_hours), "GPU-hours, x the same", false,
                      Summary::detail});
    return;
  }
  const bool profile = v.kind == ValidationSpread::Kind::profile;
  fields.push_back({"days_low", "", "days", v.days_low(days),
                    profile ? fmt::format("x {:g}: the fastest of the profile's runs against its fit ({})",
                                          v.speed_ratio_min, v.source)
                            : fmt::format("x {:g}: the fastest the validation runs were against the model (docs/validation.md)",
                                          v.speed_ratio_min)});
  fields.push_back({"days_high", "", "days", v.days_high(days),
                    profile ? fmt::format("x {:g}: the slowest of its {} runs", v.speed_ratio_max, v.runs)
                            : fmt::format("x {:g}: the slowest of its {} published runs", v.speed_ratio_max, v.runs)});
  fields.push_back({"gpu_hours_low", "", "GPU-hours", v.days_low(gpu_hours), "GPU-hours, x the same", false,
                    Summary::detail});
  fields.push_back({"gpu_hours_high", "", "GPU-hours", v.days_high(gpu_hours), "GPU-hours, x the same", false,
                    Summary::detail});
}

}  // namespace

namespace {
const std::string k_whole_training_group = "Whole training (docs/cluster.md)";
}  // namespace

std::string ClusterFlags::first_given_flag() const {
  for (const CLI::Option* o : need_cluster) {
    if (o->count() > 0) return o->get_name();
  }
  return "";
}

namespace {

/// The range of a flag that sets a step-model parameter: the parameter's physical bounds
/// (calibration/step_parameters.hpp), so a flag and a profile accept the same values.
CLI::Validator parameter_range(std::string_view name) {
  const calibration::StepParameter* p = calibration::find_step_parameter(name);
  if (!p) throw std::logic_error("no step parameter " + std::string(name));
  return number_in(p->lower, p->upper);
}

}  // namespace

bool ClusterFlags::flag_given(std::string_view name) const {
  for (const CLI::Option* o : options) {
    if (o->get_name() == name) return o->count() > 0;
  }
  return false;
}


namespace {

/// The step model's efficiency flags and --step-profile (docs/calibration.md), in their place
/// among the cluster flags.
void add_efficiency_flags(CLI::App& sub, ClusterFlags& f, const std::string& group) {
  sub.add_option("--gemm-efficiency", f.gemm_efficiency,
                 "Achieved/peak bf16 GEMM rate the step time assumes (a stated figure, not a paper's)")
      ->check(parameter_range("gemm_efficiency"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--fp8-gemm-efficiency", f.fp8_gemm_efficiency,
                 "Achieved/peak fp8 GEMM rate of an fp8 run's linear layers [--gemm-efficiency's]")
      ->check(parameter_range("fp8_gemm_efficiency"))
      ->group(group);
  sub.add_option("--attention-efficiency", f.attention_efficiency,
                 "The attention core's rate over its measured kernel's (cuDNN on Hopper, "
                 "presets/hardware/attention_rates.toml), or over the bf16 GEMM ceiling where there is none")
      ->check(parameter_range("attention_efficiency"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--hbm-efficiency", f.hbm_efficiency,
                 "Achieved/datasheet HBM bandwidth of the memory-bound terms (training and serving; measured "
                 "on an H200, docs/step-model.md)")
      ->check(parameter_range("hbm_efficiency"))
      ->default_str(fmt::format("{:g}", k_hbm_efficiency))
      ->group(group);
  sub.add_option("--memory-bound-scale", f.memory_bound_scale,
                 "The memory-bound kernels' time over the fused count at --hbm-efficiency, one scale for all of "
                 "them (1: the count as stated for Megatron-Core's fused kernels; an unfused stack moves more, "
                 "docs/measurements/h200-2026-11-29)")
      ->check(parameter_range("memory_bound_scale"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--a2a-efficiency-intra", f.a2a_efficiency_intra,
                 "Achieved/nominal NVLink bandwidth of the expert all-to-all within a node (DeepEP on H800: 153/200)")
      ->check(parameter_range("a2a_efficiency_intra"))
      ->default_str(fmt::format("{:.4g}", f.a2a_efficiency_intra))
      ->group(group);
  sub.add_option("--a2a-efficiency-inter", f.a2a_efficiency_inter,
                 "Achieved/nominal NIC bandwidth of the expert all-to-all across nodes (DeepEP on H800: 43/50)")
      ->check(parameter_range("a2a_efficiency_inter"))
      ->default_str(fmt::format("{:.4g}", f.a2a_efficiency_inter))
      ->group(group);
  sub.add_option("--step-profile", f.step_profile,
                 "A step profile fitted by 'moeplan fit steps.csv --out FILE' (docs/calibration.md): its "
                 "efficiencies replace the defaults (a flag given here wins) and its leave-one-out spread "
                 "is the band of every time figure")
      ->check(not_empty_path())
      ->group(group);
}

const std::string k_layout_group = "Layout (any subset; the search fills the rest; docs/cluster.md)";

/// --gpus, --gpu, --gpu-catalog, --gpus-per-node: the cluster itself.
void add_cluster_kind_flags(CLI::App& sub, ClusterFlags& f, const std::string& group) {
  sub.add_option("--gpus", f.gpus,
                 "Fit the plan onto this many GPUs (with --gpu): memory per GPU, the fastest "
                 "parallel layout that fits, step time, MFU and days")
      ->transform(decimal_whole())->check(CLI::Range(1, 1 << 20))
      ->group(group);
  sub.add_option("--gpu", f.gpu,
                 "GPU kind from the catalog, by id or alias (h100, h800, b200, mi300x, ...: "
                 "'moeplan presets show gpus' lists every kind; an unknown one is named with them)")
      ->each([&f](const std::string&) { f.gpu_given = true; })
      ->group(group);
  sub.add_option("--gpu-catalog", f.catalog_file,
                 "TOML file of more GPUs in the schema of presets/hardware/gpus.toml (same id: "
                 "replaces the embedded entry)")
      ->check(not_empty_path())
      ->group(group);
  sub.add_option("--gpus-per-node", f.gpus_per_node,
                 "GPUs sharing NVLink/xGMI [the GPU's own, 8 for most; 72 for gb200]")
      ->transform(decimal_whole())->check(CLI::Range(1, k_max_gpus_per_node))
      ->group(group);
}

/// --gemm-table and the step model's rate, overlap, memory and imbalance flags.
void add_rate_flags(CLI::App& sub, ClusterFlags& f, const std::string& group) {
  sub.add_option("--gemm-table", f.gemm_table,
                 "CSV of measured GEMM rates by shape (gpu,precision,groups,m,n,k,flops_per_s; "
                 "'moeplan bench --gemm-table-out' writes one on a GPU): the step time's GEMMs at "
                 "its rates for this GPU and precision, interpolated in log space")
      ->check(not_empty_path())
      ->group(group);
  sub.add_option("--network-efficiency", f.network_efficiency,
                 "Achieved/nominal bandwidth of collectives")
      ->check(parameter_range("network_efficiency"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--dp-overlap", f.dp_overlap,
                 "Fraction of the data-parallel gradient reduction hidden behind the backward pass")
      ->check(parameter_range("dp_overlap"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--framework-gib", f.framework_gib,
                 "Memory per GPU for what no formula counts (CUDA context, NCCL, fragmentation)")
      ->check(number_in(0.0, 1024.0))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--load-imbalance", f.load_imbalance,
                 "Busiest expert rank's routed tokens over the balanced share (>= 1): routing "
                 "imbalance in memory and step time; the default is the median published dropless "
                 "slowdown (docs/step-model.md); 1 for a forced-balance benchmark (also what a --megatron-args "
                 "file's --moe-router-force-load-balancing gives); EP 1 is always 1 (one rank holds every expert)")
      ->check(parameter_range("load_imbalance"))
      ->default_str(fmt::format("{:g}", k_default_load_imbalance))
      ->group(group);
}

/// The user's own layout (any subset; the search fills the rest) and recompute.
void add_layout_flags(CLI::App& sub, ClusterFlags& f) {
  const auto layout_option = [&](const char* name, std::optional<int>& value, const char* what) {
    sub.add_option(name, value, what)->transform(decimal_whole())->check(CLI::Range(1, 1 << 20))->group(k_layout_group);
  };
  layout_option("--tp", f.tp, "Tensor parallel size (with sequence parallel); must divide the query and KV heads");
  layout_option("--pp", f.pp, "Pipeline stages");
  layout_option("--vpp", f.vpp, "Virtual stages per pipeline rank (interleaved 1F1B)");
  sub.add_option("--pipeline-model-parallel-layout", f.pipeline_layout,
                 "Megatron-LM's layout string over the PP x VPP virtual stages, e.g. \"Et|(tt|)*30mL\" (E embedding, "
                 "t decoder layer, m MTP layer, L loss, | between stages, x*n and (...)*n repeat): its split and VPP "
                 "(stages / PP); needs --pp; middle ranks must hold the same number of layers")
      ->group(k_layout_group);
  sub.add_option("--pipeline-schedule", f.pipeline_schedule,
                 "1f1b (VPP 1), interleaved (needs --vpp > 1) or dualpipe (DeepSeek-V3's DualPipe: PP even, rank r "
                 "also holds stage PP-1-r, 2x parameters, PP+1 micro-batches of activations, bubble "
                 "(PP/2-1)(F&B+B-3W), all-to-all and pipeline sends hidden: --a2a-overlap 1 unless given); unset: "
                 "1F1B, interleaved with --vpp > 1")
      ->check(CLI::IsMember({"1f1b", "interleaved", "dualpipe"}))
      ->group(k_layout_group);
  layout_option("--ep", f.ep, "Expert parallel size; must divide the routed experts");
  layout_option("--etp", f.etp, "Expert tensor parallel size (1 or TP)");
  layout_option("--cp", f.cp, "Context parallel size");
  layout_option("--micro-batch-size", f.micro_batch_size, "Sequences per micro-batch (Megatron's --micro-batch-size)");
  layout_option("--decoder-first-pipeline-num-layers", f.first_stage_layers,
                "Layers of an uneven pipeline's first stage, as Megatron-LM's flag (the other stages share the rest "
                "evenly; unset: the search's split, lightening the last stage by the head and any MTP modules)");
  sub.add_flag("--account-for-embedding-in-pipeline-split", f.embedding_in_split,
               "Count the embedding as a layer of the first pipeline stage (Megatron-LM's flag): L + 1 (+ 1 with the "
               "loss) split over PP x VPP virtual stages, the first one a layer short")
      ->group(k_layout_group);
  sub.add_flag("--account-for-loss-in-pipeline-split", f.loss_in_split,
               "Count the loss as a layer of the last pipeline stage (Megatron-LM's flag), the last virtual stage a "
               "layer short")
      ->group(k_layout_group);
  layout_option("--decoder-last-pipeline-num-layers", f.last_stage_layers,
                "Layers of an uneven pipeline's last stage, which also runs the output head and any MTP modules");
  sub.add_option("--recompute", f.recompute, "Activation recompute: none, selective or full")
      ->check(CLI::IsMember({"none", "selective", "full"}))
      ->group(k_layout_group);
  sub.add_option("--recompute-modules", f.recompute_modules,
                 "What a selective recompute re-runs, comma-separated or as separate words (on score: after the configs), "
                 "as Megatron-LM's --recompute-modules names them: core_attn (the default), layernorm, moe_act, mla_up_proj, mlp, shared_experts; "
                 "implies --recompute selective")
      ->delimiter(',')
      ->group(k_layout_group);
}

/// The names --precision accepts: every precision described (precision_spec.hpp).
std::vector<std::string> precision_names() {
  std::vector<std::string> names;
  for (Precision p : k_precisions) names.emplace_back(to_string(p));
  return names;
}

/// --precision and what an fp8 or a lighter optimizer run keeps, the overlaps and MTP.
void add_precision_flags(CLI::App& sub, ClusterFlags& f, const std::string& group) {
  sub.add_option("--precision", f.precision,
                 "GEMM precision of the linear layers: bf16 (default) or fp8 (Transformer Engine's "
                 "recipe: forward, data- and weight-gradient GEMMs in fp8; docs/step-model.md)")
      ->check(CLI::IsMember(precision_names()))
      ->group(group);
  sub.add_flag("--fp8-param-gather", f.fp8_param_gather,
               "With --precision fp8: the weights kept in fp8 only, no bf16 copy (Megatron-LM's "
               "--fp8-param-gather, set by Megatron-Bridge's delayed- and current-scaling fp8 recipes, not "
               "its blockwise one): 1 + 1 bytes per linear-layer "
               "weight (fp8 and its transpose) instead of 2 + 2, and fp8 weights all-gathered")
      ->group(group);
  sub.add_flag("--bf16-moments", f.bf16_moments,
               "Adam's first and second moments in bf16, 2 bytes each, the fp32 master kept (Megatron-LM's "
               "--use-precision-aware-optimizer --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16; DeepSeek-V3 Sec. "
               "3.3.3): 8 bytes of optimizer state a parameter instead of 12")
      ->group(group);
  sub.add_flag("--use-megatron-fsdp", f.use_megatron_fsdp,
               "Megatron-FSDP (Megatron-LM's flag): data parallelism shards what "
               "--data-parallel-sharding-strategy names, by default optim_grads_params (ZeRO-3: weights, "
               "gradients and optimizer states over DP, experts over EDP; each micro-batch gathers the weights for "
               "its forward and backward and reduce-scatters its gradients, docs/cluster.md)")
      ->group(group);
  sub.add_option("--data-parallel-sharding-strategy", f.dp_sharding,
                 "With --use-megatron-fsdp, Megatron-LM's strategy: optim (the optimizer states, as the distributed "
                 "optimizer), optim_grads (and the gradients, reduce-scattered every micro-batch) or "
                 "optim_grads_params (and the weights: FSDP) [optim_grads_params]; no_shard is not modelled")
      ->group(group);
  sub.add_flag("--activation-func-fp8-input-store", f.activation_fp8_input_store,
               "The SwiGLU's input (gate and up) kept for the backward in fp8, 1 byte an element instead of 2, "
               "cast each way at HBM bandwidth (Megatron-Core's TransformerConfig.activation_func_fp8_input_store, "
               "which has no command-line flag in Megatron-LM 0.20; DeepSeek-V3 Sec. 3.3.3 caches these inputs in "
               "FP8). Gated FFNs only, taken for SwiGLU (moeplan does not tell a GeGLU from a SwiGLU; Megatron "
               "stores SwiGLU inputs only)")
      ->group(group);
  sub.add_flag("--grad-reduce-in-bf16", f.grad_reduce_in_bf16,
               "Gradients accumulated and reduced in bf16, 2 bytes each instead of fp32's 4 (Megatron-LM's "
               "--grad-reduce-in-bf16; Megatron-Bridge's performance recipes set grad_reduce_in_fp32 = False): "
               "the gradient memory and the data-parallel reduce-scatter halve")
      ->group(group);
  sub.add_flag("--tp-comm-overlap", f.tp_comm_overlap,
               "With TP > 1: Transformer Engine overlaps each linear layer's TP all-gather and reduce-scatter "
               "with its GEMMs (Megatron-LM's --tp-comm-overlap, set by Megatron-Bridge's Llama 3 recipes): only "
               "what outlasts those GEMMs is exposed; the MoE dispatcher's gather/scatter over ETP > 1 stays exposed")
      ->group(group);
  sub.add_flag("--no-overlap-p2p-communication", f.no_p2p_overlap,
               "With VPP > 1: the interleaved schedule's point-to-point sends on the critical path, as Megatron-LM's "
               "flag of that name; by default (Megatron's) they overlap the chunks' compute, all but the fill and drain")
      ->group(group);
  sub.add_option("--mtp-num-layers", f.mtp_num_layers,
                 "Multi-token-prediction modules trained beside the model, timed and counted on the last pipeline "
                 "stage (Megatron-LM's flag; default: the model's num_nextn_predict_layers; 0: none)")
      ->transform(decimal_whole())->check(CLI::Range(0, 64))
      ->group(group);
}

/// The host's calls and what CUDA graphs take off them (the step's "host" term).
void add_host_flags(CLI::App& sub, ClusterFlags& f, const std::string& group) {
  sub.add_option("--cuda-graph-impl", f.cuda_graph_impl,
                 "CUDA graphs as Megatron-LM's flag (Megatron-Core 0.20): none (default), local or "
                 "transformer_engine (per-layer graphs over --cuda-graph-scope), full_iteration (the whole "
                 "forward-backward; dense models: a dropless MoE layer cannot be captured): a captured region costs "
                 "the host one replay instead of a call per kernel")
      ->check(CLI::IsMember(cuda_graph_impl_names()))
      ->group(group);
  sub.add_option("--cuda-graph-scope", f.cuda_graph_scope,
                 "What per-layer graphs capture, Megatron's names, comma-separated or as separate words: attn, mlp "
                 "(dense layers), moe_router (router and shared experts), moe_preprocess (with moe_router); none "
                 "given: the whole layer (dense models: a dropless MoE layer cannot be captured whole); full_iteration: as "
                 "--cuda-graph-impl full_iteration (Megatron's older spelling, with local)")
      ->delimiter(',')
      ->group(group);
  // Megatron-Core 0.20 renamed the flag and refuses the two together (arguments.py: "--cuda-graph-scope
  // and --cuda-graph-modules cannot be used together"); cluster_from_flags does too.
  sub.add_option("--cuda-graph-modules", f.cuda_graph_modules,
                 "Megatron-Core 0.20's name of --cuda-graph-scope: the same setting (give one of the two)")
      ->delimiter(',')
      ->group(group);
  sub.add_option("--host-op-us", f.host_op_us,
                 "Host microseconds of one Python call that launches a kernel [19.71: measured, the least "
                 "single-call GEMM time of this project's H200 sweep, docs/measurements/h200-2026-11-26; a GPU "
                 "whose catalog entry gives host_python_op_us takes that one: GB200 37.08]")
      ->check(number_in(0.0, 1e4))
      ->group(group);
  sub.add_option("--host-launch-us", f.host_launch_us,
                 "Host microseconds of each further kernel a call issues from C++ [5: published, 4-6 us a launch; "
                 "presets/hardware/host_launches.toml]; --host-op-us 0 --host-launch-us 0: no host term")
      ->check(number_in(0.0, 1e4))
      ->group(group);
}


/// Interruptions, restarts, checkpoints and evaluations of the whole training (docs/cluster.md).
void add_whole_training_flags(CLI::App& sub, ClusterFlags& f) {
  sub.add_option("--interruptions-per-gpu-hour", f.whole_training.interruptions_per_gpu_hour,
                 "Unexpected interruptions per GPU-hour (Llama 3: 419 in 54 days on 16,384 H100)")
      ->check(number_in(0.0, 1.0))
      ->capture_default_str()
      ->group(k_whole_training_group);
  sub.add_option("--restart-minutes", f.whole_training.restart_minutes,
                 "Minutes from an interruption to training again (an engineering figure)")
      ->check(number_in(0.0, 10080.0))
      ->capture_default_str()
      ->group(k_whole_training_group);
  CLI::Option* minutes = sub.add_option("--checkpoint-interval", f.checkpoint_interval_minutes,
                                        "Minutes of training between checkpoint saves, at least one step (Megatron "
                                        "saves between steps) [Young-Daly: sqrt(2 x save x MTBF)]")
                             ->check(number_in(0.01, 1e7))
                             ->group(k_whole_training_group);
  sub.add_option("--save-interval", f.whole_training.checkpoint_interval_steps,
                 "Steps between checkpoint saves (Megatron-LM's name), in place of --checkpoint-interval")
      ->transform(decimal_whole())->check(CLI::Range(1LL, 1LL << 50))
      ->excludes(minutes)
      ->group(k_whole_training_group);
  sub.add_option("--checkpoint-write-gbps", f.whole_training.checkpoint_write_gb_per_s,
                 "GB/s one GPU writes its checkpoint shard at (measured by NeMo Automodel PR 635)")
      ->check(number_in(0.001, 1e4))
      ->default_str(fmt::format("{:.3g}", f.whole_training.checkpoint_write_gb_per_s))
      ->group(k_whole_training_group);
  sub.add_flag("--async-checkpoint", f.whole_training.async_checkpoint,
               "Asynchronous saves (Megatron's --async-save): training blocks for the copy to host memory "
               "(26 GB/s, NeMo Automodel PR 635) and for a previous write not yet done")
      ->group(k_whole_training_group);
  sub.add_option("--eval-interval", f.whole_training.eval_interval_steps,
                 "An evaluation every this many steps of the run (with --eval-minutes)")
      ->transform(decimal_whole())->check(CLI::Range(1LL, 1LL << 50))
      ->group(k_whole_training_group);
  CLI::Option* eval_minutes = sub.add_option("--eval-minutes", f.whole_training.eval_minutes, "Minutes one evaluation takes")
                                  ->check(number_in(0.0, 1e6))
                                  ->group(k_whole_training_group);
  sub.add_option("--eval-iters", f.whole_training.eval_iters,
                 "Batches one evaluation runs (Megatron-LM's name), each a forward pass at a third of a training "
                 "step, in place of --eval-minutes")
      ->transform(decimal_whole())->check(CLI::Range(0LL, 1LL << 50))
      ->excludes(eval_minutes)
      ->group(k_whole_training_group);
}

}  // namespace

void add_cluster_flags(CLI::App& sub, ClusterFlags& f) {
  const std::size_t options_before = sub.get_options().size();
  const std::string group = "Cluster (docs/cluster.md)";
  // The order is --help's.
  add_cluster_kind_flags(sub, f, group);
  add_efficiency_flags(sub, f, group);
  add_rate_flags(sub, f, group);
  add_layout_flags(sub, f);
  add_precision_flags(sub, f, group);
  sub.add_option("--megatron-args", f.megatron_args,
                 "A Megatron-LM launch script or arguments file: its parallel, batch, sequence, "
                 "recompute and precision flags fill what the command line does not give; the "
                 "flags moeplan does not use are listed on stderr")
      ->check(not_empty_path())
      ->group(k_layout_group);
  sub.add_option("--a2a-overlap", f.a2a_overlap,
                 "Fraction of the expert all-to-all hidden behind computation (DualPipe: 1, "
                 "DeepSeek-V3 Sec. 3.2.1; Megatron's default schedule: 0)")
      ->check(parameter_range("a2a_overlap"))
      ->capture_default_str()
      ->group(group);
  sub.add_option("--a2a-dispatcher", f.a2a_dispatcher,
                 "Expert all-to-all: deepep (one copy per remote node, then NVLink forwarding; "
                 "Megatron's MoE recipes, DeepSeek-V3; the default) or alltoall (NCCL, one copy per expert)")
      ->check(CLI::IsMember({"deepep", "alltoall"}))
      ->group(group);
  sub.add_option("--moe-flex-dispatcher-num-sms", f.deepep_num_sms,
                 "SMs DeepEP's dispatch and combine kernels hold (Megatron-Core 0.20's flag; its unset value: 20, "
                 "DeepSeek-V3 Sec. 3.2.2): the all-to-all hidden behind compute slows that compute by this share "
                 "of the GPU's SMs [20]")
      ->transform(decimal_whole())->check(CLI::Range(1, 1024))
      ->group(group);
  add_host_flags(sub, f, group);
  add_whole_training_flags(sub, f);
  sub.add_option("--global-batch-tokens", f.global_batch_tokens,
                 "Tokens per optimizer step [the laws' batch at C: paper 002 Table 4 inside "
                 "its rows, paper 000 Eq. 5 outside]")
      ->check(number_in(1.0, 1e12))
      ->group(group);
  sub.add_option("--batch-ramp", f.batch_ramp,
                 "START:TOKENS: the global batch grows linearly from START sequences (below the run's) to the run's "
                 "over the first TOKENS tokens (cut at D), timed at those batches in the days and steps "
                 "(DeepSeek-V3: 3072:469e9)")
      ->group(group);
  // Every flag added here but the three that name the cluster needs one.
  const std::vector<CLI::Option*> all = sub.get_options();
  for (std::size_t i = options_before; i < all.size(); ++i) {
    const std::string& name = all[i]->get_name();
    f.options.push_back(all[i]);
    // --hbm-efficiency serves the inference node too (serving_from_flags checks it).
    if (name != "--gpus" && name != "--gpu" && name != "--gpu-catalog" && name != "--hbm-efficiency") {
      f.need_cluster.push_back(all[i]);
    }
  }
}

namespace {

/// What data parallelism shards: --use-megatron-fsdp with --data-parallel-sharding-strategy
/// (Megatron's default optim_grads_params), else the distributed optimizer's optim; why not.
std::expected<DpSharding, std::string> dp_sharding_from_flags(const ClusterFlags& f) {
  if (f.dp_sharding && !f.use_megatron_fsdp) {
    return std::unexpected("--data-parallel-sharding-strategy is Megatron-FSDP's: it needs --use-megatron-fsdp");
  }
  if (!f.use_megatron_fsdp) return DpSharding::optim;
  const std::string name = f.dp_sharding.value_or(to_string(DpSharding::optim_grads_params));
  if (const std::optional<DpSharding> sharding = dp_sharding_of(name)) return *sharding;
  return std::unexpected(fmt::format("--data-parallel-sharding-strategy: '{}' is not modelled; moeplan models optim, "
                                     "optim_grads and optim_grads_params (no_shard, plain replication, is not)",
                                     name));
}

/// Megatron-FSDP's flags on the search's memory and time options; why not, else "".
/// Megatron-FSDP keeps and reduces the gradients in the weights' dtype, bf16 (its
/// --megatron-fsdp-main-grads-dtype 'auto'; param_and_grad_buffer.py), whatever
/// --accumulate-allreduce-grads-in-fp32 says: 2 bytes, as --grad-reduce-in-bf16 counts them.
std::string apply_dp_sharding(const ClusterFlags& f, LayoutSearchOptions& search) {
  const std::expected<DpSharding, std::string> sharding = dp_sharding_from_flags(f);
  if (!sharding) return sharding.error();
  search.time.dp_sharding = *sharding;
  search.memory.dp_sharding = *sharding;
  if (f.use_megatron_fsdp) {
    search.time.grad_reduce_in_bf16 = true;
    search.memory.grad_reduce_in_bf16 = true;
  }
  return "";
}

/// The file a flag names, bounded as every config is (k_max_config_bytes); an error names the flag.
std::expected<std::string, InputError> read_flag_file(const std::string& path, const char* what, const char* flag) {
  auto text = read_bounded(path, k_max_config_bytes, what);
  if (!text) {
    InputError e = text.error();
    e.key = flag;
    return std::unexpected(e);
  }
  return text;
}

}  // namespace

std::expected<GpuCatalog, InputError> gpu_catalog_from_flag(const std::string& file) {
  if (file.empty()) return embedded_gpu_catalog();
  auto text = read_flag_file(file, "a GPU catalog", "--gpu-catalog");
  if (!text) return std::unexpected(text.error());
  return read_gpu_catalog(*text, file, embedded_gpu_catalog());
}

namespace {

/// The rates of a --gemm-table FILE for this GPU and precision: an InputError (exit 4) for a
/// bad file, no row of the GPU, or a rate no GPU runs at.
std::expected<std::shared_ptr<const MeasuredGemmRates>, ClusterFlagsError> measured_rates(const std::string& file,
                                                                                          const GpuSpec* gpu,
                                                                                          Precision precision) {
  auto text = read_flag_file(file, "a GEMM rate table", "--gemm-table");
  if (!text) return std::unexpected(ClusterFlagsError{true, "", text.error()});
  auto table = read_gemm_table(*text, file);
  if (!table) return std::unexpected(ClusterFlagsError{true, "", table.error()});
  auto rates = table->for_gpu(*gpu, precision);
  if (!rates) {
    return std::unexpected(ClusterFlagsError{
        true, "",
        InputError{file, 0, 0, "gpu",
                   fmt::format("no row measured on the {} in {} (gpu names the device, e.g. \"{}\")",
                               gpu->id, to_string(precision), gpu->name)}});
  }
  // A rate above the datasheet peak is a unit slip or another GPU's row, not a measurement.
  const double peak = dense_peak(*gpu, precision);
  for (const GemmTableRow& r : rates->rows) {
    // Below 1 GFLOP/s no GPU GEMM runs (an engineering floor, a millionth of any datasheet
    // peak): a unit slip, and a rate of 1e-300 would time a step at infinity.
    if (r.flops_per_s < 1e9) {
      return std::unexpected(ClusterFlagsError{
          true, "",
          InputError{file, r.line, 0, "flops_per_s",
                     fmt::format("{:.4g} FLOP/s is below 1 GFLOP/s, a millionth of any GPU's peak (check the unit)",
                                 r.flops_per_s)}});
    }
    if (r.flops_per_s > peak) {
      return std::unexpected(ClusterFlagsError{
          true, "",
          InputError{file, r.line, 0, "flops_per_s",
                     fmt::format("{:.4g} FLOP/s is above the {}'s dense {} peak, {:.4g} (datasheet)", r.flops_per_s,
                                 gpu->id, to_string(precision), peak)}});
    }
  }
  return rates;
}

/// --batch-ramp START:TOKENS, or why not.
std::expected<BatchRamp, std::string> batch_ramp_of(const std::string& text) {
  const auto colon = text.find(':');
  const auto start = colon == std::string::npos ? std::unexpected(std::string("no ':'"))
                                                : parse_positive_finite(text.substr(0, colon));
  const auto ramp_tokens = colon == std::string::npos ? std::unexpected(std::string("no ':'"))
                                                      : parse_positive_finite(text.substr(colon + 1));
  if (!start || !ramp_tokens || *start != std::floor(*start) || *start > 1e12 || *ramp_tokens > 1e18) {
    return std::unexpected(fmt::format("--batch-ramp {}: START:TOKENS, a whole number of sequences (1 to 1e12) and "
                                       "the tokens of the ramp (up to 1e18), e.g. 3072:469e9",
                                       text));
  }
  return BatchRamp{static_cast<long long>(*start), *ramp_tokens};
}

/// --cuda-graph-impl / --cuda-graph-scope and the host's seconds; "" or why not (Megatron-Core
/// 0.20's rules that need no model: transformer_config.py __post_init__).
std::string apply_cuda_graphs(const ClusterFlags& f, ClusterFitOptions& o) {
  StepTimeOptions& t = o.search.time;
  if (f.host_op_us) t.host_python_op_seconds = *f.host_op_us * 1e-6;
  if (f.host_launch_us) t.host_launch_seconds = *f.host_launch_us * 1e-6;
  CudaGraphs g;
  g.impl = f.cuda_graph_impl ? *parse_cuda_graph_impl(*f.cuda_graph_impl) : CudaGraphImpl::none;
  bool full_iteration_scope = false;
  for (const std::string& name : f.cuda_graph_scope) {
    const std::optional<unsigned> bit = parse_cuda_graph_module(name);
    if (!bit) {
      return fmt::format("--cuda-graph-scope: \"{}\" is not one of Megatron's scopes (attn, mlp, moe, moe_router, "
                         "moe_preprocess, full, full_iteration)",
                         name);
    }
    if (*bit == 0 && f.cuda_graph_scope.size() > 1) {
      return "--cuda-graph-scope full (the whole layer, Megatron's deprecated spelling of no scope) takes no other scope";
    }
    if (*bit == k_cuda_graph_full_iteration) {
      full_iteration_scope = true;
    } else {
      g.modules |= *bit;
    }
  }
  if (full_iteration_scope) {  // Megatron's older spelling: --cuda-graph-impl local --cuda-graph-scope full_iteration
    if (g.impl != CudaGraphImpl::local && g.impl != CudaGraphImpl::full_iteration) {
      return "--cuda-graph-scope full_iteration needs --cuda-graph-impl local (or give --cuda-graph-impl full_iteration)";
    }
    if (g.modules != 0) return "--cuda-graph-scope full_iteration captures everything: name no other scope with it";
    g.impl = CudaGraphImpl::full_iteration;
  }
  if (g.impl == CudaGraphImpl::none && !f.cuda_graph_scope.empty()) {
    return "--cuda-graph-scope has no effect without --cuda-graph-impl local or transformer_engine (Megatron's rule)";
  }
  if (g.impl == CudaGraphImpl::full_iteration && g.modules != 0) {
    return "--cuda-graph-impl full_iteration captures the whole forward-backward: --cuda-graph-scope must be empty";
  }
  if ((g.modules & cuda_graph_moe) != 0) {
    return "--cuda-graph-scope moe: Megatron captures a whole MoE layer only with drop-and-pad (capacity factor and "
           "--moe-pad-expert-input-to-capacity), which moeplan does not model; capture moe_router moe_preprocess";
  }
  if ((g.modules & cuda_graph_moe_preprocess) != 0 && (g.modules & cuda_graph_moe_router) == 0) {
    // Megatron-Core 0.20's local impl captures both when either is named; TE's asserts.
    if (g.impl != CudaGraphImpl::local) {
      return "--cuda-graph-scope moe_preprocess must be used together with moe_router (Megatron's rule with "
             "transformer_engine; local adds it)";
    }
    g.modules |= cuda_graph_moe_router;
  }
  if (g.per_layer() && f.recompute == "full") {
    return fmt::format("--recompute full with --cuda-graph-impl {}: Megatron-Core allows full recompute only with "
                       "--cuda-graph-impl full_iteration",
                       to_string(g.impl));
  }
  t.cuda_graphs = g;
  return "";
}

/// --pipeline-schedule on the given layout (and DualPipe's all-to-all overlap); "" or why not.
std::string apply_schedule(const ClusterFlags& f, ClusterFitOptions& o) {
  GivenLayout& g = o.search.given;
  const std::string& schedule = *f.pipeline_schedule;
  const int vpp = f.vpp.value_or(1);
  if (schedule != "interleaved" && vpp > 1) {
    return fmt::format("--pipeline-schedule {} contradicts --vpp {} (the interleaved schedule); give one", schedule,
                       vpp);
  }
  if (schedule == "interleaved" && vpp == 1 && !f.pipeline_layout) {
    return "--pipeline-schedule interleaved needs --vpp > 1 (virtual stages per pipeline rank)";
  }
  if (schedule != "interleaved" && !f.pipeline_layout) g.vpp = 1;
  if (schedule == "1f1b" || schedule == "interleaved") g.interleaved_schedule = schedule == "interleaved";
  if (schedule == "dualpipe") {
    if (f.pipeline_layout) return "--pipeline-schedule dualpipe and --pipeline-model-parallel-layout: DualPipe "
                                  "places two stages per rank itself; give one";
    g.dualpipe = true;
    // DeepSeek-V3 Sec. 3.2.1: DualPipe "fully overlap[s]" the all-to-all; a given value wins.
    if (!f.flag_given("--a2a-overlap")) o.search.time.a2a_overlap = 1.0;
  }
  return {};
}

}  // namespace

// --moe-flex-dispatcher-num-sms (or the launch script's): DeepEP takes an even count (deep_ep
// buffer.py, Buffer.set_num_sms: "The SM count must be even") below the GPU's own.
std::string apply_dispatcher_sms(const ClusterFlags& f, const GpuSpec& gpu, ClusterFitOptions& o) {
  if (!f.deepep_num_sms) return "";
  const int c = *f.deepep_num_sms;
  if (c % 2 != 0) return fmt::format("--moe-flex-dispatcher-num-sms {}: DeepEP takes an even SM count", c);
  if (gpu.sms > 0 && c >= gpu.sms) {
    return fmt::format("--moe-flex-dispatcher-num-sms {}: the {} has {} SMs, and compute needs some", c, gpu.name, gpu.sms);
  }
  o.search.time.a2a_comm_sms = c;
  return "";
}

namespace {

// --eval-interval and --eval-minutes come together (an evaluation every N steps, M minutes
// each); "" or why not.
std::string evaluation_flags_problem(const ClusterFlags& f) {
  const WholeTrainingOptions& w = f.whole_training;
  if ((w.eval_minutes > 0 || w.eval_iters) && w.eval_interval_steps == 0) {
    return fmt::format("{} needs --eval-interval: an evaluation every N steps, M minutes (or K batches) each",
                       w.eval_iters ? "--eval-iters" : "--eval-minutes");
  }
  // A --megatron-args file's --eval-interval comes with its --eval-iters (or Megatron's 100).
  if (w.eval_interval_steps > 0 && !f.flag_given("--eval-minutes") && !w.eval_iters) {
    return "--eval-interval needs --eval-minutes or --eval-iters: an evaluation every N steps, M minutes (or K "
           "batches) each";
  }
  return "";
}

}  // namespace

namespace {

// The step model's efficiencies, overlaps and allowances, as the flags (or their defaults) give them.
void apply_efficiencies(const ClusterFlags& f, LayoutSearchOptions& s) {
  s.time.gemm_efficiency = f.gemm_efficiency;
  s.time.fp8_gemm_efficiency = f.fp8_gemm_efficiency;
  s.time.hbm_efficiency = f.hbm_efficiency.value_or(k_hbm_efficiency);
  s.time.a2a_efficiency_intra = f.a2a_efficiency_intra;
  s.time.a2a_efficiency_inter = f.a2a_efficiency_inter;
  s.time.network_efficiency = f.network_efficiency;
  s.time.attention_efficiency = f.attention_efficiency;
  s.time.memory_bound_scale = f.memory_bound_scale;
  s.time.dp_overlap = f.dp_overlap;
  s.time.overlap_grad_reduce = f.overlap_grad_reduce;
  s.time.overlap_param_gather = f.overlap_param_gather;
  s.time.expert_load_factor = f.load_imbalance.value_or(k_default_load_imbalance);
  s.memory.expert_load_factor = f.load_imbalance.value_or(k_default_load_imbalance);
  s.memory.framework_bytes = f.framework_gib * k_gib;
}

}  // namespace

std::expected<ClusterFitOptions, ClusterFlagsError> cluster_options(const ClusterFlags& f) {
  const auto usage = [](std::string why) { return std::unexpected(ClusterFlagsError{false, std::move(why), {}}); };
  if (f.gpus && f.gpu_given && f.gpu.empty()) return usage("--gpu: empty; give a GPU kind (h100, h200, ...)");
  if (!f.gpus || f.gpu.empty()) {
    return usage(f.gpus             ? "--gpus needs --gpu KIND (the GPU model: h100, h200, ...)"
                 : !f.gpu.empty()   ? "--gpu needs --gpus N (how many GPUs)"
                 : !f.first_given_flag().empty()
                     ? f.first_given_flag() + " needs a cluster: --gpus N and --gpu KIND"
                     : "the layout, --precision, --megatron-args and --gemm-table flags need a "
                       "cluster: --gpus N and --gpu KIND");
  }
  auto read = gpu_catalog_from_flag(f.catalog_file);
  if (!read) return std::unexpected(ClusterFlagsError{true, "", read.error()});
  const GpuCatalog& catalog = *read;
  const GpuSpec* gpu = catalog.find(f.gpu);
  if (!gpu) return usage(fmt::format("--gpu: unknown GPU '{}'; the catalog has {}", f.gpu, catalog.ids()));
  ClusterFitOptions o;
  o.load_imbalance_given = f.load_imbalance.has_value();
  o.cluster.gpu = *gpu;
  o.cluster.gpus = *f.gpus;
  o.cluster.gpus_per_node = f.gpus_per_node.value_or(gpu->gpus_per_node);
  if (o.cluster.gpus % o.cluster.gpus_per_node != 0 && o.cluster.gpus > o.cluster.gpus_per_node) {
    return usage(fmt::format("--gpus {} is not a whole number of {}-GPU nodes (--gpus-per-node sets the node: "
                             "e.g. 64 of an NVL72 rack in use, as Megatron-Bridge's GB200 recipes run)",
                             o.cluster.gpus, o.cluster.gpus_per_node));
  }
  if (o.cluster.gpus < o.cluster.gpus_per_node) o.cluster.gpus_per_node = o.cluster.gpus;
  if (f.batch_ramp) {
    auto ramp = batch_ramp_of(*f.batch_ramp);
    if (!ramp) return usage(ramp.error());
    o.batch_ramp = *ramp;
  }
  o.whole_training = f.whole_training;
  if (f.checkpoint_interval_minutes) o.whole_training.checkpoint_interval_minutes = *f.checkpoint_interval_minutes;
  if (const std::string why = evaluation_flags_problem(f); !why.empty()) return usage(why);
  apply_efficiencies(f, o.search);
  if (f.global_batch_tokens) o.search.global_batch_tokens = static_cast<long long>(*f.global_batch_tokens);
  if (f.global_batch_sequences) {
    o.global_batch_sequences = *f.global_batch_sequences;
    o.global_batch_given_by = f.megatron_args + " --global-batch-size";
  }
  const Precision precision = parse_precision(f.precision.value_or("bf16")).value_or(Precision::bf16);  // CLI11 checked it
  const PrecisionSpec& spec = precision_spec(precision);
  if (!(spec.peak_flops(*gpu) > 0)) {
    return std::unexpected(ClusterFlagsError{
        false,
        fmt::format("--precision {0}: the {1} has no {0} tensor cores (no {2} in the GPU catalog)", spec.name,
                    gpu->name.empty() ? gpu->id : gpu->name, spec.gemm_peak_key),
        {}, true});
  }
  o.search.time.precision = precision;
  if (f.fp8_param_gather && !spec.param_gather) {
    return usage("--fp8-param-gather keeps the weights in fp8: it needs --precision fp8 (or --fp8-format in the "
                 "--megatron-args file)");
  }
  o.search.time.fp8_param_gather = f.fp8_param_gather;
  o.search.memory.fp8_param_gather = f.fp8_param_gather;
  o.search.time.grad_reduce_in_bf16 = f.grad_reduce_in_bf16;
  o.search.time.tp_comm_overlap = f.tp_comm_overlap;
  o.search.time.p2p_overlap = !f.no_p2p_overlap;
  o.search.memory.grad_reduce_in_bf16 = f.grad_reduce_in_bf16;
  o.search.time.bf16_moments = f.bf16_moments;
  o.search.memory.bf16_moments = f.bf16_moments;
  if (auto why = apply_dp_sharding(f, o.search); !why.empty()) return usage(why);
  o.megatron_fsdp = f.use_megatron_fsdp;
  o.search.time.activation_fp8_input_store = f.activation_fp8_input_store;
  o.search.memory.activation_fp8_input_store = f.activation_fp8_input_store;
  o.mtp_layers = f.mtp_num_layers;
  if (!f.gemm_table.empty()) {
    auto rates = measured_rates(f.gemm_table, gpu, precision);
    if (!rates) return std::unexpected(rates.error());
    o.gemm_rates_source = fmt::format("--gemm-table {}: {} rows of the {} in {}, interpolated in log space",
                                      f.gemm_table, (*rates)->rows.size(), gpu->id, to_string(precision));
    o.search.time.measured_gemm_rates = std::move(*rates);
  } else {
    o.gemm_rates_source = fmt::format(
        "shape model: {} dense peak x {:.2f} ({}), tile, wave and HBM terms", to_string(precision),
        o.search.time.linear_gemm_efficiency(),
        precision == Precision::fp8 && f.fp8_gemm_efficiency ? "--fp8-gemm-efficiency" : "--gemm-efficiency");
  }
  o.search.memory.precision = precision;
  o.search.time.a2a_overlap = f.a2a_overlap;
  o.search.time.a2a_node_dedup = f.a2a_dispatcher.value_or("deepep") == "deepep";
  if (const std::string why = apply_dispatcher_sms(f, *gpu, o); !why.empty()) return usage(why);
  GivenLayout& g = o.search.given;
  g.tp = f.tp;
  g.pp = f.pp;
  g.vpp = f.vpp;
  g.ep = f.ep;
  g.etp = f.etp;
  g.cp = f.cp;
  g.micro_batch = f.micro_batch_size;
  g.first_stage_layers = f.first_stage_layers;
  g.embedding_in_split = f.embedding_in_split;
  g.loss_in_split = f.loss_in_split;
  g.last_stage_layers = f.last_stage_layers;
  if (f.pipeline_layout && f.pipeline_layout->empty()) return usage("--pipeline-model-parallel-layout: empty; give a layout");
  if (f.pipeline_layout) {
    if (auto why = pipeline_layout_syntax_problem(*f.pipeline_layout)) {
      return usage(fmt::format("--pipeline-model-parallel-layout {}: {}", *f.pipeline_layout, *why));
    }
  }
  g.pipeline_layout = f.pipeline_layout.value_or("");
  if (f.pipeline_schedule) {
    if (auto why = apply_schedule(f, o); !why.empty()) return usage(why);
  }
  if (auto why = apply_cuda_graphs(f, o); !why.empty()) {
    // Settings a --megatron-args file gave are named as its.
    const bool from_file = !f.megatron_args.empty() && !(f.flag_given("--cuda-graph-impl") &&
                                                              (f.flag_given("--cuda-graph-scope") || f.flag_given("--cuda-graph-modules")));
    // The file's settings alone: a bad launch script (exit 4), not a usage error.
    if (!f.megatron_args.empty() && !f.flag_given("--cuda-graph-impl") && !f.flag_given("--cuda-graph-scope") &&
        !f.flag_given("--cuda-graph-modules")) {
      return std::unexpected(ClusterFlagsError{true, "", InputError{f.megatron_args, 0, 0, "", why}});
    }
    return usage(from_file ? fmt::format("{} (the CUDA-graph settings of --megatron-args {} with the command line's)", why,
                                         f.megatron_args)
                           : why);
  }
  if (f.recompute == "none") g.recompute = Recompute::none;
  if (f.recompute == "selective") g.recompute = Recompute::selective;
  if (f.recompute == "full") g.recompute = Recompute::full;
  if (!f.recompute_modules.empty()) {
    unsigned modules = 0;
    for (const std::string& name : f.recompute_modules) {
      if (name.empty() || name.starts_with("--")) {  // "--recompute-modules , --format json": no name given
        return usage(fmt::format("--recompute-modules needs module names ({}){}", recompute_module_names(),
                                 name.empty() ? std::string() : fmt::format(", not the flag {}", name)));
      }
      const std::optional<unsigned> bit = recompute_module_of(name);
      if (!bit) {
        return usage(fmt::format("--recompute-modules: \"{}\" is not one moeplan models ({}{})", name,
                                 recompute_module_names(),
                                 name == "moe" ? "; Megatron's moe, the whole MoE layer with its all-to-all again, is not modelled" : ""));
      }
      modules |= *bit;
    }
    if (g.recompute && *g.recompute != Recompute::selective) {
      return usage(fmt::format("--recompute-modules names what a selective recompute re-runs: it needs --recompute "
                               "selective, not {}", to_string(*g.recompute)));
    }
    g.recompute = Recompute::selective;
    g.recompute_modules = modules;
  }
  return o;
}

namespace {

/// The flags with what a --megatron-args file gives where the command line gave nothing.
/// The flags moeplan leaves unused, for stderr: the first k_unused_named by name (all of a
/// launch script's: --emit megatron writes 61 flags for DeepSeek-V3.1 in fp8 on a cluster),
/// then how many more (a generated script of 200,000 flags stays one line of about 2 KB).
constexpr std::size_t k_unused_named = 64;

std::string unused_list(const std::vector<std::string>& unused) {
  if (unused.size() <= k_unused_named) return fmt::format("{}", fmt::join(unused, " "));
  return fmt::format("{} and {} more", fmt::join(unused.begin(), unused.begin() + k_unused_named, " "),
                     unused.size() - k_unused_named);
}

/// The file's flags stderr lists as ignored: the unused ones, and when no model is compared
/// (suggest, plot) the model-size flags too, but --num-layers, which gives VPP.
std::vector<std::string> ignored_flags(const MegatronArgs& args, bool compared) {
  std::vector<std::string> out = args.unused;
  if (compared) {
    std::erase_if(out, [](const std::string& n) { return n == "--group-query-attention" || n == "--multi-latent-attention"; });
    return out;
  }
  for (const MegatronModelFlag& k : args.model_flags) {
    if (k.flag != "--num-layers") out.push_back(k.flag);
  }
  if (args.rotary_percent) out.push_back("--rotary-percent");
  // The settings compared beside the shape (a review found suggest dropping them unlisted).
  if (args.attention_output_gate_line > 0) out.push_back("--attention-output-gate");
  if (args.rotary_base) out.push_back("--rotary-base");
  if (args.norm_epsilon) out.push_back("--norm-epsilon");
  return out;
}

/// The file's checkpoint, evaluation and batch-ramp flags where the command line gives none of
/// its own (the run's length is read by the command, which knows the model's S).
void with_whole_training_args(ClusterFlags& f, const MegatronArgs& a, std::optional<int> seq_len, const Io& io) {
  WholeTrainingOptions& w = f.whole_training;
  if (a.save_interval && !f.checkpoint_interval_minutes && !w.checkpoint_interval_steps) {
    w.checkpoint_interval_steps = a.save_interval;
  }
  if (a.async_save) w.async_checkpoint = true;
  if (a.eval_iters && *a.eval_iters == 0) {  // Megatron-LM evaluates nothing (training.py: eval_iters > 0)
    if (w.eval_interval_steps == 0 && w.eval_minutes == 0 && !w.eval_iters) {
      io.note(fmt::format("{}: --eval-iters 0: no evaluation", f.megatron_args));
    }
  } else if (a.eval_interval || a.eval_iters) {
    // Each setting from the file where the command line gives none of its own (a command-line
    // --eval-minutes or --eval-iters replaces the file's length, --eval-interval its interval);
    // arguments.py's defaults for what the file leaves out: every 1000 steps, 100 batches.
    const bool own_interval = w.eval_interval_steps > 0, own_length = w.eval_minutes > 0 || w.eval_iters;
    if (!own_interval) w.eval_interval_steps = a.eval_interval.value_or(1000);
    if (!own_length) w.eval_iters = a.eval_iters.value_or(100);
    if (!own_interval || !own_length) {
      io.note(fmt::format("{}: an evaluation {} every {} steps{}{}", f.megatron_args,
                          w.eval_iters ? fmt::format("of {} batches", *w.eval_iters)
                                       : fmt::format("of {:g} minutes", w.eval_minutes),
                          w.eval_interval_steps,
                          w.eval_iters ? ", each batch a forward pass at a third of a training step" : "",
                          (!own_interval && !a.eval_interval) || (!own_length && !a.eval_iters)
                              ? " (Megatron-LM's default for what the file leaves out)"
                              : own_interval || own_length ? " (the command line's settings first)" : ""));
    }
  }
  if (a.rampup && !f.batch_ramp) {
    if (!seq_len) {
      io.note(fmt::format("{}: --rampup-batch-size not timed: its samples need --seq-length (or --seq-len) to be "
                          "tokens",
                          f.megatron_args));
    } else {
      f.batch_ramp = fmt::format("{}:{}", a.rampup->start, double(a.rampup->samples) * *seq_len);
      io.note(fmt::format("{}: --rampup-batch-size {} {} {}: timed as --batch-ramp {} (linear; Megatron-LM adds the "
                          "increment in equal steps, the same mean batch to within half an increment)",
                          f.megatron_args, a.rampup->start, a.rampup->increment, a.rampup->samples, *f.batch_ramp));
    }
  }
}

std::expected<ClusterFlags, InputError> with_megatron_args(ClusterFlags f, const Io& io, std::optional<int>* seq_len,
                                                           std::optional<MegatronArgs>* file_args) {
  auto text = read_flag_file(f.megatron_args, "a Megatron-LM arguments file", "--megatron-args");
  if (!text) return std::unexpected(text.error());
  auto args = read_megatron_args(*text, f.megatron_args);
  if (!args) return std::unexpected(args.error());
  const GivenLayout& g = args->layout;
  const std::optional<int> cli_pp = f.pp, cli_vpp = f.vpp;
  for (auto [mine, theirs] : {std::pair{&f.tp, g.tp}, {&f.pp, g.pp}, {&f.vpp, g.vpp}, {&f.ep, g.ep},
                              {&f.etp, g.etp}, {&f.cp, g.cp}, {&f.micro_batch_size, g.micro_batch},
                              {&f.first_stage_layers, g.first_stage_layers}, {&f.last_stage_layers, g.last_stage_layers}}) {
    if (!*mine) *mine = theirs;
  }
  f.embedding_in_split = f.embedding_in_split || g.embedding_in_split;
  f.loss_in_split = f.loss_in_split || g.loss_in_split;
  if (!f.pipeline_layout) {
    if (!g.pipeline_layout.empty()) f.pipeline_layout = g.pipeline_layout;
  }
  // The command line's PP with the file's layers per virtual stage: VPP as Megatron computes it.
  if (cli_pp && !cli_vpp && args->layers_per_virtual_stage && args->num_layers) {
    const auto vpp = virtual_stages(*args->num_layers, *cli_pp, *args->layers_per_virtual_stage, " (--pp)");
    if (!vpp) {
      return std::unexpected(InputError{f.megatron_args, args->layers_per_virtual_stage_line, 0,
                                        "--num-layers-per-virtual-pipeline-stage", vpp.error()});
    }
    f.vpp = *vpp;
  }
  // What neither the file nor the command line gives is searched, as without a file; stderr
  // names each with the default Megatron-LM would run (arguments.py), so a user who meant the
  // script as a whole run sees what to add (a partial arguments file stays a partial layout).
  std::vector<std::string> defaults;
  const auto left = [&](bool unset, std::string what) {
    if (unset) defaults.push_back(std::move(what));
  };
  left(!f.tp, "TP (1)");
  left(!f.pp, "PP (1)");
  left(!f.cp, "CP (1)");
  left(!f.ep, "EP (1)");
  left(!f.etp, "ETP (= TP)");
  left(!f.micro_batch_size, "micro-batch (1)");
  left(!args->custom_pipeline_layout && f.pp.value_or(1) > 1 && !f.first_stage_layers && !f.last_stage_layers &&
           !f.embedding_in_split && !f.loss_in_split,
       "stage split (even)");
  left(f.recompute.empty() && f.recompute_modules.empty() && !g.recompute, "recompute (none)");
  if (!defaults.empty()) {
    io.note(fmt::format("{}: not set there nor on the command line, so searched (Megatron-LM's default in "
                        "parentheses; give it to run that): {}",
                        f.megatron_args, fmt::join(defaults, ", ")));
  }
  const int tp_run = f.tp.value_or(1);
  if (tp_run > 1 && !args->sequence_parallel) {
    io.note(fmt::format("{}: no --sequence-parallel, but moeplan models TP {} with sequence parallelism "
                        "(activations / TP)", f.megatron_args, tp_run));
  }
  if (!args->distributed_optimizer && !args->use_megatron_fsdp) {  // Megatron-FSDP v1 turns it on (arguments.py)
    io.note(fmt::format("{}: no --use-distributed-optimizer, but moeplan models the optimizer state sharded "
                        "over DP (Megatron's distributed optimizer)", f.megatron_args));
  }
  const bool recompute_from_file = f.recompute.empty() && g.recompute;
  if (recompute_from_file) f.recompute = to_string(*g.recompute);
  if (recompute_from_file && f.recompute == "selective" && g.recompute_modules == 0u && f.recompute_modules.empty()) {
    // Megatron's list named nothing moeplan models (moe alone, or nothing): nothing recomputed.
    f.recompute = to_string(Recompute::none);
    io.note(fmt::format("{}: --recompute-modules names no module moeplan models: timed without recompute",
                        f.megatron_args));
  }
  // Megatron uses --recompute-modules with --recompute-granularity selective only.
  if (f.recompute_modules.empty() && g.recompute_modules && f.recompute == "selective") {
    for (unsigned bit = 1; bit != 0 && bit <= *g.recompute_modules; bit <<= 1) {
      if ((*g.recompute_modules & bit) != 0) f.recompute_modules.push_back(recompute_modules_string(bit));
    }
  }
  if (!f.precision && args->precision) f.precision = to_string(*args->precision);
  if (args->fp8_param_gather && !f.fp8_param_gather) {  // only for a run the command line left in fp8
    if (f.precision.value_or("bf16") == "fp8") {
      f.fp8_param_gather = true;
    } else {
      io.note(fmt::format("{}: --fp8-param-gather ignored: the run is {} (--precision), not fp8", f.megatron_args,
                          f.precision.value_or("bf16")));
    }
  }
  if (args->grad_reduce_in_bf16) f.grad_reduce_in_bf16 = true;
  if (args->bf16_moments) f.bf16_moments = true;
  if (args->use_megatron_fsdp) f.use_megatron_fsdp = true;
  if (args->dp_sharding && !f.dp_sharding) {
    // Megatron reads the strategy only under Megatron-FSDP (arguments.py: its default
    // optim_grads_params is there whatever the run).
    if (f.use_megatron_fsdp && *args->dp_sharding == "no_shard") {
      return std::unexpected(InputError{f.megatron_args, args->dp_sharding_line, 0, "--data-parallel-sharding-strategy",
                                        "no_shard (plain replication under Megatron-FSDP) is not modelled; moeplan "
                                        "models optim, optim_grads and optim_grads_params"});
    }
    if (f.use_megatron_fsdp) {
      f.dp_sharding = args->dp_sharding;
    } else {
      io.note(fmt::format("{}: --data-parallel-sharding-strategy {} ignored: Megatron-LM reads it only with "
                          "--use-megatron-fsdp",
                          f.megatron_args, *args->dp_sharding));
    }
  }
  if (args->tp_comm_overlap) f.tp_comm_overlap = true;
  if (args->no_p2p_overlap) f.no_p2p_overlap = true;
  // The data-parallel overlaps are Megatron-LM's switches, off unless the script sets them;
  // Megatron-FSDP turns the reduce-scatter's on when it shards gradients and the all-gather's
  // when it shards weights (megatron_fsdp.py).
  const DpSharding sharding = dp_sharding_from_flags(f).value_or(DpSharding::optim);  // an error is said later
  f.overlap_grad_reduce = args->overlap_grad_reduce || sharding != DpSharding::optim;
  f.overlap_param_gather = args->overlap_param_gather || sharding == DpSharding::optim_grads_params;
  if (!f.overlap_grad_reduce || !f.overlap_param_gather) {
    io.note(fmt::format("{}: no {}: Megatron-LM then does not overlap {} (its default), and neither does the step "
                        "time",
                        f.megatron_args,
                        !args->overlap_grad_reduce ? "--overlap-grad-reduce nor --overlap-param-gather"
                                                   : "--overlap-param-gather",
                        !args->overlap_grad_reduce ? "the data-parallel reduce-scatter and all-gather"
                                                   : "the parameter all-gather with the forward pass"));
  }
  // The command line wins: its --cuda-graph-impl none also drops the file's scope.
  const bool impl_none_given = f.cuda_graph_impl && *f.cuda_graph_impl == "none";
  if (!f.cuda_graph_impl && args->cuda_graph_impl) f.cuda_graph_impl = args->cuda_graph_impl;
  if (f.cuda_graph_scope.empty() && !impl_none_given) f.cuda_graph_scope = args->cuda_graph_scope;
  if (!f.mtp_num_layers && args->mtp_layers) f.mtp_num_layers = args->mtp_layers;
  if (!f.a2a_dispatcher && args->deepep) f.a2a_dispatcher = *args->deepep ? "deepep" : "alltoall";
  if (!f.deepep_num_sms && args->dispatcher_num_sms) f.deepep_num_sms = args->dispatcher_num_sms;
  if (!f.load_imbalance && args->force_load_balancing) f.load_imbalance = 1.0;  // a forced-balance benchmark
  if (!f.global_batch_tokens && args->global_batch) f.global_batch_sequences = args->global_batch;
  if (seq_len && !*seq_len) *seq_len = args->seq_length;
  with_whole_training_args(f, *args, seq_len && *seq_len ? *seq_len : args->seq_length, io);
  if (!seq_len && args->seq_length) args->unused.insert(args->unused.begin(), "--seq-length");  // suggest: --seq-len sets S
  // The run's length is read by score (with_budget); suggest plans its own D.
  if (!file_args && args->train_samples) args->unused.insert(args->unused.begin(), "--train-samples");
  if (!file_args && args->train_iters) args->unused.insert(args->unused.begin(), "--train-iters");
  for (const std::string& n : args->notes) io.note(fmt::format("{}: {}", f.megatron_args, n));
  if (const auto ignored = ignored_flags(*args, file_args != nullptr); !ignored.empty()) {
    io.note(fmt::format("{}: not used by moeplan (ignored): {}", f.megatron_args, unused_list(ignored)));
  }
  if (file_args) *file_args = std::move(*args);
  return f;
}

}  // namespace

namespace {

/// A --step-profile laid over the options (docs/calibration.md): every parameter whose flag
/// the command line (or, for the load factor, a --megatron-args file's forced balance) did not
/// give; the band of its leave-one-out spread; warnings where the run is not what it was
/// fitted on. The exit status (4, a bad file) on an error.
std::expected<void, int> with_step_profile(const ClusterFlags& f, ClusterFitOptions& o, const Io& io) {
  auto text = read_flag_file(f.step_profile, "a step profile", "--step-profile");
  if (!text) return std::unexpected(fail(io, text.error()));
  auto profile = calibration::read_step_profile(*text, f.step_profile);
  if (!profile) return std::unexpected(fail(io, profile.error()));
  const auto given = [&f](std::string_view flag) {
    return f.flag_given(flag) || (flag == "--load-imbalance" && f.load_imbalance.has_value());
  };
  StepTimeOptions& t = o.search.time;
  const auto applied = calibration::apply_step_profile(
      *profile, t, given,
      {o.cluster.gpu.id, to_string(t.precision), t.a2a_node_dedup ? "deepep" : "alltoall", "", o.cluster.gpus});
  for (const std::string& w : applied.warnings) io.warning(w);
  o.search.memory.expert_load_factor = t.expert_load_factor;
  o.step_profile = f.step_profile;
  o.step_parameter_sources = applied.sources;
  o.step_band = profile->band;
  if (!t.measured_gemm_rates) {
    const std::string_view name = t.precision == Precision::fp8 ? "fp8_gemm_efficiency" : "gemm_efficiency";
    const auto it = std::find_if(applied.sources.begin(), applied.sources.end(),
                                 [&](const StepParameterSource& s) { return s.name == name; });
    o.gemm_rates_source = fmt::format("shape model: {} dense peak x {:.3g} ({}), tile, wave and HBM terms",
                                      to_string(t.precision), t.linear_gemm_efficiency(),
                                      it != applied.sources.end() ? it->source : std::string("default"));
  }
  return {};
}

}  // namespace

std::expected<std::optional<ClusterFitOptions>, int> cluster_from_flags(const ClusterFlags& given, const Io& io,
                                                                       std::optional<int>* seq_len,
                                                                       std::optional<MegatronArgs>* file_args) {
  if (!given.given()) return std::optional<ClusterFitOptions>();
  ClusterFlags f = given;
  if (!f.cuda_graph_modules.empty()) {  // one setting under two names, as Megatron-Core 0.20 has it
    if (!f.cuda_graph_scope.empty()) {
      return std::unexpected(fail(io, ExitStatus::usage,
                                  "--cuda-graph-scope and --cuda-graph-modules are one setting (in Megatron-Core 0.20 "
                                  "--cuda-graph-modules is the name and --cuda-graph-scope its deprecated alias; "
                                  "it refuses them together): give one"));
    }
    f.cuda_graph_scope = std::exchange(f.cuda_graph_modules, {});
  }
  if (!f.megatron_args.empty() && f.gpus && !f.gpu.empty()) {  // without a cluster: the usage error first
    auto merged = with_megatron_args(f, io, seq_len, file_args);
    if (!merged) return std::unexpected(fail(io, merged.error()));
    f = std::move(*merged);
  }
  auto c = cluster_options(f);
  if (!c) {
    if (c.error().input) return std::unexpected(fail(io, c.error().error));
    return std::unexpected(fail(io, c.error().infeasible ? ExitStatus::infeasible : ExitStatus::usage, c.error().usage));
  }
  if (!f.step_profile.empty()) {
    if (auto applied = with_step_profile(f, *c, io); !applied) return std::unexpected(applied.error());
  }
  return std::optional<ClusterFitOptions>(std::move(*c));
}

namespace {

std::string layout_line(const ParallelLayout& p) { return p.describe(); }

}  // namespace

const ValidationSpread& step_band(const ClusterFitOptions& options) {
  return options.step_band ? *options.step_band : step_model_validation_spread();
}

MegatronRun megatron_run(const ClusterFit& fit, const ClusterFitOptions& options) {
  const StepTimeOptions& t = options.search.time;
  MegatronRun run{fit.layouts.ranked.front().layout, fit.precision, t.a2a_node_dedup, t.a2a_overlap,
                  t.fp8_param_gather, t.grad_reduce_in_bf16, t.bf16_moments, t.tp_comm_overlap, t.p2p_overlap,
                  fit.config.extras.num_nextn_predict_layers};
  run.cuda_graphs = t.cuda_graphs;
  run.activation_fp8_input_store = t.activation_fp8_input_store;
  run.a2a_comm_sms = t.a2a_comm_sms;
  if (options.megatron_fsdp) run.megatron_fsdp = t.dp_sharding;
  // --dp-overlap 0 hides nothing: the script then asks Megatron for no overlap either.
  run.overlap_grad_reduce = t.overlap_grad_reduce && t.dp_overlap > 0;
  run.overlap_param_gather = t.overlap_param_gather && run.overlap_grad_reduce;
  if (options.batch_ramp) {
    run.ramp_start_sequences = options.batch_ramp->start_sequences;
    run.ramp_tokens = options.batch_ramp->tokens;
  }
  const WholeTrainingOptions& w = options.whole_training;
  run.async_save = w.async_checkpoint;
  const double step = fit.layouts.ranked.front().time.step_seconds;
  if (!w.checkpoint_interval_minutes && w.checkpoint_interval_steps) {
    run.save_interval_steps = w.checkpoint_interval_steps;
  } else if (fit.whole.checkpoint_interval_seconds > 0 && step > 0) {
    // The interval timed in minutes (--checkpoint-interval, or Young-Daly's): Megatron counts steps.
    run.save_interval_minutes = fit.whole.checkpoint_interval_seconds / 60.0;
    run.save_interval_steps = std::max(1LL, std::llround(fit.whole.checkpoint_interval_seconds / step));
  }
  if (w.eval_interval_steps > 0 && w.eval_iters) {
    run.eval_interval_steps = w.eval_interval_steps;
    run.eval_iters = w.eval_iters;
  } else if (w.eval_interval_steps > 0 && w.eval_minutes > 0 && step > 0) {
    // An evaluation of M minutes: batches of a forward pass each, a third of a step (as timed).
    run.eval_interval_steps = w.eval_interval_steps;
    run.eval_minutes = w.eval_minutes;
    run.eval_iters = std::max(1LL, std::llround(w.eval_minutes * 60.0 / (step / 3.0)));
  } else {
    run.no_evaluation = true;
  }
  run.force_load_balancing = fit.config.is_moe() && options.load_imbalance_given && fit.load_imbalance == 1.0;
  return run;
}

namespace {

// cluster.attention_rates: the attention core's source and any --attention-efficiency on it.
std::string attention_rates_text(const ClusterFit& fit, const GpuSpec& gpu) {
  return attention_rates_source(gpu) + (fit.attention_efficiency != 1.0
                                            ? fmt::format(", x {:g} (--attention-efficiency)", fit.attention_efficiency)
                                            : std::string());
}

/// The "training" section: the whole training's wall time beside the steady state of
/// step_time (docs/cluster.md, "Whole training"), or every number null with the reason.
Section whole_training_section(const ClusterFit& fit) {
  Section s{"training", "Whole training (steady state + interruptions, checkpoints, evaluations)", {}, false, true};
  const auto number = [&](double WholeTraining::*member, double scale) -> Value {
    if (!fit.whole.makes_progress) return Missing{fit.whole_training_problem};
    return fit.whole.*member * scale;
  };
  const auto always = [&](double WholeTraining::*member, double scale) -> Value { return fit.whole.*member * scale; };
  auto& f = s.fields;
  f.push_back({"wall_days", "", "days", number(&WholeTraining::wall_days, 1.0),
               "what the team sees: the steps, restarts, lost work, checkpoint saves and evaluations"});
  f.push_back({"wall_gpu_hours", "", "GPU-hours", number(&WholeTraining::wall_gpu_hours, 1.0), "GPUs x wall hours"});
  f.push_back({"goodput", "", "", number(&WholeTraining::goodput, 1.0), "steady-state days / wall days"});
  // The training class's spread (issue 48): wall days as the published whole trainings took
  // against moeplan's prediction of them (a --step-profile does not narrow it).
  const ValidationSpread& v = whole_training_validation_spread();
  f.push_back({"wall_days_low", "", "days", number(&WholeTraining::wall_days, v.speed_ratio_min),
               wall_band_low_words(v)});
  f.push_back({"wall_days_high", "", "days", number(&WholeTraining::wall_days, v.speed_ratio_max),
               fmt::format("x {:g}: the slowest of them", v.speed_ratio_max)});
  f.push_back({"wall_gpu_hours_low", "", "GPU-hours", number(&WholeTraining::wall_gpu_hours, v.speed_ratio_min),
               "GPU-hours, x the same", false, Summary::detail});
  f.push_back({"wall_gpu_hours_high", "", "GPU-hours", number(&WholeTraining::wall_gpu_hours, v.speed_ratio_max),
               "GPU-hours, x the same", false, Summary::detail});
  f.push_back({"costliest", "", "",
               fit.whole.makes_progress ? Value(fit.whole.costliest) : Value(Missing{fit.whole_training_problem}),
               fmt::format("the loss that costs most (two within {:g} % of each other: both)", k_costliest_tie * 100)});
  f.push_back({"interruptions", "", "", number(&WholeTraining::interruptions, 1.0),
               "expected unexpected interruptions (--interruptions-per-gpu-hour; Llama 3: 419 in 21.2M GPU-hours)",
               false, Summary::detail});
  f.push_back({"restart_days", "", "days", number(&WholeTraining::restart_seconds, 1.0 / 86400),
               "interruptions x --restart-minutes", false, Summary::detail});
  f.push_back({"lost_work_days", "", "days", number(&WholeTraining::lost_work_seconds, 1.0 / 86400),
               "interruptions x half a checkpoint interval, trained again", false, Summary::detail});
  f.push_back({"checkpoint_days", "", "days", number(&WholeTraining::checkpoint_seconds, 1.0 / 86400),
               "saves x their blocking time", false, Summary::detail});
  f.push_back({"eval_days", "", "days", number(&WholeTraining::eval_seconds, 1.0 / 86400),
               "--eval-interval, --eval-minutes or --eval-iters (0: none given)", false, Summary::detail});
  const std::string interval_from = !fit.whole.interval_from_young_daly
                                        ? std::string(fit.whole.interval_in_steps ? "--save-interval steps at the step time"
                                                                                : "--checkpoint-interval")
                                        : std::string("Young-Daly: sqrt(2 x blocking save x MTBF), at least a step");
  f.push_back({"checkpoint_interval_minutes", "", "min", always(&WholeTraining::checkpoint_interval_seconds, 1.0 / 60),
               fit.whole.interval_note.empty() ? interval_from
                                               : fmt::format("{}; {}", interval_from, fit.whole.interval_note),
               false, Summary::detail});
  f.push_back({"checkpoint_save_seconds", "", "s", always(&WholeTraining::checkpoint_save_seconds, 1.0),
               "one save's blocking time: a GPU's shard over --checkpoint-write-gbps (--async-checkpoint: its copy "
               "to host memory at 26 GB/s, NeMo Automodel PR 635's 14 GB in 0.54 s, and any wait for the previous "
               "write)",
               false, Summary::detail});
  f.push_back({"checkpoint_gib_per_gpu", "", "GiB", always(&WholeTraining::checkpoint_bytes_per_gpu, 1.0 / k_gib),
               "a GPU's shard: bf16 weights, fp32 master, m and v (14 bytes a parameter; 10 with --bf16-moments), "
               "the most loaded GPU's or the average, the larger",
               false, Summary::detail});
  f.push_back({"stages", "", "", std::string("one"),
               "the run as given; context-extension stages are not in it (score them as runs of their own)", false,
               Summary::detail});
  return s;
}

}  // namespace

void add_cluster_fit(Report& report, const ClusterFit& fit, const Cluster& cluster,
                     std::optional<double> days_limit) {
  const LayoutCandidate& best = fit.layouts.ranked.front();
  const ParallelLayout& p = best.layout;
  report.sections.push_back(
      {"cluster", fmt::format("Cluster: {} x {} ({} nodes)", cluster.gpus, cluster.gpu.name, cluster.nodes()),
       {{"gpu", "", "", cluster.gpu.id, cluster.gpu.name},
        {"gpus", "", "", i64(cluster.gpus), "world size"},
        {"gpus_per_node", "", "", i64(cluster.gpus_per_node), "NVLink/xGMI domain"},
        // The datasheet quotes are long: the one-screen table leaves them to --full.
        {"gpu_source", "", "", cluster.gpu.source, "where the GPU's figures come from (datasheet)", false,
         Summary::detail},
        {"layout", "", "", layout_line(p), "the fastest layout that fits"},
        {"tp", "TP", "", i64(p.tp), "tensor parallel (with sequence parallel)"},
        {"cp", "CP", "", i64(p.cp), "context parallel"},
        {"pp", "PP", "", i64(p.pp), "pipeline stages"},
        {"vpp", "VPP", "", i64(p.vpp), "virtual stages per pipeline rank"},
        {"pipeline_schedule", "", "",
         std::string(p.dualpipe ? "dualpipe" : p.vpp > 1 ? "interleaved" : "1f1b"),
         "1f1b, interleaved (VPP > 1) or dualpipe (--pipeline-schedule)"},
        {"first_stage_layers", "", "layers", i64(p.first_stage_layers),
         "an uneven pipeline's first stage (Megatron's --decoder-first-pipeline-num-layers); 0: an even split"},
        {"last_stage_layers", "", "layers", i64(p.last_stage_layers),
         "an uneven pipeline's last stage (--decoder-last-pipeline-num-layers), which also runs the head and any MTP modules; 0: even"},
        {"embedding_in_split", "", "", p.embedding_in_split,
         "the embedding counted as a layer of the first stage (--account-for-embedding-in-pipeline-split)"},
        {"loss_in_split", "", "", p.loss_in_split,
         "the loss counted as a layer of the last stage (--account-for-loss-in-pipeline-split)"},
        {"mtp_modules", "", "", i64(mtp_modules(fit.config)),
         "multi-token-prediction modules trained on the last stage (their time and memory counted, outside M)"},
        {"ep", "EP", "", i64(p.ep), "expert parallel"},
        {"etp", "ETP", "", i64(p.etp), "expert tensor parallel"},
        {"dp", "DP", "", i64(p.dp), "data parallel (attention and dense layers)"},
        {"edp", "EDP", "", i64(p.edp), "data parallel of the experts"},
        {"micro_batch", "", "sequences", i64(p.micro_batch), ""},
        {"global_batch", "", "sequences", static_cast<std::int64_t>(p.global_batch), "rounded to micro-batch x DP"},
        {"global_batch_asked", "", "sequences", static_cast<std::int64_t>(fit.requested_batch_sequences),
         "the law's or --global-batch-tokens' batch (at most D / S)"},
        {"global_batch_source", "", "", fit.global_batch_source, "the law the batch comes from, and any cap or raise"},
        {"recompute", "", "", std::string(to_string(p.recompute)), "activation recompute"},
        {"recompute_modules", "", "",
         p.recompute == Recompute::selective ? recompute_modules_string(p.recompute_modules) : std::string(),
         "with selective recompute, the modules re-run (Megatron's --recompute-modules names); \"\" otherwise"},
        {"load_imbalance", "", "", fit.load_imbalance,
         "busiest expert rank's routed tokens over the balanced share, as the expert terms assume "
         "(--load-imbalance; 1: forced balance, or EP 1, where one rank holds every expert)"},
        {"precision", "", "", std::string(to_string(fit.precision)), "GEMM precision of the linear layers"},
        {"fp8_param_gather", "", "", fit.fp8_param_gather,
         "weights kept in fp8 only (--fp8-param-gather): 1 + 1 bytes per weight"},
        {"grad_reduce_in_bf16", "", "", fit.grad_reduce_in_bf16,
         "gradients in bf16 (--grad-reduce-in-bf16): 2 bytes each, reduce-scattered in bf16"},
        {"bf16_moments", "", "", fit.bf16_moments,
         "Adam's m and v in bf16 (--bf16-moments): 8 bytes of optimizer state a parameter instead of 12"},
        {"data_parallel_sharding", "", "", std::string(to_string(fit.dp_sharding)),
         "what data parallelism shards (Megatron's --data-parallel-sharding-strategy): optim (the distributed "
         "optimizer), optim_grads or optim_grads_params (--use-megatron-fsdp)"},
        {"activation_fp8_input_store", "", "", fit.activation_fp8_input_store,
         "the SwiGLU's input kept in fp8 for the backward (--activation-func-fp8-input-store): 1 byte an element"},
        {"tp_comm_overlap", "", "", fit.tp_comm_overlap,
         "TP collectives overlapped with the linear layers' GEMMs, as applied (--tp-comm-overlap and TP > 1)"},
        {"cuda_graph_impl", "", "", std::string(to_string(fit.cuda_graphs.impl)),
         "CUDA graphs (--cuda-graph-impl, Megatron's names): none, local, transformer_engine, full_iteration"},
        {"cuda_graph_scope", "", "", cuda_graph_modules_string(fit.cuda_graphs.modules, ","),
         "the regions per-layer graphs capture (--cuda-graph-scope); \"\" with a per-layer impl: the whole layer"},
        {"p2p_overlap", "", "", fit.p2p_overlap,
         "pipeline sends overlapped with compute, as applied (Megatron's interleaved schedule: VPP > 1 and no "
         "--no-overlap-p2p-communication)"},
        {"gemm_rates", "", "", fit.gemm_rates_source, "where the step time's GEMM rates come from"},
        {"attention_rates", "", "", attention_rates_text(fit, cluster.gpu),
         "where the step time's attention-core rates come from (docs/step-model.md, \"The attention core\")"},
        {"given", "", "", fit.given.given_names(), "layout dimensions given (--tp, --pp, ...); \"\" = none"},
        {"searched", "", "", fit.given.searched_names(), "layout dimensions the search chose"},
        {"layouts_evaluated", "", "", static_cast<std::int64_t>(fit.layouts.evaluated), "legal layouts whose memory and time were computed"}},
       false, true});
  Section mem{"memory", "Memory per GPU (most loaded rank)", {}, false, true};
  for (const MemoryTerm& t : best.memory.terms) mem.fields.push_back({t.name, "", "GiB", t.bytes / k_gib, t.detail});
  mem.fields.push_back({"total", "", "GiB", best.memory.total() / k_gib, "the terms together"});
  mem.fields.push_back({"capacity", "", "GiB", cluster.gpu.hbm_bytes / k_gib,
                        cluster.gpu.hbm_from_driver
                            ? "HBM of one GPU, as the driver reports it (nvidia-smi memory.total)"
                            : fmt::format("HBM of one GPU: the datasheet's {:g} GB (no driver readout in the catalog)",
                                          cluster.gpu.hbm_datasheet_bytes / 1e9)});
  report.sections.push_back(std::move(mem));
  Section time{"step_time", "Step time (critical path)", {}, false, true};
  for (const StepTerm& t : best.time.terms) time.fields.push_back({t.name, "", "s", t.seconds, t.detail});
  time.fields.push_back({"all_to_all_overlapped", "", "s", best.time.all_to_all_overlapped,
                         "expert all-to-all overlapped with compute (--a2a-overlap of it; all_to_all holds its cost)"});
  time.fields.push_back({"all_to_all_sm_share", "", "", best.time.all_to_all_sm_share,
                         "share of the SMs its kernels hold meanwhile (DeepEP's; 0: not counted)"});
  time.fields.push_back({"step", "", "s", best.time.step_seconds, "one optimizer step"});
  time.fields.push_back({"tokens_per_second", "", "tokens/s", best.time.tokens_per_second, "whole cluster"});
  time.fields.push_back({"mfu", "MFU", "", best.time.mfu, "model FLOPs (M of the config) over the cluster's dense bf16 peak (also under fp8)"});
  time.fields.push_back({"mfu_of_precision_peak", "", "", best.time.mfu_of_precision_peak,
                         "model FLOPs over the dense peak of the run's precision (fp8's under fp8): at most 1"});
  time.fields.push_back({"training_tokens", "D", "tokens", fit.tokens.value(), "what the time is for"});
  time.fields.push_back({"days", "", "days", fit.time.days,
                         fit.ramp_extra ? "the ramp's tokens at its batches' speeds, the rest of D at tokens per second"
                                        : "D / tokens per second"});
  time.fields.push_back({"gpu_hours", "", "GPU-hours", fit.time.gpu_hours, ""});
  if (fit.ramp_extra) {  // --batch-ramp: in days and gpu_hours above, and this much of them
    time.fields.push_back({"batch_ramp_days", "", "days", fit.ramp_extra->days,
                           fmt::format("--batch-ramp: the ramp's smaller batches add this to days ({:+d} steps; {})",
                                       fit.ramp_extra->steps, fit.ramp_note)});
  }
  add_validation_range(time.fields, fit.time.days, fit.time.gpu_hours,
                       fit.step_band ? *fit.step_band : step_model_validation_spread());
  if (days_limit) {  // suggest --days: the limit the plan was searched for, beside the days it takes
    time.fields.push_back({"days_limit", "T", "days", *days_limit,
                           "--days: the largest plan found whose whole training (training.wall_days) fits in this "
                           "(docs/cluster.md)"});
  }
  report.sections.push_back(std::move(time));
  if (!fit.step_profile.empty()) {  // --step-profile: where each parameter came from
    Section sp{"step_profile", "Step-model parameters (--step-profile, docs/calibration.md)", {}, false, true};
    sp.fields.push_back({"file", "", "", fit.step_profile, "the profile"});
    for (const StepParameterSource& s : fit.step_parameter_sources) {
      sp.fields.push_back({s.name, "", "", s.value, "from " + s.source});
      sp.fields.push_back({s.name + "_source", "", "", s.source, "", false, Summary::detail});
    }
    if (fit.step_band) {
      sp.fields.push_back({"band_speed_ratio_min", "", "", fit.step_band->speed_ratio_min,
                           "predicted/measured speed, the least of the profile's left-out runs (days_low's factor)"});
      sp.fields.push_back({"band_speed_ratio_max", "", "", fit.step_band->speed_ratio_max, "the largest (days_high's)"});
      sp.fields.push_back({"band_source", "", "", fit.step_band->source, ""});
    }
    report.sections.push_back(std::move(sp));
  }
  report.sections.push_back(whole_training_section(fit));
  if (fit.searched_best) {  // a given layout, and a faster one the search found without it
    const LayoutCandidate& s = *fit.searched_best;
    report.sections.push_back(
        {"searched_best", "The search's best without the given dimensions",
         {{"layout", "", "", layout_line(s.layout), "the fastest layout that fits when nothing is given"},
          {"tokens_per_second", "", "tokens/s", s.time.tokens_per_second, ""},
          {"memory", "", "GiB", s.memory.total() / k_gib, "per GPU"},
          {"given_slower_because", "", "", fit.given_slower_because,
           "the step-time terms that make the given layout slower"}}});
  }
  for (std::size_t i = 1; i < fit.layouts.ranked.size(); ++i) {
    const LayoutCandidate& c = fit.layouts.ranked[i];
    report.sections.push_back(
        {"runner_up", fmt::format("Runner-up layout {}", i),
         {{"layout", "", "", layout_line(c.layout), ""},
          {"tokens_per_second", "", "tokens/s", c.time.tokens_per_second, ""},
          {"memory", "", "GiB", c.memory.total() / k_gib, "per GPU"},
          {"why_lost", "", "", i - 1 < fit.layouts.why_lost.size() ? fit.layouts.why_lost[i - 1] : std::string(),
           "what made it slower than the chosen layout"}},
         true});
  }
}

void add_co_design(Report& report, const CoDesignedPlan& plan) {
  for (const CoDesignMove& m : plan.moves) {
    report.sections.push_back({"co_design", "Co-design: " + m.name,
                               {{"move", "", "", m.name, ""},
                                {"from", "", "", m.from, ""},
                                {"to", "", "", m.to, ""},
                                {"loss_change", "", "", m.loss_change,
                                 "joint-law loss vs the paper's plan, relative (band: 0.001)"},
                                {"el_change", "", "", m.el_change,
                                 "paper 000 EL vs the paper's plan, relative: it sees granularity 2d/d_m, the joint law "
                                 "not"},
                                {"reshape", "", "", m.reshaped,
                                 "L moved by more than one PP step or d_m by more than one alignment step: kept only "
                                 "inside the band by EL"},
                                {"kept", "", "", m.kept, ""},
                                {"why", "", "", m.why, ""}},
                               true, true});
  }
}

namespace {

Section timed_plan_section(std::string key, std::string title, const TimedPlan& t, const ValidationSpread& band) {
  const Suggestion& s = plan_suggestion(t.plan);
  const MoeArchitecture& a = s.solution.arch;
  Section sec{std::move(key), std::move(title), {}};
  sec.summary = true;
  auto& f = sec.fields;
  f.push_back({"predicted_loss", "L", "nats/token", t.predicted_loss,
               "paper 001 Eq. 11 at the plan's N, N_a, G, S and the D it trains on"});
  f.push_back({"tokens", "D", "tokens", t.tokens.value(), "training tokens"});
  f.push_back({"days", "", "days", t.days,
               "wall days on the cluster: the steps, restarts, lost work, checkpoint saves and evaluations "
               "(training.wall_days), what the time goals plan against"});
  f.push_back({"gpu_hours", "", "GPU-hours", t.gpu_hours, "GPUs x wall hours"});
  add_validation_range(f, t.days, t.gpu_hours, band);
  f.push_back({"mfu", "MFU", "", t.mfu, "model FLOPs/s over the cluster's dense bf16 peak (also under fp8)"});
  f.push_back({"mfu_of_precision_peak", "", "", t.mfu_of_precision_peak,
               "model FLOPs/s over the dense peak of the run's precision: at most 1", false, Summary::detail});
  f.push_back({"tokens_per_second", "", "tokens/s", t.tokens_per_second, "the cluster's training speed", false, Summary::detail});
  f.push_back({"total_params", "N", "params", s.solution.accounting.N.value(), "paper 002's N"});
  f.push_back({"active_params", "N_a", "params", s.solution.accounting.N_a.value(), "paper 002's N_a"});
  f.push_back({"experts", "N_e", "", i64(a.family.n_experts), "routed experts per MoE layer"});
  f.push_back({"top_k", "K", "", i64(a.family.top_k), "routed experts per token"});
  f.push_back({"shared_experts", "", "", i64(a.family.n_shared_experts), "shared experts per MoE layer", false, Summary::detail});
  f.push_back({"hidden_size", "d", "", i64(a.d), "hidden size", false, Summary::detail});
  f.push_back({"layers", "L", "", i64(a.layers()), "layers", false, Summary::detail});
  f.push_back({"layout", "", "", t.plan.on_cluster->fit.layouts.ranked.front().layout.describe(), "parallel layout"});
  f.push_back({"extrapolation_decades", "", "decades", t.extrapolation_decades,
               "how far M D lies past the laws' fitted budgets (0 inside, negative below): every law is extrapolated "
               "by that much"});
  f.push_back({"efficiency_leverage", "EL", "", t.efficiency_leverage,
               "paper 000 Eq. 4 at the FLOP-optimal plan's C (shapes compared at equal compute)", false, Summary::detail});
  return sec;
}

}  // namespace

void add_time_optimal(Report& report, const TimeOptimalResult& r, const ValidationSpread& band) {
  Section t = timed_plan_section("time_optimal", "Time-optimal: the lowest predicted loss within the days", r.time_optimal,
                                 band);
  auto& f = t.fields;
  f.push_back({"loss_gain", "", "", r.loss_gain, "1 - L / L of the FLOP-optimal plan (0 when it stands)"});
  f.push_back({"best_gain_found", "", "", r.best_gain_found,
               "the same for the best plan the search found, resolved or not"});
  f.push_back({"loss_resolution", "", "", k_loss_resolution,
               "the least gain counted as one: paper 002's near-optimal band (Sec. 5.3-5.4, 0.1 % of loss)", false,
               Summary::detail});
  f.push_back({"resolved", "", "", r.resolved,
               "the gain is at least the resolution (else the FLOP-optimal plan stands)"});
  f.push_back({"el_change", "", "", r.time_optimal.efficiency_leverage / r.flop_optimal.efficiency_leverage - 1,
               "paper 000's EL against the FLOP-optimal plan's, at equal compute (a family move may cost at most 1 %)"});
  f.push_back({"moved", "", "", TextList(r.moved), "what moved, and the step-time figures that paid for it"});
  f.push_back({"rejected", "", "", TextList(r.rejected), "family moves the EL rule refused", false, Summary::detail});
  f.push_back({"plans_evaluated", "", "", i64(r.plans_evaluated), "plans timed on the cluster", false, Summary::detail});
  report.sections.push_back(std::move(t));
  report.sections.push_back(
      timed_plan_section("flop_optimal", "FLOP-optimal: the largest compute-optimal plan within the days", r.flop_optimal,
                         band));
}

void add_flop_optimal(Report& report, const TimedPlan& plan, const ValidationSpread& band) {
  report.sections.push_back(
      timed_plan_section("flop_optimal", "FLOP-optimal: the largest compute-optimal plan within the days", plan, band));
}

void add_target_loss(Report& report, const TargetLossResult& r, const ValidationSpread& band) {
  Section t = timed_plan_section("target_loss", "Target loss: the fewest GPU-hours on the cluster", r.plan, band);
  auto& f = t.fields;
  f.insert(f.begin(), {"target", "L target", "nats/token", r.target_loss, "the predicted loss asked (paper 001 Eq. 11)"});
  f.push_back({"training_compute", "C", "FLOPs", r.training_compute.value(), "M D of the plan"});
  f.push_back({"compute_optimal_compute", "C*", "FLOPs", r.compute_optimal_compute.value(),
               "where paper 002's continuous compute-optimal line reaches the target (paper 001's joint law on its "
               "curves, as the price section's C*)"});
  f.push_back({"compute_over_optimal", "C/C*", "", r.training_compute.value() / r.compute_optimal_compute.value(),
               "FLOPs spent against the compute-optimal line's: the price of GPU-hours over FLOPs"});
  f.push_back({"rejected", "", "", TextList(r.rejected), "family moves the EL rule refused", false, Summary::detail});
  f.push_back({"plans_evaluated", "", "", i64(r.plans_evaluated), "plans timed on the cluster", false, Summary::detail});
  report.sections.push_back(std::move(t));
}

}  // namespace moeplan::cli
