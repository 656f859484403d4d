#pragma once
/// Attention shape (N_q, N_kv, d_qkv) for a budget: paper 002 Table 4 inside its range,
/// an explicit rule outside it.
#include <expected>

#include "moeplan/errors.hpp"
#include "moeplan/holistic_laws.hpp"
#include "moeplan/layer_solver.hpp"

namespace moeplan {

struct HeadChoice {
  AttentionHeads heads;
  bool extrapolated = false;  ///< true above the last Table 4 row
};

/// Inside [first row, last row] of Table 4: the row nearest in log10(C). Below the first
/// row: the first row. Above the last row (extrapolation): d_qkv and the GQA ratio of
/// HeadExtrapolation, and N_q the power of two ≥ min_n_q whose N_q·d_qkv is closest (in
/// log) to the median feasible d it leads to — the common hidden ≈ heads × head-size
/// convention — among the N_q whose feasible d interval is non-empty. With the family's
/// heads ignored, `family` supplies S, N_e, K and the shared experts.
std::expected<HeadChoice, ConstraintViolation> choose_heads(const HolisticLaws& laws,
                                                            double compute,
                                                            const LayerTargets& targets,
                                                            const ArchitectureFamily& family);

}  // namespace moeplan
