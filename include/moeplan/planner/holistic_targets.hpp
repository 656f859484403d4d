#pragma once
/// The (M, N_a, N) targets of paper 002 for a compute budget — the one place they are
/// computed, for `suggest` (what to build) and `score` (how far a config is from it).
///
/// Inside the paper's range (C up to the last Table 4 row, 3e20) they are the paper's laws:
/// M_opt from Eq. 2, M/N_a from the Fig. 5b law, N/N_a from the Appendix F.4 schedule.
///
/// Past the last Table 4 row the paper has no heads and its M/N_a law, extrapolated with
/// the heads held, forces the depth to grow like N_a (M − 6N_a = 6·S·N_q·d_qkv·L). moeplan
/// instead holds the *shape* of its own plan at the last row — attention width over hidden
/// size ω = N_q·d_qkv/d, dense-layer fraction λ = L_d/L, aspect ratio ρ = d/L, expert width
/// ε = d_m/d. Eq. 3 then fixes everything else: a cubic in d gives the hidden size, and
/// Eq. 5 the M/N_a that this shape implies, which is bounded (> 6, falling towards 6 as d
/// grows) and starts at the row plan's own. The derivation is in docs/design.md ("Past the
/// last Table 4 row").
#include <expected>
#include <optional>

#include "moeplan/model/architecture.hpp"
#include "moeplan/laws/compute_optimal.hpp"
#include "moeplan/base/errors.hpp"
#include "moeplan/laws/holistic_laws.hpp"
#include "moeplan/planner/layer_solver.hpp"

namespace moeplan {

/// Where a target ratio came from.
enum class RatioSource { law, schedule, shape_extrapolation, ranking, user };
const char* to_string(RatioSource s);

/// The shape held constant past the last Table 4 row, read off the plan at that row.
struct ShapeAnchor {
  double compute = 0;                ///< C of the last Table 4 row (FLOPs)
  double attention_width_ratio = 0;  ///< ω = N_q·d_qkv / d
  double dense_layer_fraction = 0;   ///< λ = L_d / L
  double aspect_ratio = 0;           ///< ρ = d / L
  double expert_width_ratio = 0;     ///< ε = d_m / d
};

/// The self-similar plan at a budget past the anchor.
struct ShapeExtrapolation {
  ShapeAnchor anchor;
  double d = 0;            ///< continuous hidden size solving Eq. 3 for this shape
  double m_over_na = 0;    ///< Eq. 5 for this shape: 6 (κ d + S ω) / (κ d)
  AttentionHeads heads;    ///< N_kv nearest ω·d / (d_qkv·N_q/N_kv) (heads_extrapolation)
};

/// The integer config of the continuous shape, every integer a rounded non-decreasing
/// function of the continuous d: d and d_m to the alignment, L = d/ρ, L_d = λ·L, d_d = γ·d,
/// the shape's heads. As the budget grows none of them falls (docs/design.md "Past the last
/// Table 4 row"); Eq. 3 is met within the rounding (a few per cent at most, checked against
/// the tolerance like any solve).
MoeArchitecture self_similar_architecture(const ShapeExtrapolation& shape,
                                          const ArchitectureFamily& family, int alignment);

struct HolisticTargets {
  ComputeOptimalPoint budget;   ///< C, M_opt, D_opt (Eq. 2)
  double m_over_na = 0;
  RatioSource m_over_na_source = RatioSource::law;
  double n_over_na = 0;
  RatioSource n_over_na_source = RatioSource::schedule;
  LayerTargets targets;         ///< (M_opt, N_a = M_opt / (M/N_a), N = N_a · N/N_a)
  std::optional<ShapeExtrapolation> extrapolation;  ///< set past the last Table 4 row
};

/// User replacements for the two ratios (suggest --m-over-na / --n-over-na).
struct TargetOverrides {
  std::optional<double> m_over_na;
  std::optional<double> n_over_na;
  /// The family's anchor (it depends on the family alone; the Planner computes it once).
  std::optional<ShapeAnchor> anchor;
};

/// The anchor shape read off `at_last_row`, the in-range plan of the family at the last
/// Table 4 row (the Planner makes it once): its ω, d/L, L_d/L and d_m/d, so that the
/// continuous shape passes through that plan and the plans past the row continue it (their
/// M/N_a starts from the plan's own, within the tolerance of the law's).
ShapeAnchor anchor_of(const HolisticLaws& laws, const MoeArchitecture& at_last_row);

/// The continuous self-similar plan at M (FLOPs/token) for the anchor's shape.
ShapeExtrapolation extrapolate_shape(const HolisticLaws& laws, const ArchitectureFamily& family,
                                     const ShapeAnchor& anchor, FlopsPerToken M);

/// Targets at the shape budget C' (M_opt(C') = M: paper 002's laws evaluated there) for
/// `family` (heads are ignored: they are an output past the anchor). Past the last Table 4
/// row the caller passes the family's anchor (the Planner computes it once); without one
/// the targets fail there. Checks M/N_a > 6 and 1 < N/N_a < max_n_over_na(family) (Eq. 5).
std::expected<HolisticTargets, ConstraintViolation> holistic_targets(
    const HolisticLaws& laws, Flops C, const ArchitectureFamily& family,
    const TargetOverrides& overrides = {});

}  // namespace moeplan
