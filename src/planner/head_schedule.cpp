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
  // Powers of two, as Table 4's N_q (paper 002 Sec. 4.2.2: hard-coded to powers of 2).
  const double exact = std::log2(std::max(width, 1.0) / x.d_qkv);
  int n_q = 1 << static_cast<int>(std::clamp(std::round(exact), 0.0, 30.0));
  n_q = std::clamp(n_q, x.min_n_q, x.max_n_q);
  return {n_q, std::max(1, n_q / x.q_per_kv), x.d_qkv};
}

}  // namespace moeplan
