// The serving fit: weights, cache and the decode roofline of one model on an inference node
// (docs/serving.md). Every constant is cited where it is used.
#include "moeplan/serving/serving_fit.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/step_time.hpp"

namespace moeplan {

namespace {

// Bytes of one projection weight as stored for serving.
// - bf16: 2 bytes.
// - fp8: 1 byte plus one fp32 scale per 128 x 128 block (DeepSeek-V3 tech report, arXiv:2412.19437,
//   Sec. 3.3.1: weights quantized "on a 128x128 block basis"; the published fp8 checkpoint stores
//   weight_scale_inv per block): 1 + 4/16384 bytes.
// - fp4: MXFP4, 4 bits plus one 8-bit E8M0 scale per block of 32 (OCP Microscaling Formats
//   specification v1.0, Sec. 5; gpt-oss ships its experts so): 0.5 + 1/32 bytes.
double weight_bytes_per_param(ServePrecision p) {
  switch (p) {
    case ServePrecision::bf16: return 2;
    case ServePrecision::fp8: return 1 + 4.0 / (128 * 128);
    case ServePrecision::fp4: return 0.5 + 1.0 / 32;
  }
  return 2;
}

// Bytes of one cache element: bf16 2, fp8 1 (vLLM kv_cache_dtype fp8: per-tensor scales only).
double cache_bytes_per_element(ServePrecision p) { return p == ServePrecision::fp8 ? 1 : 2; }

// Weights that stay bf16 whatever --serve-weights (embeddings, output head, norms, routers,
// biases: the fp8 and MXFP4 checkpoints quantize the linear layers only).
constexpr double k_bf16_bytes = 2;

// Achieved fraction of the datasheet, the step model's own: the sustained tensor-core rate
// (StepTimeOptions::gemm_efficiency, a stated figure); HBM's is ServingOptions::hbm_efficiency.
const double k_math_fraction = StepTimeOptions{}.gemm_efficiency;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// What one layer puts on the busiest GPU of its stage and reads per decode step.
struct LayerShare {
  double split_params = 0;        ///< projection weights split over TP (attention, dense, shared, mixer)
  double expert_params = 0;       ///< one routed expert's weights
  int experts_on_gpu = 0;         ///< routed experts of this layer on one GPU
  double beside_params = 0;       ///< beside-N weights of the layer on one GPU (bf16)
  double cache_per_token = 0;     ///< bytes per context token on one GPU
  double cache_fixed = 0;         ///< bytes per sequence on one GPU (recurrent state)
  double cache_per_token_copy = 0;  ///< bytes per context token, one copy of the model
  double cache_fixed_copy = 0;
  bool windowed = false;
  int window = 0;
  double dense_flops_per_token = 0;   ///< forward FLOPs on one GPU: projections, mixers (per sequence of its group)
  double expert_flops_per_token = 0;  ///< forward FLOPs on one GPU of the K routed experts (per token of the stage)
  double score_flops_per_ctx = 0;     ///< attention score FLOPs on one GPU per context token
};

LayerShare layer_share(const ModelConfig& m, const LayerSpec& l, const ServingSplit& split, const ServingOptions& o,
                       double beside_per_layer) {
  const LayerParams p = layer_params(m, l);
  LayerShare s;
  const int tp = split.tp;
  s.split_params = (p.attention + p.linear_mixer + p.dense_ffn + p.shared) / tp;
  if (m.is_moe() && p.routed_total > 0) {
    s.expert_params = p.routed_total / m.n_routed_experts;
    s.experts_on_gpu = ceil_div(m.n_routed_experts, split.ep);
  }
  s.beside_params = beside_per_layer / tp;
  const double kv = cache_bytes_per_element(o.kv);
  if (l.mixer == MixerKind::attention && l.own_kv) {
    double copy = 0, gpu = 0;  // elements per token
    if (m.latent_attention) {
      // MLA keeps one latent of kv_lora_rank and the shared RoPE key of qk_rope_head_dim per
      // token and layer (DeepSeek-V2, arXiv:2405.04434, Sec. 2.1.2 and Table 1: (d_c + d_h^R) l
      // elements per token). It has no heads to split: vLLM's MLA backends keep it whole on
      // every TP rank (data-parallel attention would split the batch instead).
      copy = m.latent_attention->kv_lora_rank + m.latent_attention->qk_rope_head_dim;
      gpu = copy;
    } else {
      // MHA/GQA: K and V of N_kv heads of d_qkv per token and layer (Ainslie et al., GQA,
      // arXiv:2305.13245, Sec. 2); TP splits the heads, and where N_kv < TP each rank keeps one
      // (vLLM replicates kv heads over TP ranks beyond N_kv).
      const int heads = kv_heads_of(m, l);
      copy = 2.0 * heads * m.head_size();
      gpu = 2.0 * ceil_div(heads, tp) * m.head_size();
    }
    s.cache_per_token_copy = copy * kv;
    s.cache_per_token = gpu * kv;
    if (m.indexer) {
      // DeepSeek-V3.2's indexer keeps one key of index_head_dim per token and layer beside the
      // latent, in fp8 with one fp32 scale (its inference code: Indexer.k_cache and k_scale_cache),
      // whatever the cache's dtype; whole on every rank like the latent.
      const double indexer = m.indexer->head_dim * 1.0 + 4.0;
      s.cache_per_token_copy += indexer;
      s.cache_per_token += indexer;
    }
    s.windowed = l.window > 0;
    s.window = l.window;
  }
  if (l.mixer == MixerKind::linear) {
    const LinearMixer& x = m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer));
    s.cache_fixed_copy = x.decode_state_bytes.value_or(0);
    s.cache_fixed = s.cache_fixed_copy / tp;  // vLLM shards the states' heads over TP
    s.dense_flops_per_token += x.state_flops / tp;
  }
  // Forward FLOPs per token: 2 per weight a token uses (the K routed experts land on the EP
  // ranks evenly under uniform routing), and the attention scores: q.k over d_qk and the
  // weighted sum over d_v for each query head and context token (the un-absorbed form of MLA).
  s.dense_flops_per_token += 2.0 * (p.attention + p.linear_mixer + p.dense_ffn + p.shared) / tp;
  s.expert_flops_per_token = 2.0 * p.routed_active / split.ep;
  if (l.mixer == MixerKind::attention) {
    double d_qk = m.head_size(), d_v = m.head_size();
    if (m.latent_attention) {
      d_qk = m.latent_attention->qk_nope_head_dim + m.latent_attention->qk_rope_head_dim;
      d_v = m.latent_attention->v_head_dim;
    }
    s.score_flops_per_ctx = 2.0 * m.num_attention_heads * (d_qk + d_v) / tp;
  }
  return s;
}

