// The serving fit: weights, cache and the decode roofline of one model on an inference node
// (docs/serving.md). Every constant is cited where it is used.
#include "moeplan/serving/serving_fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

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

// Bytes per weight of each kind of linear layer as served: from --serve-weights, or as the
// checkpoint stores them (its quantization_config: CheckpointStorage) when the flag is not given.
struct StoredBytes {
  double routed = 2, attention = 2, dense = 2, shared = 2;
  bool mxfp4_experts = false;  ///< the routed experts are MXFP4 (an engine may pad them)
  bool fp8_math = false;       ///< W8A8 fp8: FP8 tensor cores where the GPU has them
  bool from_checkpoint = false;
  [[nodiscard]] bool uniform() const { return attention == dense && dense == shared; }
};

bool serves_checkpoint(const ModelConfig& m, const ServingOptions& o) {
  return o.weights_as_checkpoint && m.checkpoint_storage && m.checkpoint_storage->known;
}

StoredBytes stored_bytes(const ModelConfig& m, const ServingOptions& o) {
  StoredBytes b;
  if (serves_checkpoint(m, o)) {
    const CheckpointStorage& c = *m.checkpoint_storage;
    b = {c.routed, c.attention, c.dense, c.shared, c.mxfp4_experts, c.fp8_math, true};
    return b;
  }
  // Online fp8 of a bf16 checkpoint (vLLM v0.10 fp8.py, Fp8LinearMethod and Fp8MoEMethod with
  // is_checkpoint_fp8_serialized False: each weight quantized once loaded, one fp32 scale per
  // tensor, a few bytes in millions: 1 byte a weight); linear layers only, as the checkpoints.
  if (o.online_fp8) {
    b.routed = b.attention = b.dense = b.shared = 1;
    b.fp8_math = true;
    return b;
  }
  // fp4 (MXFP4) is the experts' storage, as gpt-oss ships it (quantization_config
  // modules_to_not_convert: self_attn, router, embed_tokens, lm_head stay bf16); fp8 covers
  // every linear layer, as DeepSeek-V3's checkpoint.
  const double wb = weight_bytes_per_param(o.weights);
  const double wb_dense = o.weights == ServePrecision::fp4 ? k_bf16_bytes : wb;
  b.routed = wb;
  b.attention = b.dense = b.shared = wb_dense;
  b.mxfp4_experts = o.weights == ServePrecision::fp4;
  b.fp8_math = o.weights == ServePrecision::fp8;
  return b;
}

// vLLM's MXFP4 experts as it loads them (v0.10 line, vllm/model_executor/layers/quantization/
// mxfp4.py, Mxfp4MoEMethod.create_weights): on GPUs without FP4 tensor cores the v0.10.1 wheel
// runs them through Marlin (marlin_utils_fp4.py: "Weight-only FP4 compression will be used
// leveraging the Marlin kernel", the path of docs/serving-validation.md R7), whose kernel needs
// n % 256 and k % 128 of each GEMM: the per-rank intermediate size I' padded to a multiple of
// 128 and the hidden size to one of 256, values and scales alike. Blackwell (FlashInfer) and
// ROCm pad otherwise, SGLang's Triton path to 32 (sglang/srt/layers/quantization/mxfp4.py):
// there the experts are counted as stored. The factor on the experts' bytes; 1: as stored.
double mxfp4_padding(const ModelConfig& m, const ServingOptions& o, const ServingSplit& split, const StoredBytes& b) {
  if (!b.mxfp4_experts || o.engine != ServeEngine::vllm || !m.is_moe() || m.moe_intermediate_size <= 0) return 1;
  const std::string& id = o.gpu.id;
  if (id.find("b200") != std::string::npos || id.find("b300") != std::string::npos || id.starts_with("mi")) return 1;
  const double i_part = o.expert_parallel ? m.moe_intermediate_size : double(m.moe_intermediate_size) / split.ep;
  const auto round_up = [](double x, double to) { return std::ceil(x / to) * to; };
  const double h = m.expert_io_width();  // the experts' hidden dim (the latent in a latent MoE)
  return round_up(i_part, 128) * round_up(h, 256) / (i_part * h);
}

// The bytes of a layer's attention, dense FFN and shared experts (their weights on one GPU):
// one product when they are stored alike (the figures of --serve-weights, bit for bit).
double dense_kinds_bytes(double attention, double dense, double shared, const StoredBytes& b) {
  if (b.uniform()) return (attention + dense + shared) * b.attention;
  return attention * b.attention + dense * b.dense + shared * b.shared;
}

// Achieved fraction of the datasheet, the step model's own: the sustained tensor-core rate
// (StepTimeOptions::gemm_efficiency, a stated figure); HBM's is ServingOptions::hbm_efficiency.
const double k_math_fraction = StepTimeOptions{}.gemm_efficiency;

int ceil_div(int a, int b) { return (a + b - 1) / b; }

// What one layer puts on the busiest GPU of its stage and reads per decode step.
struct LayerShare {
  double split_params = 0;        ///< projection weights split over TP (attention, dense, shared, mixer)
  double attention_params = 0;    ///< of which attention and mixer projections
  double dense_params = 0;        ///< of which the dense FFN
  double shared_params = 0;       ///< of which the shared experts
  double expert_params = 0;       ///< one routed expert's weights
  double experts_on_gpu = 0;      ///< routed experts of this layer on one GPU (a fraction when TP splits each)
  double beside_params = 0;       ///< beside-N weights of the layer on one GPU (bf16)
  double cache_per_token = 0;     ///< bytes per context token on one GPU
  double cache_fixed = 0;         ///< bytes per sequence on one GPU (recurrent state)
  double cache_per_token_copy = 0;  ///< bytes per context token, one copy of the model
  double cache_fixed_copy = 0;
  bool windowed = false;
  int window = 0;
  /// Chunked attention (LayerSpec::chunk): a decode step scores its chunk's keys; the engines keep the whole context.
  int chunk = 0;
  /// Parts of a layer's cache kept for at most a window of tokens beside cache_per_token (DeepSeek-V4:
  /// its sliding window and its compressors' open windows): (bytes per token, window), on one GPU
  /// and one copy alike.
  std::vector<std::pair<double, int>> windows;
  std::vector<std::pair<double, int>> score_windows;  ///< (score FLOPs per context token, window)
  double dense_flops_per_token = 0;   ///< forward FLOPs on one GPU: projections, mixers (per sequence of its group)
  double expert_flops_per_token = 0;  ///< forward FLOPs on one GPU of the K routed experts (per token of the stage)
  double score_flops_per_ctx = 0;     ///< attention score FLOPs on one GPU per context token
};

// The weights an engine holds beyond the checkpoint's in one layer: vLLM builds a k_eq_v
// layer's qkv_proj with a V slot and loads the K weights into it as well ("k_eq_v layers load K
// weights into both K and V slots", vllm/model_executor/models/gemma4.py
// @001cabc1be16a59a70d720ed61a13b678c060a18), d·N_kv·h_l more weights held and read every step.
// SGLang's Gemma 4 code was not read: its weights are taken as the checkpoint builds them.
double engine_v_copy(const ModelConfig& m, const LayerSpec& l, const ServingOptions& o) {
  if (o.engine != ServeEngine::vllm || !l.k_eq_v || l.mixer != MixerKind::attention || !l.own_kv) return 0;
  return double(m.hidden_size) * kv_heads_of(m, l) * head_size_of(m, l);
}

// DeepSeek-V4's cache as vLLM keeps it (--kv-cache-dtype fp8, its fp8_ds_mla layout), read from
// vllm-project/vllm: vllm/model_executor/layers/deepseek_v4_attention.py @0a291a2e1074 (head_bytes;
// DeepseekV4MLAAttention.get_kv_cache_spec: an MLAAttentionSpec of one head, compress_ratio;
// DeepseekV4Indexer.k_cache), vllm/v1/kv_cache_interface.py (MLAAttentionSpec.real_page_size_bytes:
// storage_block_size = block_size / compress_ratio entries of 584 bytes), vllm/v1/attention/
// backends/mla/sparse_swa.py @03dc56495617 (DeepseekV4SWACache: a SlidingWindowMLASpec of
// sliding_window tokens, "584B per token"), vllm/model_executor/layers/deepseek_compressor.py
// @bbd102411093 (CompressorStateCache: fp32 states in a SlidingWindowMLASpec of coff · ratio
// tokens) and vllm/model_executor/models/deepseek_v4.py @023da1fc828e (DeepseekV4Attention: the
// indexer on compress_ratio 4 layers only; MTP layers compress_ratio 1, the window alone). Per layer:
// - every layer: its one key/value head (K = V) for the last sliding_window tokens, each as
//   (head_dim - rope) fp8 NoPE + rope bf16 RoPE + (head_dim - rope)/64 UE8M0 scales + 1 pad byte
//   (448 + 128 + 7 + 1 = 584 for head_dim 512, rope 64);
// - a compressed layer (rate m): one such entry per m tokens of context;
// - a CSA layer: the indexer's key per m tokens, index_head_dim fp8 + one fp32 scale per 128
//   (128 + 4 = 132);
// - each compressor (the layer's; a CSA layer's indexer has its own): its kv and score states,
//   2 · coff · d fp32 per token for the last coff · m tokens (coff 2 on CSA layers, whose windows
//   overlap; 1 on HCA), d the head_dim (the indexer's index_head_dim).
// Every rank keeps the whole (one head, the indexer replicated: "no tensor parallel, just
// replicated"). Not modelled: the pages' 576-byte alignment and vLLM's block rounding.
constexpr double k_dsv4_state_bytes = 4;  // fp32 compressor states (CompressorStateCache asserts float32)

double dsv4_entry_bytes(const ModelConfig& m) {
  const double head = m.head_size(), rope = std::round(m.partial_rotary_factor * head), nope = head - rope;
  return nope + 2 * rope + std::floor(nope / 64) + 1;
}

double dsv4_index_entry_bytes(const CompressedAttention& a) {
  return a.index_head_dim + std::floor(a.index_head_dim / 128.0) * 4;
}

void dsv4_layer_cache(const ModelConfig& m, const LayerSpec& l, int tp, LayerShare& s) {
  const CompressedAttention& a = *m.compressed_attention;
  const double entry = dsv4_entry_bytes(m), head = m.head_size();
  s.windows.emplace_back(entry, a.sliding_window);
  // Scores per context token on one GPU: q.k and the weighted sum over the head (K = V), its
  // query heads split by TP; the window's keys, a HCA layer's every entry, a CSA layer's
  // index_topk entries at most (the indexer's topk); the indexer scores every CSA entry with
  // index_n_heads heads of index_head_dim (replicated).
  const double per_key = 2.0 * m.num_attention_heads * 2 * head / tp;
  s.score_windows.emplace_back(per_key, a.sliding_window);
  const int rate = l.compress_rate;
  if (rate <= 0) return;
  const bool csa = rate == a.csa_rate;
  const double coff = csa ? 2 : 1;
  s.cache_per_token_copy = entry / rate;
  s.windows.emplace_back(2 * coff * head * k_dsv4_state_bytes, static_cast<int>(coff * rate));
  if (csa) {
    s.cache_per_token_copy += dsv4_index_entry_bytes(a) / rate;
    s.windows.emplace_back(2 * coff * a.index_head_dim * k_dsv4_state_bytes, static_cast<int>(coff * rate));
    s.score_windows.emplace_back(per_key / rate, a.index_topk * rate);
    s.score_flops_per_ctx = 2.0 * a.index_n_heads * a.index_head_dim / rate;
  } else {
    s.score_flops_per_ctx = per_key / rate;
  }
  s.cache_per_token = s.cache_per_token_copy;
}

