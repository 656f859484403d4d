#pragma once
/// Attention shape (N_q, N_kv, d_qkv) for a budget: paper 002 Table 4 inside its range,
/// an explicit rule past it (holistic_targets.hpp holds the attention width it tracks).
#include <optional>

#include "moeplan/model/architecture.hpp"
#include "moeplan/laws/holistic_laws.hpp"

namespace moeplan {

/// Table 4 up to its last row: the row nearest in log10(C) between rows, the first row
/// below the table (the paper has nothing smaller). Requires a non-empty schedule.
AttentionHeads table4_heads(const HolisticLaws& laws, double compute);

/// Where table4_heads widens the attention: the row whose heads it takes at `compute` (the
/// nearest in log10 C) and the row before it, when that row's width N_q·d_qkv is narrower.
/// Paper 002 Table 4 widens it at 3e18 (4 -> 8 heads), 3e19 (d_qkv 64 -> 128) and 3e20 (8 -> 16
/// heads); Eq. 3 (Appendix A Eq. 12) then divides the layers by the same factor.
struct HeadWidening {
  HeadScheduleEntry row;    ///< the row whose heads the plan takes
  HeadScheduleEntry below;  ///< the row before it, narrower
};
std::optional<HeadWidening> table4_widening(const HolisticLaws& laws, double compute);

/// Past Table 4: head size x.d_qkv, N_kv the whole number nearest width / (d_qkv·q_per_kv),
/// N_q = q_per_kv·N_kv clamped to [x.min_n_q, x.max_n_q] (one KV head per step, no doublings).
AttentionHeads extrapolated_heads(const HeadExtrapolation& x, double width);

}  // namespace moeplan
