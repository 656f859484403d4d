// Choosing a parallel layout (docs/cluster.md, "Layout search"): the legal layouts of a
// config on a cluster, each timed (step_seconds, no strings); memory computed in order of
// tokens/s until the best few that fit are known; the winners formatted with why the
// runners-up lost, or the smallest shortfall when nothing fits.
#include "moeplan/cluster/layout_search.hpp"
#include "moeplan/cluster/stage_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "step_model.hpp"

namespace moeplan {

using namespace cluster_detail;

namespace {

constexpr std::size_t k_keep = 3;  ///< the best and two runners-up

int kv_heads_for_tp(const ModelConfig& m) {
  // MLA: every query head has its own key and value, decompressed from the shared latent.
  return m.latent_attention ? m.num_attention_heads : m.num_key_value_heads;
}

const std::string& gpu_name(const GpuSpec& g) { return g.name.empty() ? g.id : g.name; }

/// The uneven split the search gives PP stages (first, last; 0, 0 for the even split): as
/// Megatron-LM runs one (--decoder-first/last-pipeline-num-layers), the last stage lightened
/// by the head and MTP modules it also runs (`last_extra` layers' worth); where PP divides L,
/// only when that beats the even split (which interleaving needs, so not with VPP).
std::pair<int, int> searched_split(int layers, int pp, int vpp, bool allow_uneven, double last_extra) {
  if (pp < 2 || !allow_uneven || (layers % pp == 0 && vpp > 1)) return {0, 0};
  const auto split = balanced_stage_split(layers, pp, last_extra);
  if (!split) return {0, 0};
  if (layers % pp == 0 && !(split->load(last_extra) < layers / pp + last_extra - 1e-9)) return {0, 0};
  return {split->first, split->last};
}

/// The pipeline splits the search tries at (PP, VPP): the user's (`given`), and where the user
/// gave no split and interleaving cannot split L evenly (PP·VPP does not divide L), Megatron-LM's
/// accounted splits too: --account-for-embedding-in-pipeline-split and/or
/// --account-for-loss-in-pipeline-split count the embedding and the loss as layers of the end
/// stages (transformer_config.py), so L + 1 or L + 2 may split into PP·VPP equal chunks. That is
/// how Megatron-Bridge's Qwen3-235B recipe interleaves 94 layers on PP 8 × VPP 4, and what
/// Llama 3's report does by hand ("we reduce one Transformer layer each from the first and the
/// last stages", Sec. 3.3.2). Variants whose split is still illegal are skipped by the caller.
std::vector<GivenLayout> pipeline_split_variants(int layers, int pp, int vpp, const GivenLayout& given) {
  std::vector<GivenLayout> out{given};
  const bool split_given = given.first_stage_layers || given.last_stage_layers || given.embedding_in_split ||
                           given.loss_in_split || !given.pipeline_layout.empty() || given.dualpipe;
  if (split_given || pp < 2 || vpp < 2 || layers % (pp * vpp) == 0) return out;
  for (const auto& [embedding, loss] : {std::pair{true, true}, {false, true}, {true, false}}) {
    if (!accounted_stage_split(layers, pp, vpp, embedding, loss)) continue;
    GivenLayout g = given;
    g.embedding_in_split = embedding;
    g.loss_in_split = loss;
    out.push_back(std::move(g));
  }
  return out;
}

/// The ParallelLayout with its derived fields (dp, edp, the stage split) set; `split` is the
/// searched split of its PP (searched_split), used unless the user gave one.
ParallelLayout make_layout(const ModelConfig& m, int world, int tp, int cp, int pp, int vpp, int ep,
                           int etp, std::pair<int, int> split, const GivenLayout& given,
                           const std::optional<PipelineLayout>& parsed_layout) {
  ParallelLayout l;
  l.tp = tp;
  l.sequence_parallel = tp > 1;
  l.cp = cp;
  l.pp = pp;
  l.vpp = vpp;
  l.ep = ep;
  l.etp = etp;
  l.dp = world / (tp * cp * pp);
  const long long expert_grid = static_cast<long long>(etp) * ep * pp;
  l.edp = world % expert_grid == 0 ? static_cast<int>(world / expert_grid) : 0;
  l.dualpipe = given.dualpipe;
  // Megatron's layout string (parsed once by search_space on the given PP, the only PP the
  // search then enumerates): its split and VPP.
  if (pp > 1 && !given.pipeline_layout.empty()) {
    if (const auto& p = parsed_layout) {
      l.pipeline_layout = given.pipeline_layout;
      l.vpp = p->vpp;
      l.first_stage_layers = p->split.first;
      l.last_stage_layers = p->split.last;
      return l;
    }  // else given_layout_reason says why
  }
  if (pp > 1 && (given.embedding_in_split || given.loss_in_split)) {  // Megatron's accounted split
    l.embedding_in_split = given.embedding_in_split;
    l.loss_in_split = given.loss_in_split;
    if (const auto s = accounted_stage_split(m.num_hidden_layers, pp, vpp, l.embedding_in_split, l.loss_in_split)) {
      l.first_stage_layers = s->first;
      l.last_stage_layers = s->last;
    }  // else illegal_reason says why (vpp_rule)
  } else if (pp > 1 && (given.first_stage_layers || given.last_stage_layers)) {  // the user's split
    l.first_stage_layers = given.first_stage_layers.value_or(0);
    l.last_stage_layers = given.last_stage_layers.value_or(0);
    // One end given: the other shares the rest with the middle stages (Megatron's rule).
    if (const auto s = stage_split(m.num_hidden_layers, pp, l.first_stage_layers, l.last_stage_layers, true)) {
      l.first_stage_layers = s->even() ? 0 : s->first;  // an even split given is the even split
      l.last_stage_layers = s->even() ? 0 : s->last;
    }
  } else {
    l.first_stage_layers = split.first;
    l.last_stage_layers = split.second;
  }
  return l;
}

struct Timed {
  ParallelLayout layout;
  double tokens_per_second = 0;
  double time_load = 1;    ///< expert load factor of its step time
  double memory_load = 1;  ///< and of its memory
  long long raised = 0;    ///< its global batch when above the one asked (0: kept)
  /// A batch given exactly (LayoutSearchOptions::exact_batch) that this layout rounds to
  /// another multiple of its micro-batch × DP.
  bool rounded = false;
};

// How much faster a layout that rounds a given batch must be to rank before one that keeps it
// exactly (ENGINEERING FIGURE): a batch a few sequences off is a smaller change to the run than a
// layout 10 % slower, and keeping an odd batch exactly can take DP 1 (a review found 1,001
// sequences on 64 GPUs 2.3x slower kept than rounded to 1,008).
constexpr double k_exact_batch_preference = 1.10;

// tokens/s, less k_exact_batch_preference where the layout rounds a given batch.
double preference(double tokens_per_second, bool rounded) {
  return rounded ? tokens_per_second / k_exact_batch_preference : tokens_per_second;
}

// The order layouts are preferred in: those that keep the asked batch, fastest first (a given
// batch kept exactly unless rounding it is more than 10 % faster); then those that raise it, the
// smallest batch first, fastest first among equal batches.
bool preferred(const Timed& a, const Timed& b) {
  if (a.raised != b.raised) return a.raised < b.raised;  // 0 (kept) before any raise
  return preference(a.tokens_per_second, a.rounded) > preference(b.tokens_per_second, b.rounded);
}

const char* term_label(int i) {
  switch (i) {
    case k_gemm: return "GEMM";
    case k_attention: return "attention";
    case k_memory_bound: return "memory-bound kernels";
    case k_recompute: return "recompute";
    case k_tp_collectives: return "TP collectives";
    case k_all_to_all: return "all-to-all";
    case k_host: return "host";
    case k_pipeline: return "pipeline";
    case k_dp_reduction: return "DP reduction";
    case k_optimizer: return "optimizer step";
    default: return "?";
  }
}

std::string term_note(int i, const ParallelLayout& l, const Cluster& c) {
  switch (i) {
    case k_gemm: return l.etp > 1 ? fmt::format(" (TP {}, ETP {})", l.tp, l.etp) : fmt::format(" (TP {})", l.tp);
    case k_memory_bound: return "";
    case k_attention: return l.cp > 1 ? fmt::format(" (CP {})", l.cp) : "";
    case k_recompute: return fmt::format(" ({})", to_string(l.recompute));
    case k_tp_collectives: return fmt::format(" (TP {})", l.tp);
    case k_all_to_all: {
      if (l.ep == 1) return " (EP 1)";
      const int nodes = ep_nodes(l.ep, l.etp, c.gpus_per_node);
      return nodes > 1 ? fmt::format(" (EP {} spans {} nodes)", l.ep, nodes)
                       : fmt::format(" (EP {} within a node)", l.ep);
    }
    case k_pipeline:
      return fmt::format(" (PP {}{}, {} micro-batches)", l.pp,
                         l.vpp > 1 ? fmt::format(" v{}", l.vpp) : std::string(), l.microbatches());
    case k_dp_reduction: return fmt::format(" (DP {}, EDP {})", l.dp, l.edp);
    case k_optimizer: return fmt::format(" (its shard over DP {}, EDP {})", l.dp, l.edp);
    default: return "";
  }
}


ConstraintViolation shortfall(const ModelConfig& m, const Cluster& cluster, const ParallelLayout& l,
                              const MemoryBreakdown& mem, double usable, double headroom) {
  const MemoryTerm* largest = nullptr;
  for (const MemoryTerm& t : mem.terms) {
    if (largest == nullptr || t.bytes > largest->bytes) largest = &t;
  }
  const double total = mem.total();
  const std::string has =
      headroom < 1.0 ? fmt::format("{:.1f} GiB to plan with ({:.0f} % of {:.1f} GiB", usable / k_gib,
                                   100 * headroom, cluster.gpu.hbm_bytes / k_gib)
                     : fmt::format("{:.1f} GiB (", usable / k_gib);
  std::string detail = fmt::format(
      "no layout of {} on {} GPUs fits; the closest, {}, needs {:.1f} GiB per GPU, the {} has {}"
      "{}{:.1f} GiB short)",
      m.name.empty() ? std::string("the model") : m.name, cluster.gpus, l.describe(), total / k_gib,
      gpu_name(cluster.gpu), has, headroom < 1.0 ? "; " : "", (total - usable) / k_gib);
  if (largest != nullptr) {
    detail += fmt::format("; its largest term is {} ({:.1f} GiB)", largest->name, largest->bytes / k_gib);
  }
  return {"memory per GPU", std::move(detail)};
}

// The reason's text when `text`, else a placeholder: the search tests thousands of layouts
// and shows the reason of the first illegal one only.
template <typename... Args>
std::string why(bool text, fmt::format_string<Args...> f, Args&&... args) {
  return text ? fmt::format(f, std::forward<Args>(args)...) : std::string("illegal");
}

// The rules of one dimension, each in one place: the whole-layout check below and the check of
// the dimensions a user gave (given_layout_reason) both call them.

/// TP within a node, dividing N_q and N_kv.
std::string tp_rule(const ModelConfig& m, int per_node, int tp, bool text) {
  if (tp > per_node) return why(text, "TP {} exceeds the {} GPUs of a node", tp, per_node);
  if (m.num_attention_heads % tp != 0) return why(text, "TP {} does not divide N_q = {}", tp, m.num_attention_heads);
  if (kv_heads_for_tp(m) % tp != 0) return why(text, "TP {} does not divide N_kv = {}", tp, kv_heads_for_tp(m));
  return {};
}

/// The sequence splits Megatron makes: CP cuts each sequence into 2·CP chunks, two a rank, for
/// its load-balanced causal split (megatron/core/utils.py, get_batch_on_this_cp_rank: "The
/// sequence length must be divisible by 2 * cp_size"); sequence parallelism (TP > 1) splits the
/// S/CP tokens of a rank's sequence over TP (tensor_parallel/mappings.py, _split_along_first_dim:
/// "First dimension of the tensor should be divisible by tensor parallel size").
std::string sequence_rule(int seq_len, int tp, int cp, bool text) {
  if (cp > 1 && seq_len % (2 * cp) != 0) {
    return why(text, "CP {} needs S divisible by 2 × CP = {} (Megatron's load-balanced causal split); S = {}", cp,
               2 * cp, seq_len);
  }
  if (tp > 1 && (seq_len / cp) % tp != 0) {
    return why(text, "TP {} with sequence parallelism needs S / CP = {} divisible by TP", tp, seq_len / cp);
  }
  return {};
}

/// EP and ETP need routed experts; EP divides N_e.
std::string ep_rule(const ModelConfig& m, int ep, int etp, bool text) {
  if (!m.is_moe()) {
    if (ep != 1 || etp != 1) {
      return why(text, "EP {} × ETP {} needs routed experts; {} is dense", ep, etp,
                 m.name.empty() ? "the model" : m.name);
    }
  } else if (m.n_routed_experts % ep != 0) {
    return why(text, "EP {} does not divide N_e = {}", ep, m.n_routed_experts);
  }
  return {};
}

/// ETP is 1 or TP (Megatron's expert tensor parallel).
std::string etp_rule(int etp, int tp, bool text) {
  if (etp != 1 && etp != tp) return why(text, "ETP {} is neither 1 nor TP = {}", etp, tp);
  return {};
}

/// PP at most L, with a split of the layers over its stages (`split`, from stage_split).
std::string pp_rule(int layers, int pp, int first, int last, bool allow_uneven, const std::optional<StageSplit>& split,
                    bool text) {
  if (pp > layers) return why(text, "PP {} exceeds L = {} layers", pp, layers);
  if (split) return {};
  if (first > 0 || last > 0) {
    if (pp == 2 && first > 0 && last > 0) {
      return why(text, "with PP 2 the first and last stages hold every layer: {} + {} is not L = {}", first, last,
                 layers);
    }
    if (pp == 2) {
      return why(text, "a {} stage of {} layers leaves none of L = {} for the {} stage", first > 0 ? "first" : "last",
                 first > 0 ? first : last, layers, first > 0 ? "last" : "first");
    }
    // The stages not given share the rest evenly (Megatron's rule).
    const int others = pp - 2 + (first > 0 ? 0 : 1) + (last > 0 ? 0 : 1);
    const int rest = layers - first - last;
    const std::string given = first > 0 && last > 0 ? fmt::format("first and last stages of {} and {} layers", first, last)
                              : first > 0           ? fmt::format("a first stage of {} layers", first)
                                                    : fmt::format("a last stage of {} layers", last);
    return why(text, "{} {} {} of L = {} for the other {} stages of PP {}, not an equal share of at least one each",
               given, first > 0 && last > 0 ? "leave" : "leaves", rest, layers, others, pp);
  }
  if (!allow_uneven) return why(text, "PP {} does not divide L = {} (uneven pipelines not allowed)", pp, layers);
  const int middle = (layers + pp - 1) / pp;
  if (layers < (pp - 2) * middle) {
    return why(text,
               "PP {} does not divide L = {}, and the uneven split's {} middle stages of {} layers would take {}, "
               "more than L",
               pp, layers, pp - 2, middle, (pp - 2) * middle);
  }
  return why(text,
             "PP {} does not divide L = {} and the uneven split ({} middle stages of {}) leaves {} layer{} "
             "for the first and last stages, under one each",
             pp, layers, pp - 2, middle, layers - (pp - 2) * middle, layers - (pp - 2) * middle == 1 ? "" : "s");
}

/// Megatron's accounted split (--account-for-embedding/loss-in-pipeline-split): L + e + l
/// layers over PP × VPP virtual stages, whole ("" when it splits).
std::string accounted_rule(int layers, int pp, int vpp, bool embedding, bool loss, bool text) {
  if (!embedding && !loss) return {};
  if (pp == 1) return {};  // nothing to split: the flags do nothing (as in Megatron)
  if (accounted_stage_split(layers, pp, vpp, embedding, loss)) return {};
  const int counted = layers + (embedding ? 1 : 0) + (loss ? 1 : 0);
  const char* what = embedding && loss ? "embedding and loss" : embedding ? "embedding" : "loss";
  const char* flag = embedding && loss ? "embedding/loss" : embedding ? "embedding" : "loss";
  if (counted % (pp * vpp) == 0) {
    return why(text, "L = {} with the {} counted is {} layers, {} per virtual stage of PP {} × VPP {}: an end stage "
               "would hold no decoder layer (Megatron's --account-for-{}-in-pipeline-split)",
               layers, what, counted, counted / (pp * vpp), pp, vpp, flag);
  }
  return why(text, "L = {} with the {} counted is {} layers, not a multiple of PP {} × VPP {} = {} (Megatron's "
             "--account-for-{}-in-pipeline-split)",
             layers, what, counted, pp, vpp, pp * vpp, flag);
}

/// VPP > 1 needs PP > 1 and an even split whose stages it divides (or Megatron's accounted
/// split, whose end stages are each a layer short).
std::string vpp_rule(int layers, int pp, int vpp, const StageSplit& split, bool text, bool accounted = false) {
  if (vpp <= 1) return {};
  if (pp == 1) return why(text, "VPP {} needs PP > 1", vpp);
  if (accounted) return {};  // accounted_rule holds it
  if (!split.even()) {
    // Megatron runs such a model interleaved by counting the embedding and the loss as layers.
    const bool fits = (layers + 2) % (pp * vpp) == 0;
    return why(text, "VPP {} needs an even pipeline split; PP {} does not divide L = {}{}", vpp, pp, layers,
               fits ? fmt::format(" (Megatron-LM's --account-for-embedding-in-pipeline-split and "
                                  "--account-for-loss-in-pipeline-split count the embedding and the loss as layers: "
                                  "{} = {} × {} × {})",
                                  layers + 2, pp, vpp, (layers + 2) / (pp * vpp))
                    : std::string());
  }
  if (split.middle % vpp != 0) return why(text, "VPP {} does not divide the {} layers of a stage", vpp, split.middle);
  return {};
}

/// DualPipe's own asserts (deepseek-ai/DualPipe @030ce432 dualpipe.py: num_ranks % 2 == 0;
/// num_chunks % 2 == 0 and num_chunks >= num_ranks * 2), a pipeline of PP > 1 and no VPP.
std::string dualpipe_rule(const ParallelLayout& l, long long per_step, bool text) {
  if (!l.dualpipe) return {};
  if (l.pp < 2 || l.pp % 2 != 0) return why(text, "DualPipe needs an even PP of at least 2, not PP {}", l.pp);
  if (l.vpp > 1) return why(text, "DualPipe runs two stages per rank of its own: VPP {} is another schedule", l.vpp);
  if (l.global_batch > 0 && per_step > 0) {
    const long long m = l.global_batch / per_step;
    if (m % 2 != 0 || m < 2LL * l.pp) {
      return why(text, "DualPipe needs an even number of micro-batches, at least 2 × PP = {}; the step has {}",
                 2 * l.pp, m);
    }
  }
  return {};
}

std::string illegal_reason(const ModelConfig& m, const Cluster& cluster, const ParallelLayout& l,
                           bool allow_uneven_pipeline, bool text) {
  const int world = cluster.gpus;
  const int per_node = cluster.gpus_per_node;
  for (const auto& [name, v] : {std::pair{"TP", l.tp}, {"CP", l.cp}, {"PP", l.pp}, {"VPP", l.vpp},
                                {"EP", l.ep}, {"ETP", l.etp}, {"DP", l.dp},
                                {"micro-batch", l.micro_batch}}) {
    if (v < 1) return why(text, "{} {} must be at least 1", name, v);
  }
  const long long attention_grid = static_cast<long long>(l.tp) * l.cp * l.pp * l.dp;
  if (attention_grid != world) {
    return why(text, "TP {} × CP {} × PP {} × DP {} = {} GPUs, not the cluster's {}", l.tp, l.cp,
                       l.pp, l.dp, attention_grid, world);
  }
  if (std::string r = tp_rule(m, per_node, l.tp, text); !r.empty()) return r;
  if (std::string r = ep_rule(m, l.ep, l.etp, text); !r.empty()) return r;
  if (std::string r = etp_rule(l.etp, l.tp, text); !r.empty()) return r;
  const long long tp_cp_dp = static_cast<long long>(l.tp) * l.cp * l.dp;
  if (tp_cp_dp % (static_cast<long long>(l.ep) * l.etp) != 0) {
    return why(text,
        "EP {} × ETP {} = {} does not divide TP × CP × DP = {} (parallel folding: the expert "
        "grid tiles the GPUs of one pipeline stage)",
        l.ep, l.etp, l.ep * l.etp, tp_cp_dp);
  }
  const long long expert_grid = static_cast<long long>(l.etp) * l.ep * l.edp * l.pp;
  if (expert_grid != world) {
    return why(text, "ETP {} × EP {} × EDP {} × PP {} = {} GPUs, not the cluster's {}", l.etp, l.ep,
                       l.edp, l.pp, expert_grid, world);
  }
  const int L = m.num_hidden_layers;
  if (std::string r = accounted_rule(L, l.pp, l.vpp, l.embedding_in_split, l.loss_in_split, text); !r.empty()) return r;
  // An accounted split or a layout string interleaves an uneven split (Megatron builds it).
  const bool accounted = l.pp > 1 && (l.embedding_in_split || l.loss_in_split || !l.pipeline_layout.empty());
  const auto split = l.pp > L ? std::nullopt
                              : stage_split(L, l.pp, l.first_stage_layers, l.last_stage_layers, allow_uneven_pipeline || accounted);
  if (std::string r = pp_rule(L, l.pp, l.first_stage_layers, l.last_stage_layers, allow_uneven_pipeline || accounted,
                              split, text);
      !r.empty()) {
    return r;
  }
  if (std::string r = vpp_rule(L, l.pp, l.vpp, *split, text, accounted); !r.empty()) return r;
  const long long per_step = static_cast<long long>(l.micro_batch) * l.dp;
  if (std::string r = dualpipe_rule(l, per_step, text); !r.empty()) return r;
  if (l.global_batch > 0 && l.vpp > 1 && l.global_batch % (per_step * l.pp) != 0) {
    return why(text, "global batch {} is not a multiple of micro-batch {} × DP {} × PP {} "
                       "(Megatron's interleaved schedule)", l.global_batch, l.micro_batch, l.dp, l.pp);
  }
  if (l.global_batch > 0 && l.global_batch % per_step != 0) {
    return why(text, "global batch {} is not a multiple of micro-batch {} × DP {}", l.global_batch,
                       l.micro_batch, l.dp);
  }
  return {};
}
}  // namespace

/// "0.27 s slower per step (6.1 % fewer tokens/s): +0.21 s all-to-all (EP 16 spans 2
/// nodes), +0.05 s pipeline (PP 4, 16 micro-batches)": the terms that differ most.
std::string why_slower(const LayoutCandidate& best, const LayoutCandidate& c, const Cluster& cluster) {
  // Per token: layouts round the global batch to their own micro-batch × DP, so a step of
  // another layout may hold fewer tokens; the comparison is at the best one's batch.
  const double scale = c.time.tokens_per_step > 0 ? best.time.tokens_per_step / c.time.tokens_per_step : 1.0;
  std::array<double, k_step_terms> diff{};
  for (int i = 0; i < k_step_terms; ++i) {
    diff[i] = c.time.terms[i].seconds * scale - best.time.terms[i].seconds;
  }
  std::array<int, k_step_terms> order{};
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return std::abs(diff[a]) > std::abs(diff[b]); });
  const double slower = c.time.step_seconds * scale - best.time.step_seconds;
  const double floor = std::max(1e-4 * best.time.step_seconds, 0.1 * std::abs(diff[order[0]]));
  std::vector<std::string> parts;
  for (int i : order) {
    if (parts.size() == 3 || std::abs(diff[i]) < floor || diff[i] == 0) break;
    parts.push_back(fmt::format("{:+.3g} s {}{}", diff[i], term_label(i), term_note(i, c.layout, cluster)));
  }
  if (parts.empty()) {
    return fmt::format("the same step time, {:.2f} GiB more memory per GPU",
                       (c.memory.total() - best.memory.total()) / k_gib);
  }
  const double fewer = best.time.tokens_per_second > 0
                           ? 100.0 * (1.0 - c.time.tokens_per_second / best.time.tokens_per_second)
                           : 0.0;
  return fmt::format("{:.3g} s slower per step of the same tokens ({:.1f} % fewer tokens/s): {}", slower, fewer,
                     fmt::join(parts, ", "));
}