LayerShare layer_share(const ModelConfig& m, const LayerSpec& l, const ServingSplit& split, const ServingOptions& o,
                       double beside_per_layer) {
  LayerParams p = layer_params(m, l);
  p.attention += engine_v_copy(m, l, o);
  LayerShare s;
  const int tp = split.tp;
  // A latent MoE's fc1/fc2_latent_proj are ReplicatedLinear in vLLM and SGLang (whole on every
  // TP rank: vllm/model_executor/models/nemotron_h.py @00b08dc44519, NemotronHMoE), counted
  // with the shared experts' weights but not divided by TP.
  s.split_params = (p.attention + p.linear_mixer + p.dense_ffn + p.shared) / tp + p.latent_proj;
  s.attention_params = (p.attention + p.linear_mixer) / tp;
  s.dense_params = p.dense_ffn / tp;
  s.shared_params = p.shared / tp + p.latent_proj;
  if (m.is_moe() && p.routed_total > 0) {
    s.expert_params = p.routed_total / m.n_routed_experts;
    // With expert parallelism each expert is whole on one rank: ceil(N_e / EP) on the busiest;
    // without it (the engines' default) every expert is split over the ranks, N_e / EP of one
    // expert's weights on each (vLLM's FusedMoE shards the experts' intermediate dim by TP).
    s.experts_on_gpu = o.expert_parallel ? double(ceil_div(m.n_routed_experts, split.ep))
                                         : double(m.n_routed_experts) / split.ep;
  }
  s.beside_params = beside_per_layer / tp;
  const double kv = cache_bytes_per_element(o.kv);
  if (m.compressed_attention && l.mixer == MixerKind::attention) {
    dsv4_layer_cache(m, l, tp, s);
  } else if (l.mixer == MixerKind::attention && l.own_kv) {
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
      // (vLLM replicates kv heads over TP ranks beyond N_kv). A layer of its own head size
      // caches heads of that size; one whose keys are the values (Gemma 4's attention_k_eq_v)
      // still caches K and V: V = v_norm(k_proj(x)) is not K = RoPE(k_norm(k_proj(x))), and
      // vLLM's Gemma4Attention hands both to a standard Attention layer of num_kv_heads x
      // head_dim (vllm/model_executor/models/gemma4.py @001cabc1be16a59a70d720ed61a13b678c060a18).
      // A layer whose value heads are not its key heads (MiMo-V2-Flash: head_dim 192, v_head_dim
      // 128) caches K of the one and V of the other: N_kv (d_k + d_v) per token (vLLM's
      // MiMoV2 attention hands k of head_dim and v of v_head_dim to its Attention layer).
      const int heads = kv_heads_of(m, l);
      const double head = head_size_of(m, l) + v_head_size_of(m, l);
      copy = heads * head;
      gpu = ceil_div(heads, tp) * head;
    }
    s.cache_per_token_copy = copy * kv;
    s.cache_per_token = gpu * kv;
    if (m.indexer && l.indexed) {
      // DeepSeek-V3.2's indexer keeps one key of index_head_dim per token and layer beside the
      // latent, in fp8 with one fp32 scale (its inference code: Indexer.k_cache and k_scale_cache),
      // whatever the cache's dtype; whole on every rank like the latent. MiniMax-M3's keeps one
      // key of sparse_index_dim in bf16 (transformers MiniMaxM3VLSparseCacheLayer.idx_keys in the
      // model's dtype; vLLM-Kunlun's MiniMaxM3IndexerCache: MLAAttentionSpec of one head, bf16,
      // its index_k projection replicated on every TP rank).
      const double indexer = m.indexer->kind == AttentionIndexer::Kind::msa ? 2.0 * m.indexer->head_dim
                                                                            : m.indexer->head_dim * 1.0 + 4.0;
      s.cache_per_token_copy += indexer;
      s.cache_per_token += indexer;
    }
    s.windowed = l.window > 0;
    s.window = l.window;
    s.chunk = l.chunk;
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
  s.dense_flops_per_token += 2.0 * (p.attention + p.linear_mixer + p.dense_ffn + p.shared) / tp + 2.0 * p.latent_proj;
  s.expert_flops_per_token = 2.0 * p.routed_active / split.ep;
  if (l.mixer == MixerKind::attention && !m.compressed_attention) {
    double d_qk = head_size_of(m, l), d_v = v_head_size_of(m, l);
    if (m.latent_attention) {
      d_qk = m.latent_attention->qk_nope_head_dim + m.latent_attention->qk_rope_head_dim;
      d_v = m.latent_attention->v_head_dim;
    }
    s.score_flops_per_ctx = 2.0 * q_heads_of(m, l) * (d_qk + d_v) / tp;
  }
  return s;
}

// vLLM's fused MoE runs its tokens in chunks of VLLM_FUSED_MOE_CHUNK_SIZE (vllm/envs.py: 32768
// up to v0.9, 16 * 1024 in the v0.10 line): the workspaces hold one chunk's rows.
constexpr double k_fused_moe_chunk = 16 * 1024;

// vLLM v0.10's MoE layers under data parallelism (`vllm serve -dp N`, with or without
// --enable-expert-parallel; here split.dp > 1 on vLLM) see every DP rank's tokens, not their
// own: FusedMoE.forward_impl (vllm/model_executor/layers/fused_moe/layer.py, v0.9-v0.10 line)
// dispatches when dp_size > 1 and no pplx/DeepEP kernels are in use (do_naive_dispatch_combine),
// and the default all2all backend of v0.10.1.1 is "naive" (vllm/envs.py VLLM_ALL2ALL_BACKEND;
// "allgather_reducescatter" from v0.11.0: docs.vllm.ai/en/v0.10.1.1 and /en/v0.11.0, vllm.envs):
// NaiveAll2AllManager.naive_multicast (vllm/distributed/device_communicators/all2all.py) fills a
// new buffer of cu_tokens_across_dp_cpu[-1] rows, the tokens of all ranks, for the hidden states
// and again for the router logits, and the experts run on it; combine all-reduces that many rows
// over the DP group and keeps the rank's slice. In the profile run every rank runs
// max_num_batched_tokens (gpu_model_runner.py, _dummy_run: get_dp_padding pads each rank to the
// largest count across DP, DPMetadata.num_tokens_across_dp), so the experts see dp x T rows.
double vllm_moe_dispatch_tokens(const ServingSplit& split, const ServingOptions& o, double tokens) {
  return o.engine == ServeEngine::vllm && split.dp > 1 ? tokens * split.dp : tokens;
}

// The gathered hidden states of vLLM's naive DP dispatch (above): dp x T rows of d in bf16, live
// while the experts run, beside the rank's own T rows in the residual stream. The gathered router
// logits are counted with the routing at dp x T tokens. 0 without DP or on SGLang.
double vllm_dp_gather_bytes(const ModelConfig& m, const ServingSplit& split, const ServingOptions& o, double tokens) {
  const double rows = vllm_moe_dispatch_tokens(split, o, tokens);
  return rows > tokens ? rows * m.hidden_size * 2.0 : 0.0;
}

// The live intermediates of one layer in vLLM's profile pass of `tokens` tokens on one GPU,
// beyond the residual stream (bf16, 2 bytes an element): the tensors a layer's kernels hold at
// once, from vLLM's layer code (v0.10.x):
// - attention: the fused QKV projection's output (N_q/TP + 2 N_kv per rank heads of d_h) and
//   the attention output (N_q/TP heads); MLA: the q projection (N_q/TP heads of d_qk), the
//   latent and RoPE key, kv_b's output (N_q/TP heads of nope + v) and the output (N_q/TP x v);
// - dense FFN: gate_up's output (2 w/TP) and the activation's (w/TP) (MergedColumnParallelLinear,
//   SiluAndMul);
// - MoE (fused_moe.py, fused_experts_impl): the workspaces of a chunk's M x K rows, cache13
//   (max(2 I', d) wide, shared by the first and third GEMMs) and cache2 (I' wide), I' = I/TP
//   without expert parallelism, I with it; the router's logits (T x N_e) and top-k weights and
//   ids (T x K, fp32 and int32, twice: topk_ids and token_expert_indices); the shared experts
//   run apart (the larger of the two counts) and the output (T x d). Under vLLM's DP the routed
//   experts, the routing and the output are those of the dp x T gathered rows, with the gathered
//   hidden states beside them (vllm_moe_dispatch_tokens, vllm_dp_gather_bytes); the shared
//   experts run on the rank's own T tokens.
// Linear mixers are not counted beyond their projections' outputs (an engineering reading).
double layer_transient(const ModelConfig& m, const LayerSpec& l, const ServingSplit& split, const ServingOptions& o,
                       double tokens) {
  const double tp = split.tp, d = m.hidden_size, bf16 = 2;
  double attn = 0;
  if (l.mixer == MixerKind::attention) {
    const double q_heads = q_heads_of(m, l) / tp;
    if (m.latent_attention) {
      const auto& a = *m.latent_attention;
      const double d_qk = a.qk_nope_head_dim + a.qk_rope_head_dim;
      attn = tokens * bf16 *
             (q_heads * d_qk + a.kv_lora_rank + a.qk_rope_head_dim + q_heads * (a.qk_nope_head_dim + a.v_head_dim) +
              q_heads * a.v_head_dim);
    } else {
      // vLLM's fused QKV writes V on k_eq_v layers too (their K weights loaded in its V slot).
      const double kv = std::ceil(kv_heads_of(m, l) / tp);
      // Value heads of their own size (MiMo-V2-Flash): V and the output of v_head_dim, Q and K of the head size.
      const double hd = head_size_of(m, l), vd = v_head_size_of(m, l);
      attn = tokens * bf16 * (vd == hd ? hd * (q_heads + 2 * kv + q_heads) : hd * (q_heads + kv) + vd * (kv + q_heads));
    }
  } else if (l.mixer == MixerKind::linear) {
    const LinearMixer& x = m.linear_mixers.at(static_cast<std::size_t>(l.linear_mixer));
    attn = tokens * bf16 * 2 * x.matrix_params / (d * tp);  // in and out projections' outputs, an estimate
  }
  double ffn = 0;
  const auto dense = [&](double width) { return tokens * bf16 * 3 * width / tp; };
  if (l.ffn == FfnKind::dense || l.ffn == FfnKind::moe_and_dense) {
    ffn = dense(l.dense_width > 0 ? l.dense_width : m.intermediate_size);
  }
  if ((l.ffn == FfnKind::moe || l.ffn == FfnKind::moe_and_dense) && m.is_moe()) {
    const double moe_tokens = vllm_moe_dispatch_tokens(split, o, tokens);
    const double rows = std::min(moe_tokens, k_fused_moe_chunk) * m.num_experts_per_tok;
    const double i_rank = o.expert_parallel ? m.moe_intermediate_size : m.moe_intermediate_size / tp;
    // A latent MoE's experts read and write the latent (FusedMoE of hidden_size moe_latent_size).
    const double experts = rows * bf16 * (std::max(2 * i_rank, double(m.expert_io_width())) + i_rank);
    const double routing = moe_tokens * (m.n_routed_experts * bf16 + m.num_experts_per_tok * (4.0 + 4.0 + 4.0));
    const double shared_width = m.n_shared_experts * double(m.shared_width());
    ffn = std::max(ffn, std::max(experts, dense(shared_width)) + routing + moe_tokens * d * bf16 +
                            vllm_dp_gather_bytes(m, split, o, tokens));
  }
  return std::max(attn, ffn);
}

// SGLang's --dp without --enable-dp-attention (a --serve-args command line): whole replicas of
// the model, each its own --tp, weights and experts.
bool sglang_plain_replicas(const ServingOptions& o) {
  return o.engine == ServeEngine::sglang && o.engine_tp && !o.dp_attention;
}

// SGLang's tp_size, which picks its default --mem-fraction-static (server_args.py v0.4.x,
// ServerArgs.__post_init__ reads self.tp_size): the --tp of each replica under plain --dp; under
// DP attention (and moeplan's own layout, whose groups are DP attention) --tp spans the groups
// (--tp 8 --dp 8 --enable-dp-attention), so TP x DP.
int sglang_tp_size(const ServingOptions& o, const ServingSplit& split) {
  return sglang_plain_replicas(o) ? split.tp : split.tp * split.dp;
}

}  // namespace

// TP t can split the attention of `m` when it divides the query heads, and the kv heads of every
// layer divide by t or t by them (vLLM's checks in its attention layers: num_heads % tp == 0,
// and kv heads split or replicated); MLA has one latent, no kv heads to check.
bool tp_splits_heads(const ModelConfig& m, int t) {
  if (m.num_attention_heads % t != 0) return false;
  if (m.latent_attention) return true;
  for (const auto& [l, count] : m.layer_census()) {  // the distinct layers: one check each
    if (l.mixer != MixerKind::attention) continue;
    if (q_heads_of(m, l) % t != 0) return false;  // a layer's own query heads (Step-3.5's 96)
    const int kv = kv_heads_of(m, l);
    if (kv % t != 0 && t % kv != 0) return false;
  }
  return true;
}

