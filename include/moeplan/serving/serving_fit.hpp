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

/// The serving engine whose memory plan the section follows (docs/serving.md "The engines").
/// Each models one named release line (engine_release): what it reserves before the KV cache,
/// how it rounds the cache, its defaults.
enum class ServeEngine { vllm, sglang };
const char* to_string(ServeEngine e);
/// "vllm" or "sglang"; nullopt otherwise.
std::optional<ServeEngine> parse_serve_engine(std::string_view text);
/// The release line whose figures the engine's model follows, as the output names it.
const char* engine_release(ServeEngine e);

/// vLLM's default gpu_memory_utilization (vllm/config/cache.py, v0.10.x: CacheConfig.
/// gpu_memory_utilization = 0.9, "The fraction of GPU memory to be used for the model
/// executor"): the KV cache gets this fraction of the GPU minus what the profile run reserved.
inline constexpr double k_serve_memory_fraction = 0.9;

/// SGLang's default --mem-fraction-static by tensor-parallel size (python/sglang/srt/
/// server_args.py, v0.4.x, ServerArgs.__post_init__: tp >= 16: 0.79, >= 8: 0.81, >= 4: 0.85,
/// >= 2: 0.87, else 0.88): the weights and the KV pool take this fraction of the GPU.
double sglang_default_mem_fraction(int tp);

/// vLLM's defaults for `vllm serve` (vllm/engine/arg_utils.py, v0.10.x, EngineArgs.
/// get_batch_defaults, usage context OPENAI_API_SERVER): on a GPU of at least 70 GiB that is
/// not an A100, max_num_batched_tokens 8192 and max_num_seqs 1024; else 2048 and 256.
std::int64_t vllm_default_batched_tokens(const GpuSpec& gpu);
std::int64_t vllm_default_max_seqs(const GpuSpec& gpu);

/// SGLang's max_running_requests when --max-running-requests is not given, per DP rank (v0.4:
/// model_runner.py init_memory_pool, max_num_reqs = min(max(int(T / context_len x 512), 2048),
/// 4096), the req_to_token pool's rows; the scheduler takes min(T // 2, max_num_reqs)), T the
/// rank's max_total_num_tokens. 0 when T or the context is not positive.
std::int64_t sglang_default_running_requests(std::int64_t max_total_num_tokens, std::int64_t context_len);

/// vLLM's KV block: 16 tokens (vllm/config/cache.py, v0.10.x: block_size None, set to 16 on
/// CUDA); SGLang's pool holds single tokens (server_args.py v0.4.x: page_size 1).
inline constexpr int k_vllm_block_size = 16;

/// Memory outside torch's allocator (CUDA context, NCCL, cuBLAS) that an engine measures at
/// start-up: measured figures from named public start-up logs, per GPU, replaced by
/// --serve-non-torch-gib (docs/serving.md "Measured terms").
/// vLLM: "non_torch_memory takes 0.20GiB" (vLLM v0.8 V0 worker, 4 workers, TP 4, RTX 3090:
/// vllm-project/vllm PR #14447, comment of 2025-04-12).
inline constexpr double k_vllm_non_torch_gib = 0.20;
/// SGLang: what is used before the weights load ("Load weight begin. avail mem=137.29 GB" of
/// TP1..TP6 on an H200 whose total is 140.40 GiB, SGLang's GB being 2^30 bytes: sgl-project/
/// sglang PR #11716, log of 2025-10-16, TP 8): 3.11 GiB, NCCL's buffers for TP 8 included.
inline constexpr double k_sglang_non_torch_gib = 3.11;
/// CUDA-graph memory, measured: "Graph capturing took 0.64 GiB" (vLLM, a 3.7e9-parameter
/// dense model: generative-computing/granite-switch issue #128, 2026-09-08). Both lines capture
/// the graphs after the KV cache is sized, so the graphs must fit in what the fraction leaves.
inline constexpr double k_cuda_graph_gib = 0.64;

