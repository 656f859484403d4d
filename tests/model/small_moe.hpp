// The small MoE the model, FLOPs and Megatron-check tests count by hand: d 512, 8 layers (the
// first 2 dense of width 1536), 16 routed experts of 128, top-2, one shared expert, 8 query and
// 2 key-value heads of 64, a vocabulary of 1,000. One definition, so the hand counts in each
// test file are of the same model.
#pragma once

#include "moeplan/model/model_config.hpp"

namespace moeplan::test {

inline ModelConfig small_moe() {
  ModelConfig m;
  m.hidden_size = 512;
  m.num_hidden_layers = 8;
  m.first_k_dense_replace = 2;
  m.intermediate_size = 1536;
  m.moe_intermediate_size = 128;
  m.n_routed_experts = 16;
  m.num_experts_per_tok = 2;
  m.n_shared_experts = 1;
  m.num_attention_heads = 8;
  m.num_key_value_heads = 2;
  m.head_dim = 64;
  m.vocab_size = 1000;
  return m;
}

}  // namespace moeplan::test
