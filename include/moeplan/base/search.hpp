#pragma once
/// One-dimensional searches the planner and the price share.
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

namespace moeplan {

/// The x in [lo, hi] (lo > 0) where a monotone f(x) meets `goal`: a scan in steps of a
/// quarter decade finds two neighbours that bracket it (f may be undefined at some x, e.g.
/// the laws far below their range, and is skipped there), then log-space bisection to a
/// relative width of 1e-13. `increasing` says which way f goes. nullopt when no bracket
/// exists.
inline std::optional<double> bisect_log(const std::function<std::optional<double>(double)>& f,
                                        double goal, double lo, double hi, bool increasing = true) {
  const auto below = [&](double v) { return increasing ? v < goal : v > goal; };
  std::optional<double> prev_x, prev_f;
  for (double e = std::log10(lo); e <= std::log10(hi) + 1e-9; e += 0.25) {
    const double x = std::pow(10.0, e);
    const auto fx = f(x);
    if (fx && prev_f && !(below(*prev_f) == below(*fx)) ) {
      double a = *prev_x, b = x;
      for (int i = 0; i < 200 && b / a > 1.0 + 1e-13; ++i) {
        const double mid = std::sqrt(a * b);
        const auto fm = f(mid);
        if (!fm) return std::nullopt;
        (below(*fm) ? a : b) = mid;
      }
      return std::sqrt(a * b);
    }
    if (fx) {
      prev_x = x, prev_f = fx;
    } else {
      prev_x.reset(), prev_f.reset();
    }
  }
  return std::nullopt;
}

/// The minimum of a unimodal f on [a, b] by golden-section search, to a bracket of `width`:
/// (x, f(x)) at the bracket's middle.
inline std::pair<double, double> golden_section_min(const std::function<double(double)>& f,
                                                    double a, double b, double width) {
  const double g = (std::sqrt(5.0) - 1) / 2;
  double x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = f(x1), f2 = f(x2);
  for (int i = 0; i < 200 && b - a > width; ++i) {
    if (f1 < f2) {
      b = x2, x2 = x1, f2 = f1, x1 = b - g * (b - a), f1 = f(x1);
    } else {
      a = x1, x1 = x2, f1 = f2, x2 = a + g * (b - a), f2 = f(x2);
    }
  }
  const double x = 0.5 * (a + b);
  return {x, f(x)};
}

}  // namespace moeplan
