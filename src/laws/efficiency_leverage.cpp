#include "moeplan/laws/efficiency_leverage.hpp"

#include <cmath>

namespace moeplan {

double EfficiencyLeverageLaw::saturated(double A) const {
  // Eq. 1 (after Clark et al. 2022, with the lower bound of A at 0).
  const double offset = 1.0 / (1.0 / a_start - 1.0 / a_max);
  return 1.0 / (1.0 / (A + offset) + 1.0 / a_max);
}

double EfficiencyLeverageLaw::exponent(double granularity, Flops C) const {
  const double log_g = std::log(granularity) / std::log(log_base_granularity);
  const double log_c = std::log(C.value()) / std::log(log_base_compute);
  const double alpha = a + d * log_c;                      // Eq. 4: α = a + d·log C
  return alpha + gamma * log_g * log_g + beta * log_g;     // Eq. 4 exponent
}

double EfficiencyLeverageLaw::at(double A, double granularity, Flops C) const {
  return std::pow(saturated(A), exponent(granularity, C));
}

double EfficiencyLeverageLaw::optimal_granularity() const {
  // Â < 1, so EL is largest where the exponent is smallest: d/dx(γx² + βx) = 0.
  return std::pow(log_base_granularity, -beta / (2.0 * gamma));
}

double LossCurve::at(Flops C) const {
  return coefficient * std::pow(C.value(), -exponent) + floor;
}

std::optional<Flops> LossCurve::compute_for(double loss) const {
  if (!(loss > floor) || coefficient <= 0 || exponent <= 0) {
    return std::nullopt;
  }
  return Flops(std::pow((loss - floor) / coefficient, -1.0 / exponent));
}

std::optional<double> efficiency_leverage_from_curves(const LossCurve& dense,
                                                      const LossCurve& moe, Flops C_moe) {
  const double target = moe.at(C_moe);  // Algorithm 1 line 6
  const auto C_dense = dense.compute_for(target);
  if (!C_dense) {
    return std::nullopt;  // line 7–8: below the dense loss floor
  }
  return *C_dense / C_moe;  // line 11
}

}  // namespace moeplan