struct ServingOptions {
  GpuSpec gpu;
  int gpus = 0;         ///< GPUs serving one copy of the model
  std::int64_t context = 0;  ///< tokens each sequence holds in its cache
  /// Where the context came from, as the output says it ("--serve-context", the engine's
  /// derivation from config.json, the training sequence length); "" when not said.
  std::string context_source;
  ServePrecision weights = ServePrecision::bf16;
  /// true: the weights as the model's checkpoint stores them (ModelConfig::checkpoint_storage,
  /// its quantization_config) when it has one, `weights` otherwise; the CLI sets it when
  /// --serve-weights is not given.
  bool weights_as_checkpoint = false;
  ServePrecision kv = ServePrecision::bf16;  ///< bf16 or fp8 (fp4 is refused by serving_problem)
  bool count_mtp = false;  ///< serve the multi-token-prediction modules too (speculative decoding)
  std::int64_t min_batch = 1;  ///< sequences the fit must hold at the context
  /// true: the decode bound is for min_batch sequences (the user asked for that batch);
  /// false: for the largest batch that fits.
  bool decode_at_min_batch = false;
  ServeEngine engine = ServeEngine::vllm;
  /// vLLM's --gpu-memory-utilization or SGLang's --mem-fraction-static, in (0, 1]; nullopt:
  /// the engine's default (0.9; SGLang's by TP).
  std::optional<double> memory_fraction;
  /// vLLM's --max-num-batched-tokens: the tokens of the profile run's forward pass; 0: the
  /// engine's default. SGLang runs no profile pass before sizing its pool: unused there.
  std::int64_t max_batched_tokens = 0;
  /// --max-num-seqs (vLLM) / --max-running-requests (SGLang): caps the batch, and sizes vLLM's
  /// sampler in the profile run; 0: the engine's default (SGLang's derived from its pool:
  /// sglang_default_running_requests).
  std::int64_t max_seqs = 0;
  /// vLLM --enable-expert-parallel (SGLang --ep-size): each routed expert whole on one of the
  /// EP ranks; false, the engines' default: every expert split by TP.
  bool expert_parallel = false;
  /// SGLang --enable-dp-attention: attention in groups of TP 1, one per GPU, each holding its
  /// own sequences and cache (MLA's latent no longer copied on every rank).
  bool dp_attention = false;
  /// The engine's own layout (--serve-args): the attention TP of each group and the pipeline
  /// stages; unset: moeplan's (the widest TP of a node that splits the heads, nodes as stages).
  std::optional<int> engine_tp, engine_pp;
  /// Per GPU, bytes; nullopt: the measured figures above.
  std::optional<double> non_torch_bytes;
  std::optional<double> cuda_graph_bytes;
  /// --serve-min-gpus: `gpus` is to be the fewest that hold min_batch sequences at the context
  /// (serving_min_gpus), set by the caller once the model is known.
  bool min_gpus = false;
  /// Achieved HBM bandwidth over the datasheet's, of the decode bound (--hbm-efficiency; the
  /// step model's measured figure by default).
  double hbm_efficiency = k_hbm_efficiency;
  /// The engine quantizes a bf16 checkpoint to fp8 as it loads it (`--quantization fp8` in a
  /// --serve-args file): every linear layer in fp8 with a per-tensor scale, no blocks; loaded
  /// in bf16 first, so the bf16 weights must fit the GPU while it loads (vLLM's fp8 docs).
  bool online_fp8 = false;
};

/// The context the engine serves when none is given: vLLM's max_model_len (v0.10, config.py
/// _get_and_verify_max_len: the smallest of the config's length keys, rope_scaling's factor
/// applied unless llama3/longrope/su, yarn's from its original_max_position_embeddings, Gemma 3
/// not rescaled) or SGLang's context_len (v0.4, hf_transformers_utils.py get_context_length:
/// the first of max_sequence_length, seq_length, max_seq_len, model_max_length,
/// max_position_embeddings, times rope_scaling's factor unless it has an
/// original_max_position_embeddings or is llama3; 2048 when none). tokens 0 when the model has
/// no config.json length (a model TOML or preset, or a config.json with none of the keys): the
/// caller keeps its own default; `source` says which, in words.
struct ContextDefault {
  std::int64_t tokens = 0;
  std::string source;
};
ContextDefault engine_default_context(const ModelConfig& m, ServeEngine e);
/// Why the engine refuses `o.context` as it reads config.json (past the maximum it derives,
/// engine_default_context), "" when it does not or when the model has no config.json maximum.
std::string context_limit_refusal(const ModelConfig& m, const ServingOptions& o);

