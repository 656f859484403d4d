#pragma once
/// Private to the cluster library: the numeric core of the step-time model (no strings, no
/// allocations), shared by step_time() and the layout search, which times thousands of
/// layouts and formats only the few it keeps (docs/cluster.md, "Step time").
#include <array>
#include <optional>

#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/parallel_layout.hpp"
#include "moeplan/cluster/stage_split.hpp"
#include "moeplan/cluster/step_time.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan::cluster_detail {

/// What a config costs per token, split the way the step-time terms need it (paper 002
/// Eq. 11-12, holistic-002 convention: M = 6 N_a + 3·S·N_q·(d_qk + d_v)·L).
struct ModelFlops {
  double dense_per_token = 0;   ///< 6·(attention projections + dense FFN + shared experts)
  double expert_per_token = 0;  ///< 6·(K routed experts per MoE layer)
  double scores_per_token = 0;  ///< the S-dependent attention core
  double M = 0;                 ///< their sum: M of the config
  double dense_params = 0;      ///< attention + dense FFN + shared experts, all layers
  double routed_params = 0;     ///< all routed experts of all MoE layers
  double embedding_params = 0;  ///< input embedding + output head (once when tied)
  double vocab_params = 0;      ///< V·d: one of them (a pipeline end stage holds one)
  int layers = 0;               ///< L
  int moe_layers = 0;           ///< L_m (0 for a dense model)
  double hidden = 0;            ///< d
  int top_k = 0;                ///< K
  // The GEMM shapes of a layer (docs/step-model.md), widths before TP/ETP sharding:
  double attention_in_width = 0;   ///< (attention + mixer params per layer − out projection) / d
  double attention_out_width = 0;  ///< N_q · d_v: the output projection's input width
  double rope_width = 0;           ///< (N_q + N_kv) · d_h: the q and k rotated per token
  double dense_ffn_width = 0;      ///< f of a dense-FFN layer (intermediate_size)
  double dense_ffn_layers = 0;     ///< layers with a dense FFN
  double shared_width = 0;         ///< all shared experts of a MoE layer together
  double expert_width = 0;         ///< f_e of one routed expert
  int experts = 0;                 ///< N_e
  // MLA's up-projections (from the q and kv latents to the heads), for their recompute:
  // k = the latent rank, n = the heads' width; 0 without MLA (or a full-rank query).
  double mla_q_rank = 0, mla_q_width = 0, mla_kv_rank = 0, mla_kv_width = 0;
  bool gated = true;               ///< SwiGLU: gate and up projections (3 matrices, else 2)
  /// Multi-token-prediction modules trained beside the model (num_nextn_predict_layers),
  /// on the last pipeline stage as Megatron-LM places them: each one decoder layer like the
  /// model's MoE layers (a dense one in a dense model), its projection eh_proj (2d -> d) and
  /// a pass through the shared output head (DeepSeek-V3 Sec. 2.2). Outside M.
  int mtp_layers = 0;
  bool mtp_moe = false;  ///< the modules' decoder layers are MoE layers
  bool tied_embeddings = false;  ///< the output head is the input embedding (tie_word_embeddings)
  /// Gated attention's sigmoid gate, N_q · d_h per token (0 without); its projection is already
  /// in attention_in_width (the counted attention weights), its elementwise work is not.
  double attention_gate_width = 0;
  /// A norm after each block too (Gemma 2/3/4's, Trinity's "sandwich"): two more RMSNorms a layer.
  bool post_block_norms = false;
  /// The attention core's head dim as its kernel sees it, (d_qk + d_v) / 2 (MLA: the nope and
  /// rope parts of q·k, and v): where the measured attention rates are read (attention_rate.hpp).
  double attention_head_dim = 0;
};
ModelFlops model_flops(const ModelConfig& m, const ParameterCounts& p, int seq_len);

/// What the last pipeline stage runs beyond its decoder layers, in layers' worth of GEMM
/// FLOPs: the output head (6·V·d per token) and each MTP module's decoder layer, eh_proj and
/// pass through the head.
double last_stage_extra_layers(const ModelFlops& f);

/// EP peers of the worst-placed rank that sit on its own node: the expert grid is laid out
/// ETP fastest, then EP (Megatron's parallel folding), so an EP group is a block of ep·etp
/// consecutive ranks, cut by node boundaries into pieces of at least gcd(ep·etp, per node).
int ep_peers_on_node(int ep, int etp, int gpus_per_node);
/// Nodes an aligned block of ep·etp consecutive ranks touches.
int ep_nodes(int ep, int etp, int gpus_per_node);

enum StepTermIndex : int {
  k_gemm,
  k_attention,
  k_memory_bound,
  k_recompute,
  k_tp_collectives,
  k_all_to_all,
  k_host,
  k_pipeline,
  k_dp_reduction,
  k_optimizer,
  k_step_terms
};
/// The term names, in StepTermIndex order: what StepTerm::name holds.
extern const std::array<const char*, k_step_terms> k_step_term_names;