// TP t can split the attention of `m` when it divides the query heads, and the kv heads of every
// layer divide by t or t by them (vLLM's checks in its attention layers: num_heads % tp == 0,
// and kv heads split or replicated); MLA has one latent, no kv heads to check.
bool tp_splits_heads(const ModelConfig& m, int t) {
  if (m.num_attention_heads % t != 0) return false;
  if (m.latent_attention) return true;
  for (const auto& [l, count] : m.layer_census()) {  // the distinct layers: one check each
    if (l.mixer != MixerKind::attention) continue;
    const int kv = kv_heads_of(m, l);
    if (kv % t != 0 && t % kv != 0) return false;
  }
  return true;
}

ServingSplit split_for(const ModelConfig& m, const ServingOptions& o) {
  ServingSplit s;
  const int node = std::max(1, o.gpu.gpus_per_node);
  const int per_stage = std::min(o.gpus, node);
  // The widest TP of the stage's GPUs that splits the heads; the rest of the stage serves
  // other sequences with copies of the attention (data-parallel attention, SGLang's
  // --enable-dp-attention), the experts spread over all of them (EP = the stage).
  s.tp = 1;
  for (int t = per_stage; t >= 1; --t) {
    if (per_stage % t == 0 && tp_splits_heads(m, t)) {
      s.tp = t;
      break;
    }
  }
  s.dp = per_stage / s.tp;
  s.ep = per_stage;
  s.stages = o.gpus > node ? o.gpus / node : 1;
  const int L = m.num_hidden_layers;
  for (int i = 0; i < s.stages; ++i) s.layers_per_stage.push_back(L / s.stages + (i < L % s.stages ? 1 : 0));
  return s;
}

