// Seconds per training step of a parallel layout, term by term (docs/cluster.md, "Step
// time"). A roofline: every term is a volume over a rate, the rates the GPU's datasheet
// figures times stated efficiencies. The numeric core (step_seconds) is shared with the
// layout search, which times thousands of layouts and formats only the ones it keeps.
#include "moeplan/cluster/step_time.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <numeric>

#include <fmt/format.h>

#include "moeplan/model/gemm_shapes.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/base/units.hpp"
#include "step_model.hpp"

namespace moeplan {

namespace cluster_detail {

const std::array<const char*, k_step_terms> k_step_term_names = {
    "gemm", "attention", "memory_bound", "recompute", "tp_collectives", "all_to_all", "pipeline", "dp_reduction"};

ModelFlops model_flops(const ModelConfig& m, const ParameterCounts& p, int seq_len) {
  // Paper 002 Eq. 12 (holistic-002): M = 6 N_a + the score FLOPs; flops_per_token is the one
  // place M is counted, so MFU here is the MFU of `score` and `suggest`.
  const FlopsBreakdown fb = flops_per_token(m, p, FlopsConvention::holistic_002, seq_len);
  ModelFlops f;
  f.dense_per_token = 6.0 * (p.attention + p.dense_ffn + p.shared).value();
  f.expert_per_token = 6.0 * p.routed_active.value();
  f.scores_per_token = fb.attention - 6.0 * p.attention.value();
  f.M = fb.M().value();
  f.dense_params = (p.attention + p.dense_ffn + p.shared).value();
  f.routed_params = p.routed_total.value();
  f.embedding_params = p.embedding.value();
  f.vocab_params = double(m.vocab_size) * m.hidden_size;
  f.layers = m.num_hidden_layers;
  f.moe_layers = m.is_moe() ? m.moe_layers() : 0;
  f.mtp_layers = mtp_modules(m);
  f.mtp_moe = m.is_moe();
  f.tied_embeddings = m.tie_word_embeddings;
  f.hidden = m.hidden_size;
  f.top_k = m.is_moe() ? m.num_experts_per_tok : 0;
  // GEMM shapes: per-layer averages of the counted weights, widths before sharding.
  const double d = m.hidden_size;
  f.gated = m.ffn_gated;
  const double matrices = m.ffn_gated ? 3.0 : 2.0;
  const int heads = m.num_attention_heads;
  const int head_dim = m.head_dim > 0 ? m.head_dim : (heads > 0 ? m.hidden_size / heads : 0);
  const int v_dim = m.latent_attention ? m.latent_attention->v_head_dim : head_dim;
  const int qk_rope = m.latent_attention ? m.latent_attention->qk_rope_head_dim : head_dim;
  const int kv_heads = m.latent_attention ? 1 : m.num_key_value_heads;
  f.attention_out_width = double(heads) * v_dim;
  if (f.layers > 0 && d > 0) {
    const double per_layer = (p.attention + p.linear_mixers).value() / f.layers;
    f.attention_in_width = std::max(0.0, per_layer / d - f.attention_out_width);
  }
  f.rope_width = double(heads + kv_heads) * qk_rope;
  if (m.latent_attention) {
    const LatentAttention& a = *m.latent_attention;
    f.mla_q_rank = a.q_lora_rank;
    f.mla_q_width = a.q_lora_rank > 0 ? double(heads) * (a.qk_nope_head_dim + a.qk_rope_head_dim) : 0.0;
    f.mla_kv_rank = a.kv_lora_rank;
    f.mla_kv_width = double(heads) * (a.qk_nope_head_dim + a.v_head_dim);
  }
  f.dense_ffn_width = m.intermediate_size;
  if (m.intermediate_size > 0 && d > 0) {
    f.dense_ffn_layers = p.dense_ffn.value() / (matrices * d * m.intermediate_size);
  }
  if (f.moe_layers > 0 && d > 0) {
    f.shared_width = p.shared.value() / (f.moe_layers * matrices * d);
    f.experts = m.n_routed_experts;
    f.expert_width = p.routed_total.value() / (double(f.moe_layers) * m.n_routed_experts * matrices * d);
  }
  return f;
}

double last_stage_extra_layers(const ModelFlops& f) {
  const double per_layer = f.layers > 0 ? (f.dense_per_token + f.expert_per_token + f.scores_per_token) / f.layers : 0;
  if (!(per_layer > 0)) return 0;
  const double head = 6.0 * f.vocab_params / per_layer;
  const double projection = 6.0 * 2.0 * f.hidden * f.hidden / per_layer;  // eh_proj: 2d -> d
  return (1.0 + f.mtp_layers) * head + f.mtp_layers * (1.0 + projection);
}

int ep_peers_on_node(int ep, int etp, int gpus_per_node) {
  if (ep <= 1) return 0;
  const int block = ep * etp;
  const int piece = std::gcd(block, std::max(gpus_per_node, 1));
  return std::clamp(piece / etp, 1, ep) - 1;
}

int ep_nodes(int ep, int etp, int gpus_per_node) {
  const int block = ep * etp;
  const int g = std::max(gpus_per_node, 1);
  if (block <= g) return g % block == 0 ? 1 : 2;
  return (block + g - 1) / g;
}

namespace {

/// Bytes over an effective rate; a volume with no link to carry it takes forever.
double transfer(double bytes, double rate) {
  if (bytes <= 0) return 0;
  return rate > 0 ? bytes / rate : std::numeric_limits<double>::infinity();
}

}  // namespace

StepSeconds step_seconds(const ModelFlops& f, const Cluster& cluster, const ParallelLayout& L,
                         const StepTimeOptions& o, double load_factor, bool allow_uneven) {
  StepSeconds r;
  const GpuSpec& gpu = cluster.gpu;
  const double world = cluster.gpus;
  const int per_node = std::max(cluster.gpus_per_node, 1);
  const double S = o.seq_len;
  const double tokens = double(L.global_batch) * S;
  r.tokens_per_step = tokens;
  r.load_factor = load_factor;

  const std::optional<StageSplit> split =
      stage_split(f.layers, L.pp, L.first_stage_layers, L.last_stage_layers, allow_uneven);
  // The output head (6·V·d FLOPs per token, outside M like every embedding FLOP) runs on the
  // last stage: in layers' worth of GEMMs it can outweigh two layers (V = 152k, d = 4096); so
  // do the MTP modules, which Megatron-LM places there too (a decoder layer, eh_proj and the
  // head again each). The busiest stage is the last one when its layers plus those are the
  // larger; its layers, MTP layers included, are what the per-layer terms count.
  const int decoder_most = split ? split->most() : (f.layers + L.pp - 1) / L.pp;
  const int last = split ? split->last : decoder_most;
  const int mtp = f.mtp_layers;
  r.stage_layers = std::max(decoder_most, last + mtp);
  r.stage_mtp_layers = last + mtp >= decoder_most ? mtp : 0;
  const double busiest = std::max<double>(decoder_most, last + last_stage_extra_layers(f));
  r.stage_imbalance = busiest * L.pp / f.layers;
  // The busiest stage's MoE layers: a middle stage is all MoE once the leading dense layers
  // are behind it, so the count is its layers, at most L_m (plus the MTP modules' MoE layers).
  const int moe_cap = f.moe_layers + (f.mtp_moe ? r.stage_mtp_layers : 0);
  r.stage_moe_layers = std::min<double>(moe_cap, r.stage_layers);
  const long long per_step = static_cast<long long>(L.micro_batch) * L.dp;
  r.microbatches = per_step > 0 ? std::max(1LL, L.global_batch / per_step) : 1;
  const double mb = static_cast<double>(r.microbatches);

  // GEMMs: each linear layer of a micro-batch at its own shape (after TP/ETP sharding, the
  // routed experts at the rows the busiest expert rank's experts receive), by the shape model
  // (gemm_rate.hpp) in the run's precision, or at a measured rate; forward, data- and
  // weight-gradient GEMMs; the busiest pipeline stage (the last one counts the output head).
  const double s_tokens = S / L.cp;
  const double rows = s_tokens * L.micro_batch;  // T: a micro-batch's tokens on one rank
  const double t = L.tp;
  const double tokens_rank = rows / t;  // under SP: the tokens a rank holds outside the GEMMs
  const double etp = L.etp;
  GemmRateModel model = GemmRateModel::of(gpu, o.precision, o.gemm_efficiency);
  if (o.measured_gemm_rates) {  // a table measured on this GPU, by shape
    model.measured = o.measured_gemm_rates.get();
  } else if (o.measured_gemm_flops) {  // a benchmark of this GPU: its rate, no shape model
    model.peak = *o.measured_gemm_flops;
    model.efficiency = 1.0;
    model.shaped = false;
  }
  r.gemm_ceiling = model.peak * model.efficiency;
  const double in_factor = f.gated ? 2.0 : 1.0;  // gate and up, or up alone
  const double attention_s = training_gemm_seconds(model, 1, rows, f.attention_in_width / t, f.hidden) +
                             training_gemm_seconds(model, 1, rows, f.hidden, f.attention_out_width / t);
  const auto ffn_seconds = [&](double groups, double n_rows, double width, double shard) {
    if (!(width > 0) || !(n_rows > 0)) return 0.0;
    return training_gemm_seconds(model, groups, n_rows, in_factor * width / shard, f.hidden) +
           training_gemm_seconds(model, groups, n_rows, f.hidden, width / shard);
  };
  const double dense_ffn_s = ffn_seconds(1, rows, f.dense_ffn_width, t);
  const double shared_s = ffn_seconds(1, rows, f.shared_width, t);
  // Under SP a rank holds rows/TP tokens; ETP gathers etp ranks' tokens; K copies of each
  // go to the experts of the EP group, N_e/EP per rank: rows per local expert.
  const double local_experts = f.experts > 0 ? double(f.experts) / L.ep : 0.0;
  const double routed_rows = f.moe_layers > 0 ? f.top_k * tokens_rank * etp * load_factor : 0.0;  // on this rank
  r.expert_rows = local_experts > 0 ? routed_rows / local_experts : 0.0;
  const double routed_s = local_experts > 0 ? ffn_seconds(local_experts, r.expert_rows, f.expert_width, etp) : 0.0;
  const double head_s = f.vocab_params > 0 ? training_gemm_seconds(model, 1, rows, f.vocab_params / f.hidden / t, f.hidden) : 0;
  // A stage of `layers` layers holds its MoE layers first (a middle stage is all MoE once
  // the leading dense layers are behind it), then dense FFNs.
  struct LayerMix {
    double moe, dense_ffn;
  };
  const auto mix_of = [&](double layers) {
    const double moe = std::min<double>(moe_cap, layers);
    return LayerMix{moe, std::min(f.dense_ffn_layers, layers - moe)};
  };
  // GEMM seconds of one micro-batch on such a stage; the last one runs the head and the MTP
  // modules (their decoder layers, counted in `layers`, their eh_proj and head passes).
  const double proj_s = mtp > 0 ? training_gemm_seconds(model, 1, rows, f.hidden / t, 2.0 * f.hidden) : 0.0;
  const auto stage_gemm = [&](double layers, bool last_stage) {
    const LayerMix mix = mix_of(layers);
    return layers * attention_s + mix.moe * (shared_s + routed_s) + mix.dense_ffn * dense_ffn_s +
           (last_stage ? (1.0 + mtp) * head_s + mtp * proj_s : 0.0);
  };
  double gemm_mb = stage_gemm(r.stage_layers, L.pp == 1);
  if (split && L.pp > 1) {
    gemm_mb = std::max({stage_gemm(split->first, false), stage_gemm(split->middle, false),
                        stage_gemm(split->last + mtp, true)});
  }
  auto& sec = r.seconds;
  sec[k_gemm] = mb * gemm_mb;
  // FLOPs of those GEMMs, for the achieved rate the detail prints.
  const double dense = tokens * f.dense_per_token / world * r.stage_imbalance;
  const double experts = tokens * f.expert_per_token * load_factor / world * r.stage_imbalance;
  r.gemm_flops_gpu = dense + experts;
  r.expert_share = r.gemm_flops_gpu > 0 ? experts / r.gemm_flops_gpu : 0;
  r.gemm_rate = sec[k_gemm] > 0 ? r.gemm_flops_gpu / sec[k_gemm] : 0;
  const double routed_flops = 6.0 * routed_rows * (in_factor + 1.0) * f.expert_width / etp * f.hidden;
  r.expert_gemm_rate = routed_s > 0 ? routed_flops / routed_s : 0;
  r.scores_flops_gpu = tokens * f.scores_per_token / world * r.stage_imbalance;
  // The attention core (flash attention) is bf16 in every recipe, at the bf16 ceiling.
  const double attention_rate = o.measured_gemm_flops ? *o.measured_gemm_flops : gpu.bf16_dense_flops * o.gemm_efficiency;
  sec[k_attention] = transfer(r.scores_flops_gpu, attention_rate);

  // A SwiGLU's bytes through HBM on one micro-batch, forward (read gate and up, 2f; write f;
  // bf16): of a dense-FFN layer, of the shared experts, of the routed rows on this rank. The
  // memory-bound term and the recompute of those activations both count them.
  const double dense_swiglu_bytes = rows * 3.0 * f.dense_ffn_width / t * 2.0;
  const double shared_swiglu_bytes = rows * 3.0 * f.shared_width / t * 2.0;
  const double routed_swiglu_bytes = routed_rows * 3.0 * f.expert_width / etp * 2.0;

  // Memory-bound kernels (docs/step-model.md, "Memory-bound work"): bytes each token moves
  // through HBM per layer outside the GEMMs, forward; the backward reads the saved input and
  // the incoming gradient and writes the input gradient (2x); at achieved HBM bandwidth.
  {
    const double d = f.hidden;
    // Two RMSNorms (read d, write d) and two residual adds (read 2d, write d): 10 d values.
    double layer_bytes = tokens_rank * 10.0 * d * 2.0;
    layer_bytes += rows * 2.0 * f.rope_width / t * 2.0;  // RoPE: read and write q and k
    double dense_ffn_bytes = dense_swiglu_bytes;
    double moe_bytes = shared_swiglu_bytes;
    if (routed_rows > 0) {
      moe_bytes += tokens_rank * (d * 2.0 + 3.0 * f.experts * 4.0);  // router: read x, softmax/top-k fp32
      moe_bytes += routed_rows * (4.0 * d);                           // permute: read and write K copies
      moe_bytes += routed_swiglu_bytes;
      moe_bytes += routed_rows * (2.0 * d) + tokens_rank * 2.0 * d;   // unpermute: read K copies, write one
    }
    if (o.precision == Precision::fp8) {
      // Transformer Engine casts each linear layer's input (forward) and output gradient
      // (backward) to fp8: read 2 bytes, write 1 and its transpose 1 (docs/step-model.md).
      const double cast = 4.0;
      layer_bytes += rows * (d + f.attention_out_width / t) * cast;
      dense_ffn_bytes += rows * (d + f.dense_ffn_width / t) * cast;
      moe_bytes += rows * (f.shared_width > 0 ? d + f.shared_width / t : 0.0) * cast;
      moe_bytes += routed_rows * (d + f.expert_width / etp) * cast;
    }
    const LayerMix mix = mix_of(r.stage_layers);
    const double fwd = r.stage_layers * layer_bytes + mix.moe * moe_bytes + mix.dense_ffn * dense_ffn_bytes;
    r.memory_bound_bytes = 3.0 * fwd * mb;
    sec[k_memory_bound] = transfer(r.memory_bound_bytes, gpu.hbm_bandwidth * k_hbm_efficiency);
  }
  // Recompute re-runs forward work, a third of its training time (paper 002 Eq. 12's 6 =
  // 2 forward + 4 backward): every layer (full), or the modules a selective recompute names
  // (Megatron's --recompute-modules; its default, core_attn, the attention core): the norms
  // and activations at HBM bandwidth, the GEMMs of the MLP, shared experts and MLA
  // up-projections at their shapes' rates.
  if (L.recompute == Recompute::full) {
    sec[k_recompute] = (sec[k_gemm] + sec[k_attention] + sec[k_memory_bound]) / 3.0;
  } else {
    const unsigned mods = L.recomputed_modules();
    const LayerMix mix = mix_of(r.stage_layers);
    double fwd_gemm = 0, fwd_bytes = 0;  // one micro-batch's, on the busiest stage
    if ((mods & recompute_layernorm) != 0) {
      fwd_bytes += r.stage_layers * tokens_rank * 2.0 * (2.0 * f.hidden) * 2.0;  // two norms: read d, write d
    }
    if ((mods & recompute_moe_act) != 0) fwd_bytes += mix.moe * routed_swiglu_bytes;
    if ((mods & recompute_mlp) != 0) {
      fwd_gemm += mix.dense_ffn * dense_ffn_s / 3.0;
      fwd_bytes += mix.dense_ffn * dense_swiglu_bytes;
    }
    if ((mods & recompute_shared_experts) != 0) {
      fwd_gemm += mix.moe * shared_s / 3.0;
      fwd_bytes += mix.moe * shared_swiglu_bytes;
    }
    if ((mods & recompute_mla_up_proj) != 0) {
      const double up_s = (f.mla_q_width > 0 ? training_gemm_seconds(model, 1, rows, f.mla_q_width / t, f.mla_q_rank) : 0.0) +
                          (f.mla_kv_width > 0 ? training_gemm_seconds(model, 1, rows, f.mla_kv_width / t, f.mla_kv_rank) : 0.0);
      fwd_gemm += r.stage_layers * up_s / 3.0;
    }
    sec[k_recompute] = ((mods & recompute_core_attn) != 0 ? sec[k_attention] / 3.0 : 0.0) +
                       mb * (fwd_gemm + (fwd_bytes > 0 ? transfer(fwd_bytes, gpu.hbm_bandwidth * k_hbm_efficiency) : 0.0));
  }

  // TP + SP: each TP-sharded module (attention; a dense layer's FFN; an MoE layer's shared
  // experts) all-gathers its input and reduce-scatters its output, forward and backward:
  // 4 collectives per module and micro-batch, 2·s·b·h bytes each, (t-1)/t of it over NVLink
  // (Korthikanti et al. 2022 Sec. 4.2.2); a full recompute repeats the forward pair. The
  // routed experts are not TP-sharded: Megatron's token dispatcher gathers and scatters over
  // the expert-TP group (token_dispatcher.py: tp_group = expt_tp), so only with ETP > 1, the
  // rows its experts receive, 2·h·rows·(etp-1)/etp bytes each.
  const double sbh = rows * f.hidden;
  const bool full = L.recompute == Recompute::full;
  const double nvlink = gpu.intra_node_bandwidth * o.network_efficiency;
  const double nic = gpu.network_bandwidth * o.network_efficiency;
  if (L.tp > 1 || (L.etp > 1 && routed_rows > 0)) {
    const double per_module = full ? 6.0 : 4.0;  // AG + RS forward, their two backward, the recompute's forward pair
    r.tp_bytes = L.tp > 1 ? 2.0 * sbh * (L.tp - 1.0) / L.tp : 0.0;
    r.etp_bytes = L.etp > 1 ? 2.0 * f.hidden * routed_rows * (L.etp - 1.0) / L.etp : 0.0;
    const double module_all = per_module * transfer(r.tp_bytes, nvlink);  // one module's collectives
    const double dispatcher = per_module * transfer(r.etp_bytes, nvlink);
    // With --tp-comm-overlap Transformer Engine pipelines each collective with the GEMM beside
    // it: a module's collectives are exposed only where they outlast its GEMMs (forward, both
    // backward GEMMs and a full recompute's forward again). The dispatcher's are outside
    // Transformer Engine's linear layers: they stay exposed.
    const double recompute_gemm = full ? 4.0 / 3.0 : 1.0;
    const auto exposed = [&](double module_gemm_s) {
      return o.tp_comm_overlap ? std::max(0.0, module_all - recompute_gemm * module_gemm_s) : module_all;
    };
    const LayerMix mix = mix_of(r.stage_layers);
    const bool shared = f.shared_width > 0;
    r.tp_modules = r.stage_layers + mix.dense_ffn + (shared ? mix.moe : 0.0);
    sec[k_tp_collectives] = mb * (r.stage_layers * exposed(attention_s) + mix.dense_ffn * exposed(dense_ffn_s) +
                                  (shared ? mix.moe * exposed(shared_s) : 0.0) + mix.moe * dispatcher);
    r.tp_hidden = mb * (r.tp_modules * module_all + mix.moe * dispatcher) - sec[k_tp_collectives];
  }

  // Expert-parallel all-to-all: dispatch and combine, forward and backward (and the forward
  // pair again under full recompute), K·(s·b/t)·h bytes × load × (EP-1)/EP each, 2 bytes a
  // value (fp8 runs through DeepEP dispatch 1 byte plus a scale per 128 values and combine in
  // bf16, as DeepSeek-V3 Sec. 3.3.2; NCCL's all-to-all sends the bf16 hidden states as they
  // are: Megatron-LM's alltoall dispatcher, moe_dispatch_fwd_dtype default 'bf16'); the share
  // for other nodes at the NIC, the rest at NVLink, each at DeepEP's achieved fraction, in
  // parallel: the slower one; a2a_overlap of it hidden.
  if (L.ep > 1 && f.moe_layers > 0) {
    const double values = f.top_k * tokens_rank * f.hidden * load_factor * (L.ep - 1.0) / L.ep;
    const bool fp8_dispatch = o.precision == Precision::fp8 && o.a2a_node_dedup;
    const double dispatch_bytes = fp8_dispatch ? 1.0 + 4.0 / 128.0 : 2.0;
    r.a2a_bytes = values * 2.0;
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
      nic_values = std::min(nic_values, tokens_rank * f.hidden * load_factor * reached);
    }
    r.a2a_nic_share = values > 0 ? nic_values / values : 0;
    const double a2a_nic = gpu.network_bandwidth * o.a2a_efficiency_inter;
    const double a2a_nvlink = gpu.intra_node_bandwidth * o.a2a_efficiency_intra;
    // Every copy crosses NVLink (forwarded copies on the target node); the NIC share at the NIC.
    const double nvlink_share = o.a2a_node_dedup && nodes > 1 ? 1.0 : 1.0 - r.a2a_off_node;
    const auto one = [&](double bytes_per_value) {
      return std::max(transfer(values * r.a2a_nic_share * bytes_per_value, a2a_nic),
                      transfer(values * nvlink_share * bytes_per_value, a2a_nvlink));
    };
    // Forward and backward each dispatch and combine once; the backward's dispatch carries
    // gradients (bf16), the forward's the activations (fp8 in an fp8 run through DeepEP).
    const double pair = one(dispatch_bytes) + 3.0 * one(2.0) + (full ? one(dispatch_bytes) + one(2.0) : 0.0);
    sec[k_all_to_all] = (1.0 - o.a2a_overlap) * r.stage_moe_layers * mb * pair;
  }

