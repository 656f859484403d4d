#pragma once
/// Layers that are not all alike: hybrids (linear-attention or SSM mixers interleaved with
/// softmax attention), interleaved dense/MoE FFNs, dense residual FFNs beside the experts,
/// layers without a mixer or without an FFN. A ModelConfig whose `layers` is empty is uniform
/// (first_k_dense_replace, moe_layer_interval); otherwise `layers` lists every layer, and
/// every count (N, N_a, M, what is built beside N) goes layer by layer (docs/hybrid-layers.md).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace moeplan {

/// What mixes tokens across positions in one layer.
enum class MixerKind {
  attention,  ///< softmax attention (GQA or MLA, as the config's attention keys say)
  linear,     ///< a non-softmax mixer: linear attention, SSM, short convolution (LinearMixer)
  none,       ///< no token mixer (Nemotron-H's MLP/MoE-only layers, Nemotron-NAS no_op)
};

/// The channel-mixing block of one layer.
enum class FfnKind {
  dense,          ///< one dense FFN
  moe,            ///< routed (+ shared) experts
  moe_and_dense,  ///< experts and a dense FFN side by side (Arctic's residual MLP, LongCat's ScMoE)
  none,           ///< no FFN (Nemotron-H's mixer-only layers, Nemotron-NAS no_op)
};

std::string_view to_string(MixerKind k);
std::string_view to_string(FfnKind k);
std::optional<MixerKind> mixer_kind_of(std::string_view s);
std::optional<FfnKind> ffn_kind_of(std::string_view s);

/// One layer. Zero widths/heads mean the config's own (intermediate_size, num_key_value_heads).
struct LayerSpec {
  MixerKind mixer = MixerKind::attention;
  int linear_mixer = 0;  ///< index into ModelConfig::linear_mixers when mixer == linear
  FfnKind ffn = FfnKind::moe;
  int dense_width = 0;   ///< the dense FFN's width; 0: intermediate_size
  int kv_heads = 0;      ///< this attention layer's kv heads; 0: num_key_value_heads
  /// This attention layer's head size (q, k, v and o of N_q·head_dim); 0: the model's
  /// head_size(). Gemma 4's full-attention layers: global_head_dim (512) where its sliding
  /// ones have head_dim (256).
  int head_dim = 0;
  /// This attention layer's query heads; 0: num_attention_heads. Step-3.5-Flash's
  /// sliding_attention layers have 96 where its full_attention layers have 64
  /// (attention_other_setting.num_attention_heads, vLLM's Step3p5DecoderLayer).
  int q_heads = 0;
  /// The keys are also the values: k_proj only, no v_proj (Gemma 4's attention_k_eq_v on its
  /// full-attention layers). The layer still attends with K and V (V = v_norm(k_proj(x)), K
  /// = RoPE(k_norm(k_proj(x))): two different tensors), and an engine caches both.
  bool k_eq_v = false;
  /// This attention layer's value head size where it differs from its key head size (v_proj
  /// N_kv·v_head_dim, o_proj from N_q·v_head_dim; MiMo-V2-Flash: v_head_dim 128 beside
  /// head_dim 192); 0: the layer's head size (head_dim above). The cache keeps K of the head
  /// size and V of this one; the scores multiply by the head size, the weighted sum by this.
  int v_head_dim = 0;
  /// One learned sink logit per query head in this layer (MiMo-V2-Flash's sliding-window
  /// layers: MiMoV2FlashAttention.sinks of num_attention_heads), beside N as gpt-oss's
  /// model-wide BuiltExtras::attention_sinks are.
  bool attention_sinks = false;
  /// false: the layer reuses an earlier layer's K and V (Hunyuan-Large's cross-layer
  /// attention) and builds no K, V projections of its own.
  bool own_kv = true;
  /// Sliding-window attention: a query attends to the last `window` positions (gpt-oss's
  /// sliding_attention layers); 0: full causal attention. Changes FLOPs, not weights.
  int window = 0;
  /// The model's sparse-attention indexer (ModelConfig::indexer) runs in this attention layer;
  /// false: the layer attends densely and builds no indexer (MiniMax-M3's first three layers,
  /// sparse_attention_freq 0). DeepSeek-V3.2's indexer is in every attention layer.
  bool indexed = true;
  /// DeepSeek-V4's compressed attention (ModelConfig::compressed_attention): 0, the sliding
  /// window only; CompressedAttention::csa_rate, a compressor of that rate and an indexer
  /// (compressed_sparse_attention); CompressedAttention::hca_rate, a compressor alone
  /// (heavily_compressed_attention). 0 in every other model.
  int compress_rate = 0;
  /// Chunked local attention: the sequence is cut into chunks of `chunk` positions and a query
  /// attends causally within its own chunk only (Llama 4's chunked_attention layers,
  /// attention_chunk_size; transformers masking_utils.chunked_causal_mask); 0: none. Changes
  /// FLOPs and a decode step's scores (the engines still cache the whole context), not weights.
  int chunk = 0;
  /// The layer attends to the top-k keys an earlier layer's indexer chose (GLM-5.2's IndexShare,
  /// indexer_types "shared"): sparse as an indexed layer, with no indexer weights, scores or key
  /// cache of its own (`indexed` is false).
  bool indexer_shared = false;
  bool operator==(const LayerSpec&) const = default;
};

