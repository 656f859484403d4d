#pragma once
/// The matrix multiplications of one training micro-batch, layer by layer, derived from a
/// concrete config: what `moeplan bench` times. Row-major C[m×n] = A[m×k]·B[k×n], forward
/// pass only (the backward pass runs the same FLOPs twice over, with transposed operands:
/// paper 002 Eq. 12's 6·N_a = 3 × the forward 2·N_a).
///
/// Token routing is taken as perfectly balanced: the T·K routed rows of a micro-batch of
/// T tokens are split over the N_e experts as evenly as integers allow (⌊T·K/N_e⌋ rows,
/// and one more for the first T·K mod N_e experts), so the FLOP count is exact whatever
/// the remainder.
#include <cstdint>
#include <expected>
#include <string>
#include <vector>

#include "moeplan/model/model_config.hpp"

namespace moeplan {

enum class LayerKind { dense, moe };
const char* to_string(LayerKind k);

/// One GEMM, or a group of GEMMs that share n and k (the routed experts of one layer, run
/// as one grouped GEMM). A group member i multiplies rows[i] × k by k × n.
struct GemmOp {
  std::string name;                 ///< stable key: "attn_q", "expert_gate_up", …
  std::string description;          ///< for people: "[T×d]·[d×N_q·d_h]"
  LayerKind layer = LayerKind::dense;
  std::vector<std::int64_t> rows;   ///< m of each member; one entry for a plain GEMM
  std::int64_t n = 0;
  std::int64_t k = 0;
  bool counted_in_n_active = true;  ///< false for the router (paper 002 excludes it)

  [[nodiscard]] std::int64_t total_rows() const;
  [[nodiscard]] bool grouped() const { return rows.size() > 1; }
  /// 2·k·n per row, summed exactly: Σ_i 2·m_i·n·k (multiply + add).
  [[nodiscard]] double flops() const;
};

/// The GEMMs of one dense layer and one MoE layer, and how many of each the model has.
struct ModelGemms {
  std::int64_t tokens = 0;          ///< T, tokens in the micro-batch
  double routing_skew = 0;          ///< Zipf exponent of the routed rows (0: balanced)
  std::vector<GemmOp> dense_layer;  ///< empty when the model has no dense layer
  std::vector<GemmOp> moe_layer;    ///< empty for a dense model
  int dense_layers = 0;             ///< L_d
  int moe_layers = 0;               ///< L_m
  /// Forward FLOPs of every layer's GEMMs for the micro-batch.
  [[nodiscard]] double flops() const;
  /// The same without the router: equals 2·T·N_a exactly (count_parameters' N_a).
  [[nodiscard]] double flops_counted_in_n_active() const;
};

/// Routed rows per expert: T·K split over N_e as evenly as integers allow.
std::vector<std::int64_t> balanced_expert_rows(std::int64_t tokens, int top_k, int n_experts);

/// Routed rows per expert when routing is skewed: expert i gets a share ∝ 1/(i+1)^skew
/// (Zipf) of the T·K rows, at most T each, in integers summing to T·K; skew 0 is
/// balanced_expert_rows. What imbalance costs shows in `moeplan bench --routing-skew`.
std::vector<std::int64_t> zipf_expert_rows(std::int64_t tokens, int top_k, int n_experts,
                                           double skew);

/// The per-layer GEMMs of `m` for a micro-batch of `tokens` tokens (SwiGLU FFNs: gate and
/// up fused into one [T×d]·[d×2w] GEMM, down [T×w]·[w×d]; an ungated FFN's up [T×d]·[d×w],
/// named *_up; GQA or MLA projections; the
/// router; shared experts fused into one FFN of width n_shared·w_s). Fails on a config
/// that does not validate, on tokens < 1 or a negative skew. The routed experts' rows are
/// balanced, or Zipf-skewed with `routing_skew` > 0.
std::expected<ModelGemms, std::string> model_gemms(const ModelConfig& m, std::int64_t tokens,
                                                   double routing_skew = 0);

}  // namespace moeplan
