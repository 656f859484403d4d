#include "moeplan/laws/holistic_laws.hpp"

#include <cmath>

namespace moeplan {

std::optional<double> MOverNaLaw::at(double C) const {
  const double s = score_share(C);  // attention-score share of M, must lie in (0, 1)
  if (!(s > 0.0 && s < 1.0)) {
    return std::nullopt;
  }
  return 6.0 / (1.0 - s);  // Eq. 5 with 1 − 6N_a/M = s
}

double LogSchedule::at(double C) const {
  if (points.empty()) {
    return 0.0;
  }
  if (C <= points.front().first) {
    return points.front().second;
  }
  if (C >= points.back().first) {
    return points.back().second;
  }
  for (std::size_t i = 1; i < points.size(); ++i) {
    const auto [c1, v1] = points[i];
    if (C <= c1) {
      const auto [c0, v0] = points[i - 1];
      const double t = (std::log10(C) - std::log10(c0)) / (std::log10(c1) - std::log10(c0));
      return v0 + t * (v1 - v0);
    }
  }
  return points.back().second;
}

}  // namespace moeplan
