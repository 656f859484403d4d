#pragma once
/// The non-softmax token mixers of hybrid models, one layer each, counted exactly as the
/// model's modeling code builds them (each function cites it). Family readers call these with
/// the config's keys; the LinearMixer they return is what every count reads.
#include "moeplan/model/layer_pattern.hpp"

namespace moeplan {

/// Bytes of one element of a linear mixer's decode state: the model's dtype, bf16 (vLLM's
/// MambaStateDtypeCalculator with mamba_cache_dtype and mamba_ssm_cache_dtype "auto").
/// config.json's own mamba_ssm_cache_dtype (Nemotron 3 Nano/Super: "float32") is not read:
/// vLLM v0.10, the release the serving section models, takes only the CLI flag; the NemotronH
/// hook that reads the file's value (NemotronHForCausalLMConfig.verify_and_update_config) came
/// with vllm-project/vllm PR #29978 (merged December 2025), after v0.10.
inline constexpr double k_decode_state_element_bytes = 2;

/// A layer that replaces attention by one d x d linear map (Nemotron-NAS replace_with_linear).
LinearMixer linear_replacement_mixer(int hidden_size);

// ---- state-space and convolution mixers (src/model/linear_mixers_ssm.cpp) ----------------
// (Mamba, Mamba2, short convolutions: Jamba, Granite 4.0, Nemotron-H, LFM2)
// FLOP convention of their state_flops (moeplan's, written out in linear_mixers_ssm.cpp):
// per token, forward, every multiply and every add of the recurrence, its readout, the
// depthwise convolution, the D skip and the output gate count one FLOP; nonlinearities (exp,
// softplus, SiLU), normalisations and per-head scalar work are not counted.

/// Mamba (v1) selective-scan mixer, as transformers' JambaMambaMixer builds it.
struct MambaShape {
  int hidden_size = 0;  ///< H
  int d_inner = 0;      ///< I = mamba_expand * H
  int d_state = 0;      ///< N = mamba_d_state
  int d_conv = 0;       ///< mamba_d_conv
  int dt_rank = 0;      ///< R = mamba_dt_rank
  bool conv_bias = true;
  bool proj_bias = false;   ///< in_proj and out_proj biases
  bool inner_norms = true;  ///< RMSNorms of dt (R), B (N), C (N) (Jamba)
};
LinearMixer mamba_mixer(const MambaShape& s);

/// Mamba2 (SSD) mixer, as transformers' BambaMixer (Granite 4.0) and NemotronHMamba2Mixer
/// (Zamba2MambaMixer) build it: I = n_heads * head_dim.
struct Mamba2Shape {
  int hidden_size = 0;  ///< H
  int n_heads = 0;
  int head_dim = 0;
  int n_groups = 0;     ///< G: groups of B and C
  int d_state = 0;      ///< N
  int d_conv = 0;
  bool conv_bias = true;
  bool proj_bias = false;  ///< in_proj and out_proj biases
};
LinearMixer mamba2_mixer(const Mamba2Shape& s);

/// LFM2's gated short convolution (Lfm2MoeShortConv): in_proj H -> 3H (B, C, x), a depthwise
/// causal convolution of `l_cache` taps over B*x, C*conv, out_proj H -> H.
LinearMixer short_conv_mixer(int hidden_size, int l_cache, bool bias);

// ---- linear attention (src/model/linear_mixers_linear_attention.cpp) ---------------------
// (gated DeltaNet, lightning attention, KDA: Qwen3-Next, MiniMax-Text-01, Kimi-Linear)
// state_flops of each is moeplan's convention: the forward FLOPs per token of the mixer's
// recurrent form (short convolutions, one state decay, update and readout per head), which
// does not depend on a kernel's chunk size; elementwise work (activations, gates, norms) is
// not counted, as no convention counts softmax's exponentials. Each formula is written out,
// with its source, in src/model/linear_mixers_linear_attention.cpp.

/// Qwen3-Next's gated DeltaNet layer (Qwen3NextGatedDeltaNet, transformers
/// modeling_qwen3_next.py): linear_num_key_heads / linear_num_value_heads heads of
/// linear_key_head_dim / linear_value_head_dim, a depthwise convolution of
/// linear_conv_kernel_dim taps.
LinearMixer gated_deltanet_mixer(int hidden_size, int num_key_heads, int num_value_heads,
                                 int key_head_dim, int value_head_dim, int conv_kernel);

/// MiniMax-Text-01's lightning attention layer (MiniMaxLightningAttention, transformers
/// modeling_minimax.py; the same tensors in the checkpoint's modeling_minimax_text_01.py):
/// num_attention_heads heads of head_dim.
LinearMixer lightning_attention_mixer(int hidden_size, int num_heads, int head_dim);

/// Kimi-Linear's Kimi Delta Attention layer (KimiDeltaAttention, the checkpoint's remote code
/// modeling_kimi.py): linear_attn_config num_heads heads of head_dim (keys and values), short
/// convolutions of short_conv_kernel_size taps on q, k and v, low-rank (head_dim) forget and
/// output gates.
LinearMixer kda_mixer(int hidden_size, int num_heads, int head_dim, int conv_kernel);

}  // namespace moeplan