namespace {

ServingSplit split_for(const ModelConfig& m, const ServingOptions& o) {
  ServingSplit s;
  if (o.engine_tp) {  // the engine's command line: its TP and PP as given, DP the rest of a stage
    const int L = std::max(1, m.num_hidden_layers);
    s.stages = std::clamp(o.engine_pp.value_or(1), 1, L);
    const int per_stage = std::max(1, o.gpus / s.stages);
    s.tp = std::clamp(*o.engine_tp, 1, per_stage);
    s.dp = per_stage / s.tp;
    // SGLang's --dp without --enable-dp-attention runs whole replicas, each with its own --tp and
    // its own experts (a data-parallel controller over dp_size schedulers: sglang/srt/managers/
    // data_parallel_controller.py, v0.4.x); vLLM's -dp and SGLang's DP attention spread the
    // experts over the stage (vLLM flattens DP x TP for its MoE layers).
    s.ep = !m.is_moe() ? 1 : sglang_plain_replicas(o) ? s.tp : per_stage;
    // vLLM's split (vllm/distributed/utils.py get_pp_indices, v0.10 line): L / PP each, the
    // remainder one each on the stages before the last, counting back (94 over 3: 31, 32, 31);
    // taken for SGLang's --pp-size too (its own get_pp_indices, srt/distributed/utils.py; not
    // checked line by line).
    s.layers_per_stage.assign(s.stages, L / s.stages);
    for (int i = 2; i < L % s.stages + 2; ++i) ++s.layers_per_stage[s.stages - i];
    return s;
  }
  const int node = std::max(1, o.gpu.gpus_per_node);
  // SGLang v0.4 before v0.4.7 has no pipeline parallelism (no --pp-size in server_args.py until
  // sgl-project/sglang PR #5724, merged 2025-05): more than one node is TP (or TP x DP attention)
  // across the nodes, as its multi-node guides run it (`--tp 16 --nnodes 2`). vLLM: whole nodes
  // as pipeline stages.
  const bool across_nodes = o.engine == ServeEngine::sglang;
  const int per_stage = across_nodes ? o.gpus : std::min(o.gpus, node);
  // The widest TP of the stage's GPUs that splits the heads; the rest of the stage serves
  // other sequences with copies of the attention (data-parallel attention, SGLang's
  // --enable-dp-attention), the experts spread over all of them (EP = the stage).
  // --serve-dp-attention asks for TP 1 attention on every GPU.
  s.tp = 1;
  for (int t = o.dp_attention ? 1 : per_stage; t >= 1; --t) {
    if (per_stage % t == 0 && tp_splits_heads(m, t)) {
      s.tp = t;
      break;
    }
  }
  s.dp = per_stage / s.tp;
  s.ep = m.is_moe() ? per_stage : 1;  // a dense model has no routed experts to spread
  const int L = std::max(1, m.num_hidden_layers);
  // A stage holds at least one layer: GPUs beyond L stages are left unused (vLLM refuses a
  // pipeline deeper than the layers).
  s.stages = across_nodes ? 1 : std::min(o.gpus > node ? o.gpus / node : 1, L);
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
  std::vector<double> full_layer_bytes;  ///< bytes per token of each uncapped layer that keeps a cache
  std::vector<std::pair<double, int>> windowed;  ///< (bytes per token, window) of windowed layers
  double cache_fixed = 0;
  // per decode step, per token, on one GPU
  double dense_weight_bytes = 0;  ///< weights every step reads whole
  double expert_bytes = 0;        ///< one routed expert's bytes
  int moe_layers = 0;
  double experts_on_gpu = 0;
  double dense_flops_per_token = 0;
  double expert_flops_per_token = 0;
  double score_flops_per_ctx_full = 0;
  std::vector<std::pair<double, int>> score_windowed;
  double embedding_row_bytes = 0;  ///< an input embedding row, first stage
  double forward_transient = 0;    ///< the largest layer's live intermediates in the profile pass
};

double cache_at(const StageCensus& c, std::int64_t context) {
  double b = c.cache_fixed + c.cache_per_token * double(context);
  for (const auto& [bytes, window] : c.windowed) b += bytes * std::min<double>(double(context), window);
  return b;
}

// vLLM's hybrid KV cache manager (V1) for full and sliding-window attention layers
// (vllm/v1/core/kv_cache_utils.py, unify_kv_cache_spec_page_size,
// _get_kv_cache_groups_uniform_page_size, get_kv_cache_config_from_groups,
// _report_kv_cache_config, get_max_concurrency_for_kv_cache_config; vllm/v1/kv_cache_interface.py,
// SlidingWindowSpec.max_memory_usage_bytes; read at commit 001cabc, and reproducing the v0.10.1.1
// log of docs/serving-validation.md R18 to the digit). Layers of unlike bytes per token are first
// given one page size: a layer of fewer bytes gets a block of proportionally more tokens (vLLM
// raises unless the largest page is a whole multiple of it: then nullopt here). The layers of each
// kind (one spec: full or one window, one size) are cut into groups of group_size layers (the
// fewest layers of a kind, or the most when that is under 1.5 times the fewest; the last group of
// a kind padded); one pool of blocks, each a page of group_size layers, serves every group. The
// engine reports the pool's blocks over the groups times the least block size as its "GPU KV
// cache size", and a request at C tokens takes cdiv(C, block) blocks in a full group and
// cdiv(min(window - 1 + max_num_batched_tokens, C), block) + 1 in a sliding one. Recurrent states:
// nullopt.
struct PoolReading {
  std::int64_t tokens = 0;
  double concurrency = 0;
};
std::optional<PoolReading> vllm_hybrid_pool(const StageCensus& c, double budget, const ServingOptions& o, double bs) {
  if (c.cache_fixed != 0 || c.windowed.empty()) return std::nullopt;
  std::map<std::pair<int, double>, int> kinds;  // (window (0: full attention), bytes per token) -> its layers
  double largest = 0;                           // bytes per token of the largest layer: the page's
  for (double b : c.full_layer_bytes) {
    ++kinds[{0, b}];
    largest = std::max(largest, b);
  }
  for (const auto& [b, window] : c.windowed) {
    ++kinds[{window, b}];
    largest = std::max(largest, b);
  }
  int fewest = std::numeric_limits<int>::max(), most = 0;
  double least_block = std::numeric_limits<double>::infinity();
  for (const auto& [kind, n] : kinds) {
    const double ratio = largest / kind.second;  // unify_kv_cache_spec_page_size's block scale
    if (!(kind.second > 0) || std::abs(ratio - std::round(ratio)) > 1e-9 * ratio) return std::nullopt;
    fewest = std::min(fewest, n);
    most = std::max(most, n);
    least_block = std::min(least_block, bs * std::round(ratio));
  }
  const int group_size = most < 1.5 * fewest ? most : fewest;
  const double C = double(o.context);
  double groups = 0, blocks_per_request = 0;
  for (const auto& [kind, n] : kinds) {
    const auto [window, bytes] = kind;
    const double block = bs * std::round(largest / bytes);
    const double g = std::ceil(double(n) / group_size);
    groups += g;
    blocks_per_request += g * (window == 0 ? std::ceil(C / block)
                                           : std::ceil(std::min(window - 1.0 + double(o.max_batched_tokens), C) / block) + 1);
  }
  const double blocks = std::floor(budget / (bs * largest) / group_size);
  return PoolReading{static_cast<std::int64_t>(std::min(std::floor(blocks / groups) * least_block, 1e15)),
                     blocks / blocks_per_request};
}

// vLLM's check as it sizes the KV cache (vllm/v1/core/kv_cache_utils.py, v0.10 line,
// check_enough_kv_cache_memory, before _report_kv_cache_config logs "GPU KV cache size"): the
// memory one request at max_model_len needs, the sum over the layers of max_memory_usage_bytes
// (full attention: cdiv(C, block) blocks; a sliding window: cdiv(min(window - 1 +
// max_num_batched_tokens, C), block) + 1; a recurrent state: its one page), against the KV
// memory available; over it, vLLM raises and the engine does not start. Page-size unification
// (unlike layers' blocks scaled) is not modelled here.
double vllm_request_bytes(const StageCensus& c, double context, double batched, double bs) {
  double b = c.cache_fixed;
  for (const double x : c.full_layer_bytes) b += std::ceil(context / bs) * bs * x;
  for (const auto& [x, window] : c.windowed) b += (std::ceil(std::min(window - 1.0 + batched, context) / bs) + 1) * bs * x;
  return b;
}

// vLLM's message when one request at the context does not fit (check_enough_kv_cache_memory),
// with its estimate_max_model_len: the longest max_model_len whose request fits, found by
// bisection as vLLM does (for a uniform cache the "GPU KV cache size" tokens). nullopt when it
// fits, under SGLang (which starts with a pool shorter than its context) and for DeepSeek-V4's
// compressed cache (its block sizes are not modelled).
std::optional<std::string> vllm_one_request_refusal(const ModelConfig& m, const ServingOptions& o,
                                                    const StageCensus& c, double available, int block) {
  if (o.engine != ServeEngine::vllm || m.compressed_attention) return std::nullopt;
  const double T = double(o.max_batched_tokens), bs = block;
  const double needed = vllm_request_bytes(c, double(o.context), T, bs);
  if (needed <= available) return std::nullopt;
  std::int64_t lo = 0, hi = o.context;  // request_bytes(lo) fits (0: nothing), (hi) does not
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (vllm_request_bytes(c, double(mid), T, bs) <= available ? lo : hi) = mid;
  }
  return fmt::format("cache: vLLM does not start: \"To serve at least one request with the models's max seq len ({}), "
                     "({:.2f} GiB KV cache is needed, which is larger than the available KV cache memory ({:.2f} "
                     "GiB). {}Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
                     "initializing the engine.\" (kv_cache_utils.py, check_enough_kv_cache_memory)",
                     o.context, needed / k_gib, available / k_gib,
                     lo > 0 ? fmt::format("Based on the available memory, the estimated maximum model length is {}. ", lo)
                            : std::string());
}

// A layer's parts kept for at most a window (LayerShare::windows) into its stage and the fit.
void add_windows(const LayerShare& x, const ServingOptions& o, StageCensus& c, ServingFit& fit, bool scores = true) {
  for (const auto& [bytes, window] : x.windows) {
    c.windowed.emplace_back(bytes, window);
    fit.cache_bytes_per_sequence += bytes * std::min<double>(double(o.context), window);
  }
  if (scores) c.score_windowed.insert(c.score_windowed.end(), x.score_windows.begin(), x.score_windows.end());
}

// A layer's cache into its stage and the fit: kept whole (per token of context) or for its
// window, and its parts kept for windows of their own (add_windows). `full_scores`: a full
// layer's score FLOPs too (the MTP modules' full layers have none counted, as before).
void add_layer_cache(const LayerShare& x, const ServingOptions& o, StageCensus& c, ServingFit& fit, bool full_scores) {
  if (x.windowed) {
    c.windowed.emplace_back(x.cache_per_token, x.window);
    c.score_windowed.emplace_back(x.score_flops_per_ctx, x.window);
    fit.cache_bytes_per_sequence += x.cache_per_token_copy * std::min<double>(double(o.context), x.window);
  } else {
    // A chunked-attention layer (Llama 4) keeps the whole context as a full layer does: vLLM turns
    // its hybrid KV cache manager off for chunked local attention by default ("There is a latency
    // regression when using chunked local attention with the hybrid KV cache manager. Disabling
    // it, by default"; VLLM_ALLOW_CHUNKED_LOCAL_ATTN_WITH_HYBRID_KV_CACHE=1 turns it on) and
    // unifies the specs as full attention; SGLang's pool is a full one unless its hybrid pool is
    // asked for. Its decode step scores the ((C - 1) mod chunk) + 1 keys of its own chunk.
    c.cache_per_token += x.cache_per_token;
    if (x.cache_per_token > 0) c.full_layer_bytes.push_back(x.cache_per_token);
    if (x.chunk > 0) {
      const int keys = o.context > 0 ? static_cast<int>((o.context - 1) % x.chunk) + 1 : 0;
      c.score_windowed.emplace_back(x.score_flops_per_ctx, keys);
    } else if (full_scores) {
      c.score_flops_per_ctx_full += x.score_flops_per_ctx;
    }
    fit.cache_bytes_per_token += x.cache_per_token_copy;
  }
  add_windows(x, o, c, fit);
}

