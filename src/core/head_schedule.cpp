#include "moeplan/head_schedule.hpp"

#include <cmath>
#include <limits>

namespace moeplan {

std::expected<HeadChoice, ConstraintViolation> choose_heads(const HolisticLaws& laws,
                                                            double compute,
                                                            const LayerTargets& targets,
                                                            const ArchitectureFamily& family) {
  if (laws.heads.empty()) {
    return std::unexpected(ConstraintViolation{"head schedule", "the laws define no heads"});
  }
  const HeadScheduleEntry& last = laws.heads.back();
  if (compute <= last.compute) {
    // Table 4 lists six scales; between them the nearest in log10(C) applies, and
    // below 1e18 the smallest row (the paper has nothing smaller).
    const HeadScheduleEntry* nearest = &laws.heads.front();
    double best = std::numeric_limits<double>::infinity();
    for (const HeadScheduleEntry& e : laws.heads) {
      const double gap = std::abs(std::log10(compute) - std::log10(e.compute));
      if (gap < best) {
        best = gap;
        nearest = &e;
      }
    }
    return HeadChoice{nearest->heads, false};
  }

  // Above the table: grow N_q in powers of two so that N_q·d_qkv tracks d.
  const HeadExtrapolation& x = laws.head_extrapolation;
  ArchitectureFamily f = family;
  std::expected<FeasibleInterval, ConstraintViolation> last_error =
      std::unexpected(ConstraintViolation{"head extrapolation", "no N_q candidate"});
  HeadChoice choice;
  double best = std::numeric_limits<double>::infinity();
  for (int n_q = x.min_n_q; n_q <= x.max_n_q; n_q *= 2) {
    f.heads = {n_q, std::max(1, n_q / x.q_per_kv), x.d_qkv};
    auto interval = feasible_d_interval(targets, f);
    if (!interval) {
      last_error = interval;
      continue;
    }
    const double gap = std::abs(std::log(double(n_q) * x.d_qkv / interval->median()));
    if (gap < best) {
      best = gap;
      choice = {f.heads, true};
    }
  }
  if (!std::isfinite(best)) {
    return std::unexpected(last_error.error());
  }
  return choice;
}

}  // namespace moeplan