std::string layout_illegal_reason(const ModelConfig& m, const Cluster& cluster,
                                  const ParallelLayout& l, bool allow_uneven_pipeline) {
  return illegal_reason(m, cluster, l, allow_uneven_pipeline, true);
}

bool GivenLayout::any() const {
  return tp || cp || pp || vpp || ep || etp || micro_batch || first_stage_layers || last_stage_layers || embedding_in_split || loss_in_split ||
         dualpipe || !pipeline_layout.empty() || recompute;
}

namespace {
std::string names_of(const GivenLayout& g, bool given) {
  std::string out;
  const auto add = [&](const char* name, bool has) {
    if (has != given) return;
    if (!out.empty()) out += ", ";
    out += name;
  };
  add("TP", g.tp.has_value());
  add("CP", g.cp.has_value());
  add("PP", g.pp.has_value());
  add("VPP", g.vpp.has_value());
  // The split of an uneven pipeline: given, or searched wherever PP may exceed 1.
  const bool split_given = g.first_stage_layers.has_value() || g.last_stage_layers.has_value() ||
                           g.embedding_in_split || g.loss_in_split || !g.pipeline_layout.empty();
  if (split_given || !(g.pp && *g.pp == 1)) add("stage split", split_given);
  add("EP", g.ep.has_value());
  add("ETP", g.etp.has_value());
  add("micro-batch", g.micro_batch.has_value());
  add("recompute", g.recompute.has_value());
  return out;
}
}  // namespace