std::vector<StageCensus> census(const ModelConfig& m, const ServingOptions& o, const ServingSplit& split, ServingFit& fit) {
  const std::vector<LayerSpec> specs = m.layer_specs();
  const BesideN beside = count_beside_n(m);
  const double beside_per_layer = specs.empty() ? 0 : beside.total.value() / double(specs.size());
  const StoredBytes sb = stored_bytes(m, o);
  const double wb = sb.routed;
  // The routed experts as the engine holds them (vLLM pads MXFP4 experts to its kernel's tiles).
  const double pad = mxfp4_padding(m, o, split, sb);
  fit.expert_padding = pad;
  const double d = m.hidden_size, V = m.vocab_size;
  std::vector<StageCensus> stages(static_cast<std::size_t>(split.stages));
  std::size_t layer = 0;
  for (int s = 0; s < split.stages; ++s) {
    StageCensus& c = stages[static_cast<std::size_t>(s)];
    for (int i = 0; i < split.layers_per_stage[static_cast<std::size_t>(s)]; ++i, ++layer) {
      const LayerShare x = layer_share(m, specs[layer], split, o, beside_per_layer);
      if (o.max_batched_tokens > 0) {
        c.forward_transient =
            std::max(c.forward_transient, layer_transient(m, specs[layer], split, o, double(o.max_batched_tokens)));
      }
      const double layer_weights =
          (sb.uniform() ? x.split_params * sb.attention
                        : dense_kinds_bytes(x.attention_params, x.dense_params, x.shared_params, sb)) +
          x.beside_params * k_bf16_bytes;
      c.weight_bytes += layer_weights + x.expert_params * x.experts_on_gpu * (pad == 1 ? wb : wb * pad);
      c.dense_weight_bytes += layer_weights;
      if (x.experts_on_gpu > 0) {
        c.expert_bytes = x.expert_params * (pad == 1 ? wb : wb * pad);
        c.experts_on_gpu = x.experts_on_gpu;
        ++c.moe_layers;
      }
      add_layer_cache(x, o, c, fit, true);
      c.cache_fixed += x.cache_fixed;
      c.dense_flops_per_token += x.dense_flops_per_token;
      c.expert_flops_per_token += x.expert_flops_per_token;
      fit.cache_fixed_bytes += x.cache_fixed_copy;
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
  double v_copies = 0;  // an engine's copies of k_eq_v layers' keys (engine_v_copy): 0 for most models
  for (const LayerSpec& l : specs) v_copies += engine_v_copy(m, l, o);
  fit.served_params = counts.N_with_embedding().value() + beside.total.value() + tied_copy + v_copies;
  const double dense_kinds =
      sb.uniform() ? (counts.N.value() - counts.routed_total.value() + v_copies) * sb.attention
                   : dense_kinds_bytes(counts.attention.value() + counts.linear_mixers.value() + v_copies,
                                       counts.dense_ffn.value(), (counts.shared + counts.latent_projections).value(), sb);
  fit.weight_bytes = counts.routed_total.value() * (pad == 1 ? wb : wb * pad) + dense_kinds +
                     (counts.embedding.value() + tied_copy + beside.total.value()) * k_bf16_bytes;
  // A latent MoE's projections are whole on every TP rank (layer_share): TP - 1 more copies.
  fit.weight_bytes += (split.tp - 1.0) * counts.latent_projections.value() * (sb.uniform() ? sb.attention : sb.shared);
  // Attention and the rest are copied on each data-parallel attention group (SGLang's plain --dp
  // replicas copy the routed experts too).
  fit.weight_bytes += (split.dp - 1.0) * (dense_kinds +
                                          (counts.embedding.value() + tied_copy + beside.total.value()) * k_bf16_bytes +
                                          (sglang_plain_replicas(o) ? counts.routed_total.value() * (pad == 1 ? wb : wb * pad) : 0.0));
  // MTP modules (speculative decoding): on the last stage, split like its MoE layers.
  const MtpCounts mtp = count_mtp(m);
  fit.mtp_params = mtp.modules.value();
  if (o.count_mtp && m.extras.num_nextn_predict_layers > 0) {
    StageCensus& last = stages.back();
    last.weight_bytes += mtp.modules.value() * wb / split.tp;
    fit.served_params += mtp.modules.value();
    fit.weight_bytes += mtp.modules.value() * wb;
    // The modules' own layers where the model lists them (Step-3.5-Flash: full and sliding-window
    // attention by its layer_types), each its own cache; else one attention layer's cache per
    // module, like the model's last attention layer.
    for (const LayerSpec& own : m.extras.mtp_layers) add_layer_cache(layer_share(m, own, split, o, 0), o, last, fit, false);
    for (auto it = specs.rbegin(); it != specs.rend() && m.extras.mtp_layers.empty(); ++it) {
      if (it->mixer != MixerKind::attention) continue;
      // DeepSeek-V4's MTP layers keep the window alone (vLLM's DeepseekV4Attention: compress_ratio 1
      // past num_hidden_layers; compress_ratios[L] is 0 in the Flash config too).
      LayerSpec own = *it;
      if (m.compressed_attention) own.compress_rate = 0;
      const LayerShare x = layer_share(m, own, split, o, 0);
      for (int k = 0; k < m.extras.num_nextn_predict_layers; ++k) add_windows(x, o, last, fit, false);
      last.cache_per_token += x.cache_per_token * m.extras.num_nextn_predict_layers;
      last.full_layer_bytes.insert(last.full_layer_bytes.end(), std::size_t(m.extras.num_nextn_predict_layers),
                                   x.cache_per_token);
      fit.cache_bytes_per_token += x.cache_per_token_copy * m.extras.num_nextn_predict_layers;
      break;
    }
  }
  fit.cache_bytes_per_sequence += fit.cache_fixed_bytes + fit.cache_bytes_per_token * double(o.context);
  return stages;
}

std::string cache_kind_of(const ModelConfig& m) {
  if (m.compressed_attention) return "DeepSeek-V4 compressed (sliding window + CSA/HCA entries + indexer)";
  std::string kind = m.attention_layers() == 0 ? "" : (m.latent_attention ? "MLA" : (m.num_key_value_heads < m.num_attention_heads ? "GQA" : "MHA"));
  if (m.indexer && !kind.empty()) kind += m.indexer->kind == AttentionIndexer::Kind::msa ? " + MSA indexer" : " + DSA indexer";
  for (const LinearMixer& x : m.linear_mixers) kind += (kind.empty() ? "" : " + ") + x.kind;
  return kind.empty() ? "none" : kind;
}

// DeepSeek-V4's cache in words, from the layer census (dsv4_layer_cache).
std::string dsv4_cache_formula(const ModelConfig& m) {
  const CompressedAttention& a = *m.compressed_attention;
  int csa = 0, hca = 0, layers = 0;
  for (const auto& [l, count] : m.layer_census()) {
    if (l.mixer != MixerKind::attention) continue;
    layers += count;
    csa += l.compress_rate > 0 && l.compress_rate == a.csa_rate ? count : 0;
    hca += l.compress_rate > 0 && l.compress_rate != a.csa_rate ? count : 0;
  }
  const double entry = dsv4_entry_bytes(m), index = dsv4_index_entry_bytes(a);
  return fmt::format("vLLM's fp8_ds_mla layout: {:g} bytes per entry (one head of {}: fp8 NoPE, bf16 RoPE, "
                     "scales); the last {} tokens in each of {} layers; per token of context {:g}/{} + {:g}/{} "
                     "(indexer key) in {} CSA layers, {:g}/{} in {} HCA layers; compressor states fp32 over the "
                     "last {} (CSA) and {} (HCA) tokens",
                     entry, m.head_size(), a.sliding_window, layers, entry, a.csa_rate, index, a.csa_rate, csa, entry,
                     a.hca_rate, hca, 2 * a.csa_rate, a.hca_rate);
}

std::string cache_formula_of(const ModelConfig& m, const ServingOptions& o) {
  if (m.compressed_attention) return dsv4_cache_formula(m);
  std::vector<std::string> parts;
  if (m.attention_layers() > 0) {
    if (m.latent_attention) {
      parts.push_back(fmt::format("MLA: (kv_lora_rank {} + qk_rope_head_dim {}) = {} elements per token and layer",
                                  m.latent_attention->kv_lora_rank, m.latent_attention->qk_rope_head_dim,
                                  m.latent_attention->kv_lora_rank + m.latent_attention->qk_rope_head_dim));
    } else {
      int lo = 0, hi = 0;  // the kv heads of the attention layers (some models give each its own)
      std::map<std::pair<int, int>, int> shapes;  // (N_kv, d_qkv) -> layers, where head sizes differ
      std::map<std::tuple<int, int, int>, int> kv_shapes;  // (N_kv, d_k, d_v) -> layers
      bool own_heads = false, own_values = false;
      for (const auto& [l, count] : m.layer_census()) {
        if (l.mixer != MixerKind::attention || !l.own_kv) continue;
        const int kv = kv_heads_of(m, l);
        lo = lo == 0 ? kv : std::min(lo, kv);
        hi = std::max(hi, kv);
        shapes[{kv, head_size_of(m, l)}] += count;
        kv_shapes[{kv, head_size_of(m, l), v_head_size_of(m, l)}] += count;
        own_heads |= head_size_of(m, l) != m.head_size();
        own_values |= v_head_size_of(m, l) != head_size_of(m, l);
      }
      if (own_values) {  // MiMo-V2-Flash: keys of head_dim, values of v_head_dim
        std::vector<std::string> each;
        for (const auto& [shape, layers] : kv_shapes) {
          each.push_back(fmt::format("{} x ({} + {}) in {} layers", std::get<0>(shape), std::get<1>(shape),
                                     std::get<2>(shape), layers));
        }
        parts.push_back(fmt::format("N_kv (d_k + d_v) per token and layer, each layer's own ({})", fmt::join(each, ", ")));
      } else if (own_heads) {  // Gemma 4: the full-attention layers' heads are global_head_dim
        std::vector<std::string> each;
        for (const auto& [shape, layers] : shapes) {
          each.push_back(fmt::format("{} x {} in {} layers", shape.first, shape.second, layers));
        }
        parts.push_back(fmt::format("2 N_kv d_qkv per token and layer, each layer's own ({})", fmt::join(each, ", ")));
      } else if (lo == hi) {
        parts.push_back(fmt::format("2 N_kv d_qkv = 2 x {} x {} = {} elements per token and layer", lo, m.head_size(),
                                    2 * lo * m.head_size()));
      } else {
        parts.push_back(fmt::format("2 N_kv d_qkv per token and layer, each layer's own N_kv ({} to {}), d_qkv {}", lo, hi,
                                    m.head_size()));
      }
    }
    if (m.indexer && m.indexer->kind == AttentionIndexer::Kind::msa) {
      parts.push_back(fmt::format("indexer key {} per token in each indexed layer, bf16", m.indexer->head_dim));
    } else if (m.indexer) {
      parts.push_back(fmt::format("indexer key {} per token and layer", m.indexer->head_dim));
    }
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

// 1234567 as "1,234,567", as vLLM prints its counts (Python's f"{n:,}").
std::string with_commas(std::int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// An fp8 KV cache on a GPU without FP8 tensor cores (the catalog gives no fp8_dense_tflops: the
// A100s, Ampere) is storage only: 1 byte an element, converted to bf16 inside the attention
// kernel. What each engine does with it, read from its code:
// - vLLM v0.10 (on every GPU that is neither Hopper nor Blackwell, Ada's FP8 L4 included:
//   vllm_v1_keeps_fp8_cache): the V1 engine's default FlashAttention backend keeps an fp8 cache
//   only with FA3 on sm90 (vllm/attention/utils/fa_utils.py, flash_attn_supports_fp8, docs.vllm.ai v0.10.0; vllm/
//   platforms/cuda.py, CudaPlatformBase.is_kv_cache_dtype_supported, vllm-project/vllm PR #21302),
//   so EngineArgs._is_v1_supported_oracle (vllm/engine/arg_utils.py) falls back to the V0 engine
//   ("--kv-cache-dtype is not supported by the V1 Engine. Falling back to V0."), whose backend
//   selection takes XFormers for an fp8 cache ("Cannot use FlashAttention-2 backend for FP8 KV
//   cache.", platforms/cuda.py): its paged-attention kernels read fp8 and convert. V0's defaults
//   then hold (arg_utils.py, _set_default_args_v0: max_num_seqs 256, chunked prefill only past
//   32,768 tokens of context; config.py, SchedulerConfig.__post_init__: without chunked prefill
//   max_num_batched_tokens = max(max_model_len, 2048), with it 2048, at most max_num_seqs x
//   max_model_len). MLA models stay on V1 (is_kv_cache_dtype_supported takes FlashMLA as their
//   backend) and get its Triton MLA backend there (no FlashMLA, no FA3), which refuses the cache
//   (v1/attention/backends/mla/triton_mla.py, TritonMLAImpl.__init__: "TritonMLA V1 with FP8 KV
//   cache not yet supported").
// - SGLang v0.4: no capability check (model_runner.py, init_memory_pool: fp8_e5m2 and fp8_e4m3 map
//   to torch's fp8 types); the pool stores them as uint8, 1 byte an element (mem_cache/
//   memory_pool.py, MHATokenToKVPool: "index_put is not implemented for float8").
bool fp8_cache_as_storage(const ServingOptions& o) {
  return o.kv == ServePrecision::fp8 && o.gpu.fp8_dense_flops <= 0;
}

// Whether vLLM v0.10's V1 engine keeps an fp8 cache on this GPU (is_kv_cache_dtype_supported):
// Hopper (FA3, sm90: flash_attn_supports_fp8), Blackwell ("All Blackwell backends support fp8",
// sm100), ROCm (the oracle's "supported = True" of the v0.9 line). Not Ampere, and not Ada either
// (sm89 has FP8 tensor cores but no FA3: the L4 falls back as the A100 does). By the catalog id,
// which carries no compute capability; a kind outside these names is taken as neither.
bool vllm_v1_keeps_fp8_cache(const GpuSpec& gpu) {
  const std::string& id = gpu.id;
  for (const char* hopper : {"h100", "h200", "h800", "h20", "gh200"}) {
    if (id.starts_with(hopper)) return true;
  }
  return id.find("b200") != std::string::npos || id.find("b300") != std::string::npos || id.starts_with("mi");
}

bool vllm_v0_fallback(const ModelConfig& m, const ServingOptions& o) {
  return o.engine == ServeEngine::vllm && o.kv == ServePrecision::fp8 && !vllm_v1_keeps_fp8_cache(o.gpu) &&
         !m.latent_attention && !m.compressed_attention;
}

// vLLM V0's defaults (above): 256 sequences; the profile run's tokens.
constexpr std::int64_t k_vllm_v0_max_seqs = 256;
constexpr std::int64_t k_vllm_v0_chunked_past = 32768;    // _set_default_args_v0: use_long_context
constexpr std::int64_t k_vllm_v0_batched_tokens = 2048;  // DEFAULT_MAX_NUM_BATCHED_TOKENS

std::int64_t vllm_v0_batched_tokens(std::int64_t context, std::int64_t max_seqs) {
  const std::int64_t t = context > k_vllm_v0_chunked_past ? k_vllm_v0_batched_tokens
                                                          : std::max(context, k_vllm_v0_batched_tokens);
  return std::min(t, max_seqs * context);
}

// The engine's refusal of an fp8 cache on this GPU ("" when it keeps one): vLLM's Triton MLA.
std::string fp8_cache_refusal(const ModelConfig& m, const ServingOptions& o) {
  if (o.kv != ServePrecision::fp8 || vllm_v1_keeps_fp8_cache(o.gpu) || o.engine != ServeEngine::vllm ||
      !m.latent_attention) {
    return {};
  }
  return fmt::format("--serve-kv fp8: vLLM v0.10 serves MLA on {} (neither Hopper nor Blackwell: no FlashMLA, no FA3) through "
                     "its Triton MLA backend, which refuses an fp8 cache ('TritonMLA V1 with FP8 KV cache not yet "
                     "supported', v1/attention/backends/mla/triton_mla.py); --serve-kv bf16, or --serve-engine sglang",
                     o.gpu.id);
}

// The note on an fp8 cache kept as storage.
std::string fp8_cache_note(const ModelConfig& m, const ServingOptions& o) {
  if (vllm_v0_fallback(m, o)) {
    return fmt::format("--serve-kv fp8 on {}: 1 byte an element{}; vLLM v0.10's V1 FlashAttention keeps no fp8 cache "
                       "there (flash_attn_supports_fp8: FA3 on sm90), so vLLM falls back to its V0 engine (XFormers "
                       "backend, arg_utils.py "
                       "_is_v1_supported_oracle) with V0's defaults: max_num_seqs {}, max_num_batched_tokens "
                       "max(context, 2048) up to a 32,768-token context, 2048 past it (chunked prefill); its "
                       "profile run is counted as V1's",
                       o.gpu.id,
                       fp8_cache_as_storage(o) ? " (no FP8 tensor cores: storage only, attention in bf16)" : "",
                       k_vllm_v0_max_seqs);
  }
  if (!fp8_cache_as_storage(o)) return {};
  if (o.engine == ServeEngine::sglang) {
    return fmt::format("--serve-kv fp8 on {} (no FP8 tensor cores): storage only, SGLang's --kv-cache-dtype "
                       "fp8_e5m2 or fp8_e4m3 kept as uint8, 1 byte an element (mem_cache/memory_pool.py), "
                       "converted to bf16 in the attention kernel",
                       o.gpu.id);
  }
  return {};
}

// fp8 weights (W8A8) on a GPU without FP8 tensor cores: vLLM runs them weight-only through
// Marlin (v0.10 fp8.py: use_marlin below capability 89), as the notes say (marlin_note); SGLang's
// path there is not modelled, so however they are asked for (`what`) they are refused under it.
// (--serve-weights fp8 used to be refused under vLLM too, while an fp8 checkpoint was served; a
// review found the two disagree, and a later one the checkpoint served under SGLang.)
std::optional<std::string> sglang_fp8_refusal(const ServingOptions& o, std::string_view what, std::string_view instead) {
  if (o.gpu.fp8_dense_flops > 0 || o.engine != ServeEngine::sglang) return std::nullopt;
  return fmt::format("{} under SGLang: {} has no FP8 tensor cores (the catalog gives no fp8_dense_tflops), and "
                     "SGLang's fp8 path there is not modelled{}",
                     what, o.gpu.id, instead);
}

// The tail of an fp8-weights note on a GPU without FP8 tensor cores; "" on one with them.
std::string marlin_note(const ServingOptions& o) {
  if (o.gpu.fp8_dense_flops > 0) return {};
  return fmt::format("; {} has no FP8 tensor cores: vLLM runs fp8 weight-only (Marlin), the FLOP bound uses the bf16 "
                     "peak",
                     o.gpu.id);
}

const char* fraction_flag(ServeEngine e) {
  return e == ServeEngine::vllm ? "vLLM's --gpu-memory-utilization" : "SGLang's --mem-fraction-static";
}

// The engine's cap on running sequences, as its flag and value: vLLM's max_num_seqs per engine
// (each attention group), SGLang's --max-running-requests for the whole server.
std::string seq_cap_words(const ServingOptions& o) {
  return o.engine == ServeEngine::sglang ? fmt::format("max_running_requests {} for the server", o.max_seqs)
                                         : fmt::format("max_num_seqs {} per attention group", o.max_seqs);
}

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
  if (o.weights == ServePrecision::fp8) {
    if (auto why = sglang_fp8_refusal(o, "--serve-weights fp8", "; bf16, or vLLM")) return why;
  }
  if (o.online_fp8) {
    if (auto why = sglang_fp8_refusal(o, "--quantization fp8", "")) return why;
  }
  if (o.kv == ServePrecision::fp4) return std::string("--serve-kv: expected bf16 or fp8, got fp4");
  if (o.gpus < 1) return std::string("--serve-gpus: at least 1");
  const int node = std::max(1, o.gpu.gpus_per_node);
  // The engine's own layout (--serve-args) is taken as it runs, stages inside or across nodes.
  if (!o.engine_tp && o.gpus > node && o.gpus % node != 0) {
    return fmt::format("--serve-gpus {}: more than one node of {} GPUs must be whole nodes ({}); {} or {}",
                       o.gpus, node,
                       o.engine == ServeEngine::sglang ? "SGLang's --nnodes, TP across them"
                                                       : "pipeline stages of one node each",
                       o.gpus / node * node, (o.gpus / node + 1) * node);
  }
  if (o.context < 1) return std::string("--serve-context: at least 1 token");
  if (o.min_batch < 1) return std::string("--serve-batch: at least 1 sequence");
  if (o.memory_fraction && !(*o.memory_fraction > 0 && *o.memory_fraction <= 1)) {
    return fmt::format("--serve-memory-utilization: a fraction in (0, 1], got {:g}", *o.memory_fraction);
  }
  if (o.max_batched_tokens < 0) {
    return fmt::format("--serve-max-batched-tokens: at least 1 token, got {}", o.max_batched_tokens);
  }
  if (o.max_seqs < 0) return fmt::format("--serve-max-seqs: at least 1 sequence, got {}", o.max_seqs);
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
  const double peak = stored_bytes(m, o).fp8_math && o.gpu.fp8_dense_flops > 0 ? o.gpu.fp8_dense_flops
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

namespace {
ServingOptions with_engine_defaults(const ModelConfig& m, const ServingOptions& given);
}  // namespace

DecodeStep decode_step(const ModelConfig& m, const ServingOptions& given, const ServingFit& fit, std::int64_t batch) {
  const ServingOptions o = with_engine_defaults(m, given);
  ServingFit scratch;
  return decode_on(census(m, o, fit.split, scratch), m, o, fit.split, batch);
}

namespace {

// The options with the engine's defaults filled in where a flag left them open.
ServingOptions with_engine_defaults(const ModelConfig& m, const ServingOptions& given) {
  ServingOptions o = given;
  if (o.engine == ServeEngine::vllm) {
    const bool v0 = vllm_v0_fallback(m, o);
    if (!o.memory_fraction) o.memory_fraction = k_serve_memory_fraction;
    if (o.max_seqs <= 0) o.max_seqs = v0 ? k_vllm_v0_max_seqs : vllm_default_max_seqs(o.gpu);
    if (o.max_batched_tokens <= 0) {
      o.max_batched_tokens = v0 ? vllm_v0_batched_tokens(o.context, o.max_seqs) : vllm_default_batched_tokens(o.gpu);
    }
    if (!o.non_torch_bytes) o.non_torch_bytes = k_vllm_non_torch_gib * k_gib;
  } else {
    if (!o.memory_fraction) o.memory_fraction = sglang_default_mem_fraction(sglang_tp_size(o, split_for(m, o)));
    o.max_batched_tokens = 0;  // SGLang sizes its pool before any forward pass
    if (!o.non_torch_bytes) o.non_torch_bytes = k_sglang_non_torch_gib * k_gib;
  }
  if (!o.cuda_graph_bytes) o.cuda_graph_bytes = k_cuda_graph_gib * k_gib;
  return o;
}

}  // namespace

namespace {

// The rope_scaling part of the engines' derivations, in words.
std::string rope_words(const ModelConfig::RopeScaling& rs) {
  return fmt::format("rope_scaling {} factor {:g}{}", rs.type.empty() ? "(no type)" : rs.type, rs.factor,
                     rs.original_max_position_embeddings > 0
                         ? fmt::format(" original_max_position_embeddings {}", rs.original_max_position_embeddings)
                         : std::string());
}

ContextDefault vllm_default_context(const ModelConfig& m) {
  // _get_and_verify_max_len: the smallest of the keys present (possible_keys).
  auto smallest = m.context_length_keys->front();
  for (const auto& kv : *m.context_length_keys) {
    if (kv.second < smallest.second) smallest = kv;
  }
  double derived = double(smallest.second);
  std::string how = fmt::format("{} {}", smallest.first, smallest.second);
  const auto& rs = m.rope_scaling;
  // "Gemma3's max_model_len (128K) is already scaled by RoPE scaling": not rescaled.
  const bool gemma3 = m.hf_model_type.find("gemma3") != std::string::npos;
  if (rs && !gemma3 && rs->type != "su" && rs->type != "longrope" && rs->type != "llama3") {
    if (rs->type == "yarn" && rs->original_max_position_embeddings > 0) derived = double(rs->original_max_position_embeddings);
    derived *= rs->factor;
    how = fmt::format("{}, {}: {:g}", how, rope_words(*rs), derived);
  } else if (rs) {
    how = fmt::format("{} ({} not applied{})", how, rope_words(*rs), gemma3 ? ": Gemma 3's is already scaled" : "");
  }
  return {static_cast<std::int64_t>(derived),
          fmt::format("vLLM's default max_model_len, derived from config.json (_get_and_verify_max_len): {}", how)};
}

ContextDefault sglang_default_context(const ModelConfig& m) {
  // get_context_length: the first of CONTEXT_LENGTH_KEYS present, times the rope factor.
  const auto& keys = *m.context_length_keys;
  for (const char* key : {"max_sequence_length", "seq_length", "max_seq_len", "model_max_length",
                          "max_position_embeddings"}) {
    const auto it = std::find_if(keys.begin(), keys.end(), [key](const auto& kv) { return kv.first == key; });
    if (it == keys.end()) continue;
    double factor = 1;
    std::string how = fmt::format("{} {}", it->first, it->second);
    if (const auto& rs = m.rope_scaling) {
      const bool kept = rs->original_max_position_embeddings > 0 || rs->type == "llama3";
      factor = kept ? 1 : rs->factor;
      how = fmt::format("{} x {} ({}{})", how, fmt::format("{:g}", factor), rope_words(*rs),
                        kept ? ": not applied" : "");
    }
    return {static_cast<std::int64_t>(factor * double(it->second)),
            fmt::format("SGLang's default context_len, derived from config.json (get_context_length): {}", how)};
  }
  return {2048, "SGLang's default context_len: config.json has none of its keys (max_sequence_length, seq_length, "
                "max_seq_len, model_max_length, max_position_embeddings): 2048"};
}

}  // namespace

ContextDefault engine_default_context(const ModelConfig& m, ServeEngine e) {
  if (!m.context_length_keys) {
    return {0, "a model TOML or preset gives no max_position_embeddings for the engine to derive its context from"};
  }
  if (m.context_length_keys->empty()) {
    return {0, "config.json names no maximum length (max_position_embeddings or the like; the engines would assume "
               "2048)"};
  }
  return e == ServeEngine::vllm ? vllm_default_context(m) : sglang_default_context(m);
}

std::string context_limit_refusal(const ModelConfig& m, const ServingOptions& o) {
  // vLLM's _get_and_verify_max_len raises "User-specified max_model_len (X) is greater than the
  // derived max_model_len ... To allow overriding this maximum, set the env var
  // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"; SGLang's ModelConfig raises "User-specified context_length
  // (X) is greater than the derived context_length (Y) ... set the env var
  // SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1". Only where config.json gives the maximum.
  const ContextDefault d = engine_default_context(m, o.engine);
  if (d.tokens <= 0 || o.context <= d.tokens) return "";
  const bool vllm = o.engine == ServeEngine::vllm;
  return fmt::format("the context {}{} is past the {} the engine derives, {} ({}): it refuses to start unless {}=1 "
                     "is set",
                     o.context, o.context_source.empty() ? std::string() : fmt::format(" ({})", o.context_source),
                     vllm ? "max_model_len" : "context_length", d.tokens, d.source,
                     vllm ? "VLLM_ALLOW_LONG_MAX_MODEL_LEN" : "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN");
}

std::optional<MinGpuLayout> serving_min_layout(const ModelConfig& m, const ServingOptions& o) {
  const int node = std::max(1, o.gpu.gpus_per_node);
  const int L = std::max(1, m.num_hidden_layers);
  std::vector<int> counts;
  for (int g = 1; g <= node; ++g) counts.push_back(g);
  for (int s = 2; s <= L && s * node <= (1 << 16); ++s) counts.push_back(s * node);
  for (const int g : counts) {
    ServingOptions t = o;
    t.gpus = g;
    t.min_gpus = false;
    const auto f = serving_fit(m, t);
    if (!f) return std::nullopt;  // the cache cannot be counted: no count helps
    if (f->fits) return MinGpuLayout{g, std::nullopt, std::nullopt};
    // vLLM also runs a smaller TP with pipeline stages inside a node (-tp 4 -pp 4 on 16 GPUs):
    // TP t dividing the node, g / t stages, at most one a layer; the widest TP that fits wins.
    // SGLang v0.4 has no pipeline stages (split_for): its TP alone.
    if (o.engine != ServeEngine::vllm || o.engine_tp || o.dp_attention) continue;
    for (int tp = std::min(g, node) - 1; tp >= 1; --tp) {
      if (node % tp != 0 || g % tp != 0 || g / tp > L || !tp_splits_heads(m, tp)) continue;
      ServingOptions u = t;
      u.engine_tp = tp;
      u.engine_pp = g / tp;
      const auto h = serving_fit(m, u);
      if (h && h->fits) return MinGpuLayout{g, tp, g / tp};
    }
  }
  return std::nullopt;
}

std::optional<int> serving_min_gpus(const ModelConfig& m, const ServingOptions& o) {
  const auto l = serving_min_layout(m, o);
  return l ? std::optional<int>(l->gpus) : std::nullopt;
}

const char* to_string(ServeEngine e) { return e == ServeEngine::vllm ? "vllm" : "sglang"; }

std::optional<ServeEngine> parse_serve_engine(std::string_view text) {
  if (text == "vllm") return ServeEngine::vllm;
  if (text == "sglang") return ServeEngine::sglang;
  return std::nullopt;
}

const char* engine_release(ServeEngine e) { return e == ServeEngine::vllm ? "vLLM v0.10 (V1 engine)" : "SGLang v0.4"; }

double sglang_default_mem_fraction(int tp) {
  if (tp >= 16) return 0.79;
  if (tp >= 8) return 0.81;
  if (tp >= 4) return 0.85;
  if (tp >= 2) return 0.87;
  return 0.88;
}

namespace {
bool big_non_a100(const GpuSpec& gpu) {
  return gpu.hbm_bytes >= 70 * k_gib && gpu.id.find("a100") == std::string::npos;
}
}  // namespace

std::int64_t vllm_default_batched_tokens(const GpuSpec& gpu) { return big_non_a100(gpu) ? 8192 : 2048; }
std::int64_t vllm_default_max_seqs(const GpuSpec& gpu) { return big_non_a100(gpu) ? 1024 : 256; }

namespace {

// The data-parallel groups in words: why TP stops where it does (the command line's, TP 1 asked,
// or the widest that splits the heads) and what each group holds.
std::string dp_note(const ModelConfig& m, const ServingOptions& o, const ServingSplit& split) {
  const int per_stage = split.tp * split.dp;
  const std::string why =
      o.engine_tp ? fmt::format("TP {} x DP {} as the command line gives them", split.tp, split.dp)
      : o.dp_attention
          ? fmt::format("TP 1 attention on each of the {} GPUs (--serve-dp-attention)", per_stage)
          : fmt::format("TP {} is the widest that splits the {} query heads (and the kv heads) on {} GPUs", split.tp,
                        m.num_attention_heads, per_stage);
  if (sglang_plain_replicas(o)) {
    return fmt::format("{}: {} whole replicas (SGLang's --dp without --enable-dp-attention), each with its own "
                       "weights{} and its own sequences",
                       why, split.dp, m.is_moe() ? ", experts included," : "");
  }
  return fmt::format("{}: {} data-parallel attention groups ({}), attention and dense weights copied on each, each "
                     "group holding its own sequences",
                     why, split.dp,
                     o.engine == ServeEngine::sglang ? "SGLang's --enable-dp-attention" : "vLLM's --data-parallel-size");
}

// What the figures assume, for the reader: the engine's plan, the layout, the storage.
void assumption_notes(const ModelConfig& m, const ServingOptions& o, ServingFit& fit) {
  fit.notes.push_back(
      o.engine == ServeEngine::vllm
          ? fmt::format("{}: the KV cache is {:g} of HBM (--gpu-memory-utilization) minus the weights, the profile run's "
                        "activation peak at {} batched tokens and {} sequences, and {:.3g} GiB of non-torch memory "
                        "(measured); blocks of {} tokens{}",
                        engine_release(o.engine), fit.memory_fraction, o.max_batched_tokens, o.max_seqs,
                        gib(fit.non_torch_per_gpu), fit.block_size,
                        fit.block_size == 64    ? " (vLLM forces them for FlashMLA, its MLA backend on Hopper)"
                        : fit.block_size == 128 ? " (vLLM forces them for CUTLASS_MLA, its MLA backend on B200)"
                                                : "")
          : fmt::format("{}: the KV pool is {:g} (--mem-fraction-static) of what is free before the weights (HBM less "
                        "{:.3g} GiB used before them: CUDA context, NCCL, measured) minus the weights; activations live "
                        "in the rest",
                        engine_release(o.engine), fit.memory_fraction, gib(fit.non_torch_per_gpu)));
  if (!o.gpu.hbm_from_driver) {
    // The catalog's capacity without a driver readout is the datasheet's decimal GB
    // (GpuSpec::hbm_bytes); the engines size by what the driver reports, which is usually more
    // (an "80 GB" H100 reports 81,559 MiB, 6.9 % above 80e9 bytes: presets/hardware/gpus.toml).
    fit.notes.push_back(fmt::format("{} is planned on its datasheet's {:g} GB ({:.4g} GiB): the catalog has no driver "
                                    "readout for it (hbm_driver_mib), and the driver's total, which the engines size "
                                    "by, is usually larger (H100: +6.9 %), so the KV budget here may be low",
                                    o.gpu.id, o.gpu.hbm_datasheet_bytes / 1e9, gib(o.gpu.hbm_bytes)));
  }
  const int per_stage = fit.split.tp * fit.split.dp;
  if (fit.gpus_used < o.gpus) {
    fit.notes.push_back(fmt::format("{} GPUs asked, {} used: {} pipeline stages, one a layer at most, of {} GPUs; the "
                                    "other {} are left unused",
                                    o.gpus, fit.gpus_used, fit.split.stages, per_stage, o.gpus - fit.gpus_used));
  }
  if (m.extras.num_nextn_predict_layers > 0) {
    fit.notes.push_back(o.count_mtp ? fmt::format("the {} MTP module(s) are served ({:.4g} parameters, their cache counted)",
                                                  m.extras.num_nextn_predict_layers, fit.mtp_params)
                                    : fmt::format("the {} MTP module(s) ({:.4g} parameters) are dropped (--serve-mtp serves "
                                                  "them for speculative decoding)",
                                                  m.extras.num_nextn_predict_layers, fit.mtp_params));
  }
  if (fit.split.dp > 1) fit.notes.push_back(dp_note(m, o, fit.split));
  if (m.latent_attention && fit.split.tp > 1) {
    fit.notes.push_back(fmt::format("MLA's latent cache is kept whole on each of the {} TP ranks ({}'s MLA backends)",
                                    fit.split.tp, o.engine == ServeEngine::sglang ? "SGLang" : "vLLM"));
  } else if (!m.latent_attention && m.attention_layers() > 0 && m.num_key_value_heads < fit.split.tp) {
    fit.notes.push_back(fmt::format("N_kv = {} < TP = {}: each rank keeps a copy of a kv head ({}x the cache of one copy)",
                                    m.num_key_value_heads, fit.split.tp,
                                    fmt::format("{:g}", double(fit.split.tp) / std::max(1, m.num_key_value_heads))));
  }
  if (fit.split.stages > 1) {
    fit.notes.push_back(fmt::format("{} GPUs: {} pipeline stages of {} GPUs each; the batch goes round in {} micro-batches "
                                    "so that every stage is busy, each sequence advancing a token per round",
                                    fit.gpus_used, fit.split.stages, per_stage, fit.split.stages));
  }
  if (fit.expert_padding != 1) {
    fit.notes.push_back(fmt::format(
        "vLLM loads the MXFP4 experts through Marlin (no FP4 tensor cores), padding each rank's expert width to a "
        "multiple of 128 and the hidden size to one of 256 (mxfp4.py): the experts take {:.4g}x their stored bytes",
        fit.expert_padding));
  }
  if (serves_checkpoint(m, o)) {
    const CheckpointStorage& c = *m.checkpoint_storage;
    fit.notes.push_back(fmt::format("weights as the checkpoint stores them (quantization_config, quant_method {}): {}{}",
                                    c.method, c.description,
                                    c.fp8_math ? marlin_note(o) : std::string()));
  } else if (o.online_fp8) {
    fit.notes.push_back(fmt::format(
        "fp8 online (--quantization fp8 on a bf16 checkpoint): every linear layer quantized as it loads, one scale "
        "per tensor (vLLM fp8.py, is_checkpoint_fp8_serialized False), no 128 x 128 blocks; embeddings, head, norms "
        "and routers stay bf16; loaded in bf16 first: {:.4g} GiB on the busiest GPU while it loads{}",
        gib(fit.online_fp8_load_bytes_per_gpu), marlin_note(o)));
  } else if (o.weights == ServePrecision::fp4) {
    fit.notes.push_back("fp4 (MXFP4) covers the routed experts, as gpt-oss ships them; attention, dense layers, "
                        "embeddings, head, norms and routers stay bf16; weight-only: the FLOP bound uses the bf16 peak");
  } else if (o.weights == ServePrecision::fp8) {
    fit.notes.push_back(fmt::format("fp8 covers every linear layer (DeepSeek-V3's checkpoint); embeddings, head, norms "
                                    "and routers stay bf16{}",
                                    marlin_note(o)));
  }
  if (const std::string kv = fp8_cache_note(m, o); !kv.empty()) fit.notes.push_back(kv);
}

// Online fp8 loads the bf16 checkpoint before it quantizes it: vLLM's docs (features/quantization/
// fp8.md, "Online Dynamic Quantization": "we load the model at original precision before
// quantizing down to 8-bits, so you need enough memory to load the whole model"); SGLang's the
// same (sgl-project/sglang issue #2895). The busiest GPU's bf16 weights against its memory less
// what is in use before the weights; "" when they fit. Sets fit.online_fp8_load_bytes_per_gpu.
std::string online_fp8_load_refusal(const ModelConfig& m, const ServingOptions& o, ServingFit& fit) {
  if (!o.online_fp8 || serves_checkpoint(m, o)) return {};
  ServingOptions bf16 = o;
  bf16.online_fp8 = false;
  bf16.weights = ServePrecision::bf16;
  bf16.weights_as_checkpoint = false;
  ServingFit scratch;
  double load = 0;
  for (const StageCensus& c : census(m, bf16, fit.split, scratch)) load = std::max(load, c.weight_bytes);
  fit.online_fp8_load_bytes_per_gpu = load;
  const double free = o.gpu.hbm_bytes - fit.non_torch_per_gpu;
  if (load <= free) return {};
  return fmt::format("loading: --quantization fp8 loads the bf16 weights before quantizing them, {:.4g} GiB on the "
                     "busiest GPU, over the {:.4g} GiB free ({:.4g} GiB HBM less {:.4g} in use) by {:.4g} GiB: the "
                     "engine runs out of memory; an fp8 checkpoint, or more GPUs",
                     gib(load), gib(free), gib(o.gpu.hbm_bytes), gib(fit.non_torch_per_gpu), gib(load - free));
}

// A checkpoint in fp8 blocks (weight_block_size [n, k]) loads only where every shard is whole
// blocks: vLLM's Fp8MoEMethod.create_weights raises "The output_size of gate's and up's weight =
// {} is not divisible by weight quantization block_n = {}" and, past one shard, the same for the
// down projection's block_k; its linear layers check likewise (fp8.py, validate_fp8_block_shape:
// each output partition by block_n, the input partition by block_k). SGLang's fp8.py raises the
// same. The experts shard over the stage's GPUs unless expert-parallel (vLLM flattens DP x TP for
// them), the shared experts and dense FFNs over TP. "" when every shard is whole blocks.
// --serve-weights fp8 is DeepSeek-V3's 128 x 128 blocks (weight_bytes_per_param), every linear
// layer in fp8: the same check, as vLLM runs it on such a checkpoint (quantization_config
// weight_block_size [128, 128]).
std::string fp8_block_refusal(const ModelConfig& m, const ServingOptions& o, const ServingSplit& split) {
  CheckpointStorage c;
  std::string what_loads = "the fp8 checkpoint";
  if (serves_checkpoint(m, o)) {
    if (m.checkpoint_storage->block_n <= 0) return {};
    c = *m.checkpoint_storage;
  } else if (o.weights == ServePrecision::fp8) {
    const double fp8 = weight_bytes_per_param(ServePrecision::fp8);
    c.block_n = c.block_k = 128;
    c.routed = c.shared = c.dense = fp8;
    what_loads = "fp8 weights in 128 x 128 blocks (--serve-weights fp8)";
  } else {
    return {};
  }
  const auto check = [&](const char* what, std::int64_t width, int shards, double stored_bytes,
                         const char* hint) -> std::string {
    if (stored_bytes >= 2 || width <= 0 || shards <= 1) return {};  // kept in bf16, or whole
    const std::string why =
        width % shards != 0 ? fmt::format("its width {} does not split over {} GPUs", width, shards)
        : (width / shards) % c.block_n != 0
            ? fmt::format("{} / {} = {} a GPU is not a multiple of block_n = {}", width, shards, width / shards, c.block_n)
        : (width / shards) % c.block_k != 0
            ? fmt::format("{} / {} = {} a GPU is not a multiple of block_k = {}", width, shards, width / shards, c.block_k)
            : std::string();
    if (why.empty()) return why;
    return fmt::format("the engine refuses to load {}: the {} (weight_block_size [{}, {}]): {}; {}", what_loads,
                       what, c.block_n, c.block_k, why, hint);
  };
  std::string refusal;
  if (m.is_moe()) {
    refusal = check("routed experts' intermediate size", m.moe_intermediate_size, o.expert_parallel ? 1 : split.ep,
                    c.routed, "--serve-expert-parallel keeps each expert whole on one GPU");
    const std::int64_t shared = std::int64_t{m.n_shared_experts} * m.shared_width();
    if (refusal.empty()) refusal = check("shared experts' intermediate size", shared, split.tp, c.shared, "a smaller TP");
  }
  for (const auto& [l, count] : m.layer_census()) {
    if (!refusal.empty()) break;
    if (l.ffn != FfnKind::dense && l.ffn != FfnKind::moe_and_dense) continue;
    refusal = check("dense FFN's intermediate size", l.dense_width > 0 ? l.dense_width : m.intermediate_size, split.tp,
                    c.dense, "a smaller TP");
  }
  return refusal;
}

// The engine's own start-up lines (ServingFit::engine_log), printed only when it starts
// (docs/serving.md "When the engine does not start").
void engine_start_lines(const ModelConfig& m, const ServingOptions& o, const StageCensus& w, ServingFit& fit) {
  if (!fit.no_start.empty()) return;
  if (o.engine == ServeEngine::sglang && fit.kv_cache_tokens > 0) {
    // SGLang's own lines (mem_cache/memory_pool.py, MHATokenToKVPool / MLATokenToKVPool; the
    // scheduler's start-up line), its "GB" being 2^30 bytes.
    const double pool = double(fit.kv_cache_tokens) * w.cache_per_token / k_gib;
    fit.engine_log.push_back(m.latent_attention
                                 ? fmt::format("KV Cache is allocated. #tokens: {}, KV size: {:.2f} GB",
                                               fit.kv_cache_tokens, pool)
                                 : fmt::format("KV Cache is allocated. #tokens: {}, K size: {:.2f} GB, V size: {:.2f} GB",
                                               fit.kv_cache_tokens, pool / 2, pool / 2));
    fit.engine_log.push_back(fmt::format("max_total_num_tokens={}, max_running_requests={}, context_len={}",
                                         fit.kv_cache_tokens, o.max_seqs / std::max(1, fit.split.dp), o.context));
  } else if (fit.kv_cache_tokens > 0 || fit.max_concurrency > 0) {
    fit.engine_log.push_back(fmt::format("GPU KV cache size: {} tokens", with_commas(fit.kv_cache_tokens)));
    fit.engine_log.push_back(fmt::format("Maximum concurrency for {} tokens per request: {:.2f}x",
                                         with_commas(o.context), fit.max_concurrency));
  }
}

// Why the fit fails, the first bound that fails it in the order the engine meets them (weights,
// the KV cache, the CUDA graphs captured after it, the batch); "" when it fits.
// base: what the fraction is of (the GPU's memory under vLLM, what is free before the weights
// under SGLang: see fraction_base in fit_serving).
std::string why_not_of(const ServingOptions& o, const ServingFit& fit, double weights, double base,
                       double reserved_w, bool capped) {
  const double usable = fit.memory_fraction * base;
  const std::string of = o.engine == ServeEngine::sglang
                             ? fmt::format("{:.4g} GiB free before the weights: {:.4g} GiB HBM less {:.4g} used "
                                           "before them",
                                           gib(base), gib(o.gpu.hbm_bytes), gib(fit.non_torch_per_gpu))
                             : fmt::format("{:.4g} GiB HBM", gib(o.gpu.hbm_bytes));
  if (weights >= usable) {
    return fmt::format("weights: {:.4g} GiB on the busiest GPU, over the {:.4g} GiB usable ({:g} of {}, {}) by "
                       "{:.4g} GiB",
                       gib(weights), gib(usable), fit.memory_fraction, of, fraction_flag(o.engine),
                       gib(weights - usable));
  }
  if (fit.cache_budget_per_gpu <= 0) {
    return fmt::format("no memory for the KV cache: {:.4g} GiB usable ({:g} of {}) minus {:.4g} GiB of weights "
                       "and {:.4g} GiB the engine reserves (activation peak and non-torch memory): {:.4g} GiB",
                       gib(usable), fit.memory_fraction, of, gib(weights), gib(reserved_w),
                       gib(fit.cache_budget_per_gpu));
  }
  if (const double left = (1 - fit.memory_fraction) * base,
         graphs = fit.cuda_graph_per_gpu + (o.engine == ServeEngine::sglang ? fit.activation_peak_per_gpu : 0.0);
         graphs > left) {
    // Both lines size the KV cache first and capture the CUDA graphs after it, in what the
    // fraction leaves; a capture that does not fit fails the start-up (vLLM v0.10: gpu_worker.py
    // compile_or_warm_up_model after initialize_from_config; SGLang v0.4: cuda_graph_runner.py
    // "Capture cuda graph failed ... set --mem-fraction-static to a smaller value"): neither
    // shrinks its cache to make room.
    return fmt::format("CUDA graphs: {:.4g} GiB per GPU, captured after the KV cache, over the {:.4g} GiB the "
                       "fraction leaves (1 - {:g} of {}) by {:.4g} GiB: the engine fails to start (out "
                       "of memory at capture); a lower {} leaves room",
                       gib(graphs), gib(left), fit.memory_fraction, of, gib(graphs - left),
                       fraction_flag(o.engine));
  }
  if (fit.max_batch < o.min_batch) {
    const double need = std::ceil(double(o.min_batch) / fit.split.dp) * fit.cache_bytes_per_sequence_per_gpu;
    if (capped) {  // the memory would hold them: the engine's cap on running sequences binds
      return fmt::format("batch: {} sequence(s) asked, the engine runs at most {} at once ({})", o.min_batch,
                         fit.max_batch, seq_cap_words(o));
    }
    if (need <= fit.cache_budget_per_gpu) {  // the pool's blocks as the engine groups them bind
      return fmt::format("cache: {} sequence(s) of {} tokens asked, the KV cache holds {} ({} tokens in the blocks "
                         "the engine groups by layer kind; the sliding-window and state pages a sequence also "
                         "takes are not in the {:.4g} GiB per sequence of its full-attention layers)",
                         o.min_batch, o.context, fit.max_batch, with_commas(fit.kv_cache_tokens),
                         gib(fit.cache_bytes_per_sequence_per_gpu));
    }
    return fmt::format("cache: {} sequence(s) of {} tokens need {:.4g} GiB per GPU beside the weights, {:.4g} GiB "
                       "is left ({:g} of HBM minus {:.4g} GiB of weights and {:.4g} GiB the engine reserves): "
                       "{:.4g} GiB short",
                       o.min_batch, o.context, gib(need), gib(fit.cache_budget_per_gpu), fit.memory_fraction,
                       gib(weights), gib(reserved_w), gib(need - fit.cache_budget_per_gpu));
  }
  return std::string();
}


// DeepSeek-V4's cache is served as vLLM keeps it (dsv4_layer_cache): fp8 only, in its fp8_ds_mla
// layout. vLLM refuses any other cache dtype at start-up (DeepseekV4MLAAttention.__init__, vllm/
// model_executor/layers/deepseek_v4_attention.py @0a291a2e1074: assert kv_cache_dtype.startswith("fp8"),
// "DeepseekV4 only supports fp8 kv-cache format for now"; its default "auto" fails too). SGLang's
// DeepSeek-V4 cache was not read: refused by name rather than taken as vLLM's.
std::optional<std::string> compressed_cache_refusal(const ModelConfig& m, const ServingOptions& o) {
  if (!m.compressed_attention) return std::nullopt;
  if (o.engine == ServeEngine::sglang) {
    return std::string("DeepSeek-V4's compressed attention under SGLang: its cache layout (window, pooled entries, "
                       "indexer keys, compressor states) was not read; moeplan models vLLM's (--serve-engine vllm)");
  }
  if (fp8_cache_as_storage(o)) {
    return fmt::format("DeepSeek-V4's fp8_ds_mla cache on {}, a GPU without FP8 tensor cores: vLLM's kernels for it "
                       "were not read for such a GPU",
                       o.gpu.id);
  }
  if (o.kv != ServePrecision::fp8) {
    return fmt::format("--serve-kv {}: vLLM keeps DeepSeek-V4's cache in fp8 only (its fp8_ds_mla layout; "
                       "'DeepseekV4 only supports fp8 kv-cache format', --kv-cache-dtype auto fails at start-up): "
                       "--serve-kv fp8",
                       to_string(o.kv));
  }
  return std::nullopt;
}


// The memory live at the sort of vLLM's dummy sampler run: R requests over the vocabulary V with
// top-k and top-p on (gpu_model_runner.py, v0.10.x, _dummy_sampler_run: top_p 0.9, top_k V - 1,
// neither all greedy nor all random), so the logits are sorted (v1/sample/sampler.py,
// ops/topk_topp_sampler.py, apply_top_k_top_p: logits.sort(dim=-1)). Live then, per logit: the
// model's bf16 logits (2) and their fp32 copy (4), and torch's sort
// (pytorch/pytorch aten/src/ATen/native/cuda/SortStable.cu @061531e83b8f,
// do_launch_stable_sort_kernel; rows over 4096 logits take this path, not the in-place small sort):
// - R >= 128 rows, segmented_sort_pairs: the sorted fp32 values (4) and int64 indices (8), the
//   int64 reverse_indices it fills as cub's input values (8), and cub's DeviceSegmentedRadixSort
//   alternate key and value buffers (4 + 8: NVIDIA cub dispatch_radix_sort.cuh,
//   DispatchSegmentedRadixSort, allocation_sizes when not is_overwrite_okay): 38 bytes;
// - 2 to 127 rows, segmented_sort_pairs_by_full_sort: values and indices (12), two int2 index and
//   segment arrays (8 + 8), the keys_out radix_sort_pairs allocates when given none (4,
//   ATen/cuda/cub.cuh) and cub's DeviceRadixSort alternate keys and int2 values (4 + 8): 50 bytes;
// - one row, segmented_sort_large_segments: values and indices (12) per logit, and per vocabulary
//   entry the int64 iota (8) and cub's alternate buffers for one segment (12).
double vllm_sampler_sort_bytes(double requests, double vocab) {
  constexpr double k_logits_bytes = 2 + 4;   // bf16 logits and their fp32 copy
  constexpr double k_sort_out_bytes = 4 + 8;  // sorted fp32 values and int64 indices
  constexpr double k_cub_alt_bytes = 4 + 8;   // cub's alternate key (fp32) and value (int64) buffers
  if (requests <= 0 || vocab <= 0) return 0;
  if (requests < 2) return vocab * (k_logits_bytes + k_sort_out_bytes) + vocab * (8 + k_cub_alt_bytes);
  if (requests < 128) return requests * vocab * (k_logits_bytes + k_sort_out_bytes + 8 + 8 + 4 + 4 + 8);
  return requests * vocab * (k_logits_bytes + k_sort_out_bytes + 8 + k_cub_alt_bytes);
}

// vLLM's KV block for this model on this GPU. MLA models get the block their default backend
// needs (vllm/platforms/cuda.py, CudaPlatform.check_and_update_config, v0.8 to v0.10 line): on
// Hopper FlashMLA, "Forcing kv cache block size to 64 for FlashMLA backend." (is_flashmla_supported:
// compute capability 9.x only); on compute capability 10.0 (B200, GB200) v0.10.1 defaults to
// CUTLASS_MLA, "Forcing kv cache block size to 128 for CUTLASS_MLA backend." (the
// is_device_capability(100) branch). Other models and GPUs: 16 (k_vllm_block_size). The GPU's
// generation is read from the catalog id (the catalog has no compute capability).
int vllm_block_size(const ModelConfig& m, const GpuSpec& gpu) {
  if (!m.latent_attention || m.compressed_attention) return k_vllm_block_size;
  const std::string& id = gpu.id;
  const bool hopper = id.starts_with("h100") || id.starts_with("h200") || id.starts_with("h800") ||
                      id.starts_with("h20") || id.starts_with("gh200");
  if (hopper) return 64;
  if (id.starts_with("b200") || id.starts_with("gb200")) return 128;
  return k_vllm_block_size;
}

// What the section cannot count at all (an error, not a "does not fit").
std::optional<std::string> input_refusal(const ModelConfig& m, const ServingOptions& o) {
  if (const auto why = compressed_cache_refusal(m, o)) return why;
  for (const LinearMixer& x : m.linear_mixers) {
    if (!x.decode_state_bytes) {
      return fmt::format("the decode state of its '{}' layers is not known (a model TOML mixer without "
                         "decode_state_bytes)", x.kind);
    }
  }
  if (o.weights_as_checkpoint && m.checkpoint_storage && !m.checkpoint_storage->known) {
    return fmt::format("the weights cannot be counted as stored: {}; --serve-weights bf16|fp8|fp4 says how they are "
                       "stored",
                       m.checkpoint_storage->description);
  }
  if (serves_checkpoint(m, o) && m.checkpoint_storage->fp8_math) {
    if (auto why = sglang_fp8_refusal(o, "the fp8 checkpoint", "; vLLM, or --serve-weights bf16")) return why;
  }
  if (o.engine_tp && !tp_splits_heads(m, *o.engine_tp)) {  // vLLM and SGLang refuse to start
    return fmt::format("--serve-args: TP {} does not split the model's attention heads (the engine refuses to start)",
                       *o.engine_tp);
  }
  return std::nullopt;
}

// The engine's cap on running sequences: vLLM's max_num_seqs per engine (each attention
// group); SGLang's --max-running-requests for the whole server, split over its DP ranks
// (scheduler: per_dp_max_running_requests = max_running_requests // dp_size). true when it binds.
bool cap_running_sequences(const ServingOptions& o, ServingFit& fit) {
  const std::int64_t dp = std::max<std::int64_t>(1, fit.split.dp);
  const std::int64_t cap = o.engine == ServeEngine::sglang ? o.max_seqs / dp * dp : o.max_seqs * dp;
  if (o.max_seqs <= 0 || fit.max_batch <= cap) return false;
  fit.notes.push_back(fmt::format("the cache holds {} sequences at the context; the engine runs at most {} at once ({})",
                                  fit.max_batch, cap, seq_cap_words(o)));
  fit.max_batch = cap;
  return true;
}

std::string sglang_running_requests_note(const ServingOptions& o, const ServingFit& fit) {
  const std::int64_t dp = std::max<std::int64_t>(1, fit.split.dp);
  return fmt::format("SGLang's max_running_requests, derived (v0.4, model_runner.py init_memory_pool, scheduler): "
                     "min(max_total_num_tokens // 2, min(max(int(max_total_num_tokens / context_len x 512), 2048), "
                     "4096)) = min({} // 2, min(max(int({} / {} x 512), 2048), 4096)) = {} per DP rank{}; its "
                     "req_to_token pool (that many rows of context_len + 4 int32) is allocated after the KV pool is "
                     "sized, in the memory the fraction leaves",
                     fit.kv_cache_tokens, fit.kv_cache_tokens, o.context, o.max_seqs / dp,
                     dp > 1 ? fmt::format(", {} for the server's {} ranks", o.max_seqs, dp) : std::string());
}


}  // namespace

std::int64_t sglang_default_running_requests(std::int64_t max_total_num_tokens, std::int64_t context_len) {
  if (max_total_num_tokens <= 0 || context_len <= 0) return 0;
  const auto per_context = static_cast<std::int64_t>(double(max_total_num_tokens) / double(context_len) * 512);
  const std::int64_t max_num_reqs = std::min<std::int64_t>(std::max<std::int64_t>(per_context, 2048), 4096);
  return std::min(max_total_num_tokens / 2, max_num_reqs);
}

std::string serving_weights_storage(const ModelConfig& m, const ServingOptions& o) {
  if (o.weights_as_checkpoint && m.checkpoint_storage && !m.checkpoint_storage->known) {
    return m.checkpoint_storage->method + " (quantization_config, not counted)";  // input_refusal says why
  }
  if (o.online_fp8 && !serves_checkpoint(m, o)) return "fp8 online (--quantization fp8, per-tensor scales)";
  return serves_checkpoint(m, o) ? m.checkpoint_storage->method + " (quantization_config)"
                                 : std::string(to_string(o.weights));
}

std::expected<ServingFit, std::string> serving_fit(const ModelConfig& m, const ServingOptions& given) {
  ServingOptions o = with_engine_defaults(m, given);
  if (const auto why = input_refusal(m, o)) return std::unexpected(*why);
  ServingFit fit;
  fit.split = split_for(m, o);
  const std::vector<StageCensus> stages = census(m, o, fit.split, fit);
  fit.cache_kind = cache_kind_of(m);
  fit.cache_formula = cache_formula_of(m, o);
  fit.hbm_per_gpu = o.gpu.hbm_bytes;
  fit.weights_storage = serving_weights_storage(m, o);
  // Stages of TP x DP GPUs each: whole nodes by default, the engine's own TP x DP (--serve-args),
  // which may put several stages in one node.
  fit.gpus_used = fit.split.stages * fit.split.tp * fit.split.dp;
  fit.memory_fraction = o.memory_fraction.value_or(0);
  fit.max_batched_tokens = o.max_batched_tokens;
  fit.max_seqs = o.max_seqs;
  fit.block_size = o.engine == ServeEngine::vllm ? vllm_block_size(m, o.gpu) : 1;
  fit.non_torch_per_gpu = o.non_torch_bytes.value_or(0);
  fit.cuda_graph_per_gpu = o.cuda_graph_bytes.value_or(0);
  // What the fraction is of. vLLM: the GPU's memory (gpu_worker.py, requested_memory =
  // total_memory x gpu_memory_utilization), non-torch memory reserved inside it. SGLang (v0.4 to
  // v0.5.8, model_runner.py / model_runner_kv_cache_mixin.py, profile_max_num_token): rest_memory =
  // available_gpu_memory - total_gpu_memory x (1 - mem_fraction_static), where available is the
  // free memory after the weights load and total_gpu_memory the free memory before (the
  // "Load weight begin. avail mem" figure, min_per_gpu_memory): f x (HBM - P) - W, with P the
  // memory used before the weights, so P is taken out of the base, not reserved again.
  const bool sglang = o.engine == ServeEngine::sglang;
  const double fraction_base = o.gpu.hbm_bytes - (sglang ? fit.non_torch_per_gpu : 0.0),
               reserved_beside = sglang ? 0.0 : fit.non_torch_per_gpu;
  const double usable = fit.memory_fraction * fraction_base;
  // The profile run (vLLM): its forward pass at max_batched_tokens holds the residual stream
  // (hidden states and residual, T x d in bf16) and the largest layer's intermediates; on the
  // last stage the sampler then sorts R = min(max_num_seqs, T) requests' logits
  // (vllm_sampler_sort_bytes). torch's peak is the larger of the forward pass and the sampler.
  const double T = double(o.max_batched_tokens);
  const double residual = 2 * T * m.hidden_size * k_bf16_bytes;
  const double R = std::min(double(o.max_seqs), T);
  const double sampler = o.max_batched_tokens > 0 ? T * m.hidden_size * k_bf16_bytes +
                                                        vllm_sampler_sort_bytes(R, double(m.vocab_size))
                                                  : 0.0;
  std::vector<double> reserved(stages.size());  // beside the weights, per stage's GPU
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const double forward = o.max_batched_tokens > 0 ? residual + stages[s].forward_transient : 0.0;
    const double peak = s + 1 == stages.size() ? std::max(forward, sampler) : forward;
    reserved[s] = peak + reserved_beside;
  }
  // The busiest GPU decides: its weights, and the sequences its cache share holds. vLLM sizes
  // blocks of block_size tokens (a sequence at C tokens takes ceil(C / block_size) of them:
  // kv_cache_utils.py, max_memory_usage_bytes); SGLang single tokens.
  fit.max_batch = std::numeric_limits<std::int64_t>::max();
  std::size_t worst = 0;
  double worst_concurrency = std::numeric_limits<double>::infinity();
  std::int64_t worst_tokens = 0;
  for (std::size_t s = 0; s < stages.size(); ++s) {
    const StageCensus& c = stages[s];
    if (c.weight_bytes > fit.weight_bytes_per_gpu) fit.weight_bytes_per_gpu = c.weight_bytes;
    const double budget = usable - c.weight_bytes - reserved[s];
    const double per_seq = cache_at(c, o.context);
    double concurrency = 0;
    std::int64_t tokens = 0;
    if (budget > 0 && per_seq > 0) {
      const bool uniform = c.windowed.empty() && c.cache_fixed == 0;
      const double bs = fit.block_size;
      if (uniform) {
        const double blocks = std::floor(budget / (bs * c.cache_per_token));
        concurrency = blocks / std::ceil(double(o.context) / bs);
        tokens = static_cast<std::int64_t>(std::min(blocks * bs, 1e15));
      } else if (const auto pool = o.engine == ServeEngine::vllm && !m.compressed_attention
                                       ? vllm_hybrid_pool(c, budget, o, bs)
                                       : std::nullopt) {
        concurrency = pool->concurrency;  // vLLM's hybrid manager: full and sliding-window groups
        tokens = pool->tokens;
      } else {
        // Otherwise (SGLang, recurrent states, pages vLLM cannot unify, DeepSeek-V4's pages, whose
        // 576-byte alignment and grouping are not modelled): a sequence's whole share (an engineering
        // reading of the engines' hybrid managers), tokens as the engine reports them,
        // concurrency x context.
        concurrency = budget / per_seq;
        tokens = static_cast<std::int64_t>(std::min(concurrency * double(o.context), 1e15));
      }
    } else if (budget > 0) {
      concurrency = std::numeric_limits<double>::infinity();
    }
    // A sequence lives in one attention group: each of the dp groups holds its own.
    std::int64_t b = std::isinf(concurrency) ? std::numeric_limits<std::int64_t>::max()
                                             : static_cast<std::int64_t>(std::min(std::floor(concurrency) * fit.split.dp, 1e15));
    if (b < fit.max_batch || s == 0) {
      fit.max_batch = std::min(b, fit.max_batch);
      worst = s;
      worst_concurrency = concurrency;
      worst_tokens = tokens;
    }
  }
  const StageCensus& w = stages[worst];
  fit.activation_peak_per_gpu = reserved[worst] - reserved_beside;
  fit.forward_peak_per_gpu = o.max_batched_tokens > 0 ? residual + w.forward_transient : 0.0;
  fit.sampler_peak_per_gpu = worst + 1 == stages.size() ? sampler : 0.0;
  fit.cache_budget_per_gpu = usable - w.weight_bytes - reserved[worst];
  fit.cache_bytes_per_sequence_per_gpu = cache_at(w, o.context);
  fit.kv_cache_tokens = worst_tokens;
  fit.max_concurrency = std::isinf(worst_concurrency) ? 0 : worst_concurrency;
  if (fit.max_batch == std::numeric_limits<std::int64_t>::max()) {
    fit.notes.push_back("the model keeps no cache per sequence: the batch is not bounded by memory here");
    fit.max_batch = std::int64_t{1} << 40;
  }
  if (o.engine == ServeEngine::sglang && o.max_seqs <= 0 && fit.kv_cache_tokens > 0) {
    o.max_seqs = sglang_default_running_requests(fit.kv_cache_tokens, o.context) * fit.split.dp;
    fit.max_seqs = o.max_seqs;
    fit.notes.push_back(sglang_running_requests_note(o, fit));
  }
  const bool capped = cap_running_sequences(o, fit);
  const std::string load_refusal = online_fp8_load_refusal(m, o, fit);
  if (fit.why_not = context_limit_refusal(m, o); !fit.why_not.empty()) {  // its config check, first of all
    fit.no_start = "the engine refuses the context as it reads the model's config, before it loads anything";
  } else if (fit.why_not = load_refusal; !fit.why_not.empty()) {  // out of memory while it loads
    fit.no_start = "the engine runs out of memory loading the bf16 weights it would quantize: it stops before "
                   "sizing its KV cache";
  } else if (fit.why_not = fp8_block_refusal(m, o, fit.split); !fit.why_not.empty()) {  // at load
    fit.no_start = "the engine refuses to load the weights (fp8 blocks): it stops before sizing its KV cache";
  } else if (fit.why_not = fp8_cache_refusal(m, o); !fit.why_not.empty()) {  // or as it builds its attention
    fit.no_start = "the engine refuses the fp8 KV cache as it builds its attention: it stops before sizing the cache";
  } else {
    fit.why_not = why_not_of(o, fit, w.weight_bytes, fraction_base, reserved[worst], capped);
    if (w.weight_bytes >= usable) {
      fit.no_start = "the weights do not fit in the fraction: the engine stops before sizing its KV cache";
    } else if (fit.cache_budget_per_gpu <= 0) {
      fit.no_start = "no memory is left for the KV cache: the engine stops before sizing it";
    } else if (const auto raise = vllm_one_request_refusal(m, o, w, fit.cache_budget_per_gpu, fit.block_size)) {
      fit.why_not = *raise;  // before the CUDA graphs: vLLM checks this as it sizes the cache
      fit.no_start = "the KV cache cannot hold one request of the context: vLLM raises before it prints its cache size";
    }
  }
  engine_start_lines(m, o, w, fit);
  fit.fits = fit.why_not.empty();
  if (!fit.fits) fit.max_batch = std::max<std::int64_t>(0, std::min(fit.max_batch, o.min_batch - 1));
  if (fit.fits) fit.decode = decode_on(stages, m, o, fit.split, o.decode_at_min_batch ? o.min_batch : fit.max_batch);

  assumption_notes(m, o, fit);
  fit.notes.push_back(
      "decode bound: every sequence at the full context, routing uniform, communication and kernel launches not "
      "counted: an upper bound on tokens/s");
  return fit;
}

}  // namespace moeplan