/// Whether TP `t` splits the attention of `m`: t divides the query heads, and the kv heads of
/// every layer divide by t or t by them (MLA: the query heads only); vLLM and SGLang refuse to
/// start otherwise.
bool tp_splits_heads(const ModelConfig& m, int t);

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
  int stages = 1;  ///< pipeline stages, one per node, never more than the layers
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
  double served_params = 0;  ///< every weight served: N, embeddings, head, beside N (and MTP if counted; vLLM's copy of k_eq_v layers' keys in their V slot)
  double mtp_params = 0;     ///< the MTP modules' weights, counted or not
  double weight_bytes = 0;   ///< all GPUs together
  double weight_bytes_per_gpu = 0;  ///< the busiest GPU
  double hbm_per_gpu = 0;
  /// How the linear weights are served: "bf16", "fp8", "fp4", or "<quant_method> (quantization_config)".
  std::string weights_storage;
  /// The routed experts' bytes as the engine holds them over their stored bytes (vLLM pads
  /// MXFP4 experts to Marlin's tiles); 1: as stored.
  double expert_padding = 1;
  /// The KV cache of the busiest GPU as the engine sizes it (may be negative): vLLM: fraction
  /// x HBM - weights - activation peak - non-torch; SGLang: fraction x HBM - weights - non-torch.
  double cache_budget_per_gpu = 0;
  double memory_fraction = 0;           ///< the fraction used (the flag's, else the engine's)
  std::int64_t max_batched_tokens = 0;  ///< the profile run's tokens (vLLM; 0 for SGLang)
  std::int64_t max_seqs = 0;            ///< the engine's cap on sequences (0: none)
  double activation_peak_per_gpu = 0;   ///< the profile run's peak beside the weights: max of the two below
  double forward_peak_per_gpu = 0;      ///< its forward pass at max_batched_tokens
  double sampler_peak_per_gpu = 0;      ///< its logits and sampler for min(max_seqs, tokens) requests
  double non_torch_per_gpu = 0;
  double cuda_graph_per_gpu = 0;
  /// Online fp8 (ServingOptions::online_fp8): the busiest GPU's bf16 weights while it loads,
  /// bytes; 0 otherwise.
  double online_fp8_load_bytes_per_gpu = 0;
  int gpus_used = 0;                    ///< GPUs of the layout (stages never outnumber the layers)
  int block_size = 1;                   ///< tokens per KV block (vLLM 16, SGLang 1)
  std::int64_t kv_cache_tokens = 0;     ///< "GPU KV cache size: N tokens"
  double max_concurrency = 0;           ///< "Maximum concurrency for C tokens per request: X"
  std::vector<std::string> engine_log;  ///< those lines, as the engine prints them (none when it does not start)
  /// Why the engine would not start ("" when it starts): it refuses the weights, they leave no
  /// room, or vLLM's KV cache cannot hold one request of the context; its start-up lines and
  /// cache figures are then not the engine's.
  std::string no_start;
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

/// How the linear layers are stored for serving (ServingFit::weights_storage), also where the
/// fit is refused: the checkpoint's quant_method when it is served as stored, else the
/// --serve-weights precision.
std::string serving_weights_storage(const ModelConfig& m, const ServingOptions& o);

/// The fewest GPUs of the options' kind that hold min_batch sequences of `context` tokens
/// (the fit's fits): 1 to a node's GPUs, then whole nodes, up to one stage a layer, each with the
/// layouts serving_min_layout tries; nullopt when none does. Every count is tried in turn (the fit is not monotone in the count: TP must
/// split the heads).
std::optional<int> serving_min_gpus(const ModelConfig& m, const ServingOptions& o);

/// The layout serving_min_layout found: the GPUs, and where moeplan's own layout (TP the widest
/// of the node that splits the heads, nodes as stages) did not hold the batch, the smaller TP
/// with pipeline stages that did (ServingOptions::engine_tp / engine_pp; vLLM only).
struct MinGpuLayout {
  int gpus = 0;
  std::optional<int> tp, pp;
};
/// serving_min_gpus with the layout: at each count moeplan's own layout first, then (vLLM) TP
/// t of the node's divisors below it with count / t pipeline stages (at most one a layer), widest
/// first, as `vllm serve -tp 4 -pp 4` lays it out: an fp8 block checkpoint whose shards at TP 8
/// are not whole blocks loads at TP 4.
std::optional<MinGpuLayout> serving_min_layout(const ModelConfig& m, const ServingOptions& o);

/// The decode step of `fit`'s model at `batch` (batch <= fit.max_batch is the caller's to check).
DecodeStep decode_step(const ModelConfig& m, const ServingOptions& o, const ServingFit& fit, std::int64_t batch);

}  // namespace moeplan
