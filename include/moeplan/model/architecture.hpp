#pragma once
/// The MoE architecture family of paper 002 (Table 1, Sec. 3.4) and its exact
/// accounting: FLOPs per token M, active parameters N_a, total parameters N
/// (Eq. 3 and Appendix A, Eq. 6–12) and the compute shares r_a, r_d, r_m (Eq. 4).
#include <cstdint>

#include "moeplan/base/units.hpp"

namespace moeplan {

/// Attention shape: N_q query heads, N_kv key/value heads (GQA), head size d_qkv.
struct AttentionHeads {
  int n_q = 0;
  int n_kv = 0;
  int d_qkv = 0;
  bool operator==(const AttentionHeads&) const = default;
};

/// Everything of a model that does not change with the layer solve: the settings
/// paper 002 Sec. 4.2.2 fixes by engineering choice. No values of its own: the paper's are
/// declared once, with their source, in the laws preset's [architecture] table
/// (presets/laws/holistic.toml, read into HolisticLaws::family_defaults), and a scored
/// config brings its own (paper002_family).
struct ArchitectureFamily {
  AttentionHeads heads;
  int seq_len = 0;             ///< S, training context length (tokens)
  int n_experts = 0;           ///< N_e, routed experts per MoE layer
  int top_k = 0;               ///< K, routed experts activated per token
  int n_shared_experts = 0;    ///< shared experts per MoE layer (width d_m, Eq. 9)
  double dense_ffn_ratio = 0;  ///< γ in d_d = γ·d (Appendix A "Discussion")
  int vocab_size = 0;          ///< V; embeddings are excluded from N_a and N (Table 1)
};

/// One concrete model: the family plus the four integers the layer solve picks.
struct MoeArchitecture {
  ArchitectureFamily family;
  int d = 0;     ///< hidden size
  int L_d = 0;   ///< dense (FFN) layers
  int L_m = 0;   ///< MoE layers
  int d_d = 0;   ///< dense FFN intermediate size
  int d_m = 0;   ///< expert (and shared-expert) intermediate size
  [[nodiscard]] int layers() const { return L_d + L_m; }  ///< L = L_d + L_m
};

/// What the paper's equations say about one architecture.
struct Accounting {
  FlopsPerToken M;            ///< training FLOPs per token (forward + backward; C = M·D), Eq. 12: 6·N_a + M_attn
  FlopsPerToken M_attention_scores;  ///< Eq. 11: 6·S·N_q·d_qkv·L
  Params N_a;                 ///< active non-embedding parameters, Eq. 10
  Params N;                   ///< total non-embedding parameters, Eq. 3
  Params embedding;           ///< 2·V·d: input embedding + untied output head (not in N_a, N)
  double r_a = 0;             ///< attention share of M (projections + scores), Eq. 4
  double r_d = 0;             ///< dense-FFN share of M
  double r_m = 0;             ///< MoE share of M (routed + shared experts)
  [[nodiscard]] double m_over_na() const { return M / N_a; }       ///< Eq. 5
  [[nodiscard]] double n_over_na() const { return N.value() / N_a.value(); }  ///< Eq. 5
};

/// Parameters of one attention layer, Eq. 6: 2·d·d_qkv·(N_q + N_kv).
double attention_params_per_layer(const AttentionHeads& h, double d);

/// Exact accounting of Eq. 3 / Appendix A for a concrete architecture.
Accounting account(const MoeArchitecture& arch);

/// What one layer of each kind adds to N, N_a and M at hidden size d and dense width d_d,
/// read from the model's own per-layer count (layer_params, flops_per_token) of a family
/// member: the layer solve's affine form of Eq. 3 in d_m, so it cannot drift from the count.
struct FamilyLayerTerms {
  double attention = 0;          ///< Eq. 6: one layer's attention weights
  double dense_ffn = 0;          ///< Eq. 8: one dense layer's FFN weights
  double moe_active_per_dm = 0;  ///< Eq. 9-10: the (K + s) experts a token uses, per unit of d_m
  double moe_total_per_dm = 0;   ///< Eq. 9: all N_e routed and s shared experts, per unit of d_m
};
FamilyLayerTerms family_layer_terms(const ArchitectureFamily& f, int d, int d_d);

/// Eq. 11 per layer, 6·S·N_q·d_qkv: the attention-score FLOPs per token of one layer, from
/// the holistic-002 FLOP count (flops_per_token) of a one-layer family member.
double attention_score_flops_per_layer(const ArchitectureFamily& f);

/// Upper bound of N/N_a for a family: every active parameter in MoE layers gives
/// (N_e + shared)/(K + shared); paper 002 Eq. 5 with one shared expert: (N_e+1)/(K+1).
double max_n_over_na(const ArchitectureFamily& f);

}  // namespace moeplan
