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
#include "step_model.hpp"

namespace moeplan {

namespace cluster_detail {

const std::array<const char*, k_step_terms> k_step_term_names = {
    "gemm", "attention", "recompute", "tp_collectives", "all_to_all", "pipeline", "dp_reduction"};

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
  f.hidden = m.hidden_size;
  f.top_k = m.is_moe() ? m.num_experts_per_tok : 0;
  return f;
}

int StageSplit::most() const { return std::max({first, middle, last}); }

std::optional<StageSplit> stage_split(int layers, int pp, int first_stage_layers,
                                      int last_stage_layers, bool allow_uneven) {
  if (pp < 1 || layers < pp) return std::nullopt;
  if (pp == 1) return StageSplit{layers, layers, layers};
  const int f = first_stage_layers, l = last_stage_layers;
  if (f < 0 || l < 0) return std::nullopt;
  if (f > 0 || l > 0) {  // Megatron's --decoder-first/last-pipeline-num-layers
    if (pp == 2) {
      const int first = f > 0 ? f : layers - l;
      const int last = l > 0 ? l : layers - f;
      if (first < 1 || last < 1 || first + last != layers) return std::nullopt;
      return StageSplit{first, std::max(first, last), last};
    }
    const int others = pp - 2 + (f > 0 ? 0 : 1) + (l > 0 ? 0 : 1);
    const int rest = layers - f - l;
    if (rest < others || rest % others != 0) return std::nullopt;
    const int middle = rest / others;
    return StageSplit{f > 0 ? f : middle, middle, l > 0 ? l : middle};
  }
  if (layers % pp == 0) return StageSplit{layers / pp, layers / pp, layers / pp};
  if (!allow_uneven) return std::nullopt;
  // Middle stages ceil(L/pp); the first and last share what is left, each at least one
  // layer and, as ceil(L/pp) * pp >= L, at most the middle count.
  const int middle = (layers + pp - 1) / pp;
  const int ends = layers - (pp - 2) * middle;
  if (ends < 2) return std::nullopt;
  return StageSplit{ends / 2, middle, ends - ends / 2};
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
  r.stage_layers = split ? split->most() : (f.layers + L.pp - 1) / L.pp;
  // The output head (6·V·d FLOPs per token, outside M like every embedding FLOP) runs on the
  // last stage: in layers' worth of GEMMs it can outweigh two layers (V = 152k, d = 4096), so
  // the busiest stage is the last one's layers plus the head when that is the larger.
  const double per_layer = f.layers > 0 ? (f.dense_per_token + f.expert_per_token + f.scores_per_token) / f.layers : 0;
  const double head_layers = per_layer > 0 ? 6.0 * f.vocab_params / per_layer : 0;
  const double last = split ? split->last : r.stage_layers;
  const double busiest = std::max<double>(r.stage_layers, last + head_layers);
  r.stage_imbalance = busiest * L.pp / f.layers;
  // The busiest stage's MoE layers: a middle stage is all MoE once the leading dense layers
  // are behind it, so the count is its layers, at most L_m.
  r.stage_moe_layers = std::min<double>(f.moe_layers, r.stage_layers);
  const long long per_step = static_cast<long long>(L.micro_batch) * L.dp;
  r.microbatches = per_step > 0 ? std::max(1LL, L.global_batch / per_step) : 1;
  const double mb = static_cast<double>(r.microbatches);

  // GEMMs: M·B·S over the world, on the most loaded stage; the routed experts at the
  // busiest expert rank's load.
  r.gemm_rate = o.measured_gemm_flops ? *o.measured_gemm_flops : gpu.bf16_dense_flops * o.gemm_efficiency;
  const double dense = tokens * f.dense_per_token / world * r.stage_imbalance;
  const double experts = tokens * f.expert_per_token * load_factor / world * r.stage_imbalance;
  r.gemm_flops_gpu = dense + experts;
  r.expert_share = r.gemm_flops_gpu > 0 ? experts / r.gemm_flops_gpu : 0;
  r.scores_flops_gpu = tokens * f.scores_per_token / world * r.stage_imbalance;
  auto& sec = r.seconds;
  // A GEMM cannot run faster than its weights stream from HBM: per micro-batch and layer
  // each GPU reads its weight shard in the forward pass and again for the backward's data
  // gradient, and writes the weight gradient (3 passes of 2 bytes per parameter). This is
  // the roofline floor that makes thin expert GEMMs (few routed rows per expert, EP 1) cost
  // what they do; flat efficiency alone would call them free of it.
  const double passes = 3.0 * 2.0 * mb * r.stage_layers;
  const double dense_stream = f.layers > 0 ? passes * f.dense_params / f.layers / L.tp : 0;
  const double expert_stream =
      f.moe_layers > 0 ? 3.0 * 2.0 * mb * r.stage_moe_layers * f.routed_params / f.moe_layers / (L.ep * L.etp) : 0;
  r.weight_stream_bytes = dense_stream + expert_stream;
  sec[k_gemm] = std::max(transfer(dense, r.gemm_rate), transfer(dense_stream, gpu.hbm_bandwidth)) +
                std::max(transfer(experts, r.gemm_rate), transfer(expert_stream, gpu.hbm_bandwidth));
  r.gemm_memory_bound = sec[k_gemm] > transfer(r.gemm_flops_gpu, r.gemm_rate) * (1 + 1e-9);
  sec[k_attention] = transfer(r.scores_flops_gpu, r.gemm_rate);
  // Recompute re-runs a forward pass, a third of the training FLOPs (paper 002 Eq. 12's 6 =
  // 2 forward + 4 backward): the attention core (selective) or every layer (full).
  switch (L.recompute) {
    case Recompute::none: sec[k_recompute] = 0; break;
    case Recompute::selective: sec[k_recompute] = sec[k_attention] / 3.0; break;
    case Recompute::full: sec[k_recompute] = (sec[k_gemm] + sec[k_attention]) / 3.0; break;
  }

  // TP + SP: 4 all-gathers / reduce-scatters forward and 4 backward per layer and
  // micro-batch, 2·s·b·h bytes each, (t-1)/t of it over NVLink (Korthikanti et al. 2022
  // Sec. 4.2.2); a full recompute repeats the forward four.
  const double s = S / L.cp;
  const double sbh = s * L.micro_batch * f.hidden;
  const bool full = L.recompute == Recompute::full;
  const double nvlink = gpu.intra_node_bandwidth * o.network_efficiency;
  const double nic = gpu.network_bandwidth * o.network_efficiency;
  if (L.tp > 1) {
    r.tp_bytes = 2.0 * sbh * (L.tp - 1.0) / L.tp;
    sec[k_tp_collectives] = (full ? 12.0 : 8.0) * r.stage_layers * mb * transfer(r.tp_bytes, nvlink);
  }

  // Expert-parallel all-to-all: dispatch and combine, forward and backward (and the forward
  // pair again under full recompute), K·(s·b/t)·h·2 bytes × load × (EP-1)/EP each; the share
  // for other nodes at the NIC, the rest at NVLink, in parallel: the slower one. Not overlapped.
  if (L.ep > 1 && f.moe_layers > 0) {
    r.a2a_bytes = f.top_k * (sbh / L.tp) * 2.0 * load_factor * (L.ep - 1.0) / L.ep;
    const int local = ep_peers_on_node(L.ep, L.etp, per_node);
    r.a2a_off_node = double(L.ep - 1 - local) / (L.ep - 1);
    const double one = std::max(transfer(r.a2a_bytes * r.a2a_off_node, nic),
                                transfer(r.a2a_bytes * (1.0 - r.a2a_off_node), nvlink));
    sec[k_all_to_all] = (full ? 6.0 : 4.0) * r.stage_moe_layers * mb * one;
  }

  // Pipeline: the bubble (PP-1)/(VPP·m) of the work of the step (Narayanan et al. 2021,
  // Sec. 2.2), and the sends between stages: an activation forward and its gradient back
  // per micro-batch and virtual stage, s·b·h·2/t bytes (scattered by SP), plus the fill;
  // interleaving multiplies them by VPP (ibid. Sec. 2.2.2). Stages are world/PP ranks
  // apart (PP the outermost group), on other nodes once world/PP reaches a node.
  if (L.pp > 1) {
    const double work = sec[k_gemm] + sec[k_attention] + sec[k_recompute] + sec[k_tp_collectives] +
                        sec[k_all_to_all];
    r.bubble = work * (L.pp - 1.0) / (L.vpp * mb);
    r.p2p_off_node = world / L.pp >= per_node;
    const double bytes = sbh * 2.0 / L.tp;
    r.p2p = 2.0 * (L.vpp * mb + L.pp - 1.0) * transfer(bytes, r.p2p_off_node ? nic : nvlink);
    sec[k_pipeline] = r.bubble + r.p2p;
  }

  // Data parallel: reduce-scatter of fp32 gradients (Megatron accumulates and reduces bf16
  // runs' gradients in fp32, as the memory model's 4 bytes per gradient) and all-gather of
  // bf16 weights (the
  // distributed optimizer), (G-1)/G of the shard each, G = DP·CP for the dense part and EDP
  // for the experts; over the NIC once the group (world/PP consecutive ranks) leaves a node.
  // dp_overlap of it hides behind the backward pass.
  const double dense_group = double(L.dp) * L.cp;
  const double stage_share = double(r.stage_layers) / f.layers;
  const double end_params = L.pp == 1 ? f.embedding_params : f.vocab_params;
  const double dense_shard = f.dense_params * stage_share / L.tp + end_params / L.tp;
  const double expert_shard = f.routed_params * stage_share / (double(L.ep) * L.etp);
  // (G-1)/G of the shard twice: 4 bytes reduce-scattered, 2 bytes all-gathered.
  r.dp_dense_bytes = dense_group > 1 ? (dense_group - 1.0) / dense_group * (4.0 + 2.0) * dense_shard : 0;
  r.dp_expert_bytes = L.edp > 1 ? (L.edp - 1.0) / L.edp * (4.0 + 2.0) * expert_shard : 0;
  r.dp_off_node = world / L.pp > per_node;
  const double dp_rate = r.dp_off_node ? nic : nvlink;
  sec[k_dp_reduction] = (1.0 - o.dp_overlap) *
                        (transfer(r.dp_dense_bytes, dp_rate) + transfer(r.dp_expert_bytes, dp_rate));

  for (double t : sec) r.total += t;
  r.tokens_per_second = r.total > 0 ? tokens / r.total : 0;
  const double peak = world * gpu.bf16_dense_flops;
  r.mfu = peak > 0 ? f.M * r.tokens_per_second / peak : 0;
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

constexpr double k_gib = double(1ull << 30);
constexpr double k_mib = double(1ull << 20);

const char* link_name(bool off_node) { return off_node ? "the NIC" : "NVLink"; }

std::string term_detail(int i, const StepSeconds& r, const ParallelLayout& L, const Cluster& c,
                        const StepTimeOptions& o) {
  const int per_node = std::max(c.gpus_per_node, 1);
  switch (i) {
    case k_gemm: {
      const std::string rate = o.measured_gemm_flops
                                   ? std::string("measured")
                                   : fmt::format("{:.0f} peak × {:.2f}", c.gpu.bf16_dense_flops / 1e12,
                                                 o.gemm_efficiency);
      std::string s = fmt::format("{:.4g} TFLOP per GPU", r.gemm_flops_gpu / 1e12);
      if (r.expert_share > 0) {
        s += fmt::format(" (experts {:.0f} %, load {:.2f})", 100 * r.expert_share, r.load_factor);
      }
      s += fmt::format(" at {:.0f} TFLOP/s ({})", r.gemm_rate / 1e12, rate);
      if (r.gemm_memory_bound) {
        s += fmt::format("; weight streaming {:.4g} GB at {:.3g} TB/s HBM bounds part of it",
                         r.weight_stream_bytes / 1e9, c.gpu.hbm_bandwidth / 1e12);
      }
      if (r.stage_imbalance > 1.0 + 1e-9) {
        s += fmt::format(", busiest stage {} layers (×{:.3f})", r.stage_layers, r.stage_imbalance);
      }
      return s;
    }
    case k_attention:
      return fmt::format("S-dependent attention core, {:.4g} TFLOP per GPU (S = {}, CP {})",
                         r.scores_flops_gpu / 1e12, o.seq_len, L.cp);
    case k_recompute:
      switch (L.recompute) {
        case Recompute::none: return "none: every activation stored";
        case Recompute::selective: return "selective: the attention core's forward again";
        case Recompute::full: return "full: every layer's forward again";
      }
      return "";
    case k_tp_collectives:
      if (L.tp == 1) return "TP 1: none";
      return fmt::format("{} per layer × {} layer(s) × {} micro-batches, {:.3g} MiB each over NVLink",
                         L.recompute == Recompute::full ? 12 : 8, r.stage_layers, r.microbatches,
                         r.tp_bytes / k_mib);
    case k_all_to_all: {
      if (L.ep == 1 || r.a2a_bytes == 0) return fmt::format("EP {}: none", L.ep);
      std::string where =
          r.a2a_off_node > 0
              ? fmt::format("EP {} spans {} nodes, {:.0f} % of peers off-node", L.ep,
                            ep_nodes(L.ep, L.etp, per_node), 100 * r.a2a_off_node)
              : fmt::format("EP {} within a node", L.ep);
      return fmt::format("{} per MoE layer × {:.3g} MoE layer(s) × {} micro-batches, {:.3g} MiB each ({})",
                         L.recompute == Recompute::full ? 6 : 4, r.stage_moe_layers, r.microbatches,
                         r.a2a_bytes / k_mib, where);
    }
    case k_pipeline:
      if (L.pp == 1) return "PP 1: none";
      return fmt::format("bubble {:.3g} s ((PP−1)/(VPP·m) = {}/({}·{})), point-to-point {:.3g} s over {}",
                         r.bubble, L.pp - 1, L.vpp, r.microbatches, r.p2p, link_name(r.p2p_off_node));
    case k_dp_reduction:
      if (r.dp_dense_bytes == 0 && r.dp_expert_bytes == 0) return "DP 1: none";
      return fmt::format("{:.3g} GiB dense (DP·CP {}) + {:.3g} GiB experts (EDP {}) over {}, {:.0f} % hidden",
                         r.dp_dense_bytes / k_gib, L.dp * L.cp, r.dp_expert_bytes / k_gib, L.edp,
                         link_name(r.dp_off_node), 100 * o.dp_overlap);
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
  t.seconds = double(t.steps) * step.step_seconds;
  t.days = t.seconds / 86400.0;
  t.gpu_hours = double(cluster.gpus) * t.seconds / 3600.0;
  return t;
}

}  // namespace moeplan