// Expected distinct experts of one MoE layer that `batch` tokens touch, each token picking K
// of N_e uniformly (no expert twice): N_e (1 - (1 - K/N_e)^B), the occupancy expectation.
double expected_experts(int n_experts, int top_k, std::int64_t batch) {
  if (n_experts <= 0) return 0;
  const double miss = 1.0 - double(top_k) / n_experts;
  return n_experts * (1.0 - std::pow(std::max(miss, 0.0), double(batch)));
}

struct StageCensus {
  double weight_bytes = 0;        ///< on its busiest GPU
  double cache_per_token = 0;     ///< bytes per context token (uncapped layers) on one GPU
  std::vector<std::pair<double, int>> windowed;  ///< (bytes per token, window) of windowed layers
  double cache_fixed = 0;
  // per decode step, per token, on one GPU
  double dense_weight_bytes = 0;  ///< weights every step reads whole
  double expert_bytes = 0;        ///< one routed expert's bytes
  int moe_layers = 0;
  int experts_on_gpu = 0;
  double dense_flops_per_token = 0;
  double expert_flops_per_token = 0;
  double score_flops_per_ctx_full = 0;
  std::vector<std::pair<double, int>> score_windowed;
  double embedding_row_bytes = 0;  ///< an input embedding row, first stage
};

double cache_at(const StageCensus& c, std::int64_t context) {
  double b = c.cache_fixed + c.cache_per_token * double(context);
  for (const auto& [bytes, window] : c.windowed) b += bytes * std::min<double>(double(context), window);
  return b;
}