  // Pipeline: the bubble (PP-1)/(VPP·m) of the work of the step (Narayanan et al. 2021,
  // Sec. 2.2), and the sends between stages: an activation forward and its gradient back
  // per micro-batch and virtual stage, s·b·h·2/t bytes (scattered by SP), plus the fill;
  // interleaving multiplies them by VPP (ibid. Sec. 2.2.2). Stages are world/PP ranks
  // apart (PP the outermost group), on other nodes once world/PP reaches a node.
  if (L.pp > 1) {
    const double work = sec[k_gemm] + sec[k_attention] + sec[k_memory_bound] + sec[k_recompute] +
                        sec[k_tp_collectives] + sec[k_all_to_all];
    r.bubble = work * (L.pp - 1.0) / (L.vpp * mb);
    r.p2p_off_node = world / L.pp >= per_node;
    const double bytes = sbh * 2.0 / L.tp;
    const double one = transfer(bytes, r.p2p_off_node ? nic : nvlink);
    r.p2p = 2.0 * (L.vpp * mb + L.pp - 1.0) * one;
    if (o.p2p_overlap && L.vpp > 1) {
      // Megatron's interleaved schedule posts each chunk's send and receive beside the next
      // chunk's compute (overlap_p2p_comm): the fill and drain's 2·(PP−1) sends stay on the
      // critical path, the steady state's only where a send outlasts a chunk's forward (a
      // third of its work, Eq. 12's 2 of 6).
      const double chunk_forward = work / (L.vpp * mb) / 3.0;
      const double exposed = 2.0 * (L.pp - 1.0) * one + 2.0 * L.vpp * mb * std::max(0.0, one - chunk_forward);
      r.p2p_hidden = r.p2p - exposed;
      r.p2p = exposed;
    }
    sec[k_pipeline] = r.bubble + r.p2p;
  }