std::string GivenLayout::given_names() const { return names_of(*this, true); }
std::string GivenLayout::searched_names() const { return names_of(*this, false); }

/// Megatron-Core 0.20's model-dependent CUDA-graph rules (transformer_config.py __post_init__);
/// "" when the capture is allowed.
static std::string cuda_graph_reason(const ModelConfig& m, const CudaGraphs& g) {
  if (g.impl == CudaGraphImpl::full_iteration && m.is_moe()) {
    // The whole step holds every MoE layer's experts, whose shapes change every step without
    // drop-and-pad (Megatron-LM's MoE README, "CUDA Graph", @d98e8a64: without
    // --moe-expert-capacity-factor and --moe-pad-expert-input-to-capacity "the resulting
    // dynamic shapes make MoE layers uncapturable"), and the dispatcher syncs with the host.
    return "--cuda-graph-impl full_iteration captures the whole step, a dropless MoE layer's experts included, which "
           "cannot be captured (Megatron captures a MoE layer only with drop-and-pad); name the scopes: "
           "--cuda-graph-impl transformer_engine --cuda-graph-scope attn moe_router moe_preprocess";
  }
  if (!g.per_layer()) return "";
  if ((g.modules & (cuda_graph_moe_router | cuda_graph_moe_preprocess)) != 0 && !m.is_moe()) {
    return fmt::format("--cuda-graph-scope {}: the model has no MoE layers (\"moe cuda graph is only supported "
                       "for MoE\")",
                       cuda_graph_modules_string(g.modules));
  }
  if (g.modules == 0 && m.is_moe()) {
    // A whole-layer graph of a MoE layer holds its experts, whose shapes change every step
    // without drop-and-pad ("moe cuda graph is only supported with drop-padding MoE").
    return fmt::format("--cuda-graph-impl {} over whole layers (no --cuda-graph-scope, or its deprecated 'full') "
                       "captures a dropless MoE "
                       "layer's experts too, which cannot be captured (Megatron captures a MoE layer only "
                       "with drop-and-pad); name the scopes: attn moe_router moe_preprocess",
                       to_string(g.impl));
  }
  if ((g.modules & cuda_graph_mlp) != 0 && m.is_moe() && m.moe_layers() == m.num_hidden_layers) {
    return "--cuda-graph-scope mlp: every layer is a MoE layer (\"mlp cuda graph is only supported for dense "
           "layers\"); capture moe_router";
  }
  return "";
}