std::vector<StageCensus> census(const ModelConfig& m, const ServingOptions& o, const ServingSplit& split, ServingFit& fit) {
  const std::vector<LayerSpec> specs = m.layer_specs();
  const BesideN beside = count_beside_n(m);
  const double beside_per_layer = specs.empty() ? 0 : beside.total.value() / double(specs.size());
  // fp4 (MXFP4) is the experts' storage, as gpt-oss ships it (quantization_config
  // modules_to_not_convert: self_attn, router, embed_tokens, lm_head stay bf16); fp8 covers
  // every linear layer, as DeepSeek-V3's checkpoint.
  const double wb = weight_bytes_per_param(o.weights);
  const double wb_dense = o.weights == ServePrecision::fp4 ? k_bf16_bytes : wb;
  const double d = m.hidden_size, V = m.vocab_size;
  std::vector<StageCensus> stages(static_cast<std::size_t>(split.stages));
  std::size_t layer = 0;
  for (int s = 0; s < split.stages; ++s) {
    StageCensus& c = stages[static_cast<std::size_t>(s)];
    for (int i = 0; i < split.layers_per_stage[static_cast<std::size_t>(s)]; ++i, ++layer) {
      const LayerShare x = layer_share(m, specs[layer], split, o, beside_per_layer);
      const double layer_weights = x.split_params * wb_dense + x.beside_params * k_bf16_bytes;
      c.weight_bytes += layer_weights + x.expert_params * x.experts_on_gpu * wb;
      c.dense_weight_bytes += layer_weights;
      if (x.experts_on_gpu > 0) {
        c.expert_bytes = x.expert_params * wb;
        c.experts_on_gpu = x.experts_on_gpu;
        ++c.moe_layers;
      }
      if (x.windowed) {
        c.windowed.emplace_back(x.cache_per_token, x.window);
        c.score_windowed.emplace_back(x.score_flops_per_ctx, x.window);
      } else {
        c.cache_per_token += x.cache_per_token;
        c.score_flops_per_ctx_full += x.score_flops_per_ctx;
      }
      c.cache_fixed += x.cache_fixed;
      c.dense_flops_per_token += x.dense_flops_per_token;
      c.expert_flops_per_token += x.expert_flops_per_token;
      fit.cache_bytes_per_token += x.windowed ? 0 : x.cache_per_token_copy;
      fit.cache_fixed_bytes += x.cache_fixed_copy;
      if (x.windowed) fit.cache_bytes_per_sequence += x.cache_per_token_copy * std::min<double>(double(o.context), x.window);
    }
  }
  // Embeddings (bf16, split over the TP ranks by vocabulary): the input embedding on the first
  // stage, the output head on the last; a tied pair is one tensor on one stage and a copy
  // on each end when there are several (Megatron-LM keeps both copies across pipeline stages).
  const double embed = V * d * k_bf16_bytes / split.tp;
  stages.front().weight_bytes += embed;
  stages.front().embedding_row_bytes = d * k_bf16_bytes;
  const bool head_separate = !m.tie_word_embeddings || split.stages > 1;
  if (head_separate) stages.back().weight_bytes += embed;
  stages.back().dense_weight_bytes += embed;  // the head is read whole every step
  stages.back().dense_flops_per_token += 2.0 * V * d / split.tp;
  const ParameterCounts counts = count_parameters(m);
  const double tied_copy = m.tie_word_embeddings && split.stages > 1 ? V * d : 0.0;
  fit.served_params = counts.N_with_embedding().value() + beside.total.value() + tied_copy;
  fit.weight_bytes = counts.routed_total.value() * wb + (counts.N.value() - counts.routed_total.value()) * wb_dense +
                     (counts.embedding.value() + tied_copy + beside.total.value()) * k_bf16_bytes;
  // Attention and the rest are copied on each data-parallel attention group.
  fit.weight_bytes += (split.dp - 1.0) * ((counts.N.value() - counts.routed_total.value()) * wb_dense +
                                          (counts.embedding.value() + tied_copy + beside.total.value()) * k_bf16_bytes);
  // MTP modules (speculative decoding): on the last stage, split like its MoE layers.
  const MtpCounts mtp = count_mtp(m);
  fit.mtp_params = mtp.modules.value();
  if (o.count_mtp && m.extras.num_nextn_predict_layers > 0) {
    StageCensus& last = stages.back();
    last.weight_bytes += mtp.modules.value() * wb / split.tp;
    fit.served_params += mtp.modules.value();
    fit.weight_bytes += mtp.modules.value() * wb;
    // One attention layer's cache per module, like the model's last attention layer.
    for (auto it = specs.rbegin(); it != specs.rend(); ++it) {
      if (it->mixer != MixerKind::attention) continue;
      const LayerShare x = layer_share(m, *it, split, o, 0);
      last.cache_per_token += x.cache_per_token * m.extras.num_nextn_predict_layers;
      fit.cache_bytes_per_token += x.cache_per_token_copy * m.extras.num_nextn_predict_layers;
      break;
    }
  }
  fit.cache_bytes_per_sequence += fit.cache_fixed_bytes + fit.cache_bytes_per_token * double(o.context);
  return stages;
}

std::string cache_kind_of(const ModelConfig& m) {
  std::string kind = m.attention_layers() == 0 ? "" : (m.latent_attention ? "MLA" : (m.num_key_value_heads < m.num_attention_heads ? "GQA" : "MHA"));
  if (m.indexer && !kind.empty()) kind += " + DSA indexer";
  for (const LinearMixer& x : m.linear_mixers) kind += (kind.empty() ? "" : " + ") + x.kind;
  return kind.empty() ? "none" : kind;
}

