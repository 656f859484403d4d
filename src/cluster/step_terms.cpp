// The step-time terms of a parallel layout, one function each (docs/cluster.md, "Step time";
// docs/step-model.md for every volume and rate). A roofline: every term is a volume over a
// rate, the rates the GPU's datasheet figures times stated efficiencies. step_seconds adds
// them up; the layout search calls it for thousands of layouts, so nothing here allocates.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "moeplan/cluster/attention_rate.hpp"
#include "step_model.hpp"

namespace moeplan::cluster_detail {

double transfer(double bytes, double rate) {
  if (bytes <= 0) return 0;
  return rate > 0 ? bytes / rate : std::numeric_limits<double>::infinity();
}

StepShape::LayerMix StepShape::mix_of(double layers) const {
  const double moe = std::min<double>(moe_cap, layers);
  return LayerMix{moe, std::min(f.dense_ffn_layers, layers - moe)};
}

StepShape step_shape(const ModelFlops& f, const Cluster& cluster, const ParallelLayout& L, const StepTimeOptions& o,
                     double load_factor, bool allow_uneven, StepSeconds& r) {
  StepShape s{f, cluster, L, o, precision_spec(o.precision)};
  s.S = o.seq_len;
  s.tokens = double(L.global_batch) * s.S;
  r.tokens_per_step = s.tokens;
  r.load_factor = expert_rank_load(load_factor, L);
  s.load_factor = r.load_factor;

  s.split = stage_split(f.layers, L.pp, L.first_stage_layers, L.last_stage_layers, allow_uneven);
  // The output head (6·V·d FLOPs per token, outside M like every embedding FLOP) runs on the
  // last stage: in layers' worth of GEMMs it can outweigh two layers (V = 152k, d = 4096); so
  // do the MTP modules, which Megatron-LM places there too (a decoder layer, eh_proj and the
  // head again each). The busiest stage is the last one when its layers plus those are the
  // larger; its layers, MTP layers included, are what the per-layer terms count.
  const int decoder_most = s.split ? s.split->most() : (f.layers + L.pp - 1) / L.pp;
  const int last = s.split ? s.split->last : decoder_most;
  s.mtp = f.mtp_layers;
  r.stage_layers = std::max(decoder_most, last + s.mtp);
  r.stage_mtp_layers = last + s.mtp >= decoder_most ? s.mtp : 0;
  const double busiest = std::max<double>(decoder_most, last + last_stage_extra_layers(f));
  r.stage_imbalance = busiest * L.pp / f.layers;
  // The busiest stage's MoE layers: a middle stage is all MoE once the leading dense layers
  // are behind it, so the count is its layers, at most L_m (plus the MTP modules' MoE layers).
  s.moe_cap = f.moe_layers + (f.mtp_moe ? r.stage_mtp_layers : 0);
  r.stage_moe_layers = std::min<double>(s.moe_cap, r.stage_layers);
  const long long per_step = static_cast<long long>(L.micro_batch) * L.dp;
  r.microbatches = per_step > 0 ? std::max(1LL, L.global_batch / per_step) : 1;
  s.mb = static_cast<double>(r.microbatches);

  // GEMMs: each linear layer of a micro-batch at its own shape (after TP/ETP sharding, the
  // routed experts at the rows the busiest expert rank's experts receive), by the shape model
  // (gemm_rate.hpp) in the run's precision, or at a measured rate; forward, data- and
  // weight-gradient GEMMs; the busiest pipeline stage (the last one counts the output head).
  const double s_tokens = s.S / L.cp;
  s.rows = s_tokens * L.micro_batch;  // T: a micro-batch's tokens on one rank
  s.t = L.tp;
  s.tokens_rank = s.rows / s.t;  // under SP: the tokens a rank holds outside the GEMMs
  s.etp = L.etp;
  s.model = GemmRateModel::of(cluster.gpu, o.precision, o.linear_gemm_efficiency(), o.hbm_efficiency);
  if (o.measured_gemm_rates) {  // a table measured on this GPU, by shape
    s.model.measured = o.measured_gemm_rates.get();
  } else if (o.measured_gemm_flops) {  // a benchmark of this GPU: its rate, no shape model
    s.model.peak = *o.measured_gemm_flops;
    s.model.efficiency = 1.0;
    s.model.shaped = false;
  }
  r.gemm_ceiling = s.model.peak * s.model.efficiency;
  s.in_factor = f.gated ? 2.0 : 1.0;  // gate and up, or up alone
  const double rows = s.rows, t = s.t;
  s.attention_s = training_gemm_seconds(s.model, 1, rows, f.attention_in_width / t, f.hidden) +
                  training_gemm_seconds(s.model, 1, rows, f.hidden, f.attention_out_width / t);
  const auto ffn_seconds = [&](double groups, double n_rows, double width, double shard) {
    if (!(width > 0) || !(n_rows > 0)) return 0.0;
    return training_gemm_seconds(s.model, groups, n_rows, s.in_factor * width / shard, f.hidden) +
           training_gemm_seconds(s.model, groups, n_rows, f.hidden, width / shard);
  };
  s.dense_ffn_s = ffn_seconds(1, rows, f.dense_ffn_width, t);
  s.shared_s = ffn_seconds(1, rows, f.shared_width, t);
  // Under SP a rank holds rows/TP tokens; ETP gathers etp ranks' tokens; K copies of each
  // go to the experts of the EP group, N_e/EP per rank: rows per local expert.
  const double local_experts = f.experts > 0 ? double(f.experts) / L.ep : 0.0;
  s.routed_rows = f.moe_layers > 0 ? f.top_k * s.tokens_rank * s.etp * s.load_factor : 0.0;  // on this rank
  r.expert_rows = local_experts > 0 ? s.routed_rows / local_experts : 0.0;
  s.routed_s = local_experts > 0 ? ffn_seconds(local_experts, r.expert_rows, f.expert_width, s.etp) : 0.0;
  s.head_s = f.vocab_params > 0 ? training_gemm_seconds(s.model, 1, rows, f.vocab_params / f.hidden / t, f.hidden) : 0;
  s.proj_s = s.mtp > 0 ? training_gemm_seconds(s.model, 1, rows, f.hidden / t, 2.0 * f.hidden) : 0.0;

  // A SwiGLU's bytes through HBM on one micro-batch, forward (read gate and up, 2f; write f;
  // bf16): of a dense-FFN layer, of the shared experts, of the routed rows on this rank. An
  // ungated activation (GELU, squared ReLU) reads f and writes f. The memory-bound term and
  // the recompute of those activations both count them.
  const double act_widths = s.in_factor + 1.0;
  s.dense_activation_bytes = rows * act_widths * f.dense_ffn_width / t * 2.0;
  s.shared_activation_bytes = rows * act_widths * f.shared_width / t * 2.0;
  s.routed_activation_bytes = s.routed_rows * act_widths * f.expert_width / s.etp * 2.0;

  s.sbh = rows * f.hidden;
  s.full = L.recompute == Recompute::full;
  s.nvlink = cluster.gpu.intra_node_bandwidth * o.network_efficiency;
  s.nic = cluster.gpu.network_bandwidth * o.network_efficiency;
  s.hbm = cluster.gpu.hbm_bandwidth * o.hbm_efficiency;
  s.memory_bound_rate = s.hbm / o.memory_bound_scale;
  return s;
}

double gemm_term(const StepShape& s, StepSeconds& r) {
  const ModelFlops& f = s.f;
  const ParallelLayout& L = s.L;
  // GEMM seconds of one micro-batch on a stage of `layers` layers; the last one runs the head
  // and the MTP modules (their decoder layers, counted in `layers`, their eh_proj and head
  // passes).
  const auto stage_gemm = [&](double layers, bool last_stage) {
    const StepShape::LayerMix mix = s.mix_of(layers);
    return layers * s.attention_s + mix.moe * (s.shared_s + s.routed_s) + mix.dense_ffn * s.dense_ffn_s +
           (last_stage ? (1.0 + s.mtp) * s.head_s + s.mtp * s.proj_s : 0.0);
  };
  double gemm_mb = stage_gemm(r.stage_layers, L.pp == 1);
  if (s.split && L.pp > 1) {
    gemm_mb = std::max({stage_gemm(s.split->first, false), stage_gemm(s.split->middle, false),
                        stage_gemm(s.split->last + s.mtp, true)});
  }
  const double seconds = s.mb * gemm_mb;
  // FLOPs of those GEMMs, for the achieved rate the detail prints.
  const double world = s.cluster.gpus;
  const double dense = s.tokens * f.dense_per_token / world * r.stage_imbalance;
  const double experts = s.tokens * f.expert_per_token * s.load_factor / world * r.stage_imbalance;
  r.gemm_flops_gpu = dense + experts;
  r.expert_share = r.gemm_flops_gpu > 0 ? experts / r.gemm_flops_gpu : 0;
  r.gemm_rate = seconds > 0 ? r.gemm_flops_gpu / seconds : 0;
  const double routed_flops = 6.0 * s.routed_rows * (s.in_factor + 1.0) * f.expert_width / s.etp * f.hidden;
  r.expert_gemm_rate = s.routed_s > 0 ? routed_flops / s.routed_s : 0;
  return seconds;
}

double attention_term(const StepShape& s, StepSeconds& r) {
  r.scores_flops_gpu = s.tokens * s.f.scores_per_token / s.cluster.gpus * r.stage_imbalance;
  // The attention core is bf16 in every recipe. Where a published measurement of the kernel
  // Megatron-Core runs on this GPU exists (presets/hardware/attention_rates.toml: cuDNN on
  // Hopper), its forward and backward rates at one rank's query length (S / CP) and the head
  // dim, causal for the diagonal blocks and unmasked for the rest (CP's load-balanced split);
  // else the bf16 large-GEMM ceiling, the forward a third of the work.
  // --attention-efficiency scales whichever applies (1: as measured, or the ceiling).
  const double e = s.o.attention_efficiency;
  const double ceiling =
      e * (s.o.measured_gemm_flops ? *s.o.measured_gemm_flops : s.cluster.gpu.bf16_dense_flops * s.o.gemm_efficiency);
  std::optional<AttentionRates> rates =
      r.scores_flops_gpu > 0 ? attention_rates(s.cluster.gpu, s.S / s.L.cp, s.f.attention_head_dim) : std::nullopt;
  if (!rates) {
    const double seconds = transfer(r.scores_flops_gpu, ceiling);
    r.attention_forward = seconds / 3.0;
    return seconds;
  }
  for (double* rate : {&rates->forward_causal, &rates->backward_causal, &rates->forward_full, &rates->backward_full}) {
    *rate *= e;
  }
  r.attention_forward_rate = rates->forward_causal;
  r.attention_backward_rate = rates->backward_causal;
  r.attention_head_dim = s.f.attention_head_dim;
  r.attention_causal_share = attention_causal_share(s.L.cp);
  return attention_core_seconds(r.scores_flops_gpu, *rates, r.attention_causal_share, &r.attention_forward);
}

double memory_bound_term(const StepShape& s, StepSeconds& r) {
  // Memory-bound kernels (docs/step-model.md, "Memory-bound work"): bytes each token moves
  // through HBM per layer outside the GEMMs, forward; the backward reads the saved input and
  // the incoming gradient and writes the input gradient (2x); at achieved HBM bandwidth.
  const ModelFlops& f = s.f;
  const double d = f.hidden, rows = s.rows, t = s.t, tokens_rank = s.tokens_rank;
  // Two RMSNorms (read d, write d) and two residual adds (read 2d, write d): 10 d values.
  double layer_bytes = tokens_rank * 10.0 * d * 2.0;
  if (f.post_block_norms) layer_bytes += tokens_rank * 4.0 * d * 2.0;  // a norm after each block: 2 more
  layer_bytes += rows * 2.0 * f.rope_width / t * 2.0;  // RoPE: read and write q and k
  // Gated attention's output gate (Megatron-Core attention.py, d98e8a64): the gate split from
  // linear_qkv's output is copied to [s, b, N_q, d_h] (get_query_key_value_tensors' reshape of a
  // strided slice: read 2, write 2 bytes an element), then _apply_output_gate, x * sigmoid(gate),
  // runs as one fused kernel (@jit_fuser, torch.compile since torch 2.2: read x and the gate, write
  // the product, 2 + 2 + 2): 10 bytes an element forward (an engineering count from the code;
  // a review corrected a first, unfused count of 34).
  layer_bytes += rows * 10.0 * f.attention_gate_width / t;
  double dense_ffn_bytes = s.dense_activation_bytes;
  double moe_bytes = s.shared_activation_bytes;
  if (s.routed_rows > 0) {
    moe_bytes += tokens_rank * (d * 2.0 + 3.0 * f.experts * 4.0);  // router: read x, softmax/top-k fp32
    moe_bytes += s.routed_rows * (4.0 * d);                         // permute: read and write K copies
    moe_bytes += s.routed_activation_bytes;
    moe_bytes += s.routed_rows * (2.0 * d) + tokens_rank * 2.0 * d;  // unpermute: read K copies, write one
  }
  if (const double cast = s.precision.cast_bytes; cast > 0) {
    // Transformer Engine casts each linear layer's input (forward) and output gradient
    // (backward) to fp8: read 2 bytes, write 1 and its transpose 1 (the precision's cast_bytes;
    // docs/step-model.md).
    layer_bytes += rows * (d + f.attention_out_width / t) * cast;
    dense_ffn_bytes += rows * (d + f.dense_ffn_width / t) * cast;
    moe_bytes += rows * (f.shared_width > 0 ? d + f.shared_width / t : 0.0) * cast;
    moe_bytes += s.routed_rows * (d + f.expert_width / s.etp) * cast;
  }
  const StepShape::LayerMix mix = s.mix_of(r.stage_layers);
  const double fwd = r.stage_layers * layer_bytes + mix.moe * moe_bytes + mix.dense_ffn * dense_ffn_bytes;
  r.memory_bound_bytes = 3.0 * fwd * s.mb;
  if (s.o.activation_fp8_input_store) {
    // Megatron's activation_func_fp8_input_store: each SwiGLU input element cast to fp8 in the
    // forward (read 2 bytes, write 1) and back in the backward (read 1, write 2): 6 bytes, a
    // kernel each way (fused_bias_swiglu.py), outside the backward-is-twice-the-forward rule.
    // The elements: gate and up (in_factor widths) of the shared and routed experts, of a dense FFN.
    const double elements_moe = s.in_factor * (rows * f.shared_width / t + s.routed_rows * f.expert_width / s.etp);
    const double elements_dense = s.in_factor * rows * f.dense_ffn_width / t;
    r.memory_bound_bytes += 6.0 * (mix.moe * elements_moe + mix.dense_ffn * elements_dense) * s.mb;
  }
  return transfer(r.memory_bound_bytes, s.memory_bound_rate);
}

namespace {
// The forward pass of the busiest stage's compute, all micro-batches: Eq. 12's 2 of 6 of the
// GEMMs and memory-bound work, and the attention core's own forward part (attention_term).
double forward_pass_seconds(const StepSeconds& r) {
  return (r.seconds[k_gemm] + r.seconds[k_memory_bound]) / 3.0 + r.attention_forward;
}
}  // namespace

double recompute_term(const StepShape& s, const StepSeconds& r) {
  // Recompute re-runs forward work, a third of its training time (paper 002 Eq. 12's 6 =
  // 2 forward + 4 backward): every layer (full), or the modules a selective recompute names
  // (Megatron's --recompute-modules; its default, core_attn, the attention core): the norms
  // and activations at HBM bandwidth, the GEMMs of the MLP, shared experts and MLA
  // up-projections at their shapes' rates.
  if (s.full) return forward_pass_seconds(r);
  const ModelFlops& f = s.f;
  const unsigned mods = s.L.recomputed_modules();
  const StepShape::LayerMix mix = s.mix_of(r.stage_layers);
  double fwd_gemm = 0, fwd_bytes = 0;  // one micro-batch's, on the busiest stage
  if ((mods & recompute_layernorm) != 0) {
    fwd_bytes += r.stage_layers * s.tokens_rank * 2.0 * (2.0 * f.hidden) * 2.0;  // two norms: read d, write d
  }
  if ((mods & recompute_moe_act) != 0) fwd_bytes += mix.moe * s.routed_activation_bytes;
  if ((mods & recompute_mlp) != 0) {
    fwd_gemm += mix.dense_ffn * s.dense_ffn_s / 3.0;
    fwd_bytes += mix.dense_ffn * s.dense_activation_bytes;
  }
  if ((mods & recompute_shared_experts) != 0) {
    fwd_gemm += mix.moe * s.shared_s / 3.0;
    fwd_bytes += mix.moe * s.shared_activation_bytes;
  }
  if ((mods & recompute_mla_up_proj) != 0) {
    const double up_s =
        (f.mla_q_width > 0 ? training_gemm_seconds(s.model, 1, s.rows, f.mla_q_width / s.t, f.mla_q_rank) : 0.0) +
        (f.mla_kv_width > 0 ? training_gemm_seconds(s.model, 1, s.rows, f.mla_kv_width / s.t, f.mla_kv_rank) : 0.0);
    fwd_gemm += r.stage_layers * up_s / 3.0;
  }
  return ((mods & recompute_core_attn) != 0 ? r.attention_forward : 0.0) +
         s.mb * (fwd_gemm + (fwd_bytes > 0 ? transfer(fwd_bytes, s.memory_bound_rate) : 0.0));
}

double tp_collectives_term(const StepShape& s, StepSeconds& r) {
  // TP + SP: each TP-sharded module (attention; a dense layer's FFN; an MoE layer's shared
  // experts) all-gathers its input and reduce-scatters its output, forward and backward:
  // 4 collectives per module and micro-batch, 2·s·b·h bytes each, (t-1)/t of it over NVLink
  // (Korthikanti et al. 2022 Sec. 4.2.2); a full recompute repeats the forward pair. The
  // routed experts are not TP-sharded: Megatron's token dispatcher gathers and scatters over
  // the expert-TP group (token_dispatcher.py: tp_group = expt_tp), so only with ETP > 1, the
  // rows its experts receive, 2·h·rows·(etp-1)/etp bytes each.
  const ParallelLayout& L = s.L;
  if (!(L.tp > 1 || (L.etp > 1 && s.routed_rows > 0))) return 0;
  const double per_module = s.full ? 6.0 : 4.0;  // AG + RS forward, their two backward, the recompute's forward pair
  r.tp_bytes = L.tp > 1 ? 2.0 * s.sbh * (L.tp - 1.0) / L.tp : 0.0;
  r.etp_bytes = L.etp > 1 ? 2.0 * s.f.hidden * s.routed_rows * (L.etp - 1.0) / L.etp : 0.0;
  const double module_all = per_module * transfer(r.tp_bytes, s.nvlink);  // one module's collectives
  const double dispatcher = per_module * transfer(r.etp_bytes, s.nvlink);
  // With --tp-comm-overlap Transformer Engine pipelines each collective with the GEMM beside
  // it: a module's collectives are exposed only where they outlast its GEMMs (forward, both
  // backward GEMMs and a full recompute's forward again). The dispatcher's are outside
  // Transformer Engine's linear layers: they stay exposed.
  const double recompute_gemm = s.full ? 4.0 / 3.0 : 1.0;
  const auto exposed = [&](double module_gemm_s) {
    return s.o.tp_comm_overlap ? std::max(0.0, module_all - recompute_gemm * module_gemm_s) : module_all;
  };
  const StepShape::LayerMix mix = s.mix_of(r.stage_layers);
  const bool shared = s.f.shared_width > 0;
  r.tp_modules = r.stage_layers + mix.dense_ffn + (shared ? mix.moe : 0.0);
  const double seconds = s.mb * (r.stage_layers * exposed(s.attention_s) + mix.dense_ffn * exposed(s.dense_ffn_s) +
                                 (shared ? mix.moe * exposed(s.shared_s) : 0.0) + mix.moe * dispatcher);
  r.tp_hidden = s.mb * (r.tp_modules * module_all + mix.moe * dispatcher) - seconds;
  return seconds;
}

// The SMs an overlapped all-to-all's kernels hold: DeepEP's `a2a_comm_sms` of the GPU's; 0
// where no published figure says (NCCL's all-to-all) or the catalog lacks the GPU's count.
double a2a_sm_share(const StepTimeOptions& o, int gpu_sms) {
  if (!o.a2a_node_dedup || gpu_sms <= 0) return 0;
  return std::min(1.0, double(o.a2a_comm_sms) / gpu_sms);
}

// What an all-to-all of H seconds overlapped with W seconds of compute adds to W: its kernels
// hold a share c/S of the SMs, so the compute runs on the rest meanwhile. While H·(1 - c/S) <=
// W the compute finishes after it, at W + H·c/S; past that the communication outlasts the
// compute and the pair takes H. So max(H·c/S, H - W).
double overlapped_all_to_all_seconds(double hidden, double compute, double share) {
  return std::max(hidden * share, hidden - compute);
}

double all_to_all_term(const StepShape& s, StepSeconds& r) {
  // Expert-parallel all-to-all: dispatch and combine, forward and backward (and the forward
  // pair again under full recompute), K·(s·b/t)·h bytes × load × (EP-1)/EP each, 2 bytes a
  // value (fp8 runs through DeepEP dispatch 1 byte plus a scale per 128 values and combine in
  // bf16, as DeepSeek-V3 Sec. 3.3.2; NCCL's all-to-all sends the bf16 hidden states as they
  // are: Megatron-LM's alltoall dispatcher, moe_dispatch_fwd_dtype default 'bf16'); the share
  // for other nodes at the NIC, the rest at NVLink, each at DeepEP's achieved fraction, in
  // parallel: the slower one; a2a_overlap of it hidden.
  const ModelFlops& f = s.f;
  const ParallelLayout& L = s.L;
  const StepTimeOptions& o = s.o;
  if (!(L.ep > 1 && f.moe_layers > 0)) return 0;
  const int per_node = std::max(s.cluster.gpus_per_node, 1);
  const double values = f.top_k * s.tokens_rank * f.hidden * s.load_factor * (L.ep - 1.0) / L.ep;
  // Bytes a value: the precision's (presets/hardware/precisions.toml): bf16's 2, fp8's forward
  // dispatch through DeepEP 1 + 4/128.
  const double bf16_bytes = s.precision.all_to_all_bytes;
  const double dispatch_bytes = o.a2a_node_dedup ? s.precision.deepep_dispatch_bytes : bf16_bytes;
  r.a2a_bytes = values * bf16_bytes;
  const int local = ep_peers_on_node(L.ep, L.etp, per_node);
  r.a2a_off_node = double(L.ep - 1 - local) / (L.ep - 1);
  // Values a token sends over the NIC: its copies for experts on other nodes, or with
  // DeepEP's node deduplication (DeepSeek-V3 Sec. 3.2.2: a token crosses IB once per target
  // node, then NVLink forwards it) one copy per remote node it reaches: of the n nodes the
  // EP group spans, K experts placed uniformly reach (n - 1)(1 - (1 - 1/n)^K) remote ones.
  double nic_values = values * r.a2a_off_node;
  const int nodes = ep_nodes(L.ep, L.etp, per_node);
  if (o.a2a_node_dedup && nodes > 1 && r.a2a_off_node > 0) {
    const double n = nodes;
    const double reached = (n - 1.0) * (1.0 - std::pow(1.0 - 1.0 / n, f.top_k));
    nic_values = std::min(nic_values, s.tokens_rank * f.hidden * s.load_factor * reached);
  }
  r.a2a_nic_share = values > 0 ? nic_values / values : 0;
  const double a2a_nic = s.cluster.gpu.network_bandwidth * o.a2a_efficiency_inter;
  const double a2a_nvlink = s.cluster.gpu.intra_node_bandwidth * o.a2a_efficiency_intra;
  // Every copy crosses NVLink (forwarded copies on the target node); the NIC share at the NIC.
  const double nvlink_share = o.a2a_node_dedup && nodes > 1 ? 1.0 : 1.0 - r.a2a_off_node;
  const auto one = [&](double bytes_per_value) {
    return std::max(transfer(values * r.a2a_nic_share * bytes_per_value, a2a_nic),
                    transfer(values * nvlink_share * bytes_per_value, a2a_nvlink));
  };
  // Forward and backward each dispatch and combine once; the backward's dispatch carries
  // gradients (bf16), the forward's the activations (fp8 in an fp8 run through DeepEP).
  const double pair = one(dispatch_bytes) + 3.0 * one(bf16_bytes) + (s.full ? one(dispatch_bytes) + one(bf16_bytes) : 0.0);
  const double all = r.stage_moe_layers * s.mb * pair;
  // Hidden behind the stage's compute (the terms before this one): what it still costs.
  const double compute = r.seconds[k_gemm] + r.seconds[k_attention] + r.seconds[k_memory_bound] + r.seconds[k_recompute];
  r.a2a_hidden = o.a2a_overlap * all;
  r.a2a_sm_share = a2a_sm_share(o, s.cluster.gpu.sms);
  r.a2a_overlap_seconds = r.a2a_hidden > 0 ? overlapped_all_to_all_seconds(r.a2a_hidden, compute, r.a2a_sm_share) : 0.0;
  r.a2a_outlasts_compute = r.a2a_hidden - compute > r.a2a_hidden * r.a2a_sm_share;
  return (1.0 - o.a2a_overlap) * all + r.a2a_overlap_seconds;
}

double host_term(const StepShape& s, StepSeconds& r) {
  // The host issues a micro-batch's kernels while the GPU runs those already issued: the GPU
  // waits only where issuing takes longer than running, per pass: max(GPU, host) per micro-
  // batch and stage, not their sum (issue 48). The host's calls per layer are the data file's
  // (presets/hardware/host_launches.toml: Megatron-Core 0.20's code path with its fusions, the
  // seconds per call measured and published there); a region inside a CUDA graph costs one
  // replay instead. The dropless dispatcher copies its split sizes to the host once per MoE
  // layer's forward (a stream synchronization, token_dispatcher.py): the GPU then idles while
  // the host issues the next call, one Python call's time each.
  const StepTimeOptions& o = s.o;
  const HostLaunches& h = megatron_host_launches();
  // The file's seconds per Python call are an x86 host's; a GPU whose catalog entry gives its
  // own system's (GB200's Grace: gpus.toml, host_python_op_us) takes that one. A figure given by
  // flag is the user's host's, taken as given. Launches from C++ keep the file's figure (none
  // is published for another host).
  const double own = s.cluster.gpu.host_python_op_seconds;
  const double t_py = o.host_python_op_seconds.value_or(own > 0 ? own : h.python_op_seconds);
  const double t_launch = o.host_launch_seconds.value_or(h.launch_seconds);
  if (!(t_py > 0) && !(t_launch > 0)) return 0;
  const CudaGraphs& g = o.cuda_graphs;
  const ModelFlops& f = s.f;
  const StepShape::LayerMix mix = s.mix_of(r.stage_layers);
  const double local_experts = f.experts > 0 ? double(f.experts) / s.L.ep : 0.0;
  double py_f = 0, launch_f = 0, py_b = 0, launch_b = 0, syncs = 0, replays = 0;
  const auto add = [&](const HostRegion& region, double layers, bool captured) {
    if (!(layers > 0)) return;
    // A captured moe_preprocess only moves the dispatcher's device-to-host copy out of the
    // graph: the host still waits on it every MoE layer (token_dispatcher.py, the d2h event
    // synchronized before the all-to-all). A full iteration cannot hold a sync: none counted.
    if (g.impl != CudaGraphImpl::full_iteration) syncs += layers * region.host_syncs_forward;
    if (captured) return;
    py_f += layers * region.python_ops_forward;
    py_b += layers * region.python_ops_backward;
    launch_f += layers * (region.launches_forward + region.launches_forward_per_local_expert * local_experts);
    launch_b += layers * (region.launches_backward + region.launches_backward_per_local_expert * local_experts);
  };
  add(h.attn, r.stage_layers, g.captures(cuda_graph_attn));
  if (f.attention_gate_width > 0) add(h.attn_output_gate, r.stage_layers, g.captures(cuda_graph_attn));
  add(h.mlp, mix.dense_ffn, g.captures(cuda_graph_mlp));
  add(h.moe_router, mix.moe, g.captures(cuda_graph_moe_router));
  if (f.shared_width > 0) add(h.shared_experts, mix.moe, g.captures(cuda_graph_moe_router));
  add(h.moe_preprocess, mix.moe, g.captures(cuda_graph_moe_preprocess));
  add(h.moe, mix.moe, g.captures(cuda_graph_moe));
  // Graph replays: one per layer for a whole-layer capture, else one per captured region of a
  // layer (the graphs of a full iteration are launched once a step: nothing per micro-batch).
  if (g.per_layer()) {
    if (g.modules == 0) {
      replays = r.stage_layers;
    } else {
      replays = (g.captures(cuda_graph_attn) ? r.stage_layers : 0.0) +
                (g.captures(cuda_graph_mlp) ? mix.dense_ffn : 0.0) +
                (g.captures(cuda_graph_moe_router) || g.captures(cuda_graph_moe_preprocess) ? mix.moe : 0.0) +
                (g.captures(cuda_graph_moe) ? mix.moe : 0.0);
    }
  }
  // The ends of the model, outside every per-layer graph: the head on the last stage (PP 1: the
  // embedding too; the last stage, the head's, is the busier of the two ends).
  if (g.impl != CudaGraphImpl::full_iteration) {
    add(h.head, 1, false);
    if (s.L.pp == 1) add(h.embedding, 1, false);
  }
  // A full recompute re-issues every forward call during the backward pass, the dispatcher's
  // syncs among them.
  const double syncs_forward = syncs;
  const double syncs_backward = s.full ? syncs : 0.0;
  if (s.full) {
    py_b += py_f;
    launch_b += launch_f;
    syncs *= 2.0;
  }
  const auto seconds = [&](double py, double launches) {
    return py * t_py + std::max(0.0, launches - py) * t_launch;
  };
  // A replay is a Python call that launches the graph.
  r.host_forward = seconds(py_f + replays, launch_f + replays);
  r.host_backward = seconds(py_b + replays, launch_b + replays);
  r.host_python_ops = py_f + py_b + 2.0 * replays;
  r.host_launches = launch_f + launch_b + 2.0 * replays;
  r.host_syncs = syncs;
  // The GPU's time for the same micro-batch: a third of its compute and collectives forward
  // (Eq. 12's 2 of 6), the rest and the recompute backward.
  const auto& sec = r.seconds;
  const double busy = (sec[k_gemm] + sec[k_attention] + sec[k_memory_bound] + sec[k_tp_collectives] +
                       sec[k_all_to_all]) / s.mb;
  r.host_gpu_forward = busy / 3.0;
  r.host_gpu_backward = 2.0 * busy / 3.0 + sec[k_recompute] / s.mb;
  // After a sync the host and GPU start together and the GPU waits one call for the next
  // kernel: a stretch between syncs takes max(GPU + one call, host), so a pass takes
  // max(GPU + syncs x call, host) and the GPU idles max(host - GPU, syncs x call): the syncs cost
  // nothing where the host is already behind (its lag holds them).
  const double exposed = std::max({0.0, r.host_forward - r.host_gpu_forward, syncs_forward * t_py}) +
                         std::max({0.0, r.host_backward - r.host_gpu_backward, syncs_backward * t_py});
  return s.mb * exposed;
}

double pipeline_term(const StepShape& s, StepSeconds& r) {
  // Pipeline: the bubble (PP-1)/(VPP·m) of the work of the step (Narayanan et al. 2021,
  // Sec. 2.2), and the sends between stages: an activation forward and its gradient back
  // per micro-batch and virtual stage, s·b·h·2/t bytes (scattered by SP), plus the fill;
  // interleaving multiplies them by VPP (ibid. Sec. 2.2.2). Stages are world/PP ranks
  // apart (PP the outermost group), on other nodes once world/PP reaches a node.
  const ParallelLayout& L = s.L;
  if (!(L.pp > 1)) return 0;
  const auto& sec = r.seconds;
  const double mb = s.mb;
  const double work = sec[k_gemm] + sec[k_attention] + sec[k_memory_bound] + sec[k_recompute] +
                      sec[k_tp_collectives] + sec[k_all_to_all] + sec[k_host];
  r.bubble = work * (L.pp - 1.0) / (L.vpp * mb);
  if (L.dualpipe) {
    // DualPipe's bubble, (PP/2-1)(F&B + B - 3W) (deepseek-ai/DualPipe @030ce432 README), with
    // the overlapped F&B = F + B, W = B/2 (the backward's data- and weight-gradient GEMMs are
    // equal) and B = 2F: (PP/2-1)·2F, two thirds of a micro-batch's work F + B per half-stage.
    r.bubble = work / mb * (L.pp / 2.0 - 1.0) * (2.0 / 3.0);
  }
  r.p2p_off_node = double(s.cluster.gpus) / L.pp >= std::max(s.cluster.gpus_per_node, 1);
  const double bytes = s.sbh * 2.0 / L.tp;
  const double one = transfer(bytes, r.p2p_off_node ? s.nic : s.nvlink);
  r.p2p = 2.0 * (L.vpp * mb + L.pp - 1.0) * one;
  if (L.dualpipe) {
    // "Both all-to-all and PP communication can be fully hidden" (DeepSeek-V3 Fig. 4 caption).
    r.p2p_hidden = r.p2p;
    r.p2p = 0;
    return r.bubble;
  }
  if (s.o.p2p_overlap && L.vpp > 1) {
    // Megatron's interleaved schedule posts each chunk's send and receive beside the next
    // chunk's compute (overlap_p2p_comm): the fill and drain's 2·(PP−1) sends stay on the
    // critical path, the steady state's only where a send outlasts a chunk's forward (a
    // third of its work, Eq. 12's 2 of 6).
    const double chunk_forward = work / (L.vpp * mb) / 3.0;
    const double exposed = 2.0 * (L.pp - 1.0) * one + 2.0 * L.vpp * mb * std::max(0.0, one - chunk_forward);
    r.p2p_hidden = r.p2p - exposed;
    r.p2p = exposed;
  }
  return r.bubble + r.p2p;
}

// The busiest rank's share of the layers' parameters: its stage's layers over L, twice under
// DualPipe, where a rank holds two stages' weights (2x parameters) and reduces and updates both.
double stage_layer_share(const ModelFlops& f, const ParallelLayout& L, const StepSeconds& r) {
  return (L.dualpipe ? 2.0 : 1.0) * double(r.stage_layers) / f.layers;
}

// The embedding or the head, on the busiest end stage. DualPipe's first and last ranks hold
// both, one tensor when they are tied (memory_model.cpp's params_of_rank).
double end_stage_params(const ModelFlops& f, const ParallelLayout& L) {
  if (L.pp == 1) return f.embedding_params;
  return f.vocab_params * (L.dualpipe && !f.tied_embeddings ? 2.0 : 1.0);
}

// Megatron-FSDP's collectives (StepTimeOptions::dp_sharding), given one step's reduce-scatter
// and all-gather seconds of the rank's weights and one micro-batch's forward and backward: with
// the gradients sharded, every micro-batch's backward reduce-scatters them (megatron_fsdp.py,
// grad_reduce_every_bprop), behind that backward; with the weights sharded too, every
// micro-batch gathers them before its forward, behind the forward, and again before its
// backward, behind the backward with the reduce-scatter (the next layer prefetched while one
// computes, runtime_schedule.md), and no gather follows the optimizer step. At most dp_overlap
// of each is hidden, as for the distributed optimizer. Sets the exposed seconds of `r` (the
// backward's shared exposure split by the two collectives' times); returns all the seconds
// the collectives take. The distributed optimizer (optim) leaves `r` as it is.
double sharded_dp_collectives(const StepShape& s, double rs_s, double ag_s, double forward_mb, double backward_mb,
                              StepSeconds& r) {
  const StepTimeOptions& o = s.o;
  const auto exposed = [&o](double comm, double pass) { return std::max((1.0 - o.dp_overlap) * comm, comm - pass); };
  switch (o.dp_sharding) {
    case DpSharding::optim: return rs_s + ag_s;
    case DpSharding::optim_grads:
      r.dp_reduce_scatter_exposed = s.mb * exposed(rs_s, backward_mb);
      return s.mb * rs_s + ag_s;
    case DpSharding::optim_grads_params: {
      const double backward = exposed(ag_s + rs_s, backward_mb);
      const double rs_share = ag_s + rs_s > 0 ? rs_s / (ag_s + rs_s) : 0.0;
      r.dp_reduce_scatter_exposed = s.mb * backward * rs_share;
      r.dp_all_gather_exposed = s.mb * (exposed(ag_s, forward_mb) + backward * (1.0 - rs_share));
      return s.mb * (2.0 * ag_s + rs_s);
    }
  }
  return rs_s + ag_s;
}

// The most NICs one ring is counted on: the published measurements reach 8 GPUs (and NICs) a
// node (NVIDIA/nccl issues #812, #1168); a larger NVLink domain (GB200 NVL72) is held at 8, an
// engineering bound where no measurement was found.
constexpr double k_max_ring_nics = 8;

// NICs one rank's ring collective runs over when its group leaves the node: the group's ranks
// on one node, ranks `stride` apart, at least one and at most k_max_ring_nics (dp_reduction_term
// says why). A pipeline stage (world/PP consecutive ranks) that does not fill whole nodes shares
// a node with the next stage: its ranks there are gcd(world/PP, gpus per node).
double dp_group_nics(const StepShape& s, double group, double stride) {
  const long long stage = std::max(1LL, static_cast<long long>(s.cluster.gpus) / std::max(1, s.L.pp));
  const long long on_node = std::gcd(stage, static_cast<long long>(std::max(s.cluster.gpus_per_node, 1)));
  const double per_node = std::floor(double(on_node) / std::max(stride, 1.0));
  return std::clamp(std::min(per_node, k_max_ring_nics), 1.0, std::max(group, 1.0));
}

double dp_reduction_term(const StepShape& s, StepSeconds& r) {
  // Data parallel: reduce-scatter of the gradients (Megatron accumulates and reduces bf16
  // runs' gradients in fp32, as the memory model's 4 bytes per gradient; 2 with
  // --grad-reduce-in-bf16) and all-gather of bf16 weights (the distributed optimizer),
  // (G-1)/G of the shard each, G = DP·CP for the dense part and EDP for the experts; over the
  // NIC once the group (world/PP consecutive ranks) leaves a node.
  const ModelFlops& f = s.f;
  const ParallelLayout& L = s.L;
  const StepTimeOptions& o = s.o;
  const double world = s.cluster.gpus;
  const double dense_group = L.dp_cp();
  const double stage_share = stage_layer_share(f, L, r);
  const double end_params = end_stage_params(f, L);
  const double dense_shard = f.dense_params * stage_share / L.tp + end_params / L.tp;
  const double expert_shard = f.routed_params * stage_share / (double(L.ep) * L.etp);
  // (G-1)/G of the shard twice: 4 bytes (2 in bf16) reduce-scattered, 2 bytes all-gathered (1 for the
  // linear layers' weights with --fp8-param-gather, which gathers them in fp8; the embedding
  // and head stay bf16: MemoryOptions::fp8_param_gather): the precision's bytes.
  const PrecisionSpec& bytes = s.precision;
  const double gathered = bytes.gathered(o.fp8_param_gather);
  const double dense_gathered = gathered * (dense_shard - end_params / L.tp) + bytes.gathered_bytes * end_params / L.tp;
  const double reduced = bytes.gradient(o.grad_reduce_in_bf16);
  const double dense_part = dense_group > 1 ? (dense_group - 1.0) / dense_group : 0.0;
  const double expert_part = L.edp > 1 ? (L.edp - 1.0) / L.edp : 0.0;
  const double rs_dense = dense_part * reduced * dense_shard, ag_dense = dense_part * dense_gathered;
  const double rs_bytes = rs_dense + expert_part * reduced * expert_shard;
  const double ag_bytes = ag_dense + expert_part * gathered * expert_shard;
  r.dp_dense_bytes = dense_part * (reduced * dense_shard + dense_gathered);
  r.dp_expert_bytes = expert_part * (reduced + gathered) * expert_shard;
  r.dp_off_node = world / L.pp > std::max(s.cluster.gpus_per_node, 1);
  // Off the node a ring collective runs at the NICs of the group's ranks on one node: NCCL
  // routes each channel's inter-node hop through another NIC, so a node's k ranks of the group
  // move its data at k NICs' rate, the NVLink ring between them the ceiling ("On an Nvidia
  // DGX-A100 system we have 8x200Gbit/s IB cards and we measure 192GB/s AllReduce BusBW",
  // NVIDIA/nccl issue #812; 45 GB/s with 4 GPUs a node and 90 with 8, NVIDIA/nccl #1168).
  // Megatron orders ranks tp-cp-ep-dp-pp: the dense group (DP·CP) strides TP, the experts'
  // (EDP) ETP·EP; dp_group_nics counts a stage's ranks on a node over the stride.
  r.dp_dense_nics = dp_group_nics(s, dense_group, L.tp);
  r.dp_expert_nics = dp_group_nics(s, L.edp, double(L.etp) * L.ep);
  const double dense_rate = r.dp_off_node ? std::min(s.nvlink, s.nic * r.dp_dense_nics) : s.nvlink;
  const double expert_rate = r.dp_off_node ? std::min(s.nvlink, s.nic * r.dp_expert_nics) : s.nvlink;
  // What hides them: Megatron's distributed optimizer reduce-scatters each bucket (a layer,
  // or a virtual stage's layers) as the backward pass of the step's LAST micro-batch frees
  // its gradients, and all-gathers the updated weights bucket by bucket ahead of the forward
  // pass of the FIRST micro-batch of the next step (--overlap-grad-reduce,
  // --overlap-param-gather; Megatron-Bridge docs, "Communication Overlap": "exposes only one DP
  // communication chunk"). So what one micro-batch's backward (forward) cannot cover stays on
  // the critical path: a short pass - a small model, few micro-batches - hides little. At
  // most dp_overlap of each is hidden (--dp-overlap: the exposed chunk and the bucket
  // boundaries), and 0 hides nothing.
  const auto& sec = r.seconds;
  // Eq. 12's 2 of 6 forward and 4 backward, the attention core's own split, and the recompute.
  const double forward_first = forward_pass_seconds(r) / s.mb;
  const double backward_last =
      (sec[k_gemm] + sec[k_attention] + sec[k_memory_bound] + sec[k_recompute]) / s.mb - forward_first;
  const double rs_s = transfer(rs_dense, dense_rate) + transfer(rs_bytes - rs_dense, expert_rate);
  const double ag_s = transfer(ag_dense, dense_rate) + transfer(ag_bytes - ag_dense, expert_rate);
  // Without Megatron's overlap flags (off by default) a collective waits for the whole pass.
  r.dp_reduce_scatter_exposed =
      o.overlap_grad_reduce ? std::max((1.0 - o.dp_overlap) * rs_s, rs_s - backward_last) : rs_s;
  r.dp_all_gather_exposed =
      o.overlap_param_gather ? std::max((1.0 - o.dp_overlap) * ag_s, ag_s - forward_first) : ag_s;
  const double moved = sharded_dp_collectives(s, rs_s, ag_s, forward_first, backward_last, r);
  r.dp_hidden = std::max(0.0, moved - r.dp_reduce_scatter_exposed - r.dp_all_gather_exposed);
  double seconds = r.dp_reduce_scatter_exposed + r.dp_all_gather_exposed;
  // With PP > 1 a copy of the embedding on the last stage (a tied output head, or the one MTP
  // modules read) has its gradients all-reduced with the first stage's after the backward pass
  // (Megatron's _allreduce_word_embedding_grads): V·d/TP gradients between two ranks, PP-1
  // stages apart, not overlapped.
  // Not MTP's under DualPipe: the first and last stages share a GPU and the embedding itself
  // (DeepSeek-V3 Sec. 3.2.3; memory_model.cpp's params_of_rank).
  // Nor a tied head's under DualPipe, for the same reason.
  const bool mtp_copy = f.mtp_layers > 0 && !L.dualpipe;
  if (L.pp > 1 && ((f.tied_embeddings && !L.dualpipe) || mtp_copy)) {
    r.embedding_sync_bytes = reduced * f.vocab_params / L.tp;
    r.embedding_sync_for_mtp = mtp_copy;
    seconds += transfer(r.embedding_sync_bytes, r.p2p_off_node ? s.nic : s.nvlink);
  }
  return seconds;
}

double optimizer_term(const StepShape& s, StepSeconds& r) {
  // The optimizer step (Adam, Megatron's distributed optimizer): each rank updates its shard
  // of the busiest stage's weights, the dense part over DP·CP ranks and the experts over EDP,
  // memory-bound at achieved HBM bandwidth. Bytes per parameter, each read or written once:
  // the gradient norm reads the gradient (g); Adam reads the gradient, the fp32 master weight,
  // m and v (g + 12) and writes the master, m and v (12); the bf16 weight is written from the
  // master (read 4, write 2): 2 x 4 + 30 = 38 bytes on the fp32 main gradient; a bf16-reduced
  // gradient (--grad-reduce-in-bf16) is copied to fp32 first (read 2, write 4): 44; 8 fewer
  // with m and v in bf16 (--bf16-moments). Megatron's fused
  // multi-tensor Adam and grad-norm kernels; the bytes are the precision's, as the memory
  // model's (PrecisionSpec::adam_step_bytes).
  const ModelFlops& f = s.f;
  const ParallelLayout& L = s.L;
  const double stage_share = stage_layer_share(f, L, r);
  const double end_params = end_stage_params(f, L);
  const double dense_local = (f.dense_params * stage_share + end_params) / L.tp / L.dp_cp();
  const double expert_local = f.routed_params * stage_share / (double(L.ep) * L.etp) / std::max(L.edp, 1);
  r.optimizer_params = dense_local + expert_local;
  r.optimizer_bytes = r.optimizer_params * s.precision.adam_step_bytes(s.o.grad_reduce_in_bf16, s.o.bf16_moments);
  return transfer(r.optimizer_bytes, s.hbm);
}

StepSeconds step_seconds(const ModelFlops& f, const Cluster& cluster, const ParallelLayout& L,
                         const StepTimeOptions& o, double load_factor, bool allow_uneven) {
  StepSeconds r;
  const StepShape s = step_shape(f, cluster, L, o, load_factor, allow_uneven, r);
  // In this order: the recompute re-runs the first three, the host waits on the first six,
  // the pipeline's bubble idles on the first seven, the data-parallel reduction hides behind
  // the first four.
  auto& sec = r.seconds;
  sec[k_gemm] = gemm_term(s, r);
  sec[k_attention] = attention_term(s, r);
  sec[k_memory_bound] = memory_bound_term(s, r);
  sec[k_recompute] = recompute_term(s, r);
  sec[k_tp_collectives] = tp_collectives_term(s, r);
  sec[k_all_to_all] = all_to_all_term(s, r);
  sec[k_host] = host_term(s, r);
  sec[k_pipeline] = pipeline_term(s, r);
  sec[k_dp_reduction] = dp_reduction_term(s, r);
  sec[k_optimizer] = optimizer_term(s, r);

  for (double term : sec) r.total += term;
  r.tokens_per_second = r.total > 0 ? s.tokens / r.total : 0;
  // MFU as the field reports it: over the dense bf16 peak whatever the precision (PaLM's
  // definition, comparable across runs; an fp8 run can pass 1 on it), and over the peak of
  // the run's own precision (at most 1: no step is faster than its FLOPs at that peak).
  const double world = cluster.gpus;
  const double model_flops_per_second = f.M * r.tokens_per_second;
  const double bf16_peak = world * cluster.gpu.bf16_dense_flops, own_peak = world * dense_peak(cluster.gpu, o.precision);
  r.mfu = bf16_peak > 0 ? model_flops_per_second / bf16_peak : 0;
  r.mfu_of_precision_peak = own_peak > 0 ? model_flops_per_second / own_peak : 0;
  return r;
}

}  // namespace moeplan::cluster_detail