/// Every figure of a step, in seconds and the volumes behind them.
struct StepSeconds {
  std::array<double, k_step_terms> seconds{};
  double total = 0;
  double tokens_per_step = 0;
  double tokens_per_second = 0;
  double mfu = 0;                   ///< over the dense bf16 peak (StepTime::mfu)
  double mfu_of_precision_peak = 0; ///< over the run's precision's dense peak
  // what the details print
  double gemm_rate = 0;           ///< FLOP/s the GEMMs achieve (their FLOPs over their seconds)
  double gemm_ceiling = 0;        ///< peak × efficiency of the precision (or the measured rate)
  double expert_gemm_rate = 0;    ///< FLOP/s the routed experts' GEMMs achieve
  double expert_rows = 0;         ///< rows one local expert receives per micro-batch (busiest rank)
  double gemm_flops_gpu = 0;      ///< projection + expert GEMM FLOPs per GPU per step
  double expert_share = 0;        ///< of gemm_flops_gpu, the routed experts' part
  double scores_flops_gpu = 0;
  double memory_bound_bytes = 0;  ///< HBM traffic of the elementwise kernels per GPU per step
  double stage_imbalance = 1;     ///< most loaded stage's layers × pp / L
  int stage_layers = 0;           ///< layers of the busiest stage, its MTP modules' layers included
  int stage_mtp_layers = 0;       ///< of them, MTP modules' decoder layers (on the last stage)
  double stage_moe_layers = 0;
  long long microbatches = 0;
  double tp_bytes = 0;            ///< one TP collective of a TP-sharded module (0 with TP 1)
  double tp_modules = 0;          ///< TP-sharded modules on the busiest stage: attention, dense FFNs, shared experts
  double etp_bytes = 0;           ///< one of the MoE dispatcher's collectives over ETP (0 with ETP 1)
  double tp_hidden = 0;           ///< with --tp-comm-overlap: the TP seconds the linear layers' GEMMs cover
  double a2a_bytes = 0;           ///< one all-to-all, the busiest rank's send
  double a2a_off_node = 0;        ///< share of its EP peers on other nodes
  double a2a_nic_share = 0;       ///< share of its values that cross the NIC
  double a2a_hidden = 0;          ///< seconds of all-to-all overlapped with compute (--a2a-overlap of it)
  double a2a_sm_share = 0;        ///< share of the SMs its kernels hold (DeepEP's c/S; 0: not counted)
  double a2a_overlap_seconds = 0;  ///< of the term: what the overlapped part adds to the compute
  bool a2a_outlasts_compute = false;  ///< the overlapped all-to-all is longer than the compute it overlaps
  double bubble = 0;
  double p2p = 0;                 ///< the point-to-point sends' exposed seconds
  double p2p_hidden = 0;          ///< of the sends, the seconds the interleaved schedule overlaps
  bool p2p_off_node = false;
  double dp_dense_bytes = 0;
  double dp_expert_bytes = 0;
  double dp_reduce_scatter_exposed = 0;  ///< seconds of the gradients' reduce-scatter the last backward does not cover
  double dp_all_gather_exposed = 0;      ///< seconds of the weights' all-gather the first forward does not cover
  double dp_hidden = 0;                  ///< seconds of both that are hidden
  double host_forward = 0;   ///< host seconds issuing one micro-batch's forward on the busiest stage
  double host_backward = 0;  ///< and its backward
  double host_gpu_forward = 0, host_gpu_backward = 0;  ///< the GPU's seconds for them
  double host_python_ops = 0;  ///< Python calls of one micro-batch (graph replays included)
  double host_launches = 0;    ///< kernels issued outside graphs, per micro-batch
  double host_syncs = 0;       ///< device-to-host synchronizations per micro-batch
  double optimizer_params = 0;           ///< parameters of this rank's optimizer shard
  double optimizer_bytes = 0;            ///< HBM bytes of its optimizer step
  double embedding_sync_bytes = 0;  ///< the first and last stages' embedding gradients, all-reduced
  bool embedding_sync_for_mtp = false;  ///< the last stage's copy is MTP's embedding (else a tied head)
  bool dp_off_node = false;
  double load_factor = 1;
  /// NICs a rank's data-parallel ring runs over off the node: the group's ranks on one node
  /// (the dense DP·CP group's, the experts' EDP group's); 1 where each node holds one.
  double dp_dense_nics = 1, dp_expert_nics = 1;
  /// Of the attention term, the forward's seconds (what a recompute re-runs); a third of it
  /// at the GEMM ceiling, less where a measured kernel's backward is the slower pass.
  double attention_forward = 0;
  /// The attention core's causal rates (FLOP/s, FlashAttention's counts) where a measured
  /// kernel times it (attention_rate.hpp); 0: at the GEMM ceiling.
  double attention_forward_rate = 0, attention_backward_rate = 0;
  double attention_head_dim = 0;      ///< the head dim those rates were read at
  double attention_causal_share = 1;  ///< of the core's work, the share in causal blocks (CP)
};

