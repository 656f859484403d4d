#pragma once
/// Serving a model on an inference node (docs/serving.md): does it fit, how many sequences of
/// a context fit beside it, and how fast it decodes at that batch.
///
/// Decoding an MoE is bound by memory, not FLOPs: every weight sits in HBM, the cache grows
/// with context and batch, and each step streams the weights the batch touches and the cache
/// it reads. The model here is a roofline per decode step: bytes over achieved HBM bandwidth
/// against FLOPs over the sustained tensor-core rate, the slower wins; communication and
/// kernel launches are not counted, so the throughput is an upper bound (docs/serving.md).
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "moeplan/cluster/gemm_rate.hpp"
#include "moeplan/cluster/gpu_catalog.hpp"
#include "moeplan/model/model_config.hpp"

namespace moeplan {

/// How the served weights or the cache are stored.
enum class ServePrecision { bf16, fp8, fp4 };
const char* to_string(ServePrecision p);
/// "bf16", "fp8" or "fp4"; nullopt otherwise.
std::optional<ServePrecision> parse_serve_precision(std::string_view text);

/// vLLM's default gpu_memory_utilization (vllm/config/cache.py: "The fraction of GPU memory
/// to be used for the model executor ... default 0.9"): the rest is the CUDA context,
/// activations and the allocator's slack. An engineering figure of a serving engine.
inline constexpr double k_serve_memory_fraction = 0.9;

struct ServingOptions {
  GpuSpec gpu;
  int gpus = 0;         ///< GPUs serving one copy of the model
  std::int64_t context = 0;  ///< tokens each sequence holds in its cache
  ServePrecision weights = ServePrecision::bf16;
  ServePrecision kv = ServePrecision::bf16;  ///< bf16 or fp8 (fp4 is refused by serving_problem)
  bool count_mtp = false;  ///< serve the multi-token-prediction modules too (speculative decoding)
  std::int64_t min_batch = 1;  ///< sequences the fit must hold at the context
  /// true: the decode bound is for min_batch sequences (the user asked for that batch);
  /// false: for the largest batch that fits.
  bool decode_at_min_batch = false;
  double memory_fraction = k_serve_memory_fraction;
  /// Achieved HBM bandwidth over the datasheet's, of the decode bound (--hbm-efficiency; the
  /// step model's measured figure by default).
  double hbm_efficiency = k_hbm_efficiency;
};

/// A usage problem with the options for this GPU (fp8 on a GPU without FP8 tensor cores, an
/// fp4 cache, a GPU count that is not one node or whole nodes); nullopt when they are fine.
std::optional<std::string> serving_problem(const ServingOptions& o);

/// The split of the served model: tensor parallel attention and dense layers, expert parallel
/// experts, both over the GPUs of one node; whole nodes beyond it are pipeline stages. TP is
/// the widest of the node's GPUs that splits the heads; the rest are data-parallel attention
/// groups (dp), each with its own copy of the attention and its own sequences.
struct ServingSplit {
  int tp = 1;      ///< attention, dense FFN, shared experts, embeddings: split over these
  int dp = 1;      ///< attention groups of tp GPUs in a stage
  int ep = 1;      ///< routed experts: ceil(N_e / ep) on each GPU
  int stages = 1;  ///< pipeline stages, one per node
  std::vector<int> layers_per_stage;
};

/// One decode round of the batch: every sequence advances one token. With pipeline stages the
/// batch goes round in `stages` micro-batches; the figures are the busiest GPU's (of the
/// slowest stage) for one micro-batch.
struct DecodeStep {
  std::int64_t batch = 0;
  std::int64_t micro_batch = 0;  ///< ceil(batch / stages)
  int stages = 1;
  double experts_touched = 0;  ///< expected distinct routed experts of one MoE layer per micro-batch, uniform routing
  double weight_bytes = 0;     ///< weights read by the busiest GPU per micro-batch
  double cache_bytes = 0;      ///< cache read by it per micro-batch
  double flops = 0;            ///< its FLOPs per micro-batch
  double memory_seconds = 0;   ///< (weights + cache) / (HBM x 0.85)
  double compute_seconds = 0;  ///< FLOPs / (peak x 0.6)
  /// A round: each stage handles `stages` micro-batches, the slowest stage sets the pace.
  [[nodiscard]] double seconds() const {
    return stages * (memory_seconds > compute_seconds ? memory_seconds : compute_seconds);
  }
  [[nodiscard]] bool memory_bound() const { return memory_seconds >= compute_seconds; }
  [[nodiscard]] double tokens_per_second() const { return seconds() > 0 ? double(batch) / seconds() : 0; }
};

struct ServingFit {
  ServingSplit split;
  double served_params = 0;  ///< every weight served: N, embeddings, head, beside N (and MTP if counted)
  double mtp_params = 0;     ///< the MTP modules' weights, counted or not
  double weight_bytes = 0;   ///< all GPUs together
  double weight_bytes_per_gpu = 0;  ///< the busiest GPU
  double hbm_per_gpu = 0;
  double cache_budget_per_gpu = 0;  ///< memory_fraction x HBM - weights (may be negative)
  /// The cache of one sequence at the context: whole model (one copy), and on the busiest GPU
  /// (its share, with the copies TP makes where the heads do not split).
  double cache_bytes_per_token = 0;     ///< the part that grows with context, per token, one copy
  double cache_fixed_bytes = 0;         ///< recurrent states, per sequence, one copy
  double cache_bytes_per_sequence = 0;  ///< one copy, at the context
  double cache_bytes_per_sequence_per_gpu = 0;
  std::string cache_kind;     ///< "GQA", "MLA", "GQA + gated_deltanet", ...
  std::string cache_formula;  ///< per token and layer, as counted
  std::int64_t max_batch = 0;
  bool fits = false;
  std::string why_not;  ///< when !fits: which bound, by how much
  std::optional<DecodeStep> decode;  ///< at max_batch, when it fits
  std::vector<std::string> notes;
};

/// The serving fit of `m` on the options' node(s). An error (a sentence) when the model's
/// cache cannot be counted (a mixer without decode_state_bytes); a model that does not fit is
/// a ServingFit with fits = false and why_not.
std::expected<ServingFit, std::string> serving_fit(const ModelConfig& m, const ServingOptions& o);

/// The decode step of `fit`'s model at `batch` (batch <= fit.max_batch is the caller's to check).
DecodeStep decode_step(const ModelConfig& m, const ServingOptions& o, const ServingFit& fit, std::int64_t batch);

}  // namespace moeplan