  // Data parallel: reduce-scatter of the gradients (Megatron accumulates and reduces bf16
  // runs' gradients in fp32, as the memory model's 4 bytes per gradient; 2 with
  // --grad-reduce-in-bf16) and all-gather of bf16 weights (the distributed optimizer),
  // (G-1)/G of the shard each, G = DP·CP for the dense part and EDP for the experts; over the
  // NIC once the group (world/PP consecutive ranks) leaves a node. dp_overlap of it hides
  // behind the backward pass.
  const double dense_group = double(L.dp) * L.cp;
  const double stage_share = double(r.stage_layers) / f.layers;
  const double end_params = L.pp == 1 ? f.embedding_params : f.vocab_params;
  const double dense_shard = f.dense_params * stage_share / L.tp + end_params / L.tp;
  const double expert_shard = f.routed_params * stage_share / (double(L.ep) * L.etp);
  // (G-1)/G of the shard twice: 4 bytes (2 in bf16) reduce-scattered, 2 bytes all-gathered (1 for the
  // linear layers' weights with --fp8-param-gather, which gathers them in fp8; the embedding
  // and head stay bf16: MemoryOptions::fp8_param_gather).
  const double gathered = o.precision == Precision::fp8 && o.fp8_param_gather ? 1.0 : 2.0;
  const double dense_gathered = gathered * (dense_shard - end_params / L.tp) + 2.0 * end_params / L.tp;
  const double reduced = o.grad_reduce_in_bf16 ? 2.0 : 4.0;
  r.dp_dense_bytes = dense_group > 1 ? (dense_group - 1.0) / dense_group * (reduced * dense_shard + dense_gathered) : 0;
  r.dp_expert_bytes = L.edp > 1 ? (L.edp - 1.0) / L.edp * (reduced + gathered) * expert_shard : 0;
  r.dp_off_node = world / L.pp > per_node;
  const double dp_rate = r.dp_off_node ? nic : nvlink;
  sec[k_dp_reduction] = (1.0 - o.dp_overlap) *
                        (transfer(r.dp_dense_bytes, dp_rate) + transfer(r.dp_expert_bytes, dp_rate));
  // With PP > 1 a copy of the embedding on the last stage (a tied output head, or the one MTP
  // modules read) has its gradients all-reduced with the first stage's after the backward pass
  // (Megatron's _allreduce_word_embedding_grads): V·d/TP gradients between two ranks, PP-1
  // stages apart, not overlapped.
  if (L.pp > 1 && (f.tied_embeddings || f.mtp_layers > 0)) {
    r.embedding_sync_bytes = reduced * f.vocab_params / L.tp;
    r.embedding_sync_for_mtp = f.mtp_layers > 0;
    sec[k_dp_reduction] += transfer(r.embedding_sync_bytes, r.p2p_off_node ? nic : nvlink);
  }