/// A non-softmax token mixer, one layer's worth, counted exactly by src/model/linear_mixers.cpp
/// from the family's config keys (each formula cites the modeling code it follows).
/// `matrix_params` are projection matrices (in N and N_a, as paper 002 counts attention's);
/// `other_params` are what such a layer builds beside them (depthwise convolutions, A_log,
/// D, dt_bias, biases, the mixer's own norms), reported beside N. `state_flops` is the
/// forward FLOPs per token of the sequence mixing itself (state update and readout, scan,
/// convolution), which 2·matrix_params does not count; training counts it 3 times.
/// `decode_state_bytes` is what one sequence keeps between decode steps (the recurrent state
/// and the convolution's cache), whatever its length: the serving model's cache of the layer.
struct LinearMixer {
  std::string kind;  ///< gated_deltanet, kda, lightning, mamba, mamba2, short_conv, linear
  double matrix_params = 0;
  double other_params = 0;
  double state_flops = 0;
  std::string source;  ///< the keys and the modeling code it was counted from
  /// Bytes one sequence keeps in the decode cache of this layer with bf16 model weights, as
  /// vLLM's MambaStateShapeCalculator and MambaStateDtypeCalculator size it (vllm/model_executor/
  /// layers/mamba/mamba_utils.py: convolution caches of kernel - 1 taps, states in the model's
  /// dtype, KDA's recurrent state in fp32), cited where each mixer is counted; nullopt: not
  /// known (a TOML mixer without decode_state_bytes), so no serving memory can be given.
  std::optional<double> decode_state_bytes;
  bool operator==(const LinearMixer&) const = default;
};

/// DeepSeek-V3.2's lightning indexer (DSA): per attention layer a small scorer that picks
/// index_topk keys for every query, so the attention itself scores min(S, topk) keys. Counted
/// from DeepSeek's inference code (model.py, class Indexer): wq_b (q_lora_rank x n·h), wk
/// (d x h), weights_proj (d x n) are matrices in N; k_norm (LayerNorm of h, weight and bias)
/// is beside N.
struct AttentionIndexer {
  /// dsa: DeepSeek-V3.2's (above). msa: MiniMax-M3's block indexer (transformers
  /// modeling_minimax_m3_vl.py, MiniMaxM3VLIndexer): q_proj d -> n_heads x head_dim and k_proj
  /// d -> head_dim (one shared key head), matrices in N; q_norm and k_norm of head_dim beside
  /// N; it scores key blocks of block_size and each query attends to its topk blocks plus
  /// always_blocks more (sparse_init_block + sparse_local_block); the cache keeps one key of
  /// head_dim per token in the model's dtype (MiniMaxM3VLSparseCacheLayer.idx_keys).
  enum class Kind { dsa, msa };
  Kind kind = Kind::dsa;
  int n_heads = 0;   ///< index_n_heads (sparse_num_index_heads)
  int head_dim = 0;  ///< index_head_dim (sparse_index_dim)
  int topk = 0;      ///< index_topk: keys (dsa) or key blocks (msa, sparse_topk_blocks) a query attends to
  int block_size = 0;     ///< msa: keys per block (sparse_block_size)
  int always_blocks = 0;  ///< msa: blocks a query keeps beside its top-k (init + local)
  /// Keys a query attends to at most: topk (dsa), (topk + always_blocks) x block_size (msa;
  /// the union of the chosen, initial and local blocks is at most that).
  [[nodiscard]] double keys_attended() const {
    return kind == Kind::msa ? double(topk + always_blocks) * block_size : double(topk);
  }
  bool operator==(const AttentionIndexer&) const = default;
};

}  // namespace moeplan