/// Bytes over an effective rate; a volume with no link to carry it takes forever.
double transfer(double bytes, double rate);

/// What every term of one step reads (step_terms.cpp): the layout's stage geometry, a
/// micro-batch's rows on one rank, the GEMM rate model and the GEMM seconds and HBM bytes of
/// each module on one micro-batch. Made once per layout by step_shape; the terms only read it.
struct StepShape {
  const ModelFlops& f;
  const Cluster& cluster;
  const ParallelLayout& L;
  const StepTimeOptions& o;
  /// The run's precision described (o.precision): the bytes its terms move per value.
  const PrecisionSpec& precision;
  double load_factor = 1;
  double S = 0;            ///< sequence length
  double tokens = 0;       ///< global batch × S: the step's tokens
  double mb = 1;           ///< micro-batches per step per pipeline
  double rows = 0;         ///< a micro-batch's tokens on one rank (S/CP × micro-batch): the GEMMs' m
  double t = 1;            ///< TP
  double tokens_rank = 0;  ///< rows / TP: the tokens a rank holds outside the GEMMs (SP)
  double etp = 1;          ///< expert TP
  double in_factor = 2;    ///< input projections of an FFN: gate and up (2), or up alone (1)
  int mtp = 0;             ///< MTP modules on the last stage
  double moe_cap = 0;      ///< MoE layers the busiest stage can hold (L_m plus MTP's)
  std::optional<StageSplit> split{};
  GemmRateModel model{};
  // One micro-batch's training GEMM seconds (forward, data and weight gradients) of a module:
  double attention_s = 0, dense_ffn_s = 0, shared_s = 0, routed_s = 0, head_s = 0, proj_s = 0;
  double routed_rows = 0;  ///< routed rows on this rank: K × tokens_rank × ETP × load
  // A SwiGLU's forward HBM bytes on one micro-batch, per module:
  double dense_activation_bytes = 0, shared_activation_bytes = 0, routed_activation_bytes = 0;
  double sbh = 0;          ///< rows × d: one activation of a micro-batch, in values
  bool full = false;       ///< full recompute
  double nvlink = 0, nic = 0;  ///< collectives' achieved bandwidths, bytes/s
  double hbm = 0;              ///< achieved HBM bandwidth, bytes/s
  /// The memory-bound kernels' rate over the fused count's bytes: hbm / --memory-bound-scale
  /// (the first run of a norm or activation and its recompute alike; not the optimizer's).
  double memory_bound_rate = 0;
  /// A stage of `layers` layers holds its MoE layers first (a middle stage is all MoE once
  /// the leading dense layers are behind it), then dense FFNs.
  struct LayerMix {
    double moe, dense_ffn;
  };
  [[nodiscard]] LayerMix mix_of(double layers) const;
};
/// The shape of `layout`'s step; fills r's stage fields (stage_layers, microbatches, ...).
StepShape step_shape(const ModelFlops& f, const Cluster& cluster, const ParallelLayout& layout,
                     const StepTimeOptions& options, double load_factor, bool allow_uneven_pipeline,
                     StepSeconds& r);

// One function per term, each its seconds on the critical path of the step; each also sets
// the volumes of r its detail prints. Called in StepTermIndex order: recompute reads the
// first three terms, host the first six, pipeline the first seven.
double gemm_term(const StepShape& s, StepSeconds& r);
double attention_term(const StepShape& s, StepSeconds& r);
double memory_bound_term(const StepShape& s, StepSeconds& r);
double recompute_term(const StepShape& s, const StepSeconds& r);
double tp_collectives_term(const StepShape& s, StepSeconds& r);
double all_to_all_term(const StepShape& s, StepSeconds& r);
double host_term(const StepShape& s, StepSeconds& r);
double pipeline_term(const StepShape& s, StepSeconds& r);
double dp_reduction_term(const StepShape& s, StepSeconds& r);
double optimizer_term(const StepShape& s, StepSeconds& r);

/// The step of `layout` (already legal) for a config of `f`, the sum of its terms.
/// `load_factor` replaces options.expert_load_factor (the search derives it per EP from a
/// routing skew).
StepSeconds step_seconds(const ModelFlops& f, const Cluster& cluster, const ParallelLayout& layout,
                         const StepTimeOptions& options, double load_factor,
                         bool allow_uneven_pipeline = true);

}  // namespace moeplan::cluster_detail
