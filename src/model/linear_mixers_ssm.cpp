// State-space and convolution mixers (Mamba, Mamba2, short convolutions), one layer each.
//
// state_flops is moeplan's convention (the papers' laws count no such mixer): the forward
// FLOPs per token of the sequence mixing beyond the projection matrices (which 2 x
// matrix_params already counts). Every multiply and every add of the recurrence, its
// readout, the depthwise convolution, the D skip and the output gate counts one FLOP;
// nonlinearities (exp, softplus, SiLU), normalisations and per-head scalar work (dt * A per
// head in Mamba2) are not counted. It is the recurrent (decode) form of each mixer; the
// chunked scans used in training compute the same recurrence with O(chunk) more work per
// token inside a chunk, which moeplan does not count.
#include "moeplan/model/linear_mixers.hpp"

#include <fmt/format.h>

namespace moeplan {

LinearMixer mamba_mixer(const MambaShape& s) {
  // transformers modeling_jamba.py, JambaMambaMixer.__init__ (I = d_inner, N = d_state,
  // R = dt_rank, K = d_conv).
  const double H = s.hidden_size, I = s.d_inner, N = s.d_state, R = s.dt_rank, K = s.d_conv;
  LinearMixer x;
  x.kind = "mamba";
  x.matrix_params = H * 2.0 * I      // in_proj: Linear(H, 2I) -> x and the gate z
                    + I * (R + 2 * N)  // x_proj: Linear(I, R + 2N) -> dt, B, C (no bias)
                    + R * I            // dt_proj: Linear(R, I) weight
                    + I * H;           // out_proj: Linear(I, H)
  x.other_params = I * K                              // conv1d: depthwise Conv1d(I, I, K, groups=I) weight
                   + (s.conv_bias ? I : 0.0)          // conv1d bias (mamba_conv_bias)
                   + I                                // dt_proj bias (always: bias=True)
                   + I * N                            // A_log [I, N]
                   + I                                // D [I]
                   + (s.proj_bias ? 2.0 * I + H : 0)  // in_proj, out_proj biases (mamba_proj_bias)
                   + (s.inner_norms ? R + 2 * N : 0);  // dt_layernorm [R], b_layernorm [N], c_layernorm [N]
  // Per token, forward (JambaMambaMixer.slow_forward, the selective scan of Gu & Dao, "Mamba:
  // Linear-Time Sequence Modeling with Selective State Spaces", arXiv:2312.00752, Alg. 2 and
  // Sec. 3.3, recurrent mode O(I N) per token):
  //   discrete_A = exp(A * dt)          I N  (the multiply; exp not counted)
  //   discrete_B = dt * B               I N
  //   deltaB_u   = discrete_B * x       I N
  //   state      = dA * state + dBu     2 I N
  //   y          = state @ C            2 I N
  //   y + x * D                         2 I
  //   y * silu(z)                       I
  //   causal depthwise conv over x      2 I K
  // = 7 I N + 3 I + 2 I K.
  x.state_flops = 7.0 * I * N + 3.0 * I + 2.0 * I * K;
  // Decode cache (vLLM mamba1_state_shape): conv (K - 1) x I, ssm state I x N.
  x.decode_state_bytes = k_decode_state_element_bytes * ((K - 1) * I + I * N);
  x.source = fmt::format("Mamba (v1), transformers JambaMambaMixer: d_inner {}, d_state {}, d_conv {}, dt_rank {}",
                         s.d_inner, s.d_state, s.d_conv, s.dt_rank);
  return x;
}

LinearMixer mamba2_mixer(const Mamba2Shape& s) {
  // transformers modeling_bamba.py BambaMixer.__init__ (Granite 4.0's
  // GraniteMoeHybridMambaLayer) and modeling_nemotron_h.py NemotronHMamba2Mixer (from
  // Zamba2MambaMixer): the same tensors. I = n_heads * head_dim, conv_dim = I + 2 G N.
  const double H = s.hidden_size, nh = s.n_heads, I = double(s.n_heads) * s.head_dim, N = s.d_state,
               G = s.n_groups, K = s.d_conv;
  const double conv_dim = I + 2.0 * G * N;
  const double projection = I + conv_dim + nh;  // z (gate), xBC, dt
  LinearMixer x;
  x.kind = "mamba2";
  x.matrix_params = H * projection  // in_proj: Linear(H, I + conv_dim + n_heads)
                    + I * H;        // out_proj: Linear(I, H)
  x.other_params = conv_dim * K                                 // conv1d: depthwise Conv1d(conv_dim, K) weight
                   + (s.conv_bias ? conv_dim : 0.0)             // conv1d bias
                   + 3.0 * nh                                   // dt_bias, A_log, D: [n_heads] each
                   + I                                          // norm: gated RMSNorm weight [I]
                   + (s.proj_bias ? projection + H : 0.0);      // in_proj, out_proj biases
  // Per token, forward (the recurrent form of SSD in the HF reference torch_forward, cached
  // branch; Dao & Gu, "Transformers are SSMs", arXiv:2405.21060, Sec. 6: O(I N) per step):
  //   dB   = dt * B                      I N
  //   dBx  = dB * x                      I N
  //   state = state * dA + dBx           2 I N
  //   y    = state @ C                   2 I N
  //   y + x * D                          2 I
  //   y * silu(z) (gated RMSNorm)        I
  //   causal depthwise conv over xBC     2 conv_dim K
  // = 6 I N + 3 I + 2 conv_dim K.
  x.state_flops = 6.0 * I * N + 3.0 * I + 2.0 * conv_dim * K;
  // Decode cache (vLLM mamba2_state_shape, one GPU): conv (K - 1) x (I + 2 G N), ssm state
  // n_heads x head_dim x N.
  x.decode_state_bytes = k_decode_state_element_bytes * ((K - 1) * conv_dim + I * N);
  x.source = fmt::format("Mamba2 (SSD): {} heads of {}, {} groups, d_state {}, d_conv {}", s.n_heads,
                         s.head_dim, s.n_groups, s.d_state, s.d_conv);
  return x;
}

LinearMixer short_conv_mixer(int hidden_size, int l_cache, bool bias) {
  // transformers modeling_lfm2_moe.py, Lfm2MoeShortConv.__init__ (L = conv_L_cache).
  const double H = hidden_size, L = l_cache;
  LinearMixer x;
  x.kind = "short_conv";
  x.matrix_params = H * 3.0 * H  // in_proj: Linear(H, 3H) -> B, C, x
                    + H * H;     // out_proj: Linear(H, H)
  x.other_params = H * L                                // conv: depthwise Conv1d(H, H, L, groups=H) weight
                   + (bias ? H + 3.0 * H + H : 0.0);    // conv, in_proj, out_proj biases (conv_bias)
  // Per token, forward (Lfm2MoeShortConv.slow_forward; the "gated short convolution" of the
  // LFM2 Technical Report, arXiv:2511.23404):
  //   Bx = B * x                        H
  //   conv_out = depthwise conv (L taps) 2 H L
  //   y = C * conv_out                  H
  // = 2 H L + 2 H.
  x.state_flops = 2.0 * H * L + 2.0 * H;
  // Decode cache (vLLM short_conv_state_shape with conv_dim = H): (L - 1) x H.
  x.decode_state_bytes = k_decode_state_element_bytes * (L - 1) * H;
  x.source = fmt::format("LFM2 gated short convolution: {} taps over {} channels", l_cache, hidden_size);
  return x;
}

}  // namespace moeplan