  for (double term : sec) r.total += term;
  r.tokens_per_second = r.total > 0 ? tokens / r.total : 0;
  // MFU as the field reports it: over the dense bf16 peak whatever the precision (PaLM's
  // definition, comparable across runs; an fp8 run can pass 1 on it), and over the peak of
  // the run's own precision (at most 1: no step is faster than its FLOPs at that peak).
  const double model_flops_per_second = f.M * r.tokens_per_second;
  const double bf16_peak = world * gpu.bf16_dense_flops, own_peak = world * dense_peak(gpu, o.precision);
  r.mfu = bf16_peak > 0 ? model_flops_per_second / bf16_peak : 0;
  r.mfu_of_precision_peak = own_peak > 0 ? model_flops_per_second / own_peak : 0;
  return r;
}

}  // namespace cluster_detail

using namespace cluster_detail;

double expert_load_factor(long long tokens, int top_k, int n_experts, int ep, double skew) {
  if (!(skew > 0) || ep <= 1 || n_experts <= 0 || top_k <= 0 || tokens <= 0 || n_experts % ep != 0) {
    return 1.0;
  }
  const std::vector<std::int64_t> rows = zipf_expert_rows(tokens, top_k, n_experts, skew);
  const int per_rank = n_experts / ep;
  double busiest = 0;
  for (int rank = 0; rank < ep; ++rank) {
    const auto first = rows.begin() + static_cast<std::ptrdiff_t>(rank) * per_rank;
    busiest = std::max(busiest, double(std::accumulate(first, first + per_rank, std::int64_t{0})));
  }
  const double mean = double(tokens) * top_k / ep;
  return std::max(1.0, busiest / mean);
}