std::string given_layout_reason(const ModelConfig& m, const Cluster& cluster, const GivenLayout& g, int seq_len,
                                const std::expected<PipelineLayout, std::string>* parsed) {
  // The rules of each given dimension (the whole-layout check's own, prefixed with the flag),
  // then the products the given ones alone must divide.
  const int world = cluster.gpus;
  const int per_node = cluster.gpus_per_node;
  const int tp = g.tp.value_or(1), cp = g.cp.value_or(1), pp = g.pp.value_or(1), ep = g.ep.value_or(1),
            etp = g.etp.value_or(1);
  const auto flagged = [](const char* flag, int value, const std::string& reason) {
    return reason.empty() ? reason : fmt::format("{} {}: {}", flag, value, reason);
  };
  std::string r;
  if (g.tp && !(r = flagged("--tp", tp, tp_rule(m, per_node, tp, true))).empty()) return r;
  if (g.etp && etp > 1) {  // ETP other than 1 is TP: the given TP's rule, or the TP rules for it
    const std::string why_etp = g.tp ? etp_rule(etp, tp, true) : tp_rule(m, per_node, etp, true);
    if (!why_etp.empty()) return flagged("--etp", etp, g.tp ? why_etp : "ETP other than 1 is TP: " + why_etp);
  }
  if ((g.ep || g.etp) && !(r = flagged(g.ep ? "--ep" : "--etp", g.ep ? ep : etp, ep_rule(m, ep, etp, true))).empty()) {
    return r;
  }
  if (g.cp && !(r = flagged("--cp", cp, sequence_rule(seq_len, 1, cp, true))).empty()) return r;
  if (g.tp && !(r = flagged("--tp", tp, sequence_rule(seq_len, tp, g.cp ? cp : 1, true))).empty()) return r;
  if (g.recompute_modules && (*g.recompute_modules & recompute_mla_up_proj) != 0 && !m.latent_attention) {
    // Megatron's TransformerConfig: "mla_up_proj in recompute_modules is only supported with
    // multi_latent_attention".
    return "--recompute-modules mla_up_proj: the model has no multi-latent attention (Megatron accepts it only "
           "with MLA)";
  }
  const int first = g.first_stage_layers.value_or(0), last = g.last_stage_layers.value_or(0);
  if ((g.embedding_in_split || g.loss_in_split) && (first > 0 || last > 0)) {
    return "--decoder-first/last-pipeline-num-layers and --account-for-embedding/loss-in-pipeline-split both split "
           "the pipeline: give one";
  }
  if ((g.embedding_in_split || g.loss_in_split) && g.pp && pp == 1) {
    return fmt::format("--account-for-{}-in-pipeline-split: counting it as a layer of a stage needs PP > 1 (--pp 1)",
                       g.embedding_in_split ? "embedding" : "loss");
  }
  if ((first > 0 || last > 0) && g.pp && pp == 1) {
    return fmt::format("--decoder-{}-pipeline-num-layers: an uneven pipeline split needs PP > 1 (--pp 1)",
                       first > 0 ? "first" : "last");
  }
  if ((first > 0 || last > 0) && g.vpp && *g.vpp > 1) {
    return fmt::format("--vpp {}: moeplan's interleaved schedule needs an even split, not "
                       "--decoder-first/last-pipeline-num-layers",
                       *g.vpp);
  }
  if (!g.pipeline_layout.empty()) {
    if (!g.pp || pp < 2) return "--pipeline-model-parallel-layout needs --pp > 1 (Megatron splits the layout over PP ranks)";
    const auto p = parsed ? *parsed : parse_pipeline_layout(g.pipeline_layout, pp, m.num_hidden_layers, mtp_modules(m));
    if (!p) return fmt::format("--pipeline-model-parallel-layout {}: {}", g.pipeline_layout, p.error());
    if (g.interleaved_schedule == false && p->vpp > 1) {
      return fmt::format("--pipeline-schedule 1f1b contradicts --pipeline-model-parallel-layout {}: its {} stages on "
                         "PP {} are VPP {} (the interleaved schedule); give one",
                         g.pipeline_layout, p->vpp * pp, pp, p->vpp);
    }
    if (g.interleaved_schedule == true && p->vpp <= 1) {
      return fmt::format("--pipeline-schedule interleaved contradicts --pipeline-model-parallel-layout {}: its {} "
                         "stages on PP {} are one a rank (VPP 1, 1F1B); give one",
                         g.pipeline_layout, p->vpp * pp, pp);
    }
    if (g.vpp && *g.vpp != p->vpp) {
      return fmt::format("--vpp {}: the layout {} has {} stages on PP {}: VPP {}", *g.vpp, g.pipeline_layout,
                         p->vpp * pp, pp, p->vpp);
    }
    if (first > 0 || last > 0 || g.embedding_in_split || g.loss_in_split) {
      return "--pipeline-model-parallel-layout and the other pipeline split flags both split the pipeline: give one";
    }
  }
  if (g.dualpipe && g.pp) {  // DualPipe's PP rule, dualpipe_rule's own (no batch yet)
    ParallelLayout dual;
    dual.pp = pp;
    dual.dualpipe = true;
    if (!(r = flagged("--pp", pp, dualpipe_rule(dual, 0, true))).empty()) return r;
  }
  const bool accounted = g.embedding_in_split || g.loss_in_split;
  if (g.pp && accounted && pp > 1) {
    const int L = m.num_hidden_layers;
    if (!(r = flagged("--pp", pp, accounted_rule(L, pp, g.vpp.value_or(1), g.embedding_in_split, g.loss_in_split, true)))
             .empty()) {
      return r;
    }
  } else if (g.pp && g.pipeline_layout.empty()) {
    const int L = m.num_hidden_layers;
    const auto split = pp > L ? std::nullopt : stage_split(L, pp, first, last, true);
    if (!(r = flagged("--pp", pp, pp_rule(L, pp, first, last, true, split, true))).empty()) return r;
    if (g.vpp && !(r = flagged("--vpp", *g.vpp, vpp_rule(L, pp, *g.vpp, *split, true))).empty()) return r;
  }
  const long long attention = static_cast<long long>(tp) * cp * pp;
  if (world % attention != 0) {
    return fmt::format("TP {} × CP {} × PP {} = {} does not divide the {} GPUs", tp, cp, pp, attention, world);
  }
  const long long experts = static_cast<long long>(ep) * etp * pp;
  if (world % experts != 0) {
    return fmt::format("EP {} × ETP {} × PP {} = {} does not divide the {} GPUs", ep, etp, pp, experts, world);
  }
  return {};
}

