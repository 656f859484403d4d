#pragma once
/// A concrete model as people write it down: HuggingFace config.json field names for
/// MoE models (DeepSeek-V3 conventions) plus training fields. `moeplan score` reads these
/// from TOML (docs/model-schema.md); the candidates of `suggest` are converted to it.
#include <optional>
#include <string>

#include "moeplan/units.hpp"

namespace moeplan {

/// Multi-head latent attention (DeepSeek-V2/V3, Kimi-K2).
struct LatentAttention {
  int q_lora_rank = 0;  ///< 0: full-rank query projection
  int kv_lora_rank = 0;
  int qk_nope_head_dim = 0;
  int qk_rope_head_dim = 0;
  int v_head_dim = 0;
};

struct TrainingSetup {
  std::optional<Tokens> tokens;         ///< D; with compute given instead, D = C/M (002)
  std::optional<Flops> compute;         ///< C
  int seq_len = 4096;                   ///< S
  std::optional<Tokens> unique_tokens;  ///< D̂ for data reuse (paper 003 Sec. 6)
};

/// Officially stated sizes, to check the counting against.
struct StatedSizes {
  std::optional<Params> total;
  std::optional<Params> active;
  bool includes_embeddings = true;
};

/// What is wrong with a config: the dotted key (e.g. "model.num_experts_per_tok") and why.
struct ConfigProblem {
  std::string key;
  std::string reason;
};

struct ModelConfig {
  std::string name;
  std::string description;
  std::string source;  ///< where the numbers come from (config.json URL, paper table)

  int hidden_size = 0;
  int num_hidden_layers = 0;
  int first_k_dense_replace = 0;  ///< leading dense-FFN layers
  int intermediate_size = 0;      ///< dense FFN width
  int moe_intermediate_size = 0;  ///< one routed expert's width
  int n_routed_experts = 0;       ///< 0: dense model
  int num_experts_per_tok = 0;    ///< K
  int n_shared_experts = 0;
  int shared_expert_intermediate_size = 0;  ///< one shared expert's width; 0: = moe width
  int num_attention_heads = 0;
  int num_key_value_heads = 0;
  int head_dim = 0;  ///< 0: hidden_size / num_attention_heads
  std::optional<LatentAttention> latent_attention;
  int vocab_size = 0;
  bool tie_word_embeddings = false;
  std::optional<TrainingSetup> training;
  std::optional<StatedSizes> stated;

  [[nodiscard]] bool is_moe() const { return n_routed_experts > 0; }
  [[nodiscard]] int dense_layers() const;
  [[nodiscard]] int moe_layers() const { return num_hidden_layers - dense_layers(); }
  [[nodiscard]] int head_size() const;
  [[nodiscard]] int shared_width() const;
  /// Validates ranges and cross-field rules; the first problem, or nullopt.
  [[nodiscard]] std::optional<ConfigProblem> problem() const;
};

/// Exact parameter counts (SwiGLU FFNs with 3·d·width weights; routers, norms and biases
/// excluded — each under 0.1 % of N for every preset).
struct ParameterCounts {
  Params attention;       ///< all layers
  Params dense_ffn;       ///< all dense layers
  Params routed_total;    ///< all routed experts of all MoE layers
  Params routed_active;   ///< K routed experts per MoE layer
  Params shared;          ///< shared experts of all MoE layers
  Params embedding;       ///< input embedding + output head (once if tied)
  Params N;               ///< total, non-embedding
  Params N_a;             ///< active, non-embedding
  [[nodiscard]] Params N_with_embedding() const { return N + embedding; }
  [[nodiscard]] Params N_a_with_embedding() const { return N_a + embedding; }
};

/// Attention weights of one layer (GQA or MLA).
double attention_params_per_layer(const ModelConfig& m);
ParameterCounts count_parameters(const ModelConfig& m);

}  // namespace moeplan