std::string cache_formula_of(const ModelConfig& m, const ServingOptions& o) {
  std::vector<std::string> parts;
  if (m.attention_layers() > 0) {
    if (m.latent_attention) {
      parts.push_back(fmt::format("MLA: (kv_lora_rank {} + qk_rope_head_dim {}) = {} elements per token and layer",
                                  m.latent_attention->kv_lora_rank, m.latent_attention->qk_rope_head_dim,
                                  m.latent_attention->kv_lora_rank + m.latent_attention->qk_rope_head_dim));
    } else {
      int lo = 0, hi = 0;  // the kv heads of the attention layers (some models give each its own)
      for (const auto& [l, count] : m.layer_census()) {
        if (l.mixer != MixerKind::attention || !l.own_kv) continue;
        const int kv = kv_heads_of(m, l);
        lo = lo == 0 ? kv : std::min(lo, kv);
        hi = std::max(hi, kv);
      }
      if (lo == hi) {
        parts.push_back(fmt::format("2 N_kv d_qkv = 2 x {} x {} = {} elements per token and layer", lo, m.head_size(),
                                    2 * lo * m.head_size()));
      } else {
        parts.push_back(fmt::format("2 N_kv d_qkv per token and layer, each layer's own N_kv ({} to {}), d_qkv {}", lo, hi,
                                    m.head_size()));
      }
    }
    if (m.indexer) parts.push_back(fmt::format("indexer key {} per token and layer", m.indexer->head_dim));
    parts.push_back(fmt::format("{} each ({})", o.kv == ServePrecision::fp8 ? "1 byte" : "2 bytes", to_string(o.kv)));
  }
  for (const LinearMixer& x : m.linear_mixers) {
    if (x.decode_state_bytes && *x.decode_state_bytes > 0) {
      parts.push_back(fmt::format("{}: {:.4g} bytes of state per sequence and layer", x.kind, *x.decode_state_bytes));
    }
  }
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

double gib(double bytes) { return bytes / k_gib; }

}  // namespace

const char* to_string(ServePrecision p) {
  switch (p) {
    case ServePrecision::bf16: return "bf16";
    case ServePrecision::fp8: return "fp8";
    case ServePrecision::fp4: return "fp4";
  }
  return "bf16";
}

std::optional<ServePrecision> parse_serve_precision(std::string_view text) {
  if (text == "bf16") return ServePrecision::bf16;
  if (text == "fp8") return ServePrecision::fp8;
  if (text == "fp4") return ServePrecision::fp4;
  return std::nullopt;
}

std::optional<std::string> serving_problem(const ServingOptions& o) {
  const bool fp8_math = o.gpu.fp8_dense_flops > 0;
  if (o.weights == ServePrecision::fp8 && !fp8_math) {
    return fmt::format("--serve-weights fp8: {} has no FP8 tensor cores (the catalog gives no fp8_dense_tflops); "
                       "bf16, or fp4 weight-only", o.gpu.id);
  }
  if (o.kv == ServePrecision::fp4) return std::string("--serve-kv: expected bf16 or fp8, got fp4");
  if (o.kv == ServePrecision::fp8 && !fp8_math) {
    return fmt::format("--serve-kv fp8: {} has no FP8 tensor cores (the catalog gives no fp8_dense_tflops)", o.gpu.id);
  }
  if (o.gpus < 1) return std::string("--serve-gpus: at least 1");
  const int node = std::max(1, o.gpu.gpus_per_node);
  if (o.gpus > node && o.gpus % node != 0) {
    return fmt::format("--serve-gpus {}: more than one node of {} GPUs must be whole nodes (pipeline stages of one "
                       "node each); {} or {}",
                       o.gpus, node, o.gpus / node * node, (o.gpus / node + 1) * node);
  }
  if (o.context < 1) return std::string("--serve-context: at least 1 token");
  if (o.min_batch < 1) return std::string("--serve-batch: at least 1 sequence");
  return std::nullopt;
}

