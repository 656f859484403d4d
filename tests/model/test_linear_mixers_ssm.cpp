// src/model/linear_mixers_ssm.cpp: Mamba, Mamba2 and LFM2's short convolution, one layer each,
// counted by hand from the modeling code's tensors (the shapes are written out per case).
#include <doctest/doctest.h>

#include "moeplan/model/linear_mixers.hpp"

using namespace moeplan;

TEST_CASE("mamba2 mixer: mamba2-130m's layer (d_model 768, 24 heads of 64, 1 group, d_state 128, d_conv 4)") {
  const LinearMixer x = mamba2_mixer({.hidden_size = 768, .n_heads = 24, .head_dim = 64, .n_groups = 1,
                                      .d_state = 128, .d_conv = 4, .conv_bias = true, .proj_bias = false});
  CHECK(x.kind == "mamba2");
  // I = 24 x 64 = 1536; conv_dim = I + 2 G N = 1792; in_proj 768 x (1536 + 1792 + 24 = 3352)
  // = 2,574,336; out_proj 1536 x 768 = 1,179,648.
  CHECK(x.matrix_params == 2574336.0 + 1179648.0);
  // conv1d weight 1792 x 4 = 7168 and bias 1792, dt_bias, A_log, D 24 each, norm 1536.
  CHECK(x.other_params == 7168.0 + 1792 + 72 + 1536);
  // 6 I N = 1,179,648, 3 I = 4608, 2 conv_dim K = 14,336.
  CHECK(x.state_flops == 1198592.0);
  // bf16: conv 3 x 1792 = 5376 and state 1536 x 128 = 196,608 elements, 2 bytes each.
  CHECK(x.decode_state_bytes == 2.0 * (5376 + 196608));
}

TEST_CASE("mamba mixer: a small Jamba layer counted tensor by tensor") {
  // H 4, I 8, N 2, K 3, R 1: in_proj 4 x 16 = 64, x_proj 8 x (1 + 4) = 40, dt_proj 1 x 8 = 8,
  // out_proj 8 x 4 = 32.
  const LinearMixer x = mamba_mixer({.hidden_size = 4, .d_inner = 8, .d_state = 2, .d_conv = 3, .dt_rank = 1});
  CHECK(x.kind == "mamba");
  CHECK(x.matrix_params == 144.0);
  // conv 8 x 3 = 24, conv bias 8, dt bias 8, A_log 8 x 2 = 16, D 8, norms 1 + 2 + 2 = 5.
  CHECK(x.other_params == 69.0);
  // 7 I N = 112, 3 I = 24, 2 I K = 48.
  CHECK(x.state_flops == 184.0);
  // conv 2 x 8 = 16 and state 8 x 2 = 16 elements of 2 bytes.
  CHECK(x.decode_state_bytes == 64.0);
  // Biases on the projections add 2I (in_proj) + H (out_proj) = 20.
  const LinearMixer b =
      mamba_mixer({.hidden_size = 4, .d_inner = 8, .d_state = 2, .d_conv = 3, .dt_rank = 1, .proj_bias = true});
  CHECK(b.other_params == 89.0);
}

TEST_CASE("short conv mixer: LFM2's gated convolution of H 4 and 3 taps") {
  const LinearMixer x = short_conv_mixer(4, 3, false);
  CHECK(x.kind == "short_conv");
  CHECK(x.matrix_params == 4.0 * 12 + 16);  // in_proj 4 -> 12, out_proj 4 -> 4
  CHECK(x.other_params == 12.0);            // depthwise conv 4 channels x 3 taps
  CHECK(x.state_flops == 2.0 * 4 * 3 + 8);  // the conv 2HL, the gates B*x and C*conv 2H
  CHECK(x.decode_state_bytes == 2.0 * 2 * 4);
  CHECK(short_conv_mixer(4, 3, true).other_params == 12.0 + 4 + 12 + 4);  // conv, in, out biases
}