namespace {

/// The most tokens a searched micro-batch holds (ENGINEERING FIGURE): 4 sequences of 4,096, the
/// largest micro-batch of the default list at the sequence length most validation rows run.
constexpr long long k_micro_batch_tokens = 16384;

/// What one search enumerates: the values each dimension takes (the given one, else the
/// options'), and the global batch in sequences.
struct SearchSpace {
  std::vector<int> micro_batches;
  std::vector<Recompute> recompute_levels;
  std::vector<int> cps, eps;
  int min_vpp = 1, max_vpp = 1;
  long long sequences = 1;  ///< B: the global batch asked, in sequences
  /// The given --pipeline-model-parallel-layout parsed once on the given PP (nullopt: none given).
  std::optional<PipelineLayout> pipeline_layout;
};

std::expected<SearchSpace, ConstraintViolation> search_space(const ModelConfig& m, const Cluster& cluster,
                                                             const LayoutSearchOptions& options) {
  const int world = cluster.gpus;
  const int per_node = cluster.gpus_per_node;
  const int S = options.time.seq_len;
  if (S <= 0) throw std::logic_error("layout search: S (StepTimeOptions::seq_len) not set");
  if (world < 1 || per_node < 1) {
    return std::unexpected(ConstraintViolation{
        "cluster", fmt::format("{} GPUs of {} per node: both must be at least 1", world, per_node)});
  }
  if (world > per_node && world % per_node != 0) {
    return std::unexpected(ConstraintViolation{
        "cluster", fmt::format("{} GPUs are not a whole number of {}-GPU nodes", world, per_node)});
  }
  if (S < 1 || options.global_batch_tokens < 1) {
    return std::unexpected(ConstraintViolation{
        "global batch", fmt::format("{} tokens per step of sequences of {} tokens: both must be "
                                    "positive",
                                    options.global_batch_tokens, S)});
  }
  // The micro-batch sizes and recompute levels tried: the given one, else the options'.
  const GivenLayout& given = options.given;
  SearchSpace space;
  space.micro_batches = given.micro_batch ? std::vector<int>{*given.micro_batch} : options.micro_batches;
  if (!given.micro_batch && !space.micro_batches.empty()) {
    // Short sequences: the list doubled while a micro-batch holds at most k_micro_batch_tokens,
    // so a step of S = 128 is not priced at 4 sequences a micro-batch (a review found such a plan
    // host-bound and 2x slower than a fitting micro-batch of 32). At S >= 4096 the list is as given.
    int largest = *std::max_element(space.micro_batches.begin(), space.micro_batches.end());
    while (largest > 0 && 2LL * largest * S <= k_micro_batch_tokens) space.micro_batches.push_back(largest *= 2);
  }
  space.recompute_levels = given.recompute ? std::vector<Recompute>{*given.recompute} : options.recompute_levels;
  if (space.micro_batches.empty() || space.recompute_levels.empty()) {
    return std::unexpected(ConstraintViolation{"parallel layout", "no micro-batch sizes or recompute levels to try"});
  }
  // The given layout string, parsed once for the rules, the VPP and every layout enumerated.
  std::optional<std::expected<PipelineLayout, std::string>> parsed;
  if (!given.pipeline_layout.empty() && given.pp) {
    parsed = parse_pipeline_layout(given.pipeline_layout, *given.pp, m.num_hidden_layers, mtp_modules(m));
  }
  if (const std::string reason = given_layout_reason(m, cluster, given, S, parsed ? &*parsed : nullptr);
      !reason.empty()) {
    return std::unexpected(ConstraintViolation{"parallel layout", reason});
  }
  if (const std::string reason = cuda_graph_reason(m, options.time.cuda_graphs); !reason.empty()) {
    return std::unexpected(ConstraintViolation{"CUDA graphs", reason});
  }
  if (options.memory.activation_fp8_input_store && !m.ffn_gated) {
    // transformer_config.py: "Storing activation input in FP8 is supported only for SwiGLU."
    return std::unexpected(ConstraintViolation{
        "activation storage", "--activation-func-fp8-input-store: the model's FFNs are not gated (not SwiGLU); "
                              "Megatron-Core stores the activation's input in fp8 only for SwiGLU"});
  }
  if (options.time.cuda_graphs.per_layer()) {
    // "full recompute is only supported with full iteration CUDA graph" (Megatron-Core 0.20,
    // transformer_config.py): per-layer graphs leave full recompute out of the search (a given
    // --recompute full is refused with the flags).
    std::erase(space.recompute_levels, Recompute::full);
    if (space.recompute_levels.empty()) {
      return std::unexpected(ConstraintViolation{
          "CUDA graphs", "--recompute full with per-layer CUDA graphs: Megatron-Core allows full recompute only "
                         "with --cuda-graph-impl full_iteration"});
    }
  }
  space.sequences = std::max(1LL, std::llround(double(options.global_batch_tokens) / S));  // B in sequences
  space.cps = {1};
  for (int cp : {2, 4, 8}) {
    if (S >= 16384 && S / cp >= 4096) space.cps.push_back(cp);
  }
  if (given.cp) space.cps = {*given.cp};
  for (int ep = 1; ep <= std::max(1, m.n_routed_experts); ++ep) {
    if (!m.is_moe() ? ep == 1 : m.n_routed_experts % ep == 0) space.eps.push_back(ep);
  }
  if (given.ep) space.eps = {*given.ep};
  space.min_vpp = given.vpp ? *given.vpp : 1;
  space.max_vpp = given.vpp ? *given.vpp : std::max(1, options.max_vpp);
  if (parsed && *parsed) {  // the layout's VPP
    space.pipeline_layout = **parsed;
    space.min_vpp = space.max_vpp = (*parsed)->vpp;
  }
  return space;
}

/// Every legal layout of the space, timed (step_seconds only: no strings); the illegal ones
/// counted in `result` with the first reason, the timed ones too.
std::vector<Timed> time_layouts(const ModelConfig& m, const ModelFlops& flops, const Cluster& cluster,
                                const LayoutSearchOptions& options, const SearchSpace& space,
                                LayoutSearchResult& result, std::string& first_reason) {
  const int world = cluster.gpus;
  const int per_node = cluster.gpus_per_node;
  const int S = options.time.seq_len;
  const GivenLayout& given = options.given;
  const double last_extra = last_stage_extra_layers(flops);
  const bool uneven = options.allow_uneven_pipeline;
  const long long per_structure =
      static_cast<long long>(space.micro_batches.size() * space.recompute_levels.size());
  // Load factors of a routing skew, per (EP, micro-batch, CP): a handful of Zipf splits.
  std::vector<std::tuple<int, int, int, double>> load_cache;
  const auto skewed_load = [&](int ep, int micro, int cp) {
    for (const auto& [e, mb, c, load] : load_cache) {
      if (e == ep && mb == micro && c == cp) return load;
    }
    const long long tokens = static_cast<long long>(micro) * (S / cp) * ep;
    const double load = expert_load_factor(tokens, m.num_experts_per_tok, m.n_routed_experts, ep,
                                           options.routing_skew);
    load_cache.emplace_back(ep, micro, cp, load);
    return load;
  };
  // One structure's layouts: every micro-batch and recompute level, timed.
  std::vector<Timed> timed;
  timed.reserve(4096);
  const auto time_structure = [&](ParallelLayout l, int ep, int cp) {
    for (int micro : space.micro_batches) {
      if (micro < 1) continue;
      // Megatron's interleaved schedule needs the micro-batches per step to be a
      // multiple of PP (schedules.py raises otherwise).
      // DualPipe's micro-batches are even and at least 2·PP (dualpipe.py's asserts).
      const long long unit = static_cast<long long>(micro) * l.dp * (l.vpp > 1 ? l.pp : 1) * (l.dualpipe ? 2 : 1);
      const long long least = l.dualpipe ? unit * l.pp : unit;
      l.micro_batch = micro;
      long long rounded = std::llround(double(space.sequences) / double(unit)) * unit;
      if (options.max_global_batch_sequences > 0 && rounded > options.max_global_batch_sequences) {
        rounded = options.max_global_batch_sequences / unit * unit;  // down: a step within the training set
      }
      l.global_batch = std::max(least, rounded);
      const long long raised = least > space.sequences ? l.global_batch : 0;
      double time_load = options.time.expert_load_factor;
      double memory_load = options.memory.expert_load_factor;
      if (options.routing_skew > 0 && m.is_moe()) {
        time_load = memory_load = skewed_load(ep, micro, cp);
      }
      for (Recompute rec : space.recompute_levels) {
        l.recompute = rec;
        l.recompute_modules = given.recompute_modules.value_or(k_default_recompute_modules);
        const StepSeconds r = step_seconds(flops, cluster, l, options.time, time_load, uneven);
        timed.push_back({l, r.tokens_per_second, time_load, memory_load, raised,
                         options.exact_batch && raised == 0 && l.global_batch != space.sequences});
        ++result.evaluated;
      }
    }
  };
  for (int tp = 1; tp <= per_node; ++tp) {
    if (given.tp ? tp != *given.tp : per_node % tp != 0) continue;
    for (int cp : space.cps) {
      // The search keeps TP x CP within a node (its collectives at NVLink); a given CP may
      // span nodes (Megatron's ring attention does).
      if (!given.cp && tp * cp > per_node) continue;
      if (world % (tp * cp) != 0) {
        result.illegal += per_structure;
        if (first_reason.empty()) {
          first_reason = fmt::format("TP {} × CP {} does not divide the {} GPUs", tp, cp, world);
        }
        continue;
      }
      if (const std::string r = sequence_rule(S, tp, cp, true); !r.empty()) {
        result.illegal += per_structure;
        if (first_reason.empty()) first_reason = r;
        continue;
      }
      const int base = world / (tp * cp);
      for (int pp = 1; pp <= std::min(m.num_hidden_layers, base); ++pp) {
        if (base % pp != 0 || (given.pp && pp != *given.pp)) continue;
        if (pp == 1 && (given.first_stage_layers || given.last_stage_layers || given.embedding_in_split ||
                        given.loss_in_split)) {
          continue;  // a split needs stages
        }
        for (int vpp = space.min_vpp; vpp <= space.max_vpp; ++vpp) {
          if (vpp > 1 && pp == 1) break;
          const std::pair<int, int> split = searched_split(m.num_hidden_layers, pp, vpp, uneven, last_extra);
          const std::vector<GivenLayout> splits = pipeline_split_variants(m.num_hidden_layers, pp, vpp, given);
          for (int ep : space.eps) {
            for (int k = 0; k < (tp > 1 && m.is_moe() ? 2 : 1); ++k) {
              const int etp = k == 0 ? 1 : tp;  // ETP 1 or TP
              if (given.etp && etp != *given.etp) continue;
              for (std::size_t v = 0; v < splits.size(); ++v) {
                const ParallelLayout l = make_layout(m, world, tp, cp, pp, vpp, ep, etp, split, splits[v], space.pipeline_layout);
                std::string reason = illegal_reason(m, cluster, l, uneven, first_reason.empty());
                if (!reason.empty()) {
                  if (v > 0) continue;  // an accounted variant tried only where legal
                  result.illegal += per_structure;
                  if (first_reason.empty()) first_reason = std::move(reason);
                  continue;
                }
                time_structure(l, ep, cp);
              }
            }
          }
        }
      }
    }
  }
  return timed;
}

/// The fastest layouts whose memory fits, from the timed ones: memory in preference order
/// until k_keep structures fit (and past them while tokens/s ties within the same batch
/// class), then formatted and ranked; else the layout with the smallest shortfall, named.
std::expected<LayoutSearchResult, ConstraintViolation> keep_fitting(const ModelConfig& m, const ParameterCounts& p,
                                                                    const Cluster& cluster,
                                                                    const LayoutSearchOptions& options,
                                                                    const std::vector<Timed>& timed,
                                                                    LayoutSearchResult result) {
  // Preferred first (the batch kept, fastest first); memory in that order until k_keep fit
  // (and past them while tokens/s ties within the same batch class).
  std::vector<std::size_t> order(timed.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return preferred(timed[a], timed[b]); });
  const double usable = cluster.gpu.hbm_bytes * options.memory_headroom;
  MemoryOptions memory = options.memory;
  memory.seq_len = options.time.seq_len;
  struct Fit {
    LayoutCandidate c;
    double time_load = 1;  ///< the load factor of its time
    long long raised = 0;  ///< its batch when above the one asked (Timed::raised)
    bool rounded = false;  ///< Timed::rounded
  };
  std::vector<Fit> fits;
  std::optional<LayoutCandidate> closest;
  double cutoff = 0;
  // The runners-up are other splits of the GPUs, not the winner with another micro-batch or
  // recompute level (which would say little about why the winner won): fits are counted
  // per structure (TP, CP, PP, VPP, EP, ETP).
  const auto structure = [](const ParallelLayout& l) {
    return std::array<int, 6>{l.tp, l.cp, l.pp, l.vpp, l.ep, l.etp};
  };
  std::set<std::array<int, 6>> structures;
  long long cutoff_raised = -1;  // the batch class of the k_keep-th fit
  for (std::size_t i : order) {
    const Timed& t = timed[i];
    if (structures.size() >= k_keep &&
        (t.raised != cutoff_raised || preference(t.tokens_per_second, t.rounded) < cutoff * (1.0 - 1e-12))) {
      break;
    }
    memory.expert_load_factor = t.memory_load;
    LayoutCandidate c;
    c.layout = t.layout;
    const double total = memory_total_bytes(m, t.layout, memory);
    ++result.memory_evaluated;
    c.fits = total <= usable;
    if (c.fits) {
      c.memory = memory_per_gpu(m, p, t.layout, memory);  // described: it may be shown
      structures.insert(structure(c.layout));
      fits.push_back({std::move(c), t.time_load, t.raised, t.rounded});
      if (structures.size() == k_keep && cutoff == 0) {
        cutoff = preference(t.tokens_per_second, t.rounded);
        cutoff_raised = t.raised;
      }
    } else {
      c.shortfall_bytes = total - usable;
      if (!closest || c.shortfall_bytes < closest->shortfall_bytes) {
        c.memory = memory_per_gpu(m, p, t.layout, memory);  // the closest is named when nothing fits
        closest = std::move(c);
      }
    }
  }
  if (fits.empty()) {
    return std::unexpected(
        shortfall(m, cluster, closest->layout, closest->memory, usable, options.memory_headroom));
  }
  // Formatted step times of the kept ones; tokens/s, then less memory on a tie.
  for (auto& [c, time_load, raised, rounded] : fits) {
    StepTimeOptions time = options.time;
    time.expert_load_factor = time_load;
    c.time = step_time(m, p, cluster, c.layout, time);
  }
  std::stable_sort(fits.begin(), fits.end(), [](const Fit& x, const Fit& y) {
    const LayoutCandidate& a = x.c;
    const LayoutCandidate& b = y.c;
    if (x.raised != y.raised) return x.raised < y.raised;  // the batch kept (0) first
    const double px = preference(a.time.tokens_per_second, x.rounded);
    const double py = preference(b.time.tokens_per_second, y.rounded);
    if (px != py) return px > py;
    return a.memory.total() < b.memory.total();
  });
  result.batch_raised = fits.front().raised > 0;  // the winner's
  std::set<std::array<int, 6>> kept;
  for (Fit& f : fits) {
    if (result.ranked.size() == k_keep) break;
    if (kept.insert(structure(f.c.layout)).second) result.ranked.push_back(std::move(f.c));
  }
  for (std::size_t i = 1; i < result.ranked.size(); ++i) {
    result.why_lost.push_back(why_slower(result.ranked[0], result.ranked[i], cluster));
  }
  return result;
}

}  // namespace

std::expected<LayoutSearchResult, ConstraintViolation> search_layouts(
    const ModelConfig& m, const ParameterCounts& p, const Cluster& cluster,
    const LayoutSearchOptions& options) {
  const auto space = search_space(m, cluster, options);
  if (!space) return std::unexpected(space.error());
  const ModelFlops flops = model_flops(m, p, options.time.seq_len);
  LayoutSearchResult result;
  result.requested_batch = space->sequences;
  std::string first_reason;
  const std::vector<Timed> timed = time_layouts(m, flops, cluster, options, *space, result, first_reason);
  if (timed.empty()) {
    return std::unexpected(ConstraintViolation{
        "parallel layout",
        fmt::format("no legal layout of {} on {} GPUs ({} per node): {}",
                    m.name.empty() ? std::string("the model") : m.name, cluster.gpus, cluster.gpus_per_node,
                    first_reason.empty() ? std::string("nothing to enumerate") : first_reason)});
  }
  return keep_fitting(m, p, cluster, options, timed, std::move(result));
}

}  // namespace moeplan