double StepTime::seconds_of(const std::string& name) const {
  for (const StepTerm& t : terms) {
    if (t.name == name) return t.seconds;
  }
  return 0;
}

namespace {

const char* link_name(bool off_node) { return off_node ? "the NIC" : "NVLink"; }

std::string term_detail(int i, const StepSeconds& r, const ParallelLayout& L, const Cluster& c,
                        const StepTimeOptions& o) {
  const int per_node = std::max(c.gpus_per_node, 1);
  switch (i) {
    case k_gemm: {
      const std::string ceiling =
          o.measured_gemm_rates ? fmt::format("{} rates measured by shape, --gemm-table", o.measured_gemm_rates->rows.size())
          : o.measured_gemm_flops
              ? std::string("measured")
              : fmt::format("{} {:.0f} peak × {:.2f}", to_string(o.precision),
                            dense_peak(c.gpu, o.precision) / 1e12,
                            o.gemm_efficiency);
      std::string s = fmt::format("{:.4g} TFLOP per GPU", r.gemm_flops_gpu / 1e12);
      if (r.expert_share > 0) {
        s += fmt::format(" (experts {:.0f} %, load {:.2f})", 100 * r.expert_share, r.load_factor);
      }
      if (o.measured_gemm_rates) {
        s += fmt::format(" at {:.0f} TFLOP/s achieved ({})", r.gemm_rate / 1e12, ceiling);
      } else {
        s += fmt::format(" at {:.0f} TFLOP/s achieved of {:.0f} ({}; GEMM shapes)", r.gemm_rate / 1e12,
                         r.gemm_ceiling / 1e12, ceiling);
      }
      if (r.expert_gemm_rate > 0) {
        s += fmt::format(", experts {:.0f} TFLOP/s at {:.0f} rows each", r.expert_gemm_rate / 1e12, r.expert_rows);
      }
      if (r.stage_imbalance > 1.0 + 1e-9) {
        s += fmt::format(", busiest stage {} layers{} (×{:.3f})", r.stage_layers,
                         r.stage_mtp_layers > 0 ? fmt::format(" with {} MTP", r.stage_mtp_layers) : std::string(),
                         r.stage_imbalance);
      }
      return s;
    }
    case k_attention:
      return fmt::format("S-dependent attention core, {:.4g} TFLOP per GPU (S = {}, CP {})",
                         r.scores_flops_gpu / 1e12, o.seq_len, L.cp);
    case k_memory_bound:
      return fmt::format("norms, residuals, RoPE, activations{}{}: {:.4g} GB per GPU at {:.3g} TB/s achieved HBM",
                         r.expert_rows > 0 ? ", router, permute and unpermute" : "",
                         o.precision == Precision::fp8 ? ", fp8 casts" : "", r.memory_bound_bytes / 1e9,
                         c.gpu.hbm_bandwidth * k_hbm_efficiency / 1e12);
    case k_recompute:
      switch (L.recompute) {
        case Recompute::none: return "none: every activation stored";
        case Recompute::selective:
          if (L.recompute_modules == k_default_recompute_modules) return "selective: the attention core's forward again";
          return fmt::format("selective: the forward of {} again", recompute_modules_string(L.recompute_modules, ", "));
        case Recompute::full: return "full: every layer's forward again";
      }
      return "";
    case k_tp_collectives: {
      if (r.tp_bytes == 0 && r.etp_bytes == 0) return "TP 1: none";
      const int per_module = L.recompute == Recompute::full ? 6 : 4;
      std::string s = r.tp_bytes > 0 ? fmt::format("{} per TP-sharded module (attention, dense FFN, shared experts) × "
                                                   "{:.3g} modules × {} micro-batches, {:.3g} MiB each",
                                                   per_module, r.tp_modules, r.microbatches, r.tp_bytes / k_mib)
                                     : std::string("TP 1");
      if (r.etp_bytes > 0) {
        s += fmt::format("; the MoE dispatcher's over ETP {}: {} per MoE layer, {:.3g} MiB each", L.etp, per_module,
                         r.etp_bytes / k_mib);
      }
      return fmt::format("{}, over NVLink{}", s,
                         o.tp_comm_overlap && L.tp > 1
                             ? fmt::format("; {:.3g} s of them hidden behind the linear layers' GEMMs (--tp-comm-overlap)",
                                           r.tp_hidden)
                             : std::string());
    }
    case k_all_to_all: {
      if (L.ep == 1 || r.a2a_bytes == 0) return fmt::format("EP {}: none", L.ep);
      std::string where =
          r.a2a_off_node > 0
              ? fmt::format("EP {} spans {} nodes, {:.0f} % of peers off-node", L.ep,
                            ep_nodes(L.ep, L.etp, per_node), 100 * r.a2a_off_node)
              : fmt::format("EP {} within a node", L.ep);
      std::string s = fmt::format("{} per MoE layer × {:.3g} MoE layer(s) × {} micro-batches, {:.3g} MiB each in bf16 ({})",
                         L.recompute == Recompute::full ? 6 : 4, r.stage_moe_layers, r.microbatches,
                         r.a2a_bytes / k_mib, where);
      if (r.a2a_off_node > 0) {
        s += fmt::format(", {:.0f} % of it over the NIC{}", 100 * r.a2a_nic_share,
                         o.a2a_node_dedup ? " (DeepEP: one copy per remote node)" : "");
      }
      if (o.precision == Precision::fp8) {
        s += o.a2a_node_dedup ? ", forward dispatch in fp8 (DeepEP)" : ", dispatch in bf16 (NCCL all-to-all)";
      }
      if (o.a2a_overlap > 0) s += fmt::format(", {:.0f} % hidden behind compute", 100 * o.a2a_overlap);
      return s;
    }
    case k_pipeline:
      if (L.pp == 1) return "PP 1: none";
      return fmt::format("bubble {:.3g} s ((PP−1)/(VPP·m) = {}/({}·{})), point-to-point {:.3g} s over {}{}",
                         r.bubble, L.pp - 1, L.vpp, r.microbatches, r.p2p, link_name(r.p2p_off_node),
                         r.p2p_hidden > 0 ? fmt::format(" ({:.3g} s more overlapped by the interleaved schedule)", r.p2p_hidden)
                                          : std::string());
    case k_dp_reduction: {
      const std::string embedding =
          r.embedding_sync_bytes > 0
              ? fmt::format("; {:.3g} GiB embedding gradients all-reduced between the first and last stages (the "
                            "last stage's copy: {})",
                            r.embedding_sync_bytes / k_gib, r.embedding_sync_for_mtp ? "MTP's embedding" : "the tied head")
              : std::string();
      if (r.dp_dense_bytes == 0 && r.dp_expert_bytes == 0) return "DP 1: none" + embedding;
      return fmt::format("{:.3g} GiB dense (DP·CP {}) + {:.3g} GiB experts (EDP {}) over {}, {:.0f} % hidden{}",
                         r.dp_dense_bytes / k_gib, L.dp * L.cp, r.dp_expert_bytes / k_gib, L.edp,
                         link_name(r.dp_off_node), 100 * o.dp_overlap, embedding);
    }
    default: return "";
  }
}

}  // namespace

