#include "moeplan/planner/head_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moeplan {

namespace {

// The Table 4 row nearest in log10(C) (the first below the table).
const HeadScheduleEntry& nearest_row(const HolisticLaws& laws, double compute) {
  const HeadScheduleEntry* nearest = &laws.heads.front();
  double best = std::numeric_limits<double>::infinity();
  for (const HeadScheduleEntry& e : laws.heads) {
    const double gap = std::abs(std::log10(compute) - std::log10(e.compute));
    if (gap < best) {
      best = gap;
      nearest = &e;
    }
  }
  return *nearest;
}

}  // namespace

AttentionHeads table4_heads(const HolisticLaws& laws, double compute) { return nearest_row(laws, compute).heads; }

std::optional<HeadWidening> table4_widening(const HolisticLaws& laws, double compute) {
  if (laws.heads.empty()) return std::nullopt;
  const HeadScheduleEntry& row = nearest_row(laws, compute);
  const auto width = [](const AttentionHeads& h) { return h.n_q * h.d_qkv; };
  const HeadScheduleEntry* below = nullptr;  // the row of the largest C under the plan's row
  for (const HeadScheduleEntry& e : laws.heads) {
    if (e.compute < row.compute && (!below || e.compute > below->compute)) below = &e;
  }
  if (!below || width(below->heads) >= width(row.heads)) return std::nullopt;
  return HeadWidening{row, *below};
}

AttentionHeads extrapolated_heads(const HeadExtrapolation& x, double width) {
  // The attention width follows d: N_kv the whole number nearest width / (d_qkv · N_q/N_kv),
  // N_q = (N_q/N_kv) · N_kv. Paper 002 used powers of two in its runs (Sec. 3.4, "due to
  // computational efficiency"), but past its table a doubling halves L where it happens
  // (L = (M − 6 N_a) / (6 S N_q d_qkv), Eq. 11-12), so a sweep would jump at every
  // doubling; steps of one KV head keep N_q within a few per cent of the width the
  // anchored shape asks for, and L, d_m with it (docs/design.md "Past the last Table 4 row").
  const double per_kv = double(x.d_qkv) * x.q_per_kv;
  const double n_kv = std::clamp(std::round(std::max(width, 1.0) / per_kv), 1.0, 1e6);
  const int n_q = std::clamp(static_cast<int>(n_kv) * x.q_per_kv, x.min_n_q, x.max_n_q);
  return {n_q, std::max(1, n_q / x.q_per_kv), x.d_qkv};
}

}  // namespace moeplan
