// ModelConfig directly: the layer layout (leading dense layers, Llama 4's interleaving),
// paper 002's N and N_a (Eq. 3), what is counted beside N, and the validation rules.
#include <doctest/doctest.h>

#include "moeplan/model/model_config.hpp"

#include "model/small_moe.hpp"

using namespace moeplan;

namespace {

ModelConfig small_moe() { return test::small_moe(); }

}  // namespace

TEST_CASE("N and N_a of paper 002 Eq. 3, by hand") {
  const ModelConfig m = small_moe();
  const ParameterCounts p = count_parameters(m);
  const double d = 512, L = 8, Ld = 2, Lm = 6;
  const double attention = 2 * d * (8 * 64) + 2 * d * (2 * 64);  // Q, O and K, V (GQA)
  const double expert = 3 * d * 128;                               // SwiGLU: 3·d·width
  CHECK(p.attention.value() == attention * L);
  CHECK(p.dense_ffn.value() == 3 * d * 1536 * Ld);
  CHECK(p.N.value() == attention * L + 3 * d * 1536 * Ld + expert * (16 + 1) * Lm);
  CHECK(p.N_a.value() == attention * L + 3 * d * 1536 * Ld + expert * (2 + 1) * Lm);
  CHECK(p.embedding.value() == 2 * 1000 * d);  // untied: input embedding and output head
}

TEST_CASE("beside N: routers, norms, and the switches of BuiltExtras") {
  ModelConfig m = small_moe();
  const double d = 512, L = 8, Lm = 6;
  BesideN b = count_beside_n(m);
  CHECK(b.routers.value() == Lm * 16 * d);
  CHECK(b.norms.value() == L * 2 * d + d);
  CHECK(b.biases.value() == 0);
  CHECK(b.total.value() == b.active.value());
  m.extras.qkv_bias = true;
  m.extras.expert_bias = true;
  m.extras.qk_norm = QkNorm::per_head;
  b = count_beside_n(m);
  CHECK(b.norms.value() == L * 2 * d + d + L * 2 * 64);
  const double one_expert_bias = 2 * 128 + d;
  CHECK(b.biases.value() == L * (8 + 2 * 2) * 64 + Lm * 16 * one_expert_bias);
  CHECK(b.total.value() - b.active.value() == Lm * (16 - 2) * one_expert_bias);  // K of N_e used
}

TEST_CASE("MTP modules: counted beside the model, by hand, and outside N, N_a and the as-built total") {
  ModelConfig m = small_moe();
  m.extras.qkv_bias = true;  // the module's layer builds what the model's layers build
  const ParameterCounts before = count_parameters(m);
  const BesideN beside_before = count_beside_n(m);
  CHECK(count_mtp(m).modules.value() == 0);
  CHECK(count_mtp(m).stored_copies.value() == 0);
  m.extras.num_nextn_predict_layers = 2;
  const double d = 512, E = 16;
  // DeepSeek-V3's module: enorm + hnorm, eh_proj (2d -> d), one MoE decoder layer (attention,
  // routed + shared experts, router, its two norms, q/k/v biases), the final norm.
  const double attention = 2 * d * (8 * 64) + 2 * d * (2 * 64);
  const double moe = 3 * d * 128 * (16 + 1);
  const double layer = attention + moe + E * d + 2 * d + (8 + 2 * 2) * 64;
  const double one = 2 * d + 2 * d * d + layer + d;
  const MtpCounts mtp = count_mtp(m);
  CHECK(mtp.modules.value() == 2 * one);
  CHECK(mtp.stored_copies.value() == 2 * (2 * 1000 * d));  // embedding and head, per module
  const ParameterCounts after = count_parameters(m);
  CHECK(after.N == before.N);
  CHECK(after.N_a == before.N_a);
  CHECK(count_beside_n(m).total == beside_before.total);
  m.extras.num_nextn_predict_layers = -1;
  REQUIRE(m.problem().has_value());
  CHECK(m.problem()->key == "model.num_nextn_predict_layers");
}

TEST_CASE("moe_layer_interval: every k-th layer after the leading dense ones is MoE") {
  ModelConfig m = small_moe();
  m.first_k_dense_replace = 0;
  m.moe_layer_interval = 2;  // Llama 4 Maverick: layers 1, 3, 5, 7
  CHECK(m.moe_layers() == 4);
  CHECK(m.dense_layers() == 4);
  m.moe_layer_interval = 3;  // layers 2, 5
  CHECK(m.moe_layers() == 2);
  m.first_k_dense_replace = 2;  // layers 4, 7
  CHECK(m.moe_layers() == 2);
  CHECK(!m.problem().has_value());
}

TEST_CASE("problem(): kv heads must divide the query heads, K at most N_e") {
  ModelConfig m = small_moe();
  CHECK(!m.problem().has_value());
  m.num_key_value_heads = 3;
  REQUIRE(m.problem().has_value());
  CHECK(m.problem()->key == "model.num_key_value_heads");
  m = small_moe();
  m.num_experts_per_tok = 17;
  REQUIRE(m.problem().has_value());
  CHECK(m.problem()->key == "model.num_experts_per_tok");
}