StepTime step_time(const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
                   const ParallelLayout& layout, const StepTimeOptions& options) {
  if (options.seq_len <= 0) throw std::logic_error("step model: S (StepTimeOptions::seq_len) not set");
  const ModelFlops f = model_flops(m, p, options.seq_len);
  const StepSeconds r = step_seconds(f, cluster, layout, options, options.expert_load_factor);
  StepTime t;
  t.terms.reserve(k_step_terms);
  for (int i = 0; i < k_step_terms; ++i) {
    t.terms.push_back({k_step_term_names[i], r.seconds[i], term_detail(i, r, layout, cluster, options)});
  }
  t.step_seconds = r.total;
  t.tokens_per_step = r.tokens_per_step;
  t.tokens_per_second = r.tokens_per_second;
  t.model_flops_per_token = f.M;
  t.mfu = r.mfu;
  t.mfu_of_precision_peak = r.mfu_of_precision_peak;
  return t;
}

std::expected<TrainingTime, ConstraintViolation> training_time(const StepTime& step, const Cluster& cluster,
                                                               Tokens tokens) {
  TrainingTime t;
  if (!(step.tokens_per_step > 0) || !(tokens.value() > 0)) return t;
  const double steps = std::ceil(tokens.value() / step.tokens_per_step);
  if (!(steps <= k_max_training_steps)) {  // a long long would overflow (negative days)
    return std::unexpected(ConstraintViolation{
        "at most 2^53 = 9.0e15 optimizer steps (man moeplan, LIMITS)",
        fmt::format("D = {:.4g} tokens at {:.4g} tokens per step is {:.4g} steps", tokens.value(),
                    step.tokens_per_step, steps)});
  }
  t.steps = static_cast<long long>(steps);
  // The last step trains what is left of D: a batch capped at D / S and rounded down leaves a
  // few sequences over, which take a few sequences' time, not a whole step's (issue 46).
  t.seconds = tokens.value() / step.tokens_per_step * step.step_seconds;
  t.days = t.seconds / 86400.0;
  t.gpu_hours = double(cluster.gpus) * t.seconds / 3600.0;
  return t;
}

}  // namespace moeplan
