// src/model/linear_mixers_linear_attention.cpp: gated DeltaNet, lightning attention and KDA,
// one layer each, on their models' published config.json shapes, counted by hand.
#include <doctest/doctest.h>

#include "moeplan/model/linear_mixers.hpp"

using namespace moeplan;

TEST_CASE("gated DeltaNet: Qwen3-Next-80B-A3B's layer (d 2048, 16 key / 32 value heads of 128, conv 4)") {
  const LinearMixer x = gated_deltanet_mixer(2048, 16, 32, 128, 128, 4);
  CHECK(x.kind == "gated_deltanet");
  // key_dim 2048, value_dim 4096: in_proj_qkvz 2048 x 12288 = 25,165,824, in_proj_ba
  // 2048 x 64 = 131,072, out_proj 4096 x 2048 = 8,388,608.
  CHECK(x.matrix_params == 33685504.0);
  // conv_dim 2 x 2048 + 4096 = 8192: conv 8192 x 4 = 32,768; dt_bias 32, A_log 32, norm 128.
  CHECK(x.other_params == 32960.0);
  // conv 2 x 4 x 8192 = 65,536; per value head 7 x 128^2 + 2 x 128 = 114,944, x 32 = 3,678,208.
  CHECK(x.state_flops == 3743744.0);
  // (3 x 8192 + 32 x 128 x 128) bf16 elements.
  CHECK(x.decode_state_bytes == 2.0 * (24576 + 524288));
}

TEST_CASE("lightning attention: MiniMax-Text-01's layer (d 6144, 64 heads of 128)") {
  const LinearMixer x = lightning_attention_mixer(6144, 64, 128);
  CHECK(x.kind == "lightning");
  // qkv 6144 x 24576 = 150,994,944; out_proj and output_gate 8192 x 6144 = 50,331,648 each.
  CHECK(x.matrix_params == 251658240.0);
  CHECK(x.other_params == 8192.0);                 // the RMSNorm over 64 x 128
  CHECK(x.state_flops == 64.0 * 5 * 128 * 128);    // 5 hd^2 per head
  CHECK(x.decode_state_bytes == 2.0 * 64 * 128 * 128);
}

TEST_CASE("KDA: Kimi-Linear-48B-A3B's layer (d 2304, 32 heads of 128, conv 4), its state in fp32") {
  const LinearMixer x = kda_mixer(2304, 32, 128, 4);
  CHECK(x.kind == "kda");
  // p = 4096: q, k, v 3 x 2304 x 4096 = 28,311,552; f and g gates 2 x (2304 x 128 + 128 x 4096)
  // = 1,638,400; b_proj 2304 x 32 = 73,728; o_proj 4096 x 2304 = 9,437,184.
  CHECK(x.matrix_params == 39460864.0);
  // three convs 3 x 4096 x 4 = 49,152; A_log 32; dt_bias 4096; o_norm 128.
  CHECK(x.other_params == 53408.0);
  // convs 2 x 4 x 3 x 4096 = 98,304; per head 7 x 128^2 + 2 x 128 = 114,944, x 32.
  CHECK(x.state_flops == 3776512.0);
  // conv 3 x 12288 bf16 elements (73,728 bytes), state 32 x 128 x 128 fp32 (2,097,152 bytes).
  CHECK(x.decode_state_bytes == 2170880.0);
}