namespace {

// The decode round of `batch` on the stages a census counted (serving_fit's own, or decode_step's).
DecodeStep decode_on(const std::vector<StageCensus>& stages, const ModelConfig& m, const ServingOptions& o,
                     const ServingSplit& split, std::int64_t batch) {
  const int pp = split.stages, dp = split.dp;
  DecodeStep step;
  step.batch = batch;
  step.stages = pp;
  // With pipeline stages the batch goes round in pp micro-batches (vLLM's virtual engines), so
  // every stage is busy; each sequence advances one token per round.
  step.micro_batch = (batch + pp - 1) / pp;
  const double b = double(step.micro_batch);
  const double per_group = std::ceil(b / dp);  // the sequences of one attention group
  step.experts_touched = expected_experts(m.n_routed_experts, m.num_experts_per_tok, step.micro_batch);
  const double peak = o.weights == ServePrecision::fp8 && o.gpu.fp8_dense_flops > 0 ? o.gpu.fp8_dense_flops
                                                                                    : o.gpu.bf16_dense_flops;
  double worst = -1;
  for (const StageCensus& c : stages) {
    // Of the experts on one GPU, its share of the touched ones (uniform routing: every expert
    // equally likely, whichever group's token picks it).
    const double on_gpu = m.is_moe() ? c.experts_on_gpu * step.experts_touched / m.n_routed_experts : 0;
    const double weights = c.dense_weight_bytes + c.moe_layers * on_gpu * c.expert_bytes + per_group * c.embedding_row_bytes;
    const double cache = per_group * cache_at(c, o.context);
    double scores = c.score_flops_per_ctx_full * double(o.context);
    for (const auto& [f, window] : c.score_windowed) scores += f * std::min<double>(double(o.context), window);
    const double flops = per_group * (c.dense_flops_per_token + scores) + b * c.expert_flops_per_token;
    const double memory_s = (weights + cache) / (o.gpu.hbm_bandwidth * o.hbm_efficiency);
    const double compute_s = flops / (peak * k_math_fraction);
    if (std::max(memory_s, compute_s) > worst) {
      worst = std::max(memory_s, compute_s);
      step.weight_bytes = weights;
      step.cache_bytes = cache;
      step.flops = flops;
      step.memory_seconds = memory_s;
      step.compute_seconds = compute_s;
    }
  }
  return step;
}

}  // namespace

DecodeStep decode_step(const ModelConfig& m, const ServingOptions& o, const ServingFit& fit, std::int64_t batch) {
  ServingFit scratch;
  return decode_on(census(m, o, fit.split, scratch), m, o, fit.split, batch);
}

