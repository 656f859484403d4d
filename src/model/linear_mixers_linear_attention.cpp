// Linear-attention mixers (gated DeltaNet, lightning attention, KDA), one layer each.
//
// Each function counts the tensors the modeling code builds for one layer: projection
// matrices in `matrix_params` (in N), everything else the mixer owns (convolutions, decay
// parameters, its own norm) in `other_params` (beside N).
//
// state_flops is moeplan's convention, the same for the three: the forward FLOPs per token of
// the mixer's RECURRENT form, i.e. the short convolutions (2 FLOPs per tap and channel) and,
// per head, one decay of the state, one state update and one readout, as the papers write the
// recurrence. It does not depend on how a kernel blocks the sequence: the chunked training
// kernels (fla's chunk_gated_delta_rule / chunk_kda with chunks of 64, the lightning kernel's
// blocks of 256) compute the same outputs with more FLOPs (intra-chunk products that grow with
// the chunk size). Elementwise work (SiLU, sigmoid gates, L2 norms of q and k, the gated
// RMSNorm) is not counted, as no convention counts softmax attention's exponentials.
#include <string>

#include <fmt/format.h>

#include "moeplan/model/linear_mixers.hpp"

namespace moeplan {

namespace {
// KDA keeps its state in fp32 (the rest: k_decode_state_element_bytes, bf16).
constexpr double k_fp32_bytes = 4;
}  // namespace

LinearMixer gated_deltanet_mixer(int hidden_size, int num_key_heads, int num_value_heads,
                                 int key_head_dim, int value_head_dim, int conv_kernel) {
  // Qwen3NextGatedDeltaNet.__init__ (transformers modeling_qwen3_next.py).
  const double d = hidden_size;
  const double nk = num_key_heads, nv = num_value_heads;
  const double dk = key_head_dim, dv = value_head_dim;
  const double key_dim = nk * dk;                 // self.key_dim = head_k_dim * num_k_heads
  const double value_dim = nv * dv;               // self.value_dim = head_v_dim * num_v_heads
  const double conv_dim = 2.0 * key_dim + value_dim;  // self.conv_dim: q, k and v are convolved
  LinearMixer x;
  x.kind = "gated_deltanet";
  x.matrix_params = d * (2.0 * key_dim + 2.0 * value_dim)  // in_proj_qkvz: q, k, v and the output gate z
                    + d * 2.0 * nv                          // in_proj_ba: beta and the decay input a, per value head
                    + value_dim * d;                        // out_proj
  x.other_params = conv_dim * conv_kernel  // conv1d: depthwise (groups=conv_dim), bias=False
                   + nv                    // dt_bias = nn.Parameter(torch.ones(num_v_heads))
                   + nv                    // A_log = nn.Parameter(log(A)), A of num_v_heads
                   + dv;                   // norm = Qwen3NextRMSNormGated(head_v_dim): one weight of dv
  // Forward FLOPs per token (moeplan's convention, file comment), from the gated delta rule
  // S_t = S_{t-1} · α_t (I − β_t k_t k_tᵀ) + β_t v_t k_tᵀ, o_t = S_t q_t (Yang, Kautz,
  // Hatamizadeh, "Gated Delta Networks", arXiv:2412.06464, Eq. 10) as
  // torch_recurrent_gated_delta_rule in modeling_qwen3_next.py computes it; q and k are
  // repeated from nk to nv heads, each value head holds a dk x dv state:
  //   causal depthwise conv1d              2·K·conv_dim
  //   per value head:  S *= exp(g)         dk·dv
  //                    kv_mem = Sᵀk        2·dk·dv
  //                    δ = (v − kv_mem)·β  2·dv
  //                    S += k ⊗ δ          2·dk·dv
  //                    o = Sᵀq             2·dk·dv
  // = 2·K·conv_dim + nv·(7·dk·dv + 2·dv).
  x.state_flops = 2.0 * conv_kernel * conv_dim + nv * (7.0 * dk * dv + 2.0 * dv);
  // Decode cache (vLLM gated_delta_net_state_shape): conv (K - 1) x conv_dim, state nv x dv x dk.
  x.decode_state_bytes = k_decode_state_element_bytes * ((conv_kernel - 1.0) * conv_dim + nv * dv * dk);
  x.source = fmt::format(
      "gated DeltaNet (Qwen3NextGatedDeltaNet, transformers modeling_qwen3_next.py): "
      "{} key / {} value heads of {} / {}, conv kernel {}; state FLOPs: recurrent form of "
      "arXiv:2412.06464 (moeplan's convention)",
      num_key_heads, num_value_heads, key_head_dim, value_head_dim, conv_kernel);
  return x;
}

LinearMixer lightning_attention_mixer(int hidden_size, int num_heads, int head_dim) {
  // MiniMaxLightningAttention.__init__ (transformers modeling_minimax.py; the checkpoint's
  // MiniMaxText01LightningAttention builds the same tensors). slope_rate and the decay
  // tables are buffers, not parameters.
  const double d = hidden_size;
  const double h = num_heads, hd = head_dim;
  LinearMixer x;
  x.kind = "lightning";
  x.matrix_params = d * 3.0 * h * hd  // qkv_proj: nn.Linear(d, 3·heads·head_dim, bias=False)
                    + h * hd * d      // out_proj: nn.Linear(heads·head_dim, d, bias=False)
                    + d * h * hd;     // output_gate: nn.Linear(d, heads·head_dim, bias=False)
  x.other_params = h * hd;            // norm = MiniMaxRMSNorm(head_dim · heads)
  // Forward FLOPs per token (moeplan's convention, file comment), from lightning attention's
  // recurrence kv_t = λ·kv_{t-1} + k_tᵀ v_t, o_t = q_t kv_t (Qin et al., "Lightning
  // Attention-2", arXiv:2401.04658, Sec. 3; MiniMax-01 report arXiv:2501.08313, Sec. 2.2),
  // as the decode branch of MiniMaxLightningAttention.forward computes it; per head a
  // head_dim x head_dim state:
  //   λ·kv                        hd²
  //   kᵀv and the sum             2·hd²
  //   o = q·kv                    2·hd²
  // = heads·5·hd² (no convolution).
  x.state_flops = h * 5.0 * hd * hd;
  // Decode cache (vLLM linear_attention_state_shape): heads x hd x hd, no convolution.
  x.decode_state_bytes = k_decode_state_element_bytes * h * hd * hd;
  x.source = fmt::format(
      "lightning attention (MiniMaxLightningAttention, transformers modeling_minimax.py): {} "
      "heads of {}; state FLOPs: recurrent form of arXiv:2401.04658 (moeplan's convention)",
      num_heads, head_dim);
  return x;
}

LinearMixer kda_mixer(int hidden_size, int num_heads, int head_dim, int conv_kernel) {
  // KimiDeltaAttention.__init__ (modeling_kimi.py, the remote code of
  // moonshotai/Kimi-Linear-48B-A3B-*): keys and values have head_dim each, so
  // projection_k_size = projection_size = heads·head_dim.
  const double d = hidden_size;
  const double h = num_heads, hd = head_dim;
  const double p = h * hd;  // projection_size
  LinearMixer x;
  x.kind = "kda";
  x.matrix_params = 3.0 * d * p      // q_proj, k_proj, v_proj: nn.Linear(d, projection_size, bias=False)
                    + d * hd + hd * p  // f_a_proj (d -> head_dim), f_b_proj (head_dim -> projection_size): forget gate
                    + d * hd + hd * p  // g_a_proj, g_b_proj: the output gate, the same low rank
                    + d * h            // b_proj: nn.Linear(d, heads, bias=False), beta
                    + p * d;           // o_proj: nn.Linear(projection_size, d, bias=False)
  x.other_params = 3.0 * p * conv_kernel  // q_conv1d, k_conv1d, v_conv1d: fla ShortConvolution, depthwise, bias=False
                   + h                    // A_log: nn.Parameter of shape (1, 1, heads, 1)
                   + p                    // dt_bias: nn.Parameter(torch.empty(projection_size))
                   + hd;                  // o_norm = FusedRMSNormGated(head_dim): one weight shared by the heads
  // Forward FLOPs per token (moeplan's convention, file comment), from KDA's recurrence
  // S_t = (I − β_t k_t k_tᵀ) Diag(α_t) S_{t-1} + β_t k_t v_tᵀ, o_t = S_tᵀ q_t (Kimi Linear
  // report, arXiv:2510.26692, Sec. 3, Eq. 1), as fla's fused_recurrent_kda computes it; per
  // head a head_dim x head_dim state:
  //   three causal depthwise convs        2·K·3·projection_size
  //   per head:  Diag(exp g)·S            hd²
  //              kᵀS                      2·hd²
  //              δ = β(v − kᵀS)           2·hd
  //              S += k ⊗ δ               2·hd²
  //              o = Sᵀq                  2·hd²
  // = 6·K·projection_size + heads·(7·hd² + 2·hd).
  x.state_flops = 2.0 * conv_kernel * 3.0 * p + h * (7.0 * hd * hd + 2.0 * hd);
  // Decode cache (vLLM kda_state_shape / kda_state_dtype): conv (K - 1) x 3 p in the model's
  // dtype, recurrent state heads x hd x hd in fp32.
  x.decode_state_bytes = k_decode_state_element_bytes * (conv_kernel - 1.0) * 3.0 * p + k_fp32_bytes * h * hd * hd;
  x.source = fmt::format(
      "Kimi Delta Attention (KimiDeltaAttention, remote modeling_kimi.py): {} heads of {}, "
      "short conv kernel {}, low-rank ({}) forget and output gates; state FLOPs: recurrent "
      "form of arXiv:2510.26692 (moeplan's convention)",
      num_heads, head_dim, conv_kernel, head_dim);
  return x;
}

}  // namespace moeplan
