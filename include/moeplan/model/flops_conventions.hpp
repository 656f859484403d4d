#pragma once
/// Each paper counts FLOPs per token differently. moeplan implements each one literally
/// and says which one every number used. All values are *training* FLOPs per token
/// (forward + backward) and exclude the output logits unless the convention says so.
///
///   holistic-002 (default)  paper 002 App. A, Eq. 11–12: M = 6·N_a + 3·S·N_q·(d_qk + d_v)·L
///                           (= 6·N_a + 6·S·N_q·d_qkv·L for standard attention).
///   leverage-000            paper 000 App. I, Eq. 10–12, ×3: attention 2d·q(1 + 2·N_kv/N_q)
///                           + 4·S·d per layer (as printed: no output projection), dense FFN
///                           6·d·d_ffn, MoE 6·d·K·d_expert + 4·d·d_shared; logits excluded
///                           (paper 000 Sec. 2.1 defines M without embeddings).
///   moe-vs-dense-003        paper 003 Eq. 2/6, ×3: 3·(2·N_a + 4·d·S·L).
///   allocation-004          paper 004 App. C, ×3 (factor 3 as in C.4): attention Q 2dq,
///                           KV 4dq·N_kv/N_q, scores 2·S·d, "value" 2dq, output 2dq; experts
///                           2·d·E (router) + 6·d·d_expert·(K + shared). r = C_E/C_A.
/// For MLA models the projection terms use the actual projection weights (2 FLOPs each).
/// Beyond the papers (docs/hybrid-layers.md): layers are summed one by one; a non-softmax
/// mixer counts as token mixing (with attention) at 3·(2·weights + its own state FLOPs);
/// an indexer's q·k adds 3·S·n·h per layer and shortens S to 2·topk − topk²/S; DeepSeek-V4's
/// layers score their window and the entries pooled 1 per m tokens (S/m, CSA's at most topk:
/// 2·topk − topk²·m/S), its indexer adding 3·(S/m)·n·h; ungated FFNs count 2 matrices, not 3.
#include <string_view>

#include "moeplan/model/model_config.hpp"
#include "moeplan/base/units.hpp"

namespace moeplan {

enum class FlopsConvention { holistic_002, leverage_000, moe_vs_dense_003, allocation_004 };
std::string_view to_string(FlopsConvention c);

struct FlopsBreakdown {
  FlopsConvention convention = FlopsConvention::holistic_002;
  double attention = 0;  ///< token mixing: attention projections + scores, linear mixers (training)
  double linear_mixers = 0;  ///< the non-softmax mixers' part of `attention` (3 x forward)
  double experts = 0;    ///< routed + shared experts (+ router where counted)
  double dense_ffn = 0;  ///< dense FFN layers
  [[nodiscard]] FlopsPerToken M() const { return FlopsPerToken(attention + experts + dense_ffn); }
  /// Attention share of M (paper 000 App. F.4's "attention FLOPs ratio").
  [[nodiscard]] double attention_share() const { return attention / M().value(); }
  /// r = C_E / C_A (paper 004 Sec. 2.1); dense FFN layers are not expert compute.
  [[nodiscard]] double expert_to_attention() const { return experts / attention; }
};

FlopsBreakdown flops_per_token(const ModelConfig& m, FlopsConvention c, int seq_len);
/// The same from counts already made (score counts a config once for its four conventions).
FlopsBreakdown flops_per_token(const ModelConfig& m, const ParameterCounts& p, FlopsConvention c,
                               int seq_len);

}  // namespace moeplan