std::expected<ServingFit, std::string> serving_fit(const ModelConfig& m, const ServingOptions& o) {
  for (const LinearMixer& x : m.linear_mixers) {
    if (!x.decode_state_bytes) {
      return std::unexpected(fmt::format("the decode state of its '{}' layers is not known (a model TOML mixer "
                                         "without decode_state_bytes)", x.kind));
    }
  }
  ServingFit fit;
  fit.split = split_for(m, o);
  const std::vector<StageCensus> stages = census(m, o, fit.split, fit);
  fit.cache_kind = cache_kind_of(m);
  fit.cache_formula = cache_formula_of(m, o);
  fit.hbm_per_gpu = o.gpu.hbm_bytes;
  // The busiest GPU decides: its weights, and the sequences its cache share holds.
  const double usable = o.memory_fraction * o.gpu.hbm_bytes;
  fit.max_batch = std::numeric_limits<std::int64_t>::max();
  std::size_t worst = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const StageCensus& c = stages[s];
    if (c.weight_bytes > fit.weight_bytes_per_gpu) fit.weight_bytes_per_gpu = c.weight_bytes;
    const double budget = usable - c.weight_bytes;
    const double per_seq = cache_at(c, o.context);
    std::int64_t b = 0;
    if (budget > 0) {
      // A sequence lives in one attention group: each of the dp groups holds its own.
      b = per_seq > 0 ? static_cast<std::int64_t>(std::min(std::floor(budget / per_seq) * fit.split.dp, 1e15))
                      : std::numeric_limits<std::int64_t>::max();
    }
    if (b < fit.max_batch) {
      fit.max_batch = b;
      worst = s;
    }
  }
  const StageCensus& w = stages[worst];
  fit.cache_budget_per_gpu = usable - w.weight_bytes;
  fit.cache_bytes_per_sequence_per_gpu = cache_at(w, o.context);
  if (fit.max_batch == std::numeric_limits<std::int64_t>::max()) {
    fit.notes.push_back("the model keeps no cache per sequence: the batch is not bounded by memory here");
    fit.max_batch = std::int64_t{1} << 40;
  }
  if (w.weight_bytes >= usable) {
    fit.why_not = fmt::format("weights: {:.4g} GiB on the busiest GPU, over the {:.4g} GiB usable ({:g} of {:.4g} GiB HBM, "
                              "vLLM's gpu_memory_utilization) by {:.4g} GiB",
                              gib(w.weight_bytes), gib(usable), o.memory_fraction, gib(o.gpu.hbm_bytes),
                              gib(w.weight_bytes - usable));
  } else if (fit.max_batch < o.min_batch) {
    const double need = std::ceil(double(o.min_batch) / fit.split.dp) * fit.cache_bytes_per_sequence_per_gpu;
    fit.why_not = fmt::format("cache: {} sequence(s) of {} tokens need {:.4g} GiB per GPU beside the weights, {:.4g} GiB "
                              "is left ({:g} of HBM minus {:.4g} GiB of weights): {:.4g} GiB short",
                              o.min_batch, o.context, gib(need), gib(fit.cache_budget_per_gpu), o.memory_fraction,
                              gib(w.weight_bytes), gib(need - fit.cache_budget_per_gpu));
  }
  fit.fits = fit.why_not.empty();
  if (!fit.fits) fit.max_batch = std::max<std::int64_t>(0, std::min(fit.max_batch, o.min_batch - 1));
  if (fit.fits) fit.decode = decode_on(stages, m, o, fit.split, o.decode_at_min_batch ? o.min_batch : fit.max_batch);

  // What the figures assume, for the reader.
  if (m.extras.num_nextn_predict_layers > 0) {
    fit.notes.push_back(o.count_mtp ? fmt::format("the {} MTP module(s) are served ({:.4g} parameters, their cache counted)",
                                                  m.extras.num_nextn_predict_layers, fit.mtp_params)
                                    : fmt::format("the {} MTP module(s) ({:.4g} parameters) are dropped (--serve-mtp serves "
                                                  "them for speculative decoding)",
                                                  m.extras.num_nextn_predict_layers, fit.mtp_params));
  }
  if (fit.split.dp > 1) {
    fit.notes.push_back(fmt::format("TP {} is the widest that splits the {} query heads (and the kv heads) on {} GPUs: {} "
                                    "data-parallel attention groups (SGLang's --enable-dp-attention), attention and "
                                    "dense weights copied on each, each group holding its own sequences",
                                    fit.split.tp, m.num_attention_heads, fit.split.tp * fit.split.dp, fit.split.dp));
  }
  if (m.latent_attention && fit.split.tp > 1) {
    fit.notes.push_back(fmt::format("MLA's latent cache is kept whole on each of the {} TP ranks (vLLM's MLA backends)",
                                    fit.split.tp));
  } else if (!m.latent_attention && m.attention_layers() > 0 && m.num_key_value_heads < fit.split.tp) {
    fit.notes.push_back(fmt::format("N_kv = {} < TP = {}: each rank keeps a copy of a kv head ({}x the cache of one copy)",
                                    m.num_key_value_heads, fit.split.tp,
                                    fmt::format("{:g}", double(fit.split.tp) / std::max(1, m.num_key_value_heads))));
  }
  if (fit.split.stages > 1) {
    fit.notes.push_back(fmt::format("{} GPUs: {} pipeline stages of one node each; the batch goes round in {} micro-batches "
                                    "so that every stage is busy, each sequence advancing a token per round",
                                    o.gpus, fit.split.stages, fit.split.stages));
  }
  if (o.weights == ServePrecision::fp4) {
    fit.notes.push_back("fp4 (MXFP4) covers the routed experts, as gpt-oss ships them; attention, dense layers, "
                        "embeddings, head, norms and routers stay bf16; weight-only: the FLOP bound uses the bf16 peak");
  } else if (o.weights == ServePrecision::fp8) {
    fit.notes.push_back("fp8 covers every linear layer (DeepSeek-V3's checkpoint); embeddings, head, norms and routers "
                        "stay bf16");
  }
  fit.notes.push_back(
      "decode bound: every sequence at the full context, routing uniform, communication and kernel launches not "
      "counted: an upper bound on tokens/s");
  return fit;
}

}  // namespace moeplan
