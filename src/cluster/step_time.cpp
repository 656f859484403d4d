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

#include "moeplan/cluster/attention_rate.hpp"
#include "moeplan/model/gemm_shapes.hpp"
#include "moeplan/model/flops_conventions.hpp"
#include "moeplan/base/units.hpp"
#include "step_model.hpp"

namespace moeplan {

namespace cluster_detail {

const std::array<const char*, k_step_terms> k_step_term_names = {
    "gemm", "attention", "memory_bound", "recompute", "tp_collectives", "all_to_all", "host", "pipeline",
    "dp_reduction", "optimizer"};

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
  const int qk_dim = m.latent_attention ? m.latent_attention->qk_nope_head_dim + m.latent_attention->qk_rope_head_dim
                                        : head_dim;
  f.attention_head_dim = (qk_dim + v_dim) / 2.0;
  if (f.layers > 0 && d > 0) {
    const double per_layer = (p.attention + p.linear_mixers).value() / f.layers;
    f.attention_in_width = std::max(0.0, per_layer / d - f.attention_out_width);
  }
  f.rope_width = double(heads + kv_heads) * qk_rope;
  f.attention_gate_width = m.gated_attention ? double(heads) * head_dim : 0.0;
  f.post_block_norms = m.extras.post_block_norms;
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

// Where a rank's attention length lies against the measured kernel's table: "" inside it,
// else which end's rates it takes (attention_rate.hpp: the nearest point outside).
std::string attention_table_reach(const GpuSpec& gpu, double seq) {
  const auto range = attention_seq_range(gpu);
  if (!range || (seq >= range->first && seq <= range->second)) return "";
  return fmt::format(", outside the table's {:g}-{:g}: its {:g} point's rates", range->first, range->second,
                     seq < range->first ? range->first : range->second);
}

// The host term's note on the GPU's own host, where its catalog entry gives the per-call time
// and no flag replaced it.
std::string host_speed_words(const GpuSpec& gpu, const StepTimeOptions& o) {
  if (!(gpu.host_python_op_seconds > 0) || o.host_python_op_seconds) return "";
  return fmt::format("; a Python call {:.4g} us on this GPU's own host (GPU catalog, host_python_op_us)",
                     gpu.host_python_op_seconds * 1e6);
}

const char* link_name(bool off_node) { return off_node ? "the NIC" : "NVLink"; }

// The data-parallel term's line: what the collectives move, over which link, and what of it
// is exposed past which pass.
std::string dp_reduction_detail(const StepSeconds& r, const ParallelLayout& L, const StepTimeOptions& o) {
  const std::string embedding =
      r.embedding_sync_bytes > 0
          ? fmt::format("; {:.3g} GiB embedding gradients all-reduced between the first and last stages (the "
                        "last stage's copy: {})",
                        r.embedding_sync_bytes / k_gib, r.embedding_sync_for_mtp ? "MTP's embedding" : "the tied head")
          : std::string();
  if (r.dp_dense_bytes == 0 && r.dp_expert_bytes == 0) return "DP 1: none" + embedding;
  const auto where = [](bool overlapped, const char* pass, const char* flag) {
    return overlapped ? fmt::format("past the {}", pass) : fmt::format("whole (no {})", flag);
  };
  const std::string link =
      r.dp_off_node
          ? fmt::format("the NIC, a rank's ring over its group's NICs on a node (dense {:.0f}{})", r.dp_dense_nics,
                        r.dp_expert_bytes > 0 ? fmt::format(", experts {:.0f}", r.dp_expert_nics) : std::string())
          : std::string(link_name(false));
  // Megatron-FSDP moves these every micro-batch (the weights' gather twice when they are sharded).
  const std::string fsdp =
      o.dp_sharding == DpSharding::optim
          ? std::string()
          : fmt::format(" (Megatron-FSDP {}: each of the {} micro-batches reduce-scatters the gradients{})",
                        to_string(o.dp_sharding), r.microbatches,
                        o.dp_sharding == DpSharding::optim_grads_params ? " and gathers the weights twice" : "");
  return fmt::format("{:.3g} GiB dense (DP·CP {}) + {:.3g} GiB experts (EDP {}){} over {}; exposed: reduce-scatter "
                     "{:.3g} s {}, all-gather {:.3g} s {} ({:.3g} s hidden, at most {:.0f} % of each){}",
                     r.dp_dense_bytes / k_gib, L.dp_cp(), r.dp_expert_bytes / k_gib, L.edp, fsdp, link,
                     r.dp_reduce_scatter_exposed,
                     o.dp_sharding != DpSharding::optim
                         ? std::string("past every micro-batch's backward (Megatron-FSDP)")
                         : where(o.overlap_grad_reduce, "last micro-batch's backward", "--overlap-grad-reduce"),
                     r.dp_all_gather_exposed,
                     o.dp_sharding == DpSharding::optim_grads_params
                         ? std::string("past every micro-batch's forward and backward (Megatron-FSDP)")
                         : where(o.overlap_param_gather, "first one's forward", "--overlap-param-gather"),
                     r.dp_hidden, 100 * o.dp_overlap, embedding);
}

// The all-to-all term's line: what one all-to-all moves and where, and what of it is hidden.
std::string all_to_all_detail(const StepSeconds& r, const ParallelLayout& L, const Cluster& c,
                              const StepTimeOptions& o) {
  const int per_node = std::max(c.gpus_per_node, 1);
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
  if (const PrecisionSpec& p = precision_spec(o.precision); p.deepep_dispatch_bytes < p.all_to_all_bytes) {
    s += o.a2a_node_dedup ? fmt::format(", forward dispatch in {} (DeepEP)", p.name)
                          : std::string(", dispatch in bf16 (NCCL all-to-all)");
  }
  if (o.a2a_overlap <= 0 || r.a2a_hidden <= 0) return s;
  s += fmt::format(", {:.0f} % ({:.3g} s) overlapped with compute", 100 * o.a2a_overlap, r.a2a_hidden);
  if (r.a2a_outlasts_compute) {
    return s + fmt::format(", longer than that compute: {:.3g} s of it counted", r.a2a_overlap_seconds);
  }
  if (r.a2a_sm_share > 0) {
    return s + fmt::format(", whose kernels lose DeepEP's {} of the {} SMs meanwhile: {:.3g} s counted", o.a2a_comm_sms,
                           c.gpu.sms, r.a2a_overlap_seconds);
  }
  return s + (o.a2a_node_dedup ? fmt::format(", the SMs DeepEP holds not counted (the catalog gives no SM count for the {})",
                                             c.gpu.id)
                               : std::string(", the SMs NCCL's all-to-all holds not counted (no published figure)"));
}

std::string memory_bound_detail(const StepSeconds& r, const Cluster& c, const StepTimeOptions& o) {
  return fmt::format("norms, residuals, RoPE, activations{}{}: {:.4g} GB per GPU at {:.3g} TB/s achieved HBM{}",
                     r.expert_rows > 0 ? ", router, permute and unpermute" : "",
                     precision_spec(o.precision).cast_bytes > 0
                         ? fmt::format(", {} casts", precision_spec(o.precision).name)
                         : std::string(),
                     r.memory_bound_bytes / 1e9, c.gpu.hbm_bandwidth * o.hbm_efficiency / 1e12,
                     o.memory_bound_scale != 1.0 ? fmt::format(", x {:g} (--memory-bound-scale)", o.memory_bound_scale)
                                                 : std::string());
}

std::string term_detail(int i, const StepSeconds& r, const ParallelLayout& L, const Cluster& c,
                        const StepTimeOptions& o) {
  switch (i) {
    case k_gemm: {
      const std::string ceiling =
          o.measured_gemm_rates ? fmt::format("{} rates measured by shape, --gemm-table", o.measured_gemm_rates->rows.size())
          : o.measured_gemm_flops
              ? std::string("measured")
              : fmt::format("{} {:.0f} peak × {:.2f}", to_string(o.precision),
                            dense_peak(c.gpu, o.precision) / 1e12,
                            o.linear_gemm_efficiency());
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
      if (r.attention_forward_rate > 0) {
        return fmt::format(
            "S-dependent attention core, {:.4g} TFLOP per GPU (S = {}, CP {}), causal forward at {:.0f} and backward "
            "at {:.0f} TFLOP/s{}{} (FlashAttention's count, the backward 2.5x the forward's FLOPs): the measured "
            "kernel at {:g} tokens (S/CP){} and head dim {:g} (presets/hardware/attention_rates.toml)",
            r.scores_flops_gpu / 1e12, o.seq_len, L.cp, r.attention_forward_rate / 1e12,
            r.attention_backward_rate / 1e12,
            L.cp > 1 ? fmt::format(", {:.3g} of the work causal, the rest unmasked", r.attention_causal_share)
                     : std::string(),
            o.attention_efficiency != 1.0 ? fmt::format(", these at x {:g} of the measured (--attention-efficiency)", o.attention_efficiency)
                                          : std::string(),
            double(o.seq_len) / L.cp, attention_table_reach(c.gpu, double(o.seq_len) / L.cp), r.attention_head_dim);
      }
      return fmt::format("S-dependent attention core, {:.4g} TFLOP per GPU (S = {}, CP {}) at the bf16 GEMM ceiling{} "
                         "(no measured attention kernel for this GPU)",
                         r.scores_flops_gpu / 1e12, o.seq_len, L.cp,
                         o.attention_efficiency != 1.0
                             ? fmt::format(" x {:g} (--attention-efficiency)", o.attention_efficiency)
                             : std::string());
    case k_memory_bound:
      return memory_bound_detail(r, c, o);
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
    case k_all_to_all:
      return all_to_all_detail(r, L, c, o);
    case k_host: {
      if (r.host_python_ops == 0 && r.host_launches == 0) {
        return o.cuda_graphs.impl == CudaGraphImpl::full_iteration ? "a full-iteration CUDA graph: no host calls per micro-batch"
                                                                    : "no host time (--host-op-us 0 --host-launch-us 0)";
      }
      std::string graphs;
      if (o.cuda_graphs.impl != CudaGraphImpl::none) {
        const std::string scope = cuda_graph_modules_string(o.cuda_graphs.modules, ", ");
        graphs = fmt::format("; CUDA graphs: {}{}", to_string(o.cuda_graphs.impl),
                             o.cuda_graphs.impl == CudaGraphImpl::full_iteration ? std::string()
                             : scope.empty() ? std::string(", whole layers") : fmt::format(" ({})", scope));
      }
      return fmt::format("the GPU waits where issuing outlasts running: per micro-batch {:.0f} Python calls and "
                         "{:.0f} kernels (Megatron-Core {} counts, presets/hardware/host_launches.toml) take "
                         "{:.3g} ms forward, {:.3g} ms backward against the GPU's {:.3g} and {:.3g} ms; {:.0f} "
                         "device-to-host syncs (the dropless dispatcher's){}{}",
                         r.host_python_ops, r.host_launches, megatron_host_launches().megatron_core,
                         r.host_forward * 1e3, r.host_backward * 1e3, r.host_gpu_forward * 1e3,
                         r.host_gpu_backward * 1e3, r.host_syncs, graphs, host_speed_words(c.gpu, o));
    }
    case k_pipeline:
      if (L.pp == 1) return "PP 1: none";
      if (L.dualpipe) {
        return fmt::format("DualPipe bubble {:.3g} s ((PP/2−1)(F&B+B−3W) = {}·2F, m = {}); point-to-point {:.3g} s "
                           "hidden (DeepSeek-V3 Fig. 4)",
                           r.bubble, L.pp / 2 - 1, r.microbatches, r.p2p_hidden);
      }
      return fmt::format("bubble {:.3g} s ((PP−1)/(VPP·m) = {}/({}·{})), point-to-point {:.3g} s over {}{}",
                         r.bubble, L.pp - 1, L.vpp, r.microbatches, r.p2p, link_name(r.p2p_off_node),
                         r.p2p_hidden > 0 ? fmt::format(" ({:.3g} s more overlapped by the interleaved schedule)", r.p2p_hidden)
                                          : std::string());
    case k_dp_reduction: return dp_reduction_detail(r, L, o);
    case k_optimizer:
      return fmt::format("Adam on this rank's shard, {:.4g} parameters × {} bytes (gradient norm, fp32 master, m, v, "
                         "bf16 weight): {:.3g} GB at {:.3g} TB/s achieved HBM",
                         r.optimizer_params,
                         precision_spec(o.precision).adam_step_bytes(o.grad_reduce_in_bf16, o.bf16_moments),
                         r.optimizer_bytes / 1e9,
                         c.gpu.hbm_bandwidth * o.hbm_efficiency / 1e12);
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
  t.all_to_all_overlapped = r.a2a_hidden;
  t.all_to_all_sm_share = r.a2a_sm_share;
  return t;
}

StepTermSeconds step_term_seconds(const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
                                  const ParallelLayout& layout, const StepTimeOptions& options) {
  if (options.seq_len <= 0) throw std::logic_error("step model: S (StepTimeOptions::seq_len) not set");
  const ModelFlops f = model_flops(m, p, options.seq_len);
  const StepSeconds r = step_seconds(f, cluster, layout, options, options.expert_load_factor);
  return {{r.seconds.begin(), r.seconds.end()}, r.total, r.tokens_per_step, f.M};
}

std::vector<std::string> step_term_names() { return {k_step_term_names.begin(), k_step_term_names.end()}; }

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
