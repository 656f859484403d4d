#include "moeplan/planner/head_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace moeplan {

AttentionHeads table4_heads(const HolisticLaws& laws, double compute) {
  const HeadScheduleEntry* nearest = &laws.heads.front();
  double best = std::numeric_limits<double>::infinity();
  for (const HeadScheduleEntry& e : laws.heads) {
    const double gap = std::abs(std::log10(compute) - std::log10(e.compute));
    if (gap < best) {
      best = gap;
      nearest = &e;
    }
  }
  return nearest->heads;
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
